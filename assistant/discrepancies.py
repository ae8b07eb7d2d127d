"""Discrepancies: where the evidence for a question gives incompatible accounts.

Given the claims in the evidence that bears on a question, `find`:

1. keeps the quantity claims about what the question asks (same counted thing, and the
   question's qualifiers and event — "foreign", "remain" — when it names them);
2. groups them into sides by value: copies of one figure (a wire story reprinted, the
   same speaker quoted twice) are one side, cited together;
3. reports a discrepancy when two sides' intervals are disjoint (about 200 vs 275; up to
   150 vs 250–300; "hundreds" vs more than 3,000), or when different articles quote one
   speaker with different figures (Selo's "250 to 300" and "no more than 200-300"). A
   figure inside another speaker's range is no conflict, nor are two magnitudes
   ("hundreds", "dozens"), nor spelling variants (handled by `text.stem`);
4. sets each denial ("we completely deny any negotiations", "foreign fighters are not
   being allowed to leave") against the best sentence from another speaker that asserts
   what is denied; a denial of the question's focus (its rarest words: "Was there a deal
   to let people out?") bears even when its sentence shares little else with the question.

`describe` renders one discrepancy as a sentence that attributes and cites both sides.
What it does not do: judge who is right, or compare claims across unrelated questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from assistant.answer import Claim as ClaimOut
from assistant.answer import Discrepancy
from assistant.claims import DENIAL, EMPTY, EVENTS, NEGATED, REMAINING, Claim, negated_clause_start
from assistant.index import Sentence
from assistant.question import ASKS_WHAT_WAS_SAID, ONES_CONSISTENCY, TYPED, Question
from assistant.text import ORG_WORDS, PHRASES, VARIANTS, acronyms, numbers, stem, term_set, terms

_QUESTION_EVENTS = {"left": r"go(?!\s+along)|gone|went|got out|get out"  # question words; in claims "go free" is no departure
                             r"|out of(?!\s+(?:the\s+)?(?:\d|them|those|these|all|every|each|a total|the total|its|their|his|her))"}
# ("civilian numbers out of Raqqa?": those who left; not "how many out of 275", "out of them")
_EVENT_PHRASE = {"left": "who left", "remain": "who remained", "surrender": "who surrendered",
                 "killed": "killed", "captured": "captured", "going": "who left or surrendered", None: ""}
# Leaving and surrendering are one going in a count: the sources tell the same departure each way ("Those who
# have surrendered are only Syrians, and they number a total of 275"; "275 Syrian fighters had withdrawn")
GOING = {"left", "surrender"}
GENERIC_HEADS = {"member", "peopl", "person", "individu", "one", "guy", "men", "man"}  # "how many IS members": any group counted
PEOPLE = GENERIC_HEADS | {"fighter", "civilian"}  # what a people named by where they are from ("Syrians") may be
_NEGATION = re.compile(r"\b(?:not|no|never|deny|denied|denies|wrong|without)\b", re.I)


@dataclass
class Found:
    """A discrepancy before rendering: its topic and its sides (each a list of agreeing claims)."""

    topic: str
    sides: list[list[Claim]]
    answers_kind: bool = False  # each side answers what the question asks by its kind ("where?": a destination)

    def to_model(self, citations: list) -> Discrepancy:
        """The Answer's form, each claim with the marker that cites its sentence."""
        marker = {(c.source, c.start): c.marker for c in citations}
        claims = [ClaimOut(value=c.value, source=c.sentence.source, quote=c.sentence.text, attributed_to=c.speaker,
                           marker=marker.get((c.sentence.source, c.sentence.start))) for side in self.sides for c in side]
        return Discrepancy(topic=self.topic, claims=claims)


def scoped_to_speaker(question: Question, claims: list[Claim], distinctive, speakers=()) -> list[Claim]:
    """When the question names a speaker ("What does Selo say…", "according to the Council"),
    only that speaker's claims; `distinctive(stem)` tells rare words (and any the articles never
    use) from everyday ones, so "Raqqa" in "the Raqqa Civil Council" does not make every question about
    the council, nor "SDF", which most sentences write, single out the "Syrian Democratic
    Forces" statement among all that its spokesmen say ("SOHR", which none writes, does name
    the Syrian Observatory for Human Rights).
    `speakers` are those of the evidence: a named speaker who claims nothing leaves nothing.
    A question comparing speakers ("Does the SDF agree with that?") keeps every speaker; one
    comparing reports of what a speaker said ("Do the two AFP reports agree on the Observatory's
    number?") keeps that speaker's."""
    if question.compares and not ACROSS_REPORTS.search(question.text) or _asks_what_a_figure_includes(question):
        return claims  # what a figure includes is disputed between speakers: every account is wanted
    asked = set(question.terms) | set(question.context_terms)  # "And the foreign ones?" after "what did the coalition say"
    sourced = as_source(question.text) | as_source(question.context)

    own_written = _written_as_names(question.text)  # typed all in lower case, it names by any word, whatever came before
    written = None if own_written is None else own_written | (_written_as_names(question.context) or set())
    capitals = {stem(w) for w in _SPEAKING_ACRONYM.findall(question.text)}  # an acronym the question writes: "SOHR"
    written_short = lambda speaker: {a for a in set(acronyms(speaker or "")) & capitals if distinctive(a)}  # noqa: E731  "SOHR" for the
    # Syrian Observatory for Human Rights
    counted = set(question.target) | _group_qualifiers(question.text)  # "how many Syrian fighters …", "where did the
    # Syrian IS fighters go?": "Syrian" tells which group is meant, not who tells

    def name_words(speaker: str | None) -> list[str]:
        titles = set(_TITLE.findall(speaker or ""))  # "Observatory head Rami …": "headed" names no one
        # what a body is for names it only whole: "the human rights monitor" asks the Observatory for Human
        # Rights, "human shields" does not
        named_as = _WHAT_FOR.sub(lambda m: m[0] if set(terms(m[0])) <= asked else "", speaker or "")
        return [w for w in _NAME_WORD.findall(named_as) if w not in titles and w.lower() not in _DETERMINERS]

    def named(speaker: str | None) -> bool:
        words = name_words(speaker)
        return any(stem(w) in asked and stem(w) not in counted and stem(w) not in PEOPLE  # "people" names no one, not
                   # even the Kurdish People's Protection Units
                   and (distinctive(stem(w)) and _names(w, written) or stem(w) in sourced) for w in words) \
            or bool(written_short(speaker) - counted)  # "SOHR headcount …"

    scoped = [c for c in claims if named(c.speaker)]
    own = set(question.terms) | as_source(question.text)
    inherited = not any(stem(w) in own for c in scoped for w in name_words(c.speaker)) \
        and not any(written_short(c.speaker) for c in scoped)  # named by the question, not the earlier turn
    figures = asks_about_figures(question)
    if scoped and inherited and not any(counts_what_is_asked(question, c) if figures else c.kind != "quantity" for c in scoped):
        return claims  # "And how many foreigners stayed?" after "… according to the council": it gave no such figure
    if scoped and inherited and question.kind == "place":
        return claims  # "Where were they headed?" after what the monitor said: whoever tells where
    if scoped and inherited and not ASKS_WHAT_WAS_SAID.search(question.text):
        return claims  # "So did any of the foreigners get out anyway?", "How many of them were there?" after the
        # coalition's line: what happened, or how many, by any account
    if not scoped and ACROSS_REPORTS.search(question.text):
        given = frozenset(n.replace(",", "") for n in re.findall(r"\d[\d,.]*", question.text))
        tellers = [c.speaker for c in claims if c.kind == "quantity" and c.speaker and given & _figures(c)]
        if tellers:  # "Is the 275 the same in the other articles?": whoever gave 275, as each article reports it
            return [c for c in claims if any(same_speaker(c.speaker, t) for t in tellers)]
    return scoped if scoped or any(named(s) for s in speakers) else claims


