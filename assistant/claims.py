"""Claims: who says what, in a sentence of an article.

Two kinds of claim are read, with regular expressions and no model:

- **quantities** — "about 200 fighters", "250 to 300 foreign terrorists", "no more than
  200-300", "up to 150", "more than 3,000 civilians", "dozens", "90 per cent": each becomes
  an interval (about 200 → 180–220; up to 150 → 0–150; more than 3,000 → 3,000–∞; a
  bounded range is still the estimate: no more than 200-300 → 200–300) with
  the thing counted ("foreign fighters"), its qualifiers ("foreign", "Syrian"), and the event
  it counts ("left", "remain", "surrender");
- **denials** — "denied", "completely deny", "was wrong", "not true", and a negated
  permission or intention ("foreign fighters are not being allowed to leave"): the denied
  terms, to be set against sentences that assert them.

Each claim carries its speaker, as `speakers.attribute` finds them.

What it does not do: decide which claims disagree (that is `discrepancies`), or understand
clauses beyond these patterns — an unattributed claim is kept with `speaker=None`.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path

from assistant.index import Sentence
from assistant.speakers import attribute
from assistant.text import STOP, stem, terms

# --- quantities ---------------------------------------------------------------------------

_WORD_VALUES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40,
                "fifty": 50, "hundred": 100, "thousand": 1000}
# Magnitude words, read generously: they conflict only with a precise figure well outside them.
_VAGUE = {"dozens": (20, 150), "scores": (40, 300), "hundreds": (150, 2000), "a few hundred": (150, 999),
          "several hundred": (200, 999), "thousands": (1500, 50000), "a handful": (2, 10), "a few": (2, 20)}
_MODS = r"about|approximately|around|some|roughly|nearly|almost|up to|no more than|not more than|at most|more than|over|at least|fewer than|less than|only|just|an estimated|a total of"
_NUM = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|" + "|".join(sorted(list(_VAGUE) + list(_WORD_VALUES), key=len, reverse=True))
QUANTITY = re.compile(
    rf"(?<![\w-])(?:(?P<mod>{_MODS})\s+)?[“\"']?(?P<a>{_NUM})(?:\s*(?:-|–|to)\s*(?P<b>\d{1,3}(?:,\d{3})+|\d+))?(?P<pct>\s*(?:per ?cent|%))?(?![\w-])",
    re.I)
_DURATION = re.compile(r"\s*(?:hours?|days?|weeks?|months?|years?|minutes?|decades?|times|p\.?m|a\.?m)\b", re.I)
_COUNTED_STOP = STOP | {"including", "numbering", "remain", "left", "fled", "surrendered", "refused", "decided",
                        "along", "inside", "still", "said", "says"}
_QUALIFIER_WORDS = {"foreign", "local", "syrian", "iraqi", "kurdish", "arab", "turkish", "russian", "american",
                    "british", "french", "lebanese", "iranian", "western", "european", "domestic", "international"}
# What a figure counts people doing, in claims and in questions (see discrepancies.question_event).
EVENTS = {"remain": r"remain\w*|stay\w*|fight on|fight (?:to|until|till) the (?:end|death|last)|still in|trapped|stuck|holding out|holed up|left behind",
          "left": r"left|leav\w*|fled|flee\w*|withdr\w+|evacuat\w+|exit\w*|depart\w*|quit|pull\w* out|escap\w*",
          "surrender": r"surrender\w*|handed themselves|(?:gave|give|giving|given) (?:themselves )?up",
          "killed": r"kill\w*|died|dead|deaths?",
          "captured": r"captur\w*|recaptur\w*|seiz\w*|retak\w*|control\w*"}
# "are left in Raqqa", "left behind", "still inside the city": those who remain, not those who left.
REMAINING = re.compile(r"\b(?:are|were|is|was|be|been|being)\s+(?:still\s+)?left\b|\bleft behind\b|\bstill (?:in|inside)\b"
                       r"|\bleft (?:in|inside) (?:the )?(?:city|town|village|[A-Z])|\bleaving\b.*\bbehind\b"
                       r"|\bany\s+(?:[\w\-]+\s+){0,3}left\b"  # "are there any civilians left?"
                       r"|\b[Nn]o(?:ne)?\s+(?:[\w\-]+\s+){0,3}?left(?=\s*(?:[,.;:?!]|$)|\s+(?:in|inside|there|behind)\b)")  # "has no
# civilians left, or …?"; not "no civilians left the city"


@dataclass(frozen=True)
class Quantity:
    text: str          # as written, e.g. "about 200"
    low: float
    high: float
    vague: bool        # "dozens", "hundreds": a magnitude, never in conflict with another magnitude
    percent: bool
    point: float = 0.0  # the figure as stated (midpoint of a range), for grouping like with like


@dataclass
class Claim:
    sentence: Sentence
    kind: str                             # "quantity" or "denial"
    value: str                            # "about 200", "denied"
    quantity: Quantity | None = None
    counted: list[str] = field(default_factory=list)     # stems: ["foreign", "fighter"]
    qualifiers: frozenset[str] = frozenset()
    event: str | None = None
    speaker: str | None = None
    denied: frozenset[str] = frozenset()  # for denials: the stems denied
    named_in: Sentence | None = None       # the sentence that names the speaker, when not this one
    includes: str | None = None            # for compositions: others "inside" the figure, or "besides" it
    predicate: str | None = None           # for negations: the stem of the verb negated ("leav")
    refers_to: Sentence | None = None      # the sentence it is read with: whose figure "that figure" means, or
    # that says what this figure includes

    @property
    def head(self) -> str | None:
        return self.counted[-1] if self.counted else None


def parse_quantity(match: re.Match) -> Quantity:
    """The interval a matched figure stands for (see the module docstring)."""
    mod, a, b = (match.group("mod") or "").lower(), match.group("a").lower(), match.group("b")
    percent = bool(match.group("pct"))
    text = re.sub(r"^(?:only|just|a total of)\s+", "", match.group().strip(" “\"'"), flags=re.I)
    first = text.split()[0] if text.split() else ""
    text = text[0].lower() + text[1:] if text[:1].isupper() and not (len(first) > 1 and first.isupper()) else text
    if a in _VAGUE:
        low, high = _VAGUE[a]
        return Quantity(text, low, high, True, percent, (low + high) / 2)
    low = _value(a)
    high = _value(b) if b else low
    point = (low + high) / 2
    if mod in ("about", "approximately", "around", "some", "roughly", "an estimated"):
        low, high = low * 0.9, high * 1.1
    elif mod in ("nearly", "almost"):
        low = low * 0.9
    elif mod in ("up to", "no more than", "not more than", "at most", "fewer than", "less than") and not b:
        low = 0  # "no more than 200-300" gives its range as the estimate, the bound only stresses how few
    elif mod in ("more than", "over", "at least"):
        high = float("inf")
    return Quantity(text, low, high, False, percent, point)


def _value(word: str) -> float:
    word = word.lower().replace(",", "")
    return float(_WORD_VALUES.get(word, word)) if word in _WORD_VALUES or word.replace(".", "").isdigit() else 0.0


# "Raqqa is now empty of civilians": none of them remain, a figure like any other.
EMPTY = re.compile(r"\b(?:is|was|are|were|now|been)\s+(?:now\s+)?empty of\s+(?:the\s+|all\s+)?(?P<what>[A-Za-z][\w’'\-]*)", re.I)


def quantity_claims(sentence: Sentence, speaker: str | None) -> list[Claim]:
    text = sentence.text
    claims = [Claim(sentence, "quantity", "none", Quantity("none", 0, 0, False, False, 0), [stem(m.group("what"))],
                    frozenset(), "remain", speaker) for m in EMPTY.finditer(text)]
    for match in QUANTITY.finditer(text):
        if _not_a_count(text, match):
            continue
        counted = _counted(text, match)
        if not counted and not match.group("pct"):
            counted = _counted_before(text, match)
        quantity = parse_quantity(match)
        claims.append(Claim(sentence, "quantity", quantity.text, quantity, counted,
                            _qualifiers(text, match, counted), _event(text, match), speaker))
    return claims


def _not_a_count(text: str, match: re.Match) -> bool:
    a = match.group("a")
    if _DURATION.match(text, match.end()):
        return True
    if re.fullmatch(r"(19|20)\d\d", a) and not match.group("b"):
        return True  # a year
    if re.search(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s*$",
                 text[:match.start()]):
        return True  # a date
    return a.lower() in ("one",) and not match.group("mod")  # "one group", "one of its members"


def _counted(text: str, match: re.Match) -> list[str]:
    """Stems of the noun phrase right after the figure: "275 Syrian Islamic State fighters had…"."""
    out = []
    for word in re.findall(r"[A-Za-z][\w’'\-]*|[^\sA-Za-z]", text[match.end():match.end() + 80]):
        low = word.lower()
        if (low in ("of", "the") or word in "”\"'") and not out:
            continue
        if not word[0].isalpha() or low in _COUNTED_STOP or _is_event(low) or len(out) >= 5:
            break
        out.append(stem(word))
    return out


def _counted_before(text: str, match: re.Match) -> list[str]:
    """For "they number a total of 275": the nearest plural noun before the figure."""
    before = [w for w in re.findall(r"[A-Za-z][\w’'\-]*", text[:match.start()]) if w.lower() not in STOP]
    nouns = [w for w in before if w.lower().endswith("s") and len(w) > 3]
    return [stem(nouns[-1])] if nouns else []


def _is_event(word: str) -> bool:
    return any(re.fullmatch(pattern, word) for pattern in EVENTS.values())


def _qualifiers(text: str, match: re.Match, counted: list[str]) -> frozenset[str]:
    found = {t for t in counted if t in _QUALIFIER_WORDS}
    if not found and not match.group("pct"):  # "all Syrian IS jihadists - numbering about 200 fighters": look back in the clause
        clause = re.split(r"[;:]|\bbut\b|,\s*(?=[a-z])", text[:match.start()])[-1]
        found = {stem(w) for w in re.findall(r"[A-Za-z]+", clause)} & _QUALIFIER_WORDS
    return frozenset(found)


def _event(text: str, match: re.Match) -> str | None:
    """What the figure counts people doing. "leaving N …"/"left just N …": N remain."""
    before = text[max(0, match.start() - 24):match.start()].lower()
    if re.search(r"\b(leaving|left|leave)\s+(?:just|only|behind)?\s*[“\"']?\s*$", before):
        return "remain"
    clause = re.split(r"[,;]", text[match.end():])[0]
    if REMAINING.search(clause):
        return "remain"
    after = text[match.end():].lower()
    hits = [(m.start(), name) for name, pattern in EVENTS.items() for m in re.finditer(rf"\b(?:{pattern})\b", after)]
    if hits:
        return min(hits)[1]
    if _NUMBERING.search(text[:match.start()]):  # "Those who have surrendered …, and they number a total of 275"
        before = text[:match.start()].lower()
    hits = [(m.start(), name) for name, pattern in EVENTS.items() for m in re.finditer(rf"\b(?:{pattern})\b", before)]
    return max(hits)[1] if hits else None


_NUMBERING = re.compile(r"\bnumber(?:s|ed|ing)?\s+(?:a total of\s+|in total\s+)?$", re.I)  # a count of those named before


# --- denials ------------------------------------------------------------------------------

DENIAL = re.compile(r"\b(?:den(?:y|ied|ies|ying)|was wrong|were wrong|is wrong|not true|untrue|false|rejected|dismissed|refuted)\b", re.I)


@lru_cache(maxsize=65536)  # asked of the same sentences question after question
def says_denial(text: str) -> bool:
    return bool(DENIAL.search(text))


def denial_claims(sentence: Sentence, speaker: str | None) -> list[Claim]:
    """A denial, and the assertion it answers when the sentence reports it too.

    "X denied … after one of its members said 'a portion … have left'" and "an earlier
    comment by another council member that … was wrong" carry both sides in one sentence.
    """
    text = sentence.text
    match = DENIAL.search(text)
    if not match:
        return _negation_claims(sentence, speaker)
    forward = match.group().lower().startswith("den")
    span = text[match.end():] if forward else text[:match.start()]
    span = re.split(r",\s*(?:after|when|but|while)\b", span)[0] if forward else span
    denied = [t for t in terms(_LIGHT_IDIOMS.sub(" ", span)) if t not in _SPEECH]
    if not denied:
        return []
    claims = [Claim(sentence, "denial", "denied", speaker=speaker, denied=frozenset(denied))]
    reported = _REPORTED.search(text)
    if reported:
        who = reported.group("who") or reported.group("who2")
        what = reported.group("what") or reported.group("what2")
        claims.append(Claim(sentence, "assertion", what.strip(" .,\"“”"), speaker=who.strip(), denied=frozenset(terms(what))))
    return claims


# "Foreign fighters are not being allowed to leave", "they will not be permitted to go":
# the subject before the negation and the verb it negates. Only permission, ability and
# intention: a bare "not" ("did not say", "not far from") denies nothing anyone asserted.
NEGATED = re.compile(r"(?:\bnot|\bnever|n't|n’t)\s+(?:be\s+|being\s+|been\s+)?"
                     r"(?:allowed|permitted|let|able|going|expected|willing|planning)\s+to\s+(?P<verb>[a-z]+)", re.I)


def negated_clause_start(text: str, match: re.Match) -> int:
    """Where the clause holding a negation starts: after the last quotation mark, comma or
    speech verb before it ("X said that the sailors are not…" -> "the sailors are not…")."""
    before = text[:match.start()]
    marks = [before.rfind(m) + 1 for m in ('"', "“", ",", ";", ":")]
    speech = [m.end() for m in re.finditer(r"\b(?:said|says|told \w+|added|stated|insisted|warned)\s+(?:that\s+)?", before)]
    return max(marks + speech)


def _negation_claims(sentence: Sentence, speaker: str | None) -> list[Claim]:
    text = sentence.text
    match = NEGATED.search(text)
    if not match:
        return []
    subject = [t for t in terms(text[negated_clause_start(text, match):match.start()]) if t not in _SPEECH]
    verb = stem(match.group("verb"))
    if not subject:
        return []
    return [Claim(sentence, "denial", "denied", speaker=speaker, denied=frozenset(subject + [verb]), predicate=verb)]


_REPORTED = re.compile(r"(?:\bafter|\bwhen)\s+(?P<who>[\w\s’'\-]{3,60}?)\s+(?:had\s+)?said,?\s+[\"“]?(?P<what>[^\"”]+)"
                       r"|\b(?:an? )?(?:earlier )?(?:comment|claim|report|statement) by\s+(?P<who2>[\w\s’'\-]{3,60}?)\s+that\s+(?P<what2>.+?)\s+(?:was|were|is) (?:wrong|untrue|false)", re.I)


# Idioms whose verb and noun say nothing of what is denied: "denied that discussions were taking place"
# denies discussions, not anything taken or any place.
_LIGHT_IDIOMS = re.compile(r"\b(?:tak(?:e|es|ing|en)|took)\s+place\b"
                           r"|,\s*(?:using|referring to|in (?:a )?reference to)\b[^.;\"“”]*\.?\s*$", re.I)  # "…, he told AFP, using the
# Arabic acronym for IS": the writer's gloss on the words, not what they deny
_SPEECH = {"comment", "earlier", "report", "claim", "statement", "council", "member", "another"}
_SPEECH |= {stem(day) for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today",
                                  "yesterday", "tonight", "morning", "afternoon", "evening", "night", "week", "weekend")}  # when, not what

# --- what a figure includes ----------------------------------------------------------------

# "275 fighters left along with their families": the figure counts the fighters, the others
# come besides; "275 including their families", "that figure included both the fighters and
# their family members": the others are inside the figure.
_BESIDES = re.compile(r"\b(?:along with|together with|accompanied by|in addition to|as well as|plus)\b", re.I)
_INSIDE = re.compile(r"\b(?:including|included|includes|include|comprising|comprised|among them)\b", re.I)
_ANAPHOR = re.compile(r"\b(?:that|the|this) (?:figure|number|total|count|tally|toll)\b", re.I)


def refers_back(text: str) -> bool:
    """Does the sentence speak of an earlier sentence's figure ("that figure included…")?"""
    return bool(_ANAPHOR.search(text))


