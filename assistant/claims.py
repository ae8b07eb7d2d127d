"""Claims: who says what, in a sentence of an article.

Two kinds of claim are read, with regular expressions and no model:

- **quantities** — "about 200 fighters", "250 to 300 foreign terrorists", "no more than
  200-300", "up to 150", "more than 3,000 civilians", "dozens", "90 per cent": each becomes
  an interval (about 200 → 180–220; up to 150 → 0–150; more than 3,000 → 3,000–∞) with
  the thing counted ("foreign fighters"), its qualifiers ("foreign", "Syrian"), and the event
  it counts ("left", "remain", "surrender");
- **denials** — "denied", "completely deny", "was wrong", "not true": the denied terms, to be
  set against sentences that assert them.

Each claim is attributed to its speaker: "X said", "said X", "X told AFP", "according to
X", "a statement by X", "X estimated"; a pronoun ("he said") takes the last named speaker
of the article's earlier sentences; a short name ("Selo") takes its fullest form in the
article ("SDF spokesman Talal Selo").

What it does not do: decide which claims disagree (that is `discrepancies`), or understand
clauses beyond these patterns — an unattributed claim is kept with `speaker=None`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from assistant.corpus import open_quote
from assistant.index import Sentence
from assistant.text import STOP, stem, terms

# --- quantities ---------------------------------------------------------------------------

_WORD_VALUES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40,
                "fifty": 50, "hundred": 100, "thousand": 1000}
# Magnitude words, read generously: they conflict only with a precise figure well outside them.
_VAGUE = {"dozens": (20, 150), "scores": (40, 300), "hundreds": (150, 2000), "a few hundred": (150, 999),
          "several hundred": (200, 999), "thousands": (1500, 50000), "a handful": (2, 10)}
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
_EVENTS = [("remain", r"remain\w*|stay\w*|fight on|still in|trapped"),
           ("left", r"left|leav\w*|fled|flee\w*|withdr\w+|evacuat\w+|exit\w*|depart\w*|quit|pull\w* out"),
           ("surrender", r"surrender\w*|handed themselves"),
           ("killed", r"killed|died|dead|deaths?"),
           ("captured", r"captured|recaptured|seized|retake|retaken|control")]


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

    @property
    def head(self) -> str | None:
        return self.counted[-1] if self.counted else None


def parse_quantity(match: re.Match) -> Quantity:
    """The interval a matched figure stands for (see the module docstring)."""
    mod, a, b = (match.group("mod") or "").lower(), match.group("a").lower(), match.group("b")
    percent = bool(match.group("pct"))
    text = re.sub(r"^(?:only|just|a total of)\s+", "", match.group().strip(" “\"'"), flags=re.I)
    text = text[0].lower() + text[1:] if text[:1].isupper() and not text[:2].isupper() else text
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
    elif mod in ("up to", "no more than", "not more than", "at most", "fewer than", "less than"):
        low = 0
    elif mod in ("more than", "over", "at least"):
        high = float("inf")
    return Quantity(text, low, high, False, percent, point)


def _value(word: str) -> float:
    word = word.lower().replace(",", "")
    return float(_WORD_VALUES.get(word, word)) if word in _WORD_VALUES or word.replace(".", "").isdigit() else 0.0


def quantity_claims(sentence: Sentence, speaker: str | None) -> list[Claim]:
    text, claims = sentence.text, []
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
    return any(re.fullmatch(pattern, word) for _, pattern in _EVENTS)


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
    from assistant.discrepancies import REMAINING

    clause = re.split(r"[,;]", text[match.end():])[0]
    if REMAINING.search(clause):
        return "remain"
    after = text[match.end():].lower()
    hits = [(m.start(), name) for name, pattern in _EVENTS for m in re.finditer(rf"\b(?:{pattern})\b", after)]
    if hits:
        return min(hits)[1]
    hits = [(m.start(), name) for name, pattern in _EVENTS for m in re.finditer(rf"\b(?:{pattern})\b", before.lower())]
    return max(hits)[1] if hits else None


# --- denials ------------------------------------------------------------------------------

DENIAL = re.compile(r"\b(?:den(?:y|ied|ies|ying)|was wrong|were wrong|is wrong|not true|untrue|false|rejected|dismissed|refuted)\b", re.I)


def denial_claims(sentence: Sentence, speaker: str | None) -> list[Claim]:
    """A denial, and the assertion it answers when the sentence reports it too.

    "X denied … after one of its members said 'a portion … have left'" and "an earlier
    comment by another council member that … was wrong" carry both sides in one sentence.
    """
    text = sentence.text
    match = DENIAL.search(text)
    if not match:
        return []
    forward = match.group().lower().startswith("den")
    span = text[match.end():] if forward else text[:match.start()]
    span = re.split(r",\s*(?:after|when|but|while)\b", span)[0] if forward else span
    denied = [t for t in terms(span) if t not in _SPEECH]
    if not denied:
        return []
    claims = [Claim(sentence, "denial", "denied", speaker=speaker, denied=frozenset(denied))]
    reported = _REPORTED.search(text)
    if reported:
        who = reported.group("who") or reported.group("who2")
        what = reported.group("what") or reported.group("what2")
        claims.append(Claim(sentence, "assertion", "asserted", speaker=who.strip(), denied=frozenset(terms(what))))
    return claims


_REPORTED = re.compile(r"(?:\bafter|\bwhen)\s+(?P<who>[\w\s’'\-]{3,60}?)\s+(?:had\s+)?said,?\s+[\"“]?(?P<what>[^\"”]+)"
                       r"|\b(?:an? )?(?:earlier )?(?:comment|claim|report|statement) by\s+(?P<who2>[\w\s’'\-]{3,60}?)\s+that\s+(?P<what2>.+?)\s+(?:was|were|is) (?:wrong|untrue|false)", re.I)


_SPEECH = {"comment", "earlier", "report", "claim", "statement", "council", "member", "another", "saturday",
           "sunday", "afternoon", "morning"}

# --- speakers -----------------------------------------------------------------------------

_ROLE = (r"(?:spokes(?:man|woman|person)|head|official|member|leader|commander|chief|minister|monitor|director|"
         r"colonel|general|officer|council|coalition|group|observatory|statement|source|activist|resident|mayor|"
         r"governor|envoy|president|manager|chairman|chairwoman|secretary|analyst|researcher|diplomat|negotiator|"
         r"prosecutor|witness|doctor|lawyer|ambassador|adviser|advisor|representative|inspector|coordinator)")
_NAME_TOKEN = r"(?:[A-Z][\w’'\-]*|of|for|the|al|bin|a|an|" + _ROLE + r")"
_VERBS = r"(?:said|says|told|added|estimated|denied|stated|announced|confirmed|insisted|warned|explained|reported|claimed)"
_BEFORE_VERB = re.compile(rf"\b((?:{_NAME_TOKEN}[\s\-]+){{0,7}}{_NAME_TOKEN})\s+(?:(?:had|has|have|also|later|earlier|on \w+)\s+)*{_VERBS}\b")
_AFTER_VERB = re.compile(rf"\b(?:{_VERBS}|(?i:according to)|statement by|spokesman for|head of)\s+((?:{_NAME_TOKEN}[\s\-]+){{0,7}}{_NAME_TOKEN})")
_PRONOUN = re.compile(r"^(?:he|she|they|it|we|i)$", re.I)


_APPOSITIVE = re.compile(rf"^((?:[A-Z][\w’'\-]*\s+){{1,3}}[A-Z][\w’'\-]*),\s+[^\"“”]*?,\s+{_VERBS}\b")


_DET_SUBJECT = re.compile(rf"(?:^|[,;:]\s+|\bbut\s+)((?:[Tt]he|[Aa]n?)\s+(?:[\w’'\-]+\s+){{0,2}}[\w’'\-]+)\s+(?:(?:had|has|have|also|later|earlier|on \w+)\s+)*{_VERBS}\b")
_ROLE_NAME = re.compile(rf"((?:[A-Z][\w’'\-]*\s+){{0,3}}(?:[a-z]+\s+)?{_ROLE}\s+(?:[A-Z][\w’'\-]*\s+){{0,2}}[A-Z][\w’'\-]*)")


@lru_cache(maxsize=65536)
def speaker_in(text: str) -> str | None:
    """The speaker named in one sentence, as written, or a pronoun, or None.

    The earliest speaker wins: in "The army denied …, after a doctor said …" the main
    clause's speaker comes first."""
    found = []
    for pattern in (_APPOSITIVE, _BEFORE_VERB, _DET_SUBJECT, _AFTER_VERB):
        for match in pattern.finditer(text):
            name = _tidy(match.group(1))
            if name:
                found.append((match.start(1) + match.group(1).find(name.split()[0]), name))
                break
    return min(found)[1] if found else None