# an acronym written as who may be speaking ("SOHR headcount"), not as where someone went or whom they joined
# ("did they surrender to the SDF?", "in SDF hands", "fighting against the YPG")
_SPEAKING_ACRONYM = re.compile(r"(?<!\bto )(?<!\binto )(?<!\bwith )(?<!\bagainst )(?<!\btowards )(?<!\btoward )(?<!\bto the )"
                               r"(?<!\binto the )(?<!\bwith the )(?<!\bagainst the )(?<!\btowards the )(?<!\btoward the )(?<!\bin )"
                               r"\b[A-Z]{3,6}\b(?!\s+(?:hands|custody|territory|lines|control)\b)")


# Reports set side by side, not parties: "the two AFP reports", "both pieces", "the other AFP version", "across the articles"
ACROSS_REPORTS = re.compile(r"\b(?:both|two|other|each|every|all|different)\s+(?:[\w\-]+\s+){0,2}?(?:reports?|articles?|pieces?|"
                            r"versions?|stories|story|outlets?|papers?|write-?ups?)\b|\bacross\s+(?:the\s+)?(?:reports|articles|"
                            r"pieces|outlets|coverage|stories)\b", re.I)


def _group_qualifiers(text: str) -> set[str]:
    """The qualifiers a question sets before a group of people ("Syrian" of "the Syrian IS fighters")."""
    words = re.findall(r"[A-Za-z][\w’'\-]*", text)
    return {stem(w) for i, w in enumerate(words) if stem(w) in QUALIFIERS
            and any(_GROUP_WORD.fullmatch(v) for v in words[i + 1: i + 5])}


_GROUP_WORD = re.compile(r"[a-z][a-z’']+s|people|men|fighter|member|civilian|militant|jihadist")  # a lower-case plural:
# "Syrian miners", "foreign ones"; not "Syrian Democratic Forces", "Syrian Observatory"
_WHAT_FOR = re.compile(r"\s+for(?:\s+(?:the\s+)?[A-Z][\w’'\-]*)+")  # "… for Human Rights", "… for the Protection of"
_DETERMINERS = {"another", "other", "some", "several", "many", "each", "both", "either", "neither", "every", "certain"}
_TITLE = re.compile(r"\b([a-z][\w\-]+)\s+(?=[A-Z])")  # a lower-case word before a name is its title
_NAME_WORD = re.compile(r"\b[A-Z]{3,}\b|[A-Za-z][\w’'\-]{3,}")  # a speaker's words that can name it: "SDF", "Selo"


def _written_as_names(text: str) -> set[str] | None:
    """Stems of the words a question writes capitalised (its first word aside), or None
    when it is typed all in lower case and so tells names from words by nothing. A question
    that capitalises its first word and no other names no one ("Were they human shields?")."""
    words = re.findall(r"[A-Za-z][\w’'\-]*", text)
    capitalised = {stem(w) for i, w in enumerate(words) if w[0].isupper() and i > 0}
    return capitalised if capitalised or words[:1] and words[0][0].isupper() else None


def _names(word: str, written: set[str] | None) -> bool:
    """Does the question's use of a speaker's `word` name that speaker? A capitalised name
    word only when the question capitalises it too ("the Kurdish People's Protection Units"
    is not named by "let people out"), unless the question is all lower case."""
    return word.isupper() or not word[:1].isupper() or written is None or stem(word) in written


# The question asks what someone says: "according to the coalition", "the coalition's line",
# "what did the council say". The named party's words are then speaker words even when common.
_AS_SOURCE = [
    re.compile(r"\baccording to (?:the )?((?:[\w\-]+ ){0,3}[\w\-]+)", re.I),
    re.compile(r"\bper the ((?:[\w\-]+ ){0,2}[\w\-]+)", re.I),  # "… in the last day, per the coalition?"
    re.compile(r"\b(?:the )?([\w\-]+)[’']s? (?:own |stated |official |declared |public )?(?:line|position|view|stance|account|version|estimate|figure|"
               r"claim|statement|take|explanation|response|reaction|answer|count|tally)\b", re.I),
    # "Coalition line on letting them leave?", "SDF position on a deal", "SDF figure for Syrians who left?": a party's
    # stance or count, written without "'s" ("the figure for the fighters" names no one)
    re.compile(r"(?<![’'])\b(?!(?:official|public|hard|front|bottom|party|same|final|new|old|first|last|their|its|his|her|our|my|your|"
               r"this|that|whose|the|a|an|any|each|every|other|another|total|overall|exact|rough|actual|real|true|precise|approximate|"
               r"estimated|combined|higher|lower|bigger|smaller|different|latest|earlier|later|original|death|casualty)\b)"
               r"([\w\-]+) (?:(?:line|position|stance|policy) (?:on|about|over|regarding|towards?)"
               r"|(?:figure|estimate|count|number|tally|version|account) (?:for|of|on))\b", re.I),
    re.compile(r"\b(?:do|does|did|has|have|had|what|how) (?:the )?((?:[\w\-]+ ){0,2}[\w\-]+) (?:say|said|claim|"
               r"report|estimate|state|tell|told|think|put|describe|call|deny|denied|insist|announce|reply|respond)\b", re.I),
    # "coalition say how many surrendered?", "the US coalition, what do they say about …?"
    re.compile(r"^\s*(?:the )?((?:[\w\-]+ ){0,2}[\w\-]+) (?:say|says|said|tell|tells|told|report|reports|reported)"
               r"(?: us)? (?:how|what|who|when|where|why|whether|if)\b", re.I),
    re.compile(r"^\s*(?:the )?((?:[\w\-]+ ){0,2}[\w\-]+)\s*[,:—–-]\s*(?:what|how) (?:do |does |did )?(?:they|it|he|she) "
               r"(?:say|said|claim|report|tell|told|think|describe|put)\b", re.I),
    re.compile(r"\b(?:is|are|was|were) (?:the )?((?:[\w\-]+ ){0,2}[\w\-]+) (?:ok|okay|happy|fine|comfortable|on board|"
               r"opposed|against|in favou?r of|keen|willing|prepared|letting|allowing|permitting|going to (?:let|allow))\b", re.I),
    # "is the coalition ok with …?", "is the coalition letting them leave?": its stance
    ONES_CONSISTENCY,  # "has the coalition been consistent about …?": its own accounts, against each other
]


def as_source(text: str) -> set[str]:
    """Stems of the words the question uses to name whose account it wants."""
    return {t for pattern in _AS_SOURCE for m in pattern.finditer(text or "") for t in terms(m.group(1))}


def find(question: Question, claims: list[Claim], evidence: list[Evidence] | None = None) -> list[Found]:
    """Discrepancies among `claims` that bear on `question`, most important first.

    `evidence` is the ranked evidence as (sentence, speaker, relevance): a denial only
    bears on a question its sentence answers well, is set against an assertion found
    there, and never counts for a question that asks for a figure, a time or a place
    (those get the figures' discrepancies).
    """
    found = _quantity_conflicts(question, claims) if asks_about_figures(question) else []
    found += _composition_conflicts(question, claims)
    if question.kind not in ("number", "time", "place") and not _WHO_DENIED.search(question.text):
        denials = _denials(question, claims, evidence or [])
        if question.kind == "person" and not question.compares:  # "who negotiated the deal?": only a denial of it
            denials = [f for f in denials if denies_first(f.sides[-1][0], set(question.terms) - _EVERYWHERE)]
        found += denials
    return found