def composition_claims(sentences: list[Sentence], index: int, speaker: str | None,
                       figures: list[Claim] | None = None) -> list[Claim]:
    """What a figure is said to include: a claim of kind "composition" whose `value` is the
    words that say it, verbatim, and whose `quantity` is the figure, stated in the sentence
    or referred to ("that figure") from one of the two sentences before. `figures` are the
    sentence's quantity claims, when the caller has them already."""
    sentence = sentences[index]
    text, out = sentence.text, []
    figures = quantity_claims(sentence, speaker) if figures is None else figures
    anaphor = _ANAPHOR.search(text)
    if not figures and anaphor and _INSIDE.search(text, anaphor.end()):
        earlier = [c for s in reversed(sentences[max(0, index - 2):index]) for c in quantity_claims(s, None)[::-1]]
        if earlier:
            start, end = anaphor.start(), _clause_end(text, _INSIDE.search(text, anaphor.end()).end())
            out.append(_composition(sentence, earlier[0], "inside", text[start:end], speaker))
    for figure in figures:
        start = text.lower().find(figure.value.lower())
        if start < 0:
            continue
        after = start + len(figure.value)
        cue = min((m for m in (_INSIDE.search(text, after), _BESIDES.search(text, after)) if m), key=lambda m: m.start(), default=None)
        if cue and cue.start() - after < 60 and not re.search(r"[;.]", text[after:cue.start()]):
            where = "inside" if _INSIDE.fullmatch(cue.group()) else "besides"
            out.append(_composition(sentence, figure, where, text[start:_clause_end(text, cue.end())], speaker))
    return out