def _tidy(name: str) -> str | None:
    words = name.split()
    while words and words[0].lower() in {"of", "for", "and", "but", "said", "told"}:
        words = words[1:]
    while words and words[-1].lower() in {"of", "for", "the", "a", "an"}:
        words = words[:-1]
    if not words:
        return None
    if len(words) == 1 and _PRONOUN.match(words[0]):
        return words[0].lower()
    if not any(w[0].isupper() or re.fullmatch(_ROLE, w, re.I) for w in words) or words[0] in ("The", "A") and len(words) == 1:
        return None
    return " ".join(words)


@dataclass(frozen=True)
class Speaker:
    """Who says something, in the fullest form the article gives, and the sentence that names them."""

    name: str
    named_in: Sentence


def attribute(sentences: list[Sentence], index: int) -> Speaker | None:
    """Who says sentence `index` of an article (sentences in reading order)."""
    own = speaker_in(sentences[index].text)
    if own and not _PRONOUN.match(own):
        return _fullest(own, sentences, sentences[index])
    if not own and open_quote(sentences[index].text):  # a quote that runs on: its speaker comes after
        for later in sentences[index + 1:index + 3]:
            found = speaker_in(later.text)
            if found and not _PRONOUN.match(found):
                return _fullest(found, sentences, later)
            if open_quote(later.text):  # the quote closes here
                break
    if own or sentences[index].text.lstrip().startswith(("\"", "“")):
        for earlier in reversed(sentences[max(0, index - 4):index]):
            found = speaker_in(earlier.text) or mention_in(earlier.text)
            if found and not _PRONOUN.match(found):
                return _fullest(found, sentences, earlier)
    return None