def as_quoted(question: Question, found: list[Found], person: str | None) -> list[Found]:
    """ "Do the outlets quote him with the same range?": how the articles quote one `person`
    (a surname's stem, or None); what others say is no part of that, so each discrepancy keeps
    only the sides that report that person's words, and is dropped when fewer than two remain."""
    if person is None or not QUOTING_ONE.search(question.text):
        return found
    theirs = lambda side: [c for c in side if person in terms(c.speaker or "")]  # noqa: E731
    kept = ((f, [s for s in (theirs(side) for side in f.sides) if s]) for f in found)
    return [replace(f, sides=sides) for f, sides in kept if len(sides) >= 2]


QUOTING_ONE = re.compile(r"\bquot\w*\s+(?:him|her)\b|\b(?:his|her)\s+(?:own\s+)?(?:words|quotes?|quotations?)\b", re.I)


def bearing(found: list[Found], ranked: list, question: Question | None = None) -> list[Found]:
    """The discrepancies whose every side is stated by evidence nearly as relevant to the
    question as the best: "about 200 Syrian fighters left" does not bear on "how many
    surrendered in the past 24 hours" just because both count fighters. A quotation's speaker
    is part of what it says: "…," he said counts as relevant as the sentence naming him; and
    "that figure included…" as the sentence that gives the figure. Of the `question`: a
    denial of what it is specifically about (its focus: "any negotiations") bears however
    little else of it its sentence covers, and so does the earlier party's side of a
    comparing follow-up ("does the SDF put their number at the same figure?": the
    Observatory's, whose names are deliberately not ranked for)."""
    focus, earlier = (question.focus, question.earlier_party) if question else ((), set())
    relevance: dict[Sentence, float] = {}
    for item in ranked:
        relevance[item.sentence] = max(item.relevance, relevance.get(item.sentence, 0.0))
    answering = [item.relevance for item in ranked if item.fit > 0] if question is not None and question.kind in TYPED else []
    floor = BEARING * max(answering or relevance.values(), default=0.0)  # of the best that answers, for a typed question:
    # "how many foreigners are still holed up?" is best matched by a sentence with no figure for them

    def stated(c: Claim) -> float:
        return max(relevance.get(s, 0.0) for s in (c.sentence, c.named_in, c.refers_to) if s is not None)

    counts = question is not None and asks_about_figures(question)
    event = question_event(question) if question is not None else None
    others = other_events(question) if question is not None else set()

    # a figure for just what is asked bears if it is relevant at all; asked to set accounts side by side
    # ("is that the figure everyone is giving?"), whatever else of the question its sentence says
    least = 0.0 if question is not None and question.compares else FIGURE_BEARING

    def counted(side: list[Claim]) -> bool:
        return counts and any(c.kind == "quantity" and stated(c) > least and counts_what_is_asked(question, c)
                              and counts_event(c.event, event, others) for c in side)  # its event told, not merely not another

    def bearing_part(f: Found) -> Found | None:
        denial = f.sides[-1][0] if f.sides[-1][0].kind == "denial" else None  # "does anyone contradict him?", and a denial of
        against = denial is not None and question is not None and (question.compares or denies_first(denial, focus))  # what is asked
        near = [f.answers_kind or against or max(stated(c) for c in side) >= floor or counted(side) or side[0].kind == "denial" and _denies_focus(side[0], focus)
                or any(set(terms(c.speaker or "")) & earlier for c in side) for side in f.sides]
        for i, side in enumerate(f.sides):  # one speaker quoted differently: as relevant as the best quote
            near[i] = near[i] or any(near[j] and same_speaker(side[0].speaker, o[0].speaker) and side[0].kind == "quantity"
                                     for j, o in enumerate(f.sides) if j != i)
        if f.sides[-1][0].kind == "denial" and near[-1]:  # a denial stands against the assertions that bear
            sides = [side for side, ok in zip(f.sides[:-1], near) if ok] + [f.sides[-1]]
            return Found(f.topic, sides) if len(sides) >= 2 else None
        if f.sides[0][0].kind == "quantity" and not all(near):  # figures that bear still differ without one that does not
            sides = [side for side, ok in zip(f.sides, near) if ok]
            differ = any(_disjoint(a, b) or _quoted_differently(a, b) for s in sides for o in sides if o is not s for a in s for b in o)
            return Found(f.topic, sides, f.answers_kind) if len(sides) >= 2 and differ else None
        return f if all(near) else None

    return [part for part in map(bearing_part, found) if part is not None]


BEARING = 0.6  # each side's best sentence: at least this share of the best evidence's relevance
FIGURE_BEARING = 0.4  # ... or this relevance, for a figure counting just what the question asks (thing, kind, event)


def asks_about_figures(question: Question) -> bool:
    """ "How many …", "the figure …", and whether any are left: "Are there any civilians left?",
    "Were any civilians still left?", "Is anyone still inside?", "Has Raqqa been emptied of civilians?"."""
    return question.kind == "number" or bool(re.search(
        r"\d|\b(?:figure|estimate|number|toll|count|head ?count|size|how big|how large|tally|range)s?\b|\bempt(?:y|ied)\b|\bclear(?:ed)? of\b"
        r"|\b(?:any|anyone|anybody)\b[^?]{0,40}?\bstill\s+(?:in|inside|there|left|remain\w*|stuck|trapped|holed up)\b"  # "are any civilians
        # still inside?", "any civilians still stuck inside"
        r"|\b(?:are|were|is|was) there (?:still )?any\b|\b(?:are|were|is|was) there\b.*\b(?:left|remain\w*)\b"
        r"|\b(?:are|were|is|was) there still\b|\bany\s+(?:[\w\-]+\s+){0,3}?(?:still\s+)?(?:left|remain\w*)\b"  # "were any civilians still left?"
        r"|\b(?:more|fewer|less)\s+(?:[\w\-]+\s+){0,3}(?:are|were|is|was)\s+(?:still\s+)?(?:left|remain\w*)\b"  # "who says more are left?"
        r"|\b(?:no|none|a few)\s+(?:[\w\-]+\s+){0,3}?(?:(?:are|is|were|was)\s+)?(?:still\s+)?(?:left|remain\w*|there|inside)\b",  # "no
        # civilians left, or a few still there?"
        question.text, re.I))


@dataclass(frozen=True)
class Evidence:
    sentence: Sentence
    speaker: str | None
    relevance: float
    named_in: Sentence | None = None  # the sentence naming the speaker, when not this one


# --- figures --------------------------------------------------------------------------------

def _quantity_conflicts(question: Question, claims: list[Claim]) -> list[Found]:
    relevant = [c for c in claims if c.kind == "quantity" and _about(question, c) and not _FRAGMENT.match(c.sentence.text)]
    found = []
    named = _named_qualifiers(question)
    # civilians flee, they do not surrender: a count of those who surrendered is no count of them
    going = question_event(question) in GOING and "civilian" not in {*question.target, *question.terms}
    for topic_claims in _topics(relevant, by_group=bool(named), going=going, named=named):
        sides = _sides(topic_claims)
        conflicting = [s for s in sides if any(_disjoint(a, b) or _quoted_differently(a, b)
                                               for o in sides if o is not s for a in s for b in o)]
        if len(conflicting) >= 2:
            found.append(Found(_topic_name(topic_claims), conflicting))
    return found


# A sentence opening in lower case is the tail of one a garbled reprint split ("man said, adding they
# numbered about 200 fighters."): what its figure counts, and who gives it, went with the head.
_FRAGMENT = re.compile(r"^\s*[a-z]")