def _clause_end(text: str, at: int) -> int:
    stop = re.search(r"[,;.”\"]|\s(?:but|while|and said|leaving)\b", text[at:])
    return at + stop.start() if stop else len(text)


def _composition(sentence: Sentence, figure: Claim, where: str, words: str, speaker: str | None) -> Claim:
    return Claim(sentence, "composition", words.strip(), figure.quantity, figure.counted, figure.qualifiers,
                 figure.event, speaker, includes=where)


def extract(sentences: list[Sentence], index: int) -> list[Claim]:
    """Every claim in sentence `index` of an article."""
    return extract_said(sentences, index, attribute(sentences, index))


def extract_said(sentences: list[Sentence], index: int, speaker) -> list[Claim]:
    """`extract`, given the sentence's `speakers.attribute` (ingest reads it once for both)."""
    name = speaker.name if speaker else None
    figures = quantity_claims(sentences[index], name)
    claims = figures + denial_claims(sentences[index], name) + composition_claims(sentences, index, name, figures)
    for claim in claims:
        if claim.speaker == name and speaker:
            claim.named_in = speaker.named_in
    return claims


# --- saved at ingest ----------------------------------------------------------------------

# Claims depend on this file's patterns, the speakers' and the terms': ingest saves them with
# the hash of the three, and claims saved by another version are read again instead.
READER = hashlib.sha1(b"".join((Path(__file__).parent / name).read_bytes()
                               for name in ("claims.py", "speakers.py", "text.py"))).hexdigest()[:16]


def to_row(claim: Claim) -> list:
    """A claim as JSON-ready values; its sentence and `named_in` (always of the same article)
    by position. `refers_to` is not saved: it is set per question."""
    q = claim.quantity
    return [claim.kind, claim.value, q and [q.text, q.low, q.high, q.vague, q.percent, q.point], claim.counted,
            sorted(claim.qualifiers), claim.event, claim.speaker, sorted(claim.denied),
            claim.named_in and claim.named_in.index, claim.includes, claim.predicate]


def from_row(row: list, sentences: list[Sentence], index: int) -> Claim:
    """`to_row` undone, for sentence `index` of an article."""
    kind, value, q, counted, qualifiers, event, speaker, denied, named_in, includes, predicate = row
    return Claim(sentences[index], kind, value, q and Quantity(*q), counted, frozenset(qualifiers), event, speaker,
                 frozenset(denied), None if named_in is None else sentences[named_in], includes, predicate)