@lru_cache(maxsize=65536)
def mention_in(text: str) -> str | None:
    """A person named with a role, speaking or not ("Health ministry spokesman Omar Haddad
    visited…"): the antecedent of a later "he said"."""
    match = _ROLE_NAME.search(text)
    return match.group(1).strip() if match else None





def _fullest(name: str, sentences: list[Sentence], where: Sentence) -> Speaker:
    """"Selo" -> "SDF spokesman Talal Selo" when the article names him so elsewhere."""
    core = re.sub(r"^(?:the|a|an|mr|mrs|ms|dr|col)\.?\s+", "", name, flags=re.I)
    best = Speaker(name, where)
    for sentence in sentences:
        for form in (speaker_in(sentence.text) or "", mention_in(sentence.text) or ""):
            if len(form) > len(best.name) and form.lower().endswith(" " + core.lower()) \
                    and not re.search(r"\b(?:of|for|at|from)(?: the)?$", form[:-len(core)].strip(), re.I):
                best = Speaker(form, sentence)
    return best


def extract(sentences: list[Sentence], index: int) -> list[Claim]:
    """Every claim in sentence `index` of an article."""
    speaker = attribute(sentences, index)
    name = speaker.name if speaker else None
    claims = quantity_claims(sentences[index], name) + denial_claims(sentences[index], name)
    for claim in claims:
        if claim.speaker == name and speaker:
            claim.named_in = speaker.named_in
    return claims


def attribution_note(sentences: list[Sentence], index: int) -> tuple[str, Sentence | None]:
    """The sentence's text, with the speaker's name in brackets after a bare "he said", and
    the sentence that names the speaker (to be cited too), when it is another one."""
    text = sentences[index].text
    match = re.search(r"\b(he|she|they)( said| added| told \w+)([.,]?)$", text.rstrip())
    speaker = attribute(sentences, index) if match else None
    if not speaker:
        return text, None
    noted = f"{text.rstrip()[:match.start()]}{match.group(1)} [{speaker.name}]{match.group(2)}{match.group(3)}"
    return noted, speaker.named_in if speaker.named_in.index != index else None