def _about(question: Question, claim: Claim) -> bool:
    if claim.quantity is not None and ASKS_SHARE.search(question.text) and not claim.quantity.percent:
        return False  # "how much of Raqqa have they taken back?" is answered by a share, not by a count of fighters
    return claim.quantity is not None and counts_what_is_asked(question, claim)


ASKS_SHARE = re.compile(r"\bper ?cent|\bshare\b|percentage|proportion|\bhow much of\b|\bwhat (?:part|fraction) of\b", re.I)


def asked_heads(question: Question) -> set[str] | None:
    """The stems a figure must count to be about the question ("fighter" of "how many
    foreign fighters"), or None when any counted thing may be ("how many IS members")."""
    nouns = {t for t in question.target if t not in QUALIFIERS}
    if nouns & GENERIC_HEADS:
        return None
    return nouns or (set(question.terms) | set(question.context_terms))


def counts_what_is_asked(question: Question, claim: Claim) -> bool:
    """Does the quantity claim count what the question asks about (thing, qualifiers, event)?"""
    if claim.quantity is None or not claim.counted:
        return False
    asked = set(question.terms) | set(question.context_terms)
    nouns = [t for t in question.target if t not in QUALIFIERS]
    if nouns and claim.head not in nouns and not set(nouns) & GENERIC_HEADS and not (claim.head in QUALIFIERS and set(nouns) & PEOPLE):
        return False  # "only Syrians, … a total of 275" counts the people asked about, whatever the question calls them
    if not question.target and claim.head not in asked and not _named_qualifiers(question) & set(claim.qualifiers) \
            and not (claim.head in QUALIFIERS and asked & PEOPLE):
        return False  # "the foreigners still in raqqa" are the foreign fighters; "only Syrians" are people
    if question.target and not nouns and not set(question.target) <= set(claim.qualifiers):
        return False  # "how many foreigners": a qualifier standing for the whole phrase
    missing = _named_qualifiers(question) - set(claim.qualifiers)
    if missing == {"local"} and local_as(set(claim.qualifiers)) or claim.qualifiers == {"local"} and "foreign" not in missing:
        missing = set()  # "the local fighters" are the Syrian ones, and "local" ones those of any nationality but foreign
    if missing:
        return False  # the question names a qualifier ("foreign") this claim lacks
    event = question_event(question)
    if event == "surrender" and claim.head == "civilian" and "civilian" not in asked:
        return False  # civilians flee, they do not surrender: those who did are not counted by them
    return event is None or claim.event is None or counts_event(claim.event, event, other_events(question))


def counts_event(told: str | None, asked: str | None, others: set[str]) -> bool:
    """Does a count of those who did `told` count the `asked` event: the same one, another the
    question offers beside it (`others`), or the other half of one going (`GOING`)?"""
    return told == asked or told in others or {told, asked} <= GOING


# "Those that surrendered are local, not foreigners", "Those who have surrendered are only Syrians": who did it
_WHO_DID = re.compile(r"\b(?:those|the ones|the fighters|the members|the men|the people)\s+(?:who\s+|that\s+)?(?:have\s+|had\s+)?"
                      r"(?P<verb>[a-z]+)\s+(?:are|were)\s+(?:all\s+|only\s+|mostly\s+)?(?P<who>[A-Za-z]+)\b", re.I)


def tells_who_did(text: str) -> bool:
    """Does `text` say who did something ("Those that surrendered are local")? `group_told`
    reads only the sentences that do."""
    return bool(_WHO_DID.search(text))


def group_told(sentences: list[Sentence], event: str) -> frozenset[str]:
    """The group an article says did `event`, as qualifier stems ({"local"} of "Those that
    surrendered are local, not foreigners"); empty when it names none, or more than one."""
    told = {stem(m["who"]) for s in sentences for m in _WHO_DID.finditer(s.text)
            if re.fullmatch(EVENTS[event], m["verb"], re.I) and stem(m["who"]) in QUALIFIERS}
    return frozenset(told) if len(told) == 1 else frozenset()


def local_as(qualifiers: set[str]) -> set[str]:
    """What "local" stands for among `qualifiers`: "the local fighters" are those a nationality is
    given for ("Syrian"), as against "foreign" ones."""
    return qualifiers & QUALIFIERS - {"foreign"}


def other_events(question: Question) -> set[str]:
    """The events a question offers besides its first, joined by "or" ("how many left or gave
    themselves up?": surrender, beside left): a count of either answers it."""
    text = question.text.lower()
    if not re.search(r"\bor\b", text) or REMAINING.search(text):
        return set()
    found = set(_events_named(text)) - {"remain"}
    return found - {question_event(question)} if len(found) >= 2 else set()


def _named_qualifiers(question: Question) -> set[str]:
    """The qualifiers of the group a question counts: the follow-up's own win; else those of
    what it counts ("foreign" of "foreign jihadists", not "Syrian" of "the Syrian Observatory");
    else the earlier question's."""
    own = {q for q in question.terms if q in QUALIFIERS} & context_qualifiers(main_clause(question.text))
    return own or ({q for q in question.target if q in QUALIFIERS} if question.target
                   else set(context_qualifiers(question.context)))


@lru_cache(maxsize=1024)
def context_qualifiers(text: str) -> frozenset[str]:
    """The qualifiers of what an earlier question asked about ("foreign" of "the foreign
    jihadists"), not those inside a name ("Syrian" of "the Syrian Observatory", "Syrian
    Democratic Forces"): a qualifier written before another capitalised word, unless that
    word is an acronym ("Syrian IS fighters"), nor one before an organisation's word in any case
    ("the syrian observatory")."""
    words = re.findall(r"[A-Za-z][\w’'\-]*", PHRASES.sub("IS", text or ""))  # "Syrian Islamic State fighters" are Syrian
    named = lambda i: i + 1 < len(words) and (words[i][0].isupper() and words[i + 1][0].isupper() and not words[i + 1].isupper()
                                              or words[i + 1].lower() in ORG_WORDS - {"state", "group"})
    return frozenset(stem(w) for i, w in enumerate(words) if stem(w) in QUALIFIERS and not named(i))


QUALIFIERS = {"foreign", "local", "syrian", "iraqi", "kurdish", "arab", "turkish", "russian", "american",
              "british", "french", "lebanese", "iranian", "western", "european"}


def main_clause(text: str) -> str:
    """`text` without a subordinate clause of time ("Before the convoy pulled out, …", "… once the
    Syrians had gone?"): what the question asks of is in the rest."""
    main = re.sub(r"^(?:before|after|when|while|since|once|as|until)\b[^,]*,\s*", "", text, flags=re.I)
    return re.sub(r",?\s+\b(?:before|after|when|since|once|until)\b.*$", "", main)  # "… after the convoy left"


def question_event(question: Question) -> str | None:
    """The event a question counts: "how many … stayed behind" -> "remain". A leading
    subordinate clause ("Before the convoy pulled out, …") is not the question's event."""
    return _event_of(question.text, question.context, question.answered)


