"""Speakers: who says a sentence of an article.

Patterns, no model: "X said", "said X", "X told AFP", "according to X", "a statement by
X", "X, head of Y, said", "The army denied", "it added"; within a sentence the earliest
speaker (the main clause's) wins. A pronoun ("he said") or a quotation without a speaker takes the
last person named before it — speaking or just mentioned with a role ("Health ministry
spokesman Omar Haddad visited…") — or, for a quotation that runs on, the speaker after
it. A short name ("Selo") takes its fullest form in the same article ("SDF spokesman
Talal Selo"). A source left unnamed in the lede ("…, a monitor said") is the one the next
sentence names ("…, the Britain-based Syrian Observatory for Human Rights said").

What it does not do: resolve names across articles, or tell people from organisations
(`speaks_for` takes a name with a determiner or an organisation word for a body).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from assistant.corpus import open_quote
from assistant.index import Sentence
from assistant.text import ORG_WORDS

_ROLE = (r"(?:spokes(?:man|woman|person)|head|official|member|leader|commander|chief|minister|monitor|director|"
         r"colonel|general|officer|council|coalition|group|observatory|statement|source|activist|resident|mayor|"
         r"governor|envoy|president|manager|chairman|chairwoman|secretary|analyst|researcher|diplomat|negotiator|"
         r"prosecutor|witness|doctor|lawyer|ambassador|adviser|advisor|representative|inspector|coordinator|"
         r"army|military|ministry|police|government|authorities|agency)")
_NAME_TOKEN = r"(?:[A-Z][\w’'\-]*|of|for|the|al|bin|a|an|" + _ROLE + r")"
_VERBS = r"(?:said|says|told|added|estimated|denied|stated|announced|confirmed|insisted|warned|explained|reported|claimed|described|vowed|urged|accused)"
_BEFORE_VERB = re.compile(rf"\b((?:{_NAME_TOKEN}[\s\-]+){{0,7}}{_NAME_TOKEN})\s+(?:(?:had|has|have|also|later|earlier|on \w+)\s+)*{_VERBS}\b")
# "…," said a statement by the Syrian Democratic Forces: the body whose statement it is, not "a statement"
_AFTER_VERB = re.compile(rf"\b(?:(?:{_VERBS}|(?i:according to))(?:\s+(?:a|an|the|its|their)\s+(?:[a-z]+\s+)?statement\s+(?:by|from))?"
                         rf"|statement by|spokesman for|head of)\s+((?:{_NAME_TOKEN}[\s\-]+){{0,7}}{_NAME_TOKEN})")
_PRONOUN = re.compile(r"^(?:he|she|they|it|we|i)$", re.I)
_PRONOUN_SUBJECT = re.compile(rf"\b(he|she|it|they)\s+(?:(?:had|has|have|also|later|earlier)\s+)*{_VERBS}\b", re.I)


_APPOSITIVE = re.compile(rf"(?:^|[,.!?]?[”\"]\s+)((?:[A-Z][\w’'\-]*\s+){{1,3}}[A-Z][\w’'\-]*),\s+[^\"“”]*?,\s+{_VERBS}\b")


_DET_SUBJECT = re.compile(rf"(?:^|[,;:]\s+|\bbut\s+)((?:[Tt]he|[Aa]n?)\s+(?:[\w’'\-]+\s+){{0,2}}[\w’'\-]+)\s+(?:(?:had|has|have|also|later|earlier|on \w+)\s+)*{_VERBS}\b")
# "…, the US-led coalition backing the offensive on the Syrian city said on Saturday.": a participle phrase between
_PARTICIPLE_SUBJECT = re.compile(rf"[,;]\s+((?:[Tt]he|[Aa]n?)\s+(?:[\w’'\-]+\s+){{0,2}}{_ROLE})\s+\w+ing\b[^,\"“”]{{0,60}}?\s+{_VERBS}\b")
_ROLE_NAME = re.compile(rf"((?:[A-Z][\w’'\-]*\s+){{0,3}}(?:[a-z]+\s+)?{_ROLE}\s+(?:[A-Z][\w’'\-]*\s+){{0,2}}[A-Z][\w’'\-]*)")


_READ: dict[str, tuple[str | None, str | None]] = {}  # text -> (speaker, mention), read at ingest
# Readings saved by another version of this file are not taken: an edited pattern must not be
# overridden by what the old one read (the regexes read those sentences again instead).
READER = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:16]


def read(text: str) -> tuple[str | None, str | None]:
    """What ingest saves of a sentence for this module: its speaker and its mention."""
    return speaker_in(text), mention_in(text)


def learn(readings: dict[str, tuple[str | None, str | None]], reader: str = READER) -> None:
    """Take the readings a lexicon saved, so a question reads no sentence's speaker itself
    (the regexes below over each candidate's whole article were half a 2,000-article
    corpus's ranking time). They are a function of the text alone, so any corpus's are valid,
    as long as this file's `READER` wrote them."""
    if reader == READER:
        _READ.update(readings)


def speaker_in(text: str) -> str | None:
    """The speaker named in one sentence, as written, or a pronoun, or None.

    The earliest speaker wins: in "The army denied …, after a doctor said …" the main
    clause's speaker comes first."""
    known = _READ.get(text)
    return known[0] if known is not None else _speaker_in(text)


@lru_cache(maxsize=65536)
def _speaker_in(text: str) -> str | None:
    found = []
    for pattern in (_APPOSITIVE, _BEFORE_VERB, _DET_SUBJECT, _PARTICIPLE_SUBJECT, _AFTER_VERB, _PRONOUN_SUBJECT):
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


_INDEFINITE = re.compile(r"^(?:a|an)\s+[a-z]", re.I)  # "a monitor", "an official": named later, if at all
LEDE = 3  # sentences (the headline counts) in which a story may name its source only in the next one


@dataclass(frozen=True)
class Speaker:
    """Who says something, in the fullest form the article gives, and the sentence that names them."""

    name: str
    named_in: Sentence


def attribute(sentences: list[Sentence], index: int) -> Speaker | None:
    """Who says sentence `index` of an article (sentences in reading order)."""
    own = speaker_in(sentences[index].text)
    if own and _INDEFINITE.match(own) and index <= LEDE and index + 1 < len(sentences):
        named = speaker_in(sentences[index + 1].text)  # "…, a monitor said": the next paragraph names it
        if named and not _PRONOUN.match(named) and not _INDEFINITE.match(named):
            return _fullest(named, sentences, sentences[index + 1])
    if own and not _PRONOUN.match(own):
        fullest = _fullest(own, sentences, sentences[index])
        introduced = _introduced(sentences[index - 1].text) if index and fullest.name == own and _bare_name(own) else None
        return Speaker(f"{introduced} {own}", fullest.named_in) if introduced else fullest
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


# "But a spokesman for the Kurdish People's Protection Units (YPG) … denied …": a role holder left unnamed
_UNNAMED_ROLE = re.compile(r"\b[Aa]n?\s+(spokes(?:man|woman|person)|official|commander|member|leader)\s+(?:for|of|from)\s+"
                           r"(?:the\s+)?((?:[A-Z][\w’'\-]*\s+){0,4}[A-Z][\w’'\-]*)")
_NAMED_AFTER = re.compile(r"\s*(?:\([^)]*\))?\s*,\s*(?:[A-Z][\w’'\-]*\s+){1,2}[A-Z][\w’'\-]*\s*,")
_BARE_NAME = re.compile(r"(?:[A-Z][a-z’'\-]+\s+){1,2}[A-Z][a-z’'\-]+")


def _bare_name(name: str) -> bool:
    """A person's name alone ("Nuri Mahmoud"): no role, no organisation."""
    return bool(_BARE_NAME.fullmatch(name)) and not any(re.fullmatch(_ROLE, w, re.I) or w.lower() in ORG_WORDS
                                                        for w in name.split())


def _introduced(text: str) -> str | None:
    """The role a sentence gives someone it leaves unnamed, as a title ("Kurdish People's
    Protection Units spokesman"): the next sentence's bare name ("…," Nuri Mahmoud told AFP)
    is, in news style, that role holder's."""
    unnamed = _UNNAMED_ROLE.search(text)
    if not unnamed or _ROLE_NAME.search(text) or _NAMED_AFTER.match(text, unnamed.end()):
        return None  # the sentence names its role holder itself ("A spokesman for the Units, Ana Ruiz, …")
    return f"{unnamed.group(2)} {unnamed.group(1)}"


def speaks_for(person: Speaker, body: str | None) -> bool:
    """Does `person` speak for the organisation `body`, by the role their article gives them?
    "Jihan Sheikh Ahmed, spokeswoman for the SDF's Raqqa campaign" and "SDF spokesman Talal
    Selo" speak for "the Syrian Democratic Forces" (its initials), "coalition spokesman Colonel
    Ryan Dillon" for "the US-led coalition" and "Observatory head Rami Abdel Rahman" for "the
    Syrian Observatory for Human Rights" (the word naming what it is)."""
    words = (body or "").split()
    if not words or words[0].lower() != "the" and not any(w.lower() in ORG_WORDS or w.isupper() and len(w) > 1 for w in words):
        return False  # a person, not a body ("the Dockers Union", "the US-led coalition", "Syrian Democratic Forces")
    before_role = re.match(rf"(.*)\b{_ROLE}\b", person.name, re.I)  # the title before the name, to its last role word
    after_name = re.search(rf"{re.escape(person.name)}\s*,\s+([^,;\"“”]+)", person.named_in.text)
    role = " ".join(m.group(1) for m in (before_role, after_name) if m)
    told = {w.lower() for w in re.findall(r"[\w\-]+?(?=[’']s\b|\b)", role)}
    capitals = [w[0].lower() for w in words if w[0].isupper()]
    initials = {"".join(capitals[i:]) for i in range(len(capitals) - 1)}  # "SOHR" of the Britain-based Syrian Observatory …
    head = re.split(r"\s+(?:for|of)\s+", body)[0].split()[-1].lower().split("-")[-1]  # "observatory" of "… Observatory for Human Rights"
    return bool(initials & told) or head in told


def mention_in(text: str) -> str | None:
    """A person named with a role, speaking or not ("Health ministry spokesman Omar Haddad
    visited…"): the antecedent of a later "he said"."""
    known = _READ.get(text)
    return known[1] if known is not None else _mention_in(text)


@lru_cache(maxsize=65536)
def _mention_in(text: str) -> str | None:
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