@lru_cache(maxsize=256)  # read for every claim a question weighs: the same three texts each time
def _event_of(*texts: str) -> str | None:
    """The event the first of `texts` to name one names: the follow-up's own first, then the earlier
    question's, then the earlier answer's ("How many of them were there?" after "… said all the
    fighters left" counts those who left)."""
    for asked in texts:
        main = main_clause(asked)
        if REMAINING.search(main) or re.search(r"\bremain|\bstay|\bholding out\b|\bholdouts?\b|\bthere still\b"
                                               r"|\bempt(?:y|ied)\s+of\b|\bclear(?:ed)?\s+of\s+(?:all\s+)?(?:civilians|people|residents)\b"  # "is
                                               # it clear of civilians now?": whether any remain
                                               r"|\b(?:number|count|figure|tally|estimate)s? (?:of|[^?]{0,60}?\b(?:for|on)) (?:[\w\-]+\s+){1,3}(?<!\bwho\s)(?<!\bthat\s)(?<!\bwhich\s)"
                                               r"left(?:\s*[?.!,]|\s*$|\s+(?:seems?|is|was|varies|vary|changes?|differs?|keeps?|looks?)\b)"  # "… of foreign fighters
                                               # left?", "what number did he give for foreign fighters left?", "his count of foreigners left seems to change"
                                               r"|\b(?:(?:are|were|is|was) there|there(?:[’']s| is| are| were| was))\b[^?]*\bleft\b"
                                               r"|\bleft (?:in|inside) (?!(?:the |a |their )?(?:convoy|bus|buses|vehicles?|trucks?|"
                                               r"group|batch)\b)",  # "left in raqqa" remained; "left in the convoy" did not
                                               main, re.I):  # "are there fewer than 200 … left?", "there's only 150 … left"
            return "remain"
        named = _events_named(main)
        if named:
            return named[0]
    return None


def _events_named(text: str) -> list[str]:
    """The events a question's words name, in `EVENTS` order ("how many left or gave themselves
    up?": left, surrender); the question's own words for leaving count ("got out")."""
    lowered = text.lower()
    return [event for event, pattern in EVENTS.items()
            if re.search(rf"\b(?:{pattern}{'|' + _QUESTION_EVENTS[event] if event in _QUESTION_EVENTS else ''})\b", lowered)]


def _topics(claims: list[Claim], by_group: bool = True, going: bool = False,
            named: set[str] = frozenset()) -> list[list[Claim]]:
    """Claims grouped by what they count: (head, qualifiers, event); unknown event joins its kin.
    Not `by_group`, when the question names no group: "how many surrendered?" is answered by the
    coalition's "approximately 100 ISIS terrorists" and the council's "only Syrians, … a total of
    275" alike, so their qualifiers do not part them, and a people named by where they are from
    ("Syrians") is counted with the fighters, members … the other claims count. `going`: the
    question counts a leaving or a surrender, and counts of either are one topic (`GOING`); and
    "local" ones are counted with the group the question `named`, if not foreign."""
    groups: dict[tuple, list[Claim]] = {}
    for c in sorted(claims, key=lambda c: (c.event is None, c.head in QUALIFIERS)):
        qualifiers = c.qualifiers if by_group else frozenset()
        if by_group and qualifiers == {"local"} and named and "foreign" not in named:
            qualifiers = frozenset(named)
        event = "going" if going and c.event in GOING else c.event
        key = (c.head, qualifiers, event)
        if c.event is None:
            key = next((k for k in groups if k[0] == c.head and k[1] == qualifiers), key)
        if not by_group and c.head in QUALIFIERS:
            key = next((k for k in groups if k[2] == event), key)
        groups.setdefault(key, []).append(c)
    return list(groups.values())


def _sides(claims: list[Claim]) -> list[list[Claim]]:
    """Claims grouped by the figure they state: "275", "some 275" and a range around it are one side."""
    sides: list[list[Claim]] = []
    for claim in sorted(claims, key=lambda c: (c.quantity.vague, c.speaker is None)):
        side = next((s for s in sides if _same_value(s[0], claim)), None)
        if side is None and claim.quantity.vague:  # "dozens" beside the same body's "approximately 100" in one article: its round word for it
            side = next((s for s in sides if any(c.sentence.source == claim.sentence.source and same_body(c.speaker, claim.speaker)
                                                 for c in s)), None)
        if side is None:
            sides.append([claim])
        elif claim.sentence not in {c.sentence for c in side}:
            side.append(claim)
    return sides


def _same_value(a: Claim, b: Claim) -> bool:
    qa, qb = a.quantity, b.quantity
    if _disjoint(a, b) or _quoted_differently(a, b):
        return False
    close = abs(qa.point - qb.point) <= 0.1 * max(qa.point, qb.point)
    return close or bool(a.speaker and a.speaker == b.speaker)


def _disjoint(a: Claim, b: Claim) -> bool:
    qa, qb = a.quantity, b.quantity
    if (qa.vague and qb.vague) or qa.percent != qb.percent:
        return False
    return qa.high < qb.low or qb.high < qa.low


def _quoted_differently(a: Claim, b: Claim) -> bool:
    """One speaker given different figures by different articles: Reuters quotes Selo as
    saying "no more than 200-300", another outlet "250 to 300". Overlapping ranges, but
    the articles disagree on what he said."""
    return a.sentence.source != b.sentence.source and same_speaker(a.speaker, b.speaker) \
        and not (a.quantity.vague or b.quantity.vague) and _figures(a) != _figures(b)


def same_speaker(a: str | None, b: str | None) -> bool:
    """The same person or body, however the articles title and spell them: the surname
    decides ("Talal Sello" is "SDF spokesman Talal Selo"; "Mr Abdel Rahman" is "Rami Abdel Rahman")."""
    if a == b:
        return bool(a)
    name = _surname(a or "")
    return name is not None and name == _surname(b or "")


def same_body(a: str | None, b: str | None) -> bool:
    """One body however the articles write it: "The US-led coalition" and "the coalition" end in one word."""
    last = lambda name: stem(name.split()[-1]) if name and name.split() else None  # noqa: E731
    return same_speaker(a, b) or last(a) is not None and last(a) == last(b)


def _surname(speaker: str) -> str | None:
    names = [w for w in re.findall(r"\b[A-Z][\w’'\-]+", speaker) if w not in ("The", "A", "An")]
    return stem(names[-1]) if names else None


def _figures(claim: Claim) -> frozenset[str]:
    """The numbers a figure is written with: "about 200" and "200" agree, "250 to 300" and "200-300" do not."""
    return frozenset(n.replace(",", "") for n in re.findall(r"\d[\d,.]*", claim.quantity.text))


def _topic_name(claims: list[Claim]) -> str:
    first = min(claims, key=lambda c: (c.head in QUALIFIERS, not set(c.qualifiers) <= term_set(c.sentence.text),
                                       len(c.counted)))  # "fighters", not "only Syrians"; a group its sentence names
    noun = _surface_noun(first)
    qualifiers = " ".join(sorted(q.capitalize() if q not in ("foreign", "local") else q for q in first.qualifiers))
    events = {c.event for c in claims if c.event}
    event = "going" if len(events) > 1 and events <= GOING else next((c.event for c in claims if c.event), None)
    return re.sub(r"\s+", " ", f"the number of {qualifiers} {noun} {_EVENT_PHRASE[event]}").strip()


def _surface_noun(claim: Claim) -> str:
    """The counted noun: the common name of a class of variants ("fighters" for jihadists,
    militants, terrorists), else as the article writes it, falling back to the stem."""
    if claim.head in set(VARIANTS.values()) and claim.head.isalpha():
        return claim.head + "s"
    for word in re.findall(r"[A-Za-z]+", claim.sentence.text):
        if stem(word) == claim.head and word.lower().endswith("s"):
            return word.lower()
    return claim.head or "people"


# --- what a figure includes -----------------------------------------------------------------

# "they seem to count the convoy differently - what's the difference?": how a figure is made up is what differs
_COUNT_DIFFERENTLY = re.compile(r"\b(?:count|figure|number|tally|total)\w*\b.*\b(?:differ\w*|disagree\w*|discrepanc\w*|conflict\w*)"
                                r"|\b(?:differ\w*|disagree\w*|discrepanc\w*|conflict\w*)\b.*\b(?:count|figure|number|tally|total)", re.I)
_COMPOSITION_WORDS = {"includ", "famili", "mean", "compris", "consist", "combin", "total", "relat"}


def _asks_what_a_figure_includes(question: Question) -> bool:
    """ "Is that 275 just fighters, or are their relatives counted in it too?": the question
    names a figure of its own and asks what it is made of."""
    own_figure = re.search(r"\d", question.text) or re.search(r"\d", question.answered) and re.search(r"\b(?:that|this|it)\b", question.text)
    return bool(own_figure) and bool(
        set(question.terms) & _COMPOSITION_WORDS or _MADE_OF.search(question.text))


_MADE_OF = re.compile(r"\b(?:counted|count|just|only|along with|as well as|on top of|besides|plus|alone)\b", re.I)


def _composition_conflicts(question: Question, claims: list[Claim]) -> list[Found]:
    """One figure that one side says counts a group alone, others besides ("275 fighters along
    with their families"), and another says includes the others ("that figure included both
    the fighters and their family members")."""
    compositions = [c for c in claims if c.kind == "composition"]
    found = []
    for value in sorted({c.quantity.point for c in compositions}):
        same = [c for c in compositions if c.quantity.point == value]
        sides = [[c for c in same if c.includes == where] for where in ("besides", "inside")]
        if all(sides) and {c.speaker for c in sides[0]} != {c.speaker for c in sides[1]} \
                and _asks_about_composition(question, sides[0][0]):
            found.append(Found(f"what the figure of {value:g} includes", sides))
    return found


def _asks_about_composition(question: Question, claim: Claim) -> bool:
    """The question names the figure, asks what a figure includes, or counts what it counts."""
    figure = f"{claim.quantity.point:g}"
    return figure in numbers(question.text) \
        or (question.compares or _asks_what_a_figure_includes(question)) and figure in numbers(question.answered) \
        or bool(set(question.terms) & _COMPOSITION_WORDS and asks_about_figures(question)) \
        or bool(_COUNT_DIFFERENTLY.search(question.text)) \
        or (question.kind == "number" and counts_what_is_asked(question, claim))


# --- assertions and denials ----------------------------------------------------------------

_ASKS_DENIAL = re.compile(r"\b(?:den(?:y|ied|ies|ial)|disput\w*|contradict\w*|reject\w*)\b", re.I)


def denial_of_answer_asked(question: Question) -> bool:
    """ "did anybody deny that?": a comparing follow-up asking for denials of what the earlier
    answer said (retrieval looks for them; `_denials` sets them against it)."""
    return question.compares and bool(question.answered) and bool(_ASKS_DENIAL.search(question.text))


def _denials(question: Question, claims: list[Claim], evidence: list[Evidence]) -> list[Found]:
    asked = set(question.terms) | set(question.context_terms)
    # "Did the offensive start after the convoy left?" asks when the offensive started; the convoy's leaving only dates it
    dating = set(terms(" ".join(_DATING_CLAUSE.findall(question.text)))) - set(terms(_DATING_CLAUSE.sub(" ", question.text)))
    relevance = {e.sentence: e.relevance for e in evidence}
    found = []
    event = question_event(question)
    party = _PARTY_ASKED.search(question.text)  # "did the YPG agree?": the party asked whether it agrees
    named = set(terms(party["party"])) - _EVERYWHERE if party else set()
    # a party's own words first ("We completely deny any negotiations or deal," Nuri Mahmoud told AFP), before a report
    # of its denial ("a spokesman for the YPG denied …"), which then joins the dispute the quote opened
    denials = sorted((c for c in claims if c.kind == "denial"), key=lambda c: not _QUOTED_DENIAL.search(c.sentence.text))
    if _WHO_TOOK_PART.search(question.text) and not question.compares:
        return []  # "who brokered the deal?", "were tribal leaders in on the talks?": who took part, the talks taken as given
    for denial in denials:
        if event in _EVENT_STEMS and not _EVENT_STEMS[event] & denial.denied:
            continue  # "were those who surrendered locals?" is not about whether foreigners were allowed to leave
        focused = _denies_focus(denial, tuple(f for f in question.focus if f not in dating))  # "any negotiations or deal", asked about
        focused = focused or question.compares and denies_first(denial, set(question.terms) - _EVERYWHERE - dating)  # "didn't they say
        # there was no deal?": what it denies outright; not "IS", which names the group in nearly every question
        focused = focused or question.compares and bool(named & term_set(denial.sentence.text))  # "did the YPG agree?": its denial
        focused = focused or denial_of_answer_asked(question) \
            and denies_first(denial, set(terms(question.answered)) - _EVERYWHERE)  # "did anybody deny that?": what was answered
        if not focused and (relevance.get(denial.sentence, 1.0) < DENIAL_RELEVANCE or not _bears_on(denial, asked - dating)):
            continue
        assertions = _assertions_of(denial, claims, evidence)
        if not assertions:
            continue
        same = next((f for f in found if f.sides[-1][0].sentence.text == denial.sentence.text
                     or f.sides[0][0].sentence == assertions[0].sentence), None)
        if same is None:
            found.append(Found(_denied_topic(denial), [[a] for a in assertions] + [[denial]]))
        elif same.sides[-1][0].sentence.text == denial.sentence.text:  # a syndicated copy: cite it too
            same.sides[-1].append(denial)
            for side, assertion in zip(same.sides[:-1], assertions):
                if assertion.sentence.text == side[0].sentence.text and assertion.sentence != side[0].sentence:
                    side.append(assertion)
    return found


DENIAL_RELEVANCE = 0.35
# A clause that dates what is asked by another event: "… start after the convoy left?", "once the Syrians were out"
_DATING_CLAUSE = re.compile(r"\b(?:after|once|before|since|until|till)\s+(?:the|a|an|their|its|his|her|they|he|she|it)\b[^?.,;:!—–]*", re.I)
# "Who was the YPG spokesman who denied any deal?": asks who made a denial it takes as given, not whether it stands
_WHO_DENIED = re.compile(r"^\s*(?:and\s+)?(?:who|which\s+[\w\-]+|what(?:[’']s| is| was) the name of)\b.*\b(?:den(?:y|ied|ies)|rejected|dismissed)\b", re.I)
_EVERYWHERE = {"is"}
# Who took part in what is asked about: "who brokered the deal?", "who helped mediate …?", "were tribal leaders involved
# in the talks?", "who was the council working alongside …?"
_WHO_TOOK_PART = re.compile(r"^\s*(?:and\s+|so\s+)?(?:(?:who|whom|which\s+[\w\-]+)\b[^?]*?\b(?:broker\w*|mediat\w*|negotiat\w*|"
                            r"arrang\w*|help\w*|involved|took part|take part|in on|work\w* (?:alongside|with))"
                            r"|(?:were|was|are|is)\b[^?]*?\b(?:involved in|in on|part of|taking part in|took part in))\b", re.I)
_PARTY_ASKED = re.compile(r"\b(?:did|does|do|would|will|has|have)\s+(?:the\s+)?(?P<party>[\w\-’' ]{2,40}?)\s+(?:also\s+)?"
                          r"(?:agree|confirm|deny|denied|dispute|back|accept|say|tell|see|concur|corroborate)\w*\b", re.I)
_QUOTED_DENIAL = re.compile(r"[\"“][^\"”]*\b(?:deny|denies|denied)\b[^\"”]*[\"”]", re.I)  # a denial in the speaker's own words
# Events a question asks about by name; those who "left" or "remain" are as often who it is about ("the
# foreign fighters still in Raqqa") as what it asks.
_EVENT_STEMS = {"surrender": {"surrend"}, "killed": {"kill", "die"}, "captured": {"captur"}}


def _denies_focus(denial: Claim, focus: tuple[str, ...]) -> bool:
    """Is what the denial denies ("any negotiations or deal") what the question is
    specifically about?"""
    return bool(denial.denied & set(focus))


def denies_first(denial: Claim, wanted) -> bool:
    """Is one of `wanted` what the denial denies outright: the words just after "deny" ("negotiations
    or deal" of "We completely deny any negotiations or deal for the exit of Daesh"), not merely
    somewhere in what it is read to deny ("taking place", "using the Arabic acronym")?"""
    phrase = denied_phrase(denial)
    if phrase is None:
        return denied_head(denial) in set(wanted)
    return bool(set(terms(phrase)) & denial.denied & set(wanted))


def denied_phrase(denial: Claim) -> str | None:
    """The words just after "deny" ("negotiations or deal" of "We completely deny any negotiations
    or deal for the exit of Daesh"); None for a denial written another way ("… was wrong")."""
    match = DENIAL.search(denial.sentence.text)
    if not match or not match.group().lower().startswith("den"):
        return None
    phrase = _DENIED_PHRASE.match(_DENIED_OPENING.sub("", denial.sentence.text[match.end():]))
    return phrase.group().strip() if phrase else None


_DENIED_OPENING = re.compile(r"^\s*(?:on \w+(?:\s+(?:morning|afternoon|evening|night))?\s+)?(?:that\s+)?(?:there (?:was|were|had been)\s+)?(?:any|all|the|a|an)?\s*", re.I)
_DENIED_PHRASE = re.compile(r"[\w\s\-]+?(?=\s+(?:for|of|to|were|was|is|are|had|have|has|with|in|on|at|that|which|over|about)\b|[,.;:\"”]|$)", re.I)


def _bears_on(denial: Claim, asked: set[str]) -> bool:
    """The question asks about what is denied: its first denied word, or two of them."""
    ordered = [t for t in terms(denial.sentence.text) if t in denial.denied]
    kinds, denied_kinds = asked & QUALIFIERS, denial.denied & QUALIFIERS
    if kinds and denied_kinds and not kinds & denied_kinds:
        return False  # "Did the Syrian fighters leave…?" is not about what foreign fighters may do
    return bool(ordered) and (ordered[0] in asked or len(denial.denied & asked) >= 2)


def _assertions_of(denial: Claim, claims: list[Claim], evidence: list[Evidence]) -> list[Claim]:
    """What the denial answers: the assertion its own sentence reports, else the best evidence
    sentence of each other named speaker (up to `MAX_ASSERTING`) that states the denied thing
    (its first word) plainly."""
    reported = next((c for c in claims if c.kind == "assertion" and c.sentence == denial.sentence), None)
    if reported:
        return [reported]
    wanted = {denied_head(denial), denial.predicate} - {None}  # a negation: its subject and its verb ("foreign", "leave")
    found: list[Claim] = []
    for item in evidence:
        s = item.sentence
        if s == denial.sentence or _NEGATION.search(s.text) or not item.speaker \
                or any(same_speaker(item.speaker, c.speaker) or c.sentence.text == s.text for c in [denial, *found]):
            continue
        if wanted <= set(terms(s.text)):
            found.append(Claim(s, "assertion", "asserted", speaker=item.speaker, denied=frozenset(wanted),
                               predicate=denial.predicate, named_in=item.named_in))
            if len(found) == MAX_ASSERTING:
                break
    return found


MAX_ASSERTING = 2  # speakers whose assertion is set against one denial


def denied_head(denial: Claim) -> str | None:
    """The first word of what a denial denies, as its sentence writes it ("negoti" of "deny any negotiations")."""
    return next((t for t in terms(denial.sentence.text) if t in denial.denied), None)


def _denied_topic(denial: Claim) -> str:
    text = denial.sentence.text
    negated = NEGATED.search(text) if denial.predicate else None
    if negated:  # "foreign fighters (were) not being allowed to leave" -> whether foreign fighters were being allowed to leave
        start = negated_clause_start(text, negated)
        clause = text[start:negated.start()] + negated.group()[negated.group().find(" ") + 1:] \
            + re.split(r"[.,;:\"“”]", text[negated.end():])[0]
        words = re.sub(r"[()]", "", clause).split()[:12]
        if words and (start == 0 or text[start - 1] in "\"“"):  # the sentence's first word, not a name
            words[0] = words[0][0].lower() + words[0][1:] if words[0][1:].islower() else words[0]
        return "whether " + " ".join(words)
    match = DENIAL.search(text)
    if match and match.group().lower().startswith("den"):
        span = text[match.end():]
        span = re.split(r"[.;:\"“”]|,\s*(?:after|but|while|which|as)\b", span)[0]
        span = re.sub(r"^\s*(?:on \w+(?: \w+)?\s+)?", "", span)
        clause = re.match(r"(?:(?:any|the|all)\s+)?(?:[\w\-]+\s+){1,2}(?:were|was|is|are|had|has|have|would|could)\b", span)
        if not re.match(r"that\b", span):  # "deny any negotiations": a thing, not a clause
            span = re.sub(r"^(?:any|the|all|reports? of)\s+", "", span)
            if not clause:  # "denied any discussions were taking place": a clause without its "that"
                span = ("there were " if re.match(r"\w+s\b", span) else "there was ") + span
        span = re.sub(r"^that\s+", "", span)
    else:
        reported = re.search(r"\bthat\s+(.+)$", text[:match.start()] if match else text)
        span = reported.group(1) if reported else ""
    words = span.split()
    return "whether " + " ".join(words[:12]).rstrip(",") if words else "what happened"


# --- rendering ------------------------------------------------------------------------------

def describe(found: Found, cites: dict) -> str:
    """One sentence stating the disagreement, both sides attributed and cited. A side whose
    speaker is named in another sentence ("he said") cites that sentence too."""
    from assistant.answering.extractive import markers

    def who(claims: list[Claim]) -> str:
        lead = max(claims, key=lambda c: len(c.speaker or ""))
        return re.sub(r"^(The|An?)\b", lambda m: m.group(1).lower(), lead.speaker or "one report")

    def refs(side: list[Claim]) -> str:
        named = [c.named_in for c in side if c.named_in and c.named_in not in [c.sentence for c in side]][:1]
        return markers([c.sentence for c in side] + named, cites)

    if found.sides[0][0].kind == "wording":  # one quotation, worded differently (`wordings`)
        first = found.sides[0][0].speaker
        if first and all(same_body(first, side[0].speaker) for side in found.sides):  # "The articles word the US-led
            every = [c for side in found.sides for c in side]  # coalition's quotation differently: “…” [1]; “…” [2]."
            return f"The articles word {who(every)}’s quotation differently: " + "; ".join(
                f"“{side[0].value}” {refs(side)}" for side in found.sides) + "."
        return "The articles word this quotation differently: " + "; ".join(
            f"{who(side)} said “{side[0].value}” {refs(side)}" for side in found.sides) + "."
    speakers = _by_speaker(found.sides)
    if len(speakers) == 1 and len(speakers[0]) > 1:  # every side is one speaker's, quoted differently
        values = "; ".join(f"{_as_written(side[0])} {refs(side)}" for side in speakers[0])
        return f"The articles quote {who([c for side in found.sides for c in side])} differently on {found.topic}: {values}."
    parts = []
    for speaker in speakers:
        if len(speaker) > 1:
            values = " and at ".join(f"{_as_written(side[0])} {refs(side)}" for side in speaker)
            parts.append(f"{who([c for side in speaker for c in side])} is quoted as putting it at {values}")
            continue
        [side] = speaker
        lead = max(side, key=lambda c: len(c.speaker or ""))  # the fullest name any copy gives
        verb = {"quantity": f"put it at {_as_written(lead)}", "denial": "denied it"}.get(lead.kind, "said so")
        words, quoted = _fewest_words(side) if lead.predicate or lead.kind in ("assertion", "denial", "composition") \
            else (None, lead)
        told = _after_own_name(words, lead.speaker) if words else None  # "Bali described them as human shields"
        added = _added(quoted.sentence.text, words) if words and not told else None
        said = f"said “{words}”" + (f", adding “{added}”" if added else "") if words else verb
        parts.append(f"{who(side)} {told or said} {refs(side)}")
    return f"Accounts differ on {found.topic}: " + "; ".join(parts) + "."


def _fewest_words(side: list[Claim]) -> tuple[str | None, Claim]:
    """What one side said in the fewest words any of its sentences says it, and that claim: "275 Syrian
    fighters left along with their family members", not the sentence that also tells how many foreigners
    stayed. A composition says it in its own words (`Claim.value`); other claims, in `_clause_saying`'s."""
    said = [(words, claim) for claim in side if (words := claim.value if claim.kind == "composition" else _clause_saying(claim))]
    return min(said, key=lambda pair: len(pair[0])) if said else (None, side[0])


def _added(text: str, words: str) -> str | None:
    """What a speaker is reported as adding after the words quoted ("…,” Observatory head Rami
    Abdel Rahman said, adding they headed to unknown destinations."), when short: it is part of
    the account."""
    match = _ADDED.search(text)
    added = match and match.group("added").strip()
    return added if added and added not in words and len(added.split()) <= MAX_ADDED else None


_ADDED = re.compile(r",\s+adding(?:\s+that)?\s+(?P<added>[^\"“”;]+?)\s*[.!]?\s*$")
MAX_ADDED = 15  # words


def _as_written(claim: Claim) -> str:
    """A figure as the reader should see it: its value ("about 200"), or, for a claim that
    none remain, the article's own words ("“empty of civilians”")."""
    empty = EMPTY.search(claim.sentence.text) if claim.kind == "quantity" and claim.value == "none" else None
    if empty:
        return f"“{empty.group()[empty.group().lower().find('empty'):]}”"
    counted = _counted_as_written(claim)
    return claim.value + counted if counted else _told_as_written(claim) or claim.value


def _told_as_written(claim: Claim) -> str | None:
    """A figure with no counted noun after it, quoted with what its sentence says they did ("a
    few" -> "“only a few remained”"), so the reader sees a whole claim; None when no word of its
    event follows within four words."""
    text, value = claim.sentence.text, claim.value
    at = text.lower().find(value.lower()) if value and claim.event in EVENTS else -1
    told = re.match(rf"((?:\s+[\w’'\-]+){{0,3}}?\s+(?:{EVENTS[claim.event]}))\b", text[at + len(value):], re.I) if at >= 0 else None
    if told is None:
        return None
    stressed = re.search(r"\b(?:only|just|still)\s+$", text[:at])
    return f"“{stressed.group() if stressed else ''}{text[at:at + len(value)]}{told.group(1)}”"


def _counted_as_written(claim: Claim) -> str:
    """The words after a figure that name what it counts, as its sentence has them ("about 200"
    -> " fighters", "up to 150" -> " foreign jihadists"), so each side reads as a whole figure;
    "" when the sentence does not follow the figure with its counted noun within four words."""
    text, value = claim.sentence.text, claim.value
    at = text.lower().find(value.lower()) if claim.head and value else -1
    if at < 0:
        return ""
    after = re.match(r"[”\"]?((?:\s+[\w’'\-]+){1,4})", text[at + len(value):])
    words = after.group(1).split() if after else []
    end = next((i for i, w in enumerate(words) if stem(w) == claim.head), None)
    return "" if end is None else " " + " ".join(words[: end + 1])


def _by_speaker(sides: list[list[Claim]]) -> list[list[list[Claim]]]:
    """Sides grouped by who is quoted: two sides of a quantity from one speaker stay together."""
    groups: list[list[list[Claim]]] = []
    for side in sides:
        group = next((g for g in groups if side[0].kind == g[0][0].kind == "quantity"
                      and same_speaker(g[0][0].speaker, side[0].speaker)), None)
        if group is None:
            groups.append([side])
        else:
            group.append(side)
    return groups


def _clause_saying(claim: Claim) -> str | None:
    """What one side of a denial said, verbatim, so the reader sees it, not just that the
    sides differ: a negation's clause ("foreign fighters are not being allowed to leave");
    a denial in the speaker's own quoted words ("We completely deny any negotiations…"),
    else None ("denied it"); a reported assertion's reported words; an assertion's clause
    holding the denied subject and verb ("preparations are under way for foreign
    combatants to leave")."""
    text = claim.sentence.text
    negated = NEGATED.search(text) if claim.kind == "denial" and claim.predicate else None
    if negated:
        return text[negated_clause_start(text, negated):negated.end()] + re.split(r"[.,;:\"“”]", text[negated.end():])[0]
    if claim.kind == "denial":  # the speaker's own words of denial, when quoted ("We completely deny any…")
        match = DENIAL.search(text)
        quoted = match and _inside_quotes(text, match.start())
        return re.split(r"[.;:\"“”]|,\s", text[quoted:])[0].strip(" ,") if quoted else None
    if claim.kind == "assertion" and claim.value != "asserted":  # the words its denier's sentence reports
        return _without_speaker(claim.value, claim.speaker)
    wanted = {claim.predicate, _first_term(claim)} - {None}
    for clause in re.split(r",(?!\d)\s*|[;:\"“”()]\s*|\s+(?:and|but|while)\s+(?=[^,;]*\b(?:is|are|was|were|has|have|had|will|would)\b)", text):
        clause = clause.strip(" .")  # "and" starts a clause only when a verb follows ("…and preparations are under way…")
        if len(clause.split()) >= 3 and wanted <= set(terms(clause)):
            return _without_speaker(clause, claim.speaker)
    return None


_SAYS = re.compile(r"\s+(?:said|says|told\s+(?:\w+\s+){0,2}?(?=that\b|\w+\s+(?:is|are|was|were|had|has|have)\b)|"
                   r"stated|claimed|added|reported|insisted)\s+(?:that\s+)?", re.I)


def _without_speaker(clause: str, speaker: str | None) -> str:
    """ "The monitor said negotiations are ongoing" -> "negotiations are ongoing": the
    rendering names the speaker already."""
    said = _SAYS.search(clause)
    if speaker and said and clause[:said.start()].strip().lower().endswith(speaker.lower()) and len(clause[said.end():].split()) >= 3:
        return clause[said.end():]
    return clause


def _after_own_name(words: str, speaker: str | None) -> str | None:
    """What follows the speaker's name when the quoted words open with it and a verb ("Bali
    described the civilians … as human shields" -> "described the civilians … as human
    shields"), so the rendering names the speaker once; else None."""
    named = re.match(r"((?:[A-Z][\w’'\-.]*\s+){1,3})(?=[a-z]+(?:ed|s)\b)", words)
    if not named or not speaker or not set(named.group(1).split()) <= set(speaker.split()):
        return None
    return words[named.end():]


def _inside_quotes(text: str, at: int) -> int:
    """Where the quotation holding position `at` opens (0 when there is none)."""
    opened = max(text.rfind("“", 0, at), text.rfind('"', 0, at) if text[:at].count('"') % 2 else -1)
    return opened + 1 if opened >= 0 and "”" not in text[opened:at] else 0


def _first_term(claim: Claim) -> str | None:
    """The first of the claim's words in its sentence that is not the verb: the subject."""
    return next((t for t in terms(claim.sentence.text) if t in claim.denied and t != claim.predicate), None)
