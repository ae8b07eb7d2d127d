"""Alternatives: when a question offers two outcomes and the sources take different ones.

"Did the Syrian IS fighters give themselves up, or did they simply leave?" offers two events
(surrender, leaving). When one speaker reports the first of that group ("Syrian IS members
had surrendered overnight", a Raqqa official) and another the second ("All Syrian fighters
… left Raqqa", the Observatory), the accounts differ on the very thing asked, and `disputed`
returns that as a `Found` whose sides are each speaker's words.

The events are those `claims.EVENTS` tracks (left, remained, surrendered, killed, captured),
read after folding phrasal verbs ("gave themselves up", "slipped away", "fight on"). A
sentence speaks of the question's subject when it names the subject's qualifiers ("Syrian")
and no other ("foreign"), in itself or in the sentence before it ("The jihadists left…"
after "All Syrian fighters…").

What it does not do: judge which account is right, read negated reports as either outcome
("the foreigners have not handed themselves in"), or set one speaker against itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from assistant.claims import DENIAL, EVENTS, REMAINING, Claim
from assistant.discrepancies import GENERIC_HEADS, PEOPLE as _PEOPLE, QUALIFIERS, Evidence, Found, context_qualifiers, local_as, same_speaker
from assistant.index import Sentence
from assistant.question import Question
from assistant.text import fold_phrasal, stem, terms

_OR = re.compile(r",?\s+\bor\b\s+")
# "What do the foreign holdouts want - a way out or a last stand?": of the holdouts
_WH_AUX = re.compile(r"^\s*(?:so\s+|and\s+|but\s+)?(?:what|which)\s+(?:do|does|did)\s+", re.I)
_AUXILIARY = r"(?:did|do|does|were|was|are|is|have|has|had|will|would)"
_AUX = re.compile(rf"^\s*(?:so\s+|and\s+|but\s+)?(?-i:(?!IS\b)){_AUXILIARY}\b\s*", re.I)  # "IS members surrendered …": the
# group, no auxiliary
_NEGATION = re.compile(r"\b(?:not|no|never|deny|denied|denies|wrong)\b|n[’']t\b", re.I)
_SAID_FIRST = re.compile(r"^[A-Z][\w.’'\- ]{0,60}?\s(?:said|says|told \w+)\s+(?:that\s+)?")
_REFERS_BACK = re.compile(r"^\s*[\"“]?(?:the|they|these|those|their)\b", re.I)  # "The jihadists left…": those just named
_ATTRIBUTION = re.compile(r",\s*(?:[^,\"“”]{0,80}?\s)?(?:said|says|told \w+|reported|added)(?: on \w+| yesterday| today)?\.?\s*$", re.I)
_ACCORDING = re.compile(r"^\s*According to [^,]{1,60},\s*")  # "According to Mr Abdel Rahman, up to 150 …": what he said
_ADDING = re.compile(r"^.*?\b(?:said|says|told \w+),?\s+(?:adding|saying)\s+(?:that\s+)?", re.I)  # "…, he said, adding they headed…"
MAX_SPEAKERS = 2   # speakers quoted for one alternative
WHOLE = 28         # a reported sentence up to this many words is quoted whole, else the clause with the event


class Subject(NamedTuple):
    qualifiers: set[str]  # stems that single the group out ("syrian")
    nouns: set[str]       # the rest of its words ("fighter")


def disputed(question: Question, evidence: list[Evidence], before: Callable[[Sentence], str]) -> list[Found]:
    """The dispute between the question's two alternatives, if different speakers report each;
    `before(sentence)` is the text of the sentence before it in its article ("" for none)."""
    if question.kind in ("time", "number"):  # "when did they leave or surrender?": `timings`; a count: the figures
        return []
    asked, unnamed = outcomes_asked(question)
    if asked is None:
        return []
    subject, events, intended = asked
    if not subject.qualifiers and not subject.nouns:  # "do they want out?": those the earlier turn asked about
        subject = Subject(set(context_qualifiers(question.context)), set())
    sides = [_reports(event, subject, evidence, other, before, intended) for event, other in (events, events[::-1])]
    if not _parties_differ(*sides):
        return []
    said = (lambda e: f"wanted to {_WANTED[e]}") if intended else _EVENT_WORDS.get
    topic = f"whether {_subject_words(question.text)} {said(events[0])} or {said(events[1])}"
    return [Found(topic, [side for alternative in sides for side in alternative], answers_kind=unnamed)]


def outcomes_asked(question: Question) -> tuple[tuple[Subject, tuple[str, str], bool] | None, bool]:
    """The subject, two outcomes and whether it asks what was intended, as `alternatives` reads
    an either-or question; else the intention it asks and its opposite (`one_intention`), or
    whether they surrendered against that they left (`surrendered`); else, for a follow-up setting
    accounts side by side ("does the monitor see it that way?"), what the earlier turn asked or
    was told. And whether an outcome is in no word of the question, so that a report of it
    bears however little else of the question it shares. Read once per question and turn:
    retrieval, the evidence and the dispute all ask it."""
    return _outcomes_asked(question.text, question.context, question.answered, question.compares)


@lru_cache(maxsize=256)
def _outcomes_asked(text: str, context: str, answered: str, compares: bool) -> tuple[tuple[Subject, tuple[str, str], bool] | None, bool]:
    asked = alternatives(text) or one_intention(text)
    if asked is not None:
        return asked, False
    asked = surrendered(text)
    if asked is None and compares:
        asked = one_intention(context) or _intention_told(context, answered) or surrendered(context)
    return asked, asked is not None


def destinations(question: Question, evidence: list[Evidence], before: Callable[[Sentence], str],
                 distinctive: Callable[[str], bool]) -> list[Found]:
    """ "Where were they headed?": one party says the destination is unknown ("heading to unknown
    destinations"), another names it ("would head to the remaining territory in eastern Syria").
    Any group may be meant but one the question does not name ("foreign" when it asks of
    "Syrian"); a rare word of the question ("the convoy") must be in each report or just before it."""
    if not asks_where(question):
        return []
    own = set(question.terms) if not asks_where_they_went(question) else set(terms(question.context))
    subject = Subject(own & QUALIFIERS or set(context_qualifiers(question.context)), own & _GROUPS)
    motion = _motion(question.text)
    rare = {t for t in question.terms if distinctive(t) and t not in motion  # "the fighters who left": no topic word
            and not any(re.fullmatch(pattern, t) for pattern in EVENTS.values())}
    covered = [e for e in evidence if rare <= set(terms(e.sentence.text)) | set(terms(before(e.sentence)))]
    unknown = _reports_matching(_UNKNOWN, None, subject, covered, before, relaxed=True)
    named = _reports_matching(_GONE_TO, _UNKNOWN, subject, covered, before, relaxed=True)
    if not _parties_differ(unknown, named):
        return []
    return [Found("where they were headed", unknown + named, answers_kind=True)]


def descriptions(question: Question, evidence: list[Evidence], distinctive: Callable[[str], bool]) -> list[Found]:
    """ "Were the civilians in the convoy the fighters' families or human shields?": one party
    tells them as the first ("left along with their family members"), another as the second
    ("described the civilians … as human shields"). Each alternative is told by all of its
    distinctive words, and not by a report that has all of the other's too; names ("the SDF or the coalition?"), events
    (`disputed`) and places, times and counts are no descriptions."""
    asked = described(question.text)
    if asked is None or question.kind in ("place", "time", "number") or alternatives(question.text) is not None:
        return []
    # "hostages/human shields": either wording tells it
    first, second = ([{t for t in terms(variant) if distinctive(t)} for variant in words.split("/")] for words in asked)
    every_first, every_second = set().union(*first), set().union(*second)
    first = [told for variant in first if (told := variant - every_second)]  # a wording no article uses tells nothing
    second = [told for variant in second if (told := variant - every_first)]
    whom = set(question.terms) & _PEOPLE  # of whom: a report must speak of them ("the civilians", "the fighters")
    if not first or not second or not whom:
        return []

    def told(words: list[set[str]], other: list[set[str]]) -> Callable[[str], str | None]:
        def quoted(text: str) -> str | None:
            own = set(terms(text))
            if not any(variant <= own for variant in words) or any(variant <= own for variant in other) or not whom & own:
                return None  # tells this one, not the other too
            return _words_telling(text, lambda clause: any(variant <= set(terms(clause)) for variant in words))
        return quoted

    # `told` already asks that a report speak of them
    sides = [_sides(told(words, other), Subject(set(), set()), evidence, lambda s: "", speaks_of=lambda s: True)
             for words, other in ((first, second), (second, first))]
    if not _parties_differ(*sides):
        return []
    return [Found(f"whether they were {asked[0]} or {asked[1]}", [side for alternative in sides for side in alternative],
                  answers_kind=True)]  # each side answers just what is asked


def described(text: str) -> tuple[str, str] | None:
    """The two descriptions an either-or question offers of whom it asks about ("the fighters'
    families", "human shields"), as written; None when it offers none, or a name. The offer
    may be one question of several ("… - families or hostages? how do the sources describe them")."""
    match = next((m for part in re.split(r"(?<=\?)\s+", text.strip())
                  for m in (_DESCRIBED.search(part) or _DESCRIBED_AFTER_NOUN.search(part) or _DESCRIBED_SUBJECT_FIRST.search(part),)
                  if m), None)
    if not match or any(w[:1].isupper() for w in (match["a"] + " " + match["b"]).split()):
        return None
    first = match["a"]
    if " " in first and _PLACED.search(match.string[: match.start("a")]):
        first = first.split(" ", 1)[1]  # "the civilians in the convoy families or …": "convoy" ends where they were
    return first, match["b"]


_PLACED = re.compile(r"\b(?:in|on|with|from|of|at|by|inside|aboard)\s+(?:the\s+|a\s+|an\s+)?$", re.I)


# "were they the fighters' families or hostages?", "who are they — family of fighters or human shield?",
# "were they families of the fighters or hostages?"
_DESCRIBED = re.compile(r"(?:\b(?:were|was|are|is)\s+(?:they|them|these|those|it)|[—–:]|\s-)\s+(?:(?:the|their|a|an)\s+)?"
                        r"(?P<a>[\w’'\-]+(?:\s+[\w’'\-]+){0,3}?)\s*,?\s+or\s+(?:were\s+they\s+|are\s+they\s+|just\s+|simply\s+|"
                        r"really\s+|actually\s+)?(?:(?:the|their|a|an)\s+)?(?P<b>[\w’'\-/]+(?:\s+[\w’'\-/]+){0,2}?)\s*\?*\s*$", re.I)


# "were the civilians in the convoy relatives or human shields?": up to two words before "or"
_DESCRIBED_AFTER_NOUN = re.compile(r"^\s*(?:so\s+|and\s+|but\s+)?(?:were|was|are|is)\s+the\b.*?\s(?P<a>[\w’'\-]+(?:\s+[\w’'\-]+)?)\s*,?\s+or\s+"
                                   r"(?:(?:the|their|a|an)\s+)?(?P<b>[\w’'\-]+(?:\s+[\w’'\-]+)?)\s*\?*\s*$", re.I)


# "the civilians that went in the convoy was the families of isis or human shields?": the subject first, as a
# statement, the question in its tone
_DESCRIBED_SUBJECT_FIRST = re.compile(r"^\s*(?:so\s+|and\s+|but\s+)?(?:the|those|these)\s+[^?]*?\s(?:were|was|are|is)\s+(?:(?:the|their|a|an)\s+)?"
                                      r"(?P<a>[\w’'\-]+(?:\s+[\w’'\-]+){0,3}?)\s*,?\s+or\s+(?:(?:the|their|a|an)\s+)?"
                                      r"(?P<b>[\w’'\-]+(?:\s+[\w’'\-]+){0,2}?)\s*\?*\s*$", re.I)


def timings(question: Question, evidence: list[Evidence], before: Callable[[Sentence], str]) -> list[Found]:
    """ "Over what time did the Syrian fighters leave?": one party says over five days ("left Raqqa
    over the past five days"), another within a day ("had surrendered overnight", "within the past
    24 hours"). Leaving and surrendering are one going here: the sources tell the same departure
    each way. Every party's report with a span is a side, if the spans are not all of one length."""
    if not asks_timing(question.text):
        return []
    own = set(question.terms) or set(terms(question.context))
    subject = Subject(own & QUALIFIERS or set(context_qualifiers(question.context)), own & _GROUPS)

    def told(text: str) -> str | None:
        folded = fold_phrasal(text)
        going = [event for event in ("left", "surrender") if _has(event, folded) and not _negated(event, text)]
        if not _SPAN.search(text) or not going:
            return None
        return _words_telling(text, lambda clause: bool(_SPAN.search(clause)))

    if not subject.qualifiers:  # "did the IS guys trickle out?": the group the best account of it names
        first = next((e.sentence.text for e in sorted(evidence, key=lambda e: -e.relevance) if told(e.sentence.text)), "")
        subject = Subject(set(context_qualifiers(first)), subject.nouns)
    sides = _sides(told, subject, evidence, before, relaxed=True, most=MAX_TIMINGS)
    if len({_within_a_day(side[0].value) for side in sides}) < 2:
        return []
    return [Found("the time over which they left", sides, answers_kind=True)]


def asks_timing(text: str) -> bool:
    """ "When did they leave?", "over what time frame?", "overnight, or over several days?" — of a going."""
    going = event_in(text)
    offers = _SPAN.search(text) and _OR.search(text)  # "overnight, or over several days?"; not "how many in the last day?"
    return bool(going and going[0] in ("left", "surrender") and (_ASKS_TIME.search(text) or offers)
                and not re.search(r"\bhow (?:many|much)\b", text, re.I))


@lru_cache(maxsize=65536)  # asked of the same sentences question after question
def tells_timing(text: str) -> bool:
    """Does `text` tell over what time someone left or surrendered?"""
    folded = fold_phrasal(text)
    return bool(_SPAN.search(text) and (_has("left", folded) or _has("surrender", folded)))


def _within_a_day(words: str) -> bool:
    span = _SPAN.search(words)
    if span is None:
        return False
    count = (span.group("count") or span.group("count2") or "one").lower()
    unit = (span.group("unit") or ("day" if span.group("count2") else "night")).lower()
    days = {"hour": 1 / 24, "night": 0.5, "day": 1, "week": 7, "month": 30}[unit.rstrip("s")]
    number = _NUMBER_WORDS.get(count) or (float(count) if count.isdigit() else 2)  # "several days": more than one
    return number * days <= 1


# "When" asks a time where a question or clause opens with it ("and when did they go?", "do we know
# when …", "— when?"), not as a conjunction after its own clause ("did they take their families when they left?")
_ASKS_TIME = re.compile(r"(?:^|[,;:(—–?]|\s-|\b(?:and|or|but|so|ok|okay|exactly|roughly|know|knows|say|says|said|tell|tells|"
                        r"told|report|reports|reported|specify|specified|mention|mentioned|clear|sure|idea|about|on|as to|"
                        r"asked|explain|state|stated|happen|happened))\s*when\b"
                        r"|\btime ?frame\b|\bhow (?:long|quickly|fast)\b|\bover what\b|\bat once\b|\bsudden\w*\b|\btrickl\w+",
                        re.I)
_SPAN = re.compile(r"\b(?:over|in|during|within|across)\s+(?:the\s+)?(?:past|last|previous|preceding)\s+(?:(?P<count>\d+|a|one|two|three|"
                   r"four|five|six|seven|eight|nine|ten|few|several|couple of)\s+)?(?P<unit>hours?|days?|nights?|weeks?|months?)\b"
                   r"|\b(?:over|in)\s+(?P<count2>several|a few|\d+|two|three|four|five|six|seven)\s+days\b"
                   r"|\bovernight\b|\blast night\b", re.I)
_NUMBER_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "few": 3, "several": 3, "couple of": 2}
MAX_TIMINGS = 4  # parties quoted on how long it took


def releases(question: Question, evidence: list[Evidence], before: Callable[[Sentence], str]) -> list[Found]:
    """ "Were the human shields freed?": one party tells the captives as let go or out of the
    place they were held in ("had evacuated to areas controlled by the SDF", "Raqqa is now empty
    of civilians who had been taken as human shields"), another that their captors kept them
    ("had refused to release them"). Only of civilians, hostages and human shields, named in the
    report or just before it ("Bali described the civilians … as human shields. The jihadists
    had refused to release them")."""
    if not asks_release(question):
        return []

    def speaks_of(sentence: Sentence) -> bool:
        return bool(_CAPTIVES.search(sentence.text) or _REFERS_BACK.match(sentence.text) and _CAPTIVES.search(before(sentence)))

    # "had refused to release them" is kept by its negation: no negation check on this side
    kept = _sides(_telling(_KEPT), Subject(set(), set()), evidence, before, speaks_of=speaks_of)
    freed = _sides(_telling(_FREED, _KEPT), Subject(set(), set()), evidence, before, speaks_of=speaks_of)
    if not _parties_differ(freed, kept):
        return []
    return [Found("whether they were freed", freed + kept, answers_kind=True)]


def asks_release(question: Question) -> bool:
    """ "Were the civilians set free?", "did IS let the human shields go?"; or "were they let go?"
    after a turn about them."""
    return bool(_RELEASE.search(question.text)
                and (_CAPTIVES.search(question.text) or _CAPTIVES.search(question.context or "")))


@lru_cache(maxsize=65536)  # asked of the same sentences question after question
def tells_release(text: str) -> bool:
    """Does `text` tell captives as freed or kept?"""
    return bool(_CAPTIVES.search(text) and _FREED.search(text)) or bool(_KEPT.search(text))


_RELEASE = re.compile(r"\b(?:free|freed|frees|freeing|releas\w*|liberat\w*|let (?:\w+ ){0,3}?go|set (?:\w+ ){0,2}?free)\b", re.I)
_CAPTIVES = re.compile(r"\b(?:civilians?|human shields?|hostages?|captives?|prisoners?|shields)\b", re.I)
# "had refused to release them", "did not free the hostages", "were still holding them"
_KEPT = re.compile(r"\b(?:refus\w*|declin\w*|would not|wouldn[’']t|did not|didn[’']t|had not|hadn[’']t|have not|haven[’']t|never)\s+"
                   r"(?:to\s+)?(?:\w+\s+){0,2}?(?:releas\w*|free|freed|let (?:\w+ ){0,3}?go)\b"
                   r"|\b(?:still|kept)\s+(?:holding|held|keeping|kept)\s+(?:them|the\s+\w+|civilians|hostages)\b", re.I)
# "were released", "had evacuated to areas controlled by the SDF", "Raqqa is now empty of civilians who …"
_FREED = re.compile(r"\b(?:freed|released|set free|let go|liberated|rescued)\b|\bevacuated to\b"
                    r"|\b(?:empty|emptied|cleared) of (?:all )?(?:the )?(?:civilians|hostages|human shields)\b", re.I)


def asks_where(question: Question) -> bool:
    """Asks where someone went: itself, or as a follow-up asking "where" of an earlier question
    that did ("does anyone say where exactly?" after "where did they go?")."""
    return asks_destination(question.text) or bool(re.search(r"\bwhere\b", question.text, re.I)
                                                     and question.context and asks_destination(question.context))


def asks_destination(text: str) -> bool:
    """ "Where did they go?", "where's the convoy headed?" """
    return bool(_WHERE_TO.search(text) and re.search(r"\bwhere\b", text, re.I)
                or re.search(r"\bdestinations?\b|\bwhereabouts\b", text, re.I))


def asks_where_they_went(question: Question) -> bool:
    """ "Where did they go?" after a turn about someone: it asks where, and names nobody itself."""
    return bool(question.context) and asks_destination(question.text) and not set(question.terms) - _motion(question.text)


def _motion(text: str) -> set[str]:
    """The terms of the question's words of going ("go", "headed"): no subject of their own."""
    return set(terms(" ".join(_WHERE_TO.findall(text))))


@lru_cache(maxsize=65536)
def tells_destination(text: str) -> bool:
    """Does `text` say where someone headed, into whose hands they gave themselves, or that it is unknown?"""
    return bool(_GONE_TO.search(text) or _UNKNOWN.search(text))


# "had surrendered overnight to the US-backed Syrian Democratic Forces": into whose hands they went
_HANDED = re.compile(r"\b(?:surrender\w*|(?:handed|gave|giving|give|turned) themselves (?:over |in |up )?)\s*(?:\w+\s+){0,2}?"
                     r"to\s+(?:the\s+)?(?:[\w\-]+\s+){0,4}?[A-Z][\w\-]+")
_WHERE_TO = re.compile(r"\b(?:head\w*|go|going|went|gone|destination\w*|bound|end(?:ed)? up|taken|mov\w+|travel\w*)\b", re.I)
_UNKNOWN = re.compile(r"\bunknown (?:destinations?|locations?|places?)\b|\b(?:destinations?|whereabouts) (?:is|are|was|were|remains?"
                      r"|remained) (?:unknown|unclear)\b|\b(?:not|no one|nobody) (?:\w+ )?know\w* where\b|\bunclear where\b", re.I)
_HEADED = re.compile(r"\b(?:(?:head\w*|go|going|went|gone|bound|mov\w+|travel\w*)\s+(?:\w+\s+){0,2}?|(?:transferr?\w*|taken|sent)\s+)"
                     r"(?:to|towards?|for|into)\s+(?:the\s+)?(?:[\w\-]+\s+){0,4}?(?:[A-Z][\w\-]+|territory|areas?|province|region)\b")
_GONE_TO = re.compile(f"{_HEADED.pattern}|{_HANDED.pattern}")


_EVENT_WORDS = {"left": "left", "remain": "stayed", "surrender": "surrendered", "killed": "were killed",
                "captured": "were captured"}
_WANTED = {"left": "leave", "remain": "stay", "surrender": "surrender", "killed": "kill", "captured": "capture"}
# What a report of an intention says: "asking to leave", "decided to stay and fight", "refused the deal".
_INTENT = re.compile(r"\b(?:ask\w*|want\w*|decid\w*|refus\w*|plan\w*|seek\w*|sought|hop\w*|wish\w*|demand\w*|bargain\w*|negotiat\w*|"
                     r"insist\w*|chose|chosen|choos\w*|determin\w*|vow\w*|intend\w*|try\w*|tri(?:ed|es))\b", re.I)


def alternatives(text: str) -> tuple[Subject, tuple[str, str], bool] | None:
    """The subject, (first event, second event) and whether it asks what was intended ("do
    they want to leave or fight on?"), of an either-or question; None when it offers no two
    different events."""
    parts = _OR.split(_WH_AUX.sub("", text.strip().rstrip("?")), maxsplit=1)
    if len(parts) != 2:
        return None
    first, second = event_in(parts[0], last=True), event_in(parts[1])  # "the jihadists still in Raqqa want out": the verb
    if not first or not second or first[0] == second[0]:
        return None
    before = fold_phrasal(_AUX.sub("", parts[0]))[: first[1]]
    intended = bool(re.search(r"\bto\s*$|" + _INTENT.pattern + r"\s*[-–—:,]?\s*(?:a|an|the)?\s*$", before, re.I)) \
        or bool(_INTENT.search(fold_phrasal(parts[1])[: second[1]]))  # "… want to leave or …", "… want - a way out or …"
    words = [t for t in terms(_PLACE_AFTER.sub("", _without_intent(before))) if t != "is" and t not in _MANNER]
    return Subject({t for t in words if t in QUALIFIERS}, {t for t in words if t not in QUALIFIERS}), (first[0], second[0]), intended


def one_intention(text: str) -> tuple[Subject, tuple[str, str], bool] | None:
    """The subject and (intended event, its opposite) of a question about one intention: "are
    the foreign fighters asking to leave?" (leave, not stay), "the foreigners turned down the
    deal?" (stay, not leave). Whoever reports the opposite intention disputes it."""
    folded = fold_phrasal(_AUX.sub("", text or ""))
    refused = _REFUSED.search(folded)
    if refused:
        return _subject_of(folded[: refused.start()]), ("remain", "left"), True
    for intent in _INTENT.finditer(folded):
        told = event_in(folded[intent.end(): intent.end() + 25])
        if told and told[0] in _OPPOSITE:
            return _subject_of(folded[: intent.start()]), (told[0], _OPPOSITE[told[0]]), True
    return None


def surrendered(text: str) -> tuple[Subject, tuple[str, str], bool] | None:
    """The subject of a question whether they surrendered ("Did the Syrian IS members give
    themselves up?", "is it true that they surrendered to the SDF?"), with (surrender, left):
    whoever says they left (for unknown destinations, for the group's own territory) tells
    another story. Not the other way round: those who surrendered left too. Not of those
    who surrendered ("were any who surrendered foreigners?"): that asks who they were."""
    asked = _SURRENDERED.match(fold_phrasal(text or ""))
    if asked is None or re.search(r"\b(?:who|that|which|whom|any|anyone|anybody|some|how|where|when|why)\b", asked["subject"], re.I):
        return None
    return _subject_of(asked["subject"]), ("surrender", "left"), False


# "did the Syrian IS members surrender", "is it true that they surrendered": the question's own verb
_SURRENDERED = re.compile(r"^\s*(?:so\s+|and\s+|but\s+)?(?:(?:did|do|does|have|has|had)\s+|(?:is|was)\s+it\s+(?:really\s+)?(?:true|correct|right)\s+that\s+)"
                          r"(?P<subject>(?:[\w\-’']+\s+){1,6}?)(?:(?:actually|really|all|just|in fact)\s+)?(?:surrender\w*)\b", re.I)


def _intention_told(context: str, answered: str) -> tuple[Subject, tuple[str, str], bool] | None:
    """ "does the SDF tell the same story?" after "what do the foreign fighters want?" (`context`)
    was answered "they are asking to leave in one group" (`answered`): the intention the earlier
    answer told, of the group the earlier question asked about."""
    told = one_intention(answered) if _INTENT.search(fold_phrasal(context)) else None
    if told is None:  # asked what they wanted ("what do the foreign fighters want?"), not what was negotiated
        return None
    subject, events, intended = told  # of whom: the group the earlier question named, if it named one
    asked = Subject(set(context_qualifiers(context)), set(terms(context)) & _PEOPLE)
    return Subject(asked.qualifiers or subject.qualifiers, asked.nouns or subject.nouns), events, intended


def _subject_of(words: str) -> Subject:
    words = _PLACE_AFTER.sub("", re.sub(r"^.*\b(?:says?|said|that)\s+", "", words, flags=re.I))
    found = [t for t in terms(words) if t != "is"]
    return Subject({t for t in found if t in QUALIFIERS}, {t for t in found if t not in QUALIFIERS})


# Where they were, after who they are: "IS members in Raqqa" are IS members
_PLACE_AFTER = re.compile(r"\s+(?:in|inside|at|within)\s+(?:the\s+)?(?:city\s+of\s+)?[\w\-]+\s*$", re.I)
# A subject the question took up again: "the syrian jihadis - did they …" are the syrian jihadis
_TAKEN_UP = re.compile(rf"[\s\-–—:,?.!]*\b{_AUXILIARY}\s+(?:they|he|she|it)\s*$", re.I)
_CLAUSE_BEFORE = re.compile(rf"^.*[,;:]\s*{_AUXILIARY}\s+", re.I)  # "After the deal, are the civilians …": who, not when
_OPENER = re.compile(r"^(?:so|and|but|ok|okay|well|right)\b[\s,]*", re.I)  # "So the Syrian IS guys - did …"
_TRUE_THAT = re.compile(r"^\s*it\s+(?:really\s+)?(?:true|correct|right|the case|so)\s+that\s+", re.I)
_OPPOSITE = {"left": "remain", "remain": "left"}
_REFUSED = re.compile(r"\b(?:refus\w*|reject\w*|turn\w* down|(?:said|say|says) no to)\s+(?:the\s+|a\s+|an\s+)?(?:deal|offer|agreement|evacuation)\b", re.I)


_MANNER = {stem(w) for w in ("simply", "merely", "actually", "really", "just", "only", "instead", "rather")}  # how, not who


def _without_intent(words: str) -> str:
    """ "the jihadists want to" -> "the jihadists", "they still bargaining for" -> "they": the subject
    without the verb of intention."""
    return re.sub(rf"\s*(?:still\s+)?{_INTENT.pattern}(?:\s+to)?(?:\s+{_INTENT.pattern})?(?:\s+(?:to|for))?[\s\-–—:,]*$", "", words, flags=re.I)


def tells_either(asked: tuple[Subject, tuple[str, str], bool], text: str) -> bool:
    """Does `text` tell one of the outcomes an either-or question offers (`asked`, as
    `alternatives` read it), of its subject's kind; as meant, when it asks what was intended?"""
    subject, events, intended = asked
    folded = fold_phrasal(text)
    return any(_has(event, folded) and (not intended or _meant(event, text)) for event in events) \
        and _names_no_other(subject, text)  # asked what they wanted: an outcome told as meant ("decided to stay")


def event_in(text: str, last: bool = False) -> tuple[str, int] | None:
    """The first (or `last`) tracked event in `text` (phrasal verbs folded) and where it starts
    in the folded text."""
    folded = fold_phrasal(_AUX.sub("", text))
    found = [(m.start(), "remain") for m in REMAINING.finditer(folded)]
    found += [(m.start(), event) for event, pattern in EVENTS.items() for m in re.finditer(rf"\b(?:{pattern})\b", folded, re.I)
              if not any(start <= m.start() < start + 12 for start, kind in found if kind == "remain")]  # "left" of "are left"
    if not found:
        return None
    at, event = max(found) if last else min(found)
    return event, at


def _reports(event: str, subject: Subject, evidence: list[Evidence], other: str, before,
             intended: bool = False) -> list[list[Claim]]:
    """Each speaker's best report (with its reprints) that the subject did `event`, not `other`;
    when `intended`, that they meant to ("asking to leave"), not merely that it happened."""
    def told(text: str) -> str | None:
        if _negated(event, text) or intended and not _meant(event, text):
            return None
        return _reported(event, text, other)
    return _sides(told, subject, evidence, before)


def _meant(event: str, text: str) -> bool:
    """Does `text` report the event as meant ("are asking to leave", "decided to stay")?"""
    folded = fold_phrasal(text)
    return any(_INTENT.search(folded[max(0, m.start() - 30):m.start()])
               for m in re.finditer(rf"\b(?:{EVENTS[event]})\b", folded, re.I))


def _reports_matching(pattern: re.Pattern, unless: re.Pattern | None, subject: Subject, evidence, before,
                      relaxed: bool = False) -> list[list[Claim]]:
    """Each speaker's best report that matches `pattern` (and not `unless`), not negated."""
    return _sides(_telling(pattern, unless, negated=False), subject, evidence, before, relaxed)


def _telling(pattern: re.Pattern, unless: re.Pattern | None = None, negated: bool = True) -> Callable[[str], str | None]:
    """What a text reports that matches `pattern`, as `_words_telling` quotes it; None when it
    matches `unless` too, or, not `negated`, when a negation comes just before the match."""
    def told(text: str) -> str | None:
        match = pattern.search(text)
        if not match or (unless and unless.search(text)) \
                or not negated and _NEGATION.search(text[max(0, match.start() - 40):match.start()]):
            return None
        return _words_telling(text, lambda clause: bool(pattern.search(clause)))
    return told


def _sides(told: Callable[[str], str | None], subject: Subject, evidence: list[Evidence], before,
           relaxed: bool = False, most: int = MAX_SPEAKERS,
           speaks_of: Callable[[Sentence], bool] | None = None) -> list[list[Claim]]:
    """Up to `most` parties' best reports, as `told(text)` reads them (None: no report),
    each with its reprints. `relaxed`: a report may name the subject's group in the sentence before
    ("The convoy would head to …" after "Those who have surrendered are only Syrians"), if that
    names no other group. `speaks_of(sentence)`, when given, says instead whether a report is
    about whom the question asks."""
    about = speaks_of or (lambda s: _mentions(subject, s, before(s)) if relaxed else _about(subject, s, before(s)))
    claims = []
    for item in sorted(evidence, key=lambda e: -e.relevance):
        said = told(item.sentence.text) if item.speaker else None
        if said is not None and about(item.sentence):
            claims.append(Claim(item.sentence, "assertion", said, speaker=item.speaker, named_in=item.named_in))
    return _by_party(claims, most)


def _reported(event: str, text: str, other: str) -> str | None:
    """What `text` reports of `event`, as `_words_telling` quotes it; None when it reports no
    `event`, or also the `other` alternative."""
    folded = fold_phrasal(text)
    if not _has(event, folded) or _has(other, folded):
        return None
    return _words_telling(text, lambda clause: _has(event, fold_phrasal(clause)))


def _words_telling(text: str, tells: Callable[[str], bool]) -> str | None:
    """The words of `text` to quote for what it reports: the sentence without its closing
    attribution when short, else its clause for which `tells` holds."""
    plain = _ACCORDING.sub("", _ATTRIBUTION.sub("", text)).strip(" \"“”.")
    rest = _SAID_FIRST.sub("", plain)  # "A Raqqa official told AFP Syrian IS members had surrendered": what was told
    plain = rest if len(rest.split()) >= 4 else plain
    if len(plain.split()) <= WHOLE and not re.search(r"[\"“”]", plain):
        return plain
    for clause in re.split(r"[\"“”;]|,\s+(?=\w+\s+\w+\s+(?:said|told))", text):
        clause = _ADDING.sub("", _SAID_FIRST.sub("", clause.strip(" ,.")))
        clause = re.sub(r",?\s+(?:leaving|adding|saying|while|as)\s*$", "", clause)
        if tells(clause) and len(clause.split()) >= 4:
            return clause
    return None


def _negated(event: str, text: str) -> bool:
    """Is the event denied or negated anywhere it is told ("Those that surrendered are local
    … the foreigners have not handed themselves in")? A "without" further on ("…, without
    specifying how many") leaves it standing."""
    folded = fold_phrasal(text)
    told = list(re.finditer(rf"\b(?:{EVENTS[event]})\b", folded, re.I))
    return not told or any(_NEGATION.search(folded[max(0, m.start() - 40):m.start()]) for m in told) \
        or bool(DENIAL.search(folded[: told[0].start()]))  # "X denied on Sunday afternoon that foreign fighters had been allowed to leave"


def _has(event: str, text: str) -> bool:
    if event == "remain":
        return bool(REMAINING.search(text) or re.search(rf"\b(?:{EVENTS['remain']})\b", text, re.I))
    return bool(re.search(rf"\b(?:{EVENTS[event]})\b", REMAINING.sub(" ", text), re.I))


def _about(subject: Subject, sentence: Sentence, before: str) -> bool:
    """Does the sentence speak of the question's subject: its qualifiers ("Syrian"), here or in
    the sentence `before` it, and no other ("foreign"); with no qualifier, its noun?"""
    own = set(terms(sentence.text))
    wanted = subject.qualifiers
    if wanted == {"local"}:  # "the local IS guys": whatever nationality a report gives them ("Syrian")
        wanted = local_as(own | set(terms(before))) or wanted
    others = context_qualifiers(sentence.text) - wanted
    if wanted:
        return bool(wanted & own) or (not others and bool(_REFERS_BACK.match(sentence.text)) and bool(wanted & set(terms(before))))
    # "the IS guys", "IS members": no group singled out, so one a report names ("Syrian") is theirs
    generic = subject.nouns <= GENERIC_HEADS
    return bool(subject.nouns & own or GENERIC_HEADS & own or generic and _PEOPLE & own) and (not others or generic)


def _mentions(subject: Subject, sentence: Sentence, before: str) -> bool:
    """Is a report the subject's, or nobody's in particular? The group it names, else the one
    just named: its qualifiers ("Syrian", not "foreign") and its kind (fighters, not civilians)."""
    before = before if _PEOPLE_BACK.match(sentence.text) else ""  # "The convoy would head to …" names its own subject
    near = context_qualifiers(sentence.text) or context_qualifiers(before)
    kinds = set(terms(sentence.text)) & _GROUPS or set(terms(before)) & _GROUPS
    if subject.nouns and kinds and not subject.nouns & kinds:
        return False
    if not subject.qualifiers:
        return _names_no_other(subject, sentence.text)
    return not near or bool(subject.qualifiers & near) and not near - subject.qualifiers


# A sentence whose subject is people just named: "They …", "The jihadists left …" (not "The convoy …").
_PEOPLE_BACK = re.compile(r"^\s*[\"“]?(?:they|their|these|those|the\s+(?:[\w\-]+\s+){0,2}?(?:jihadis\w*|fighters?|militants?|"
                          r"members?|men|civilians?|families|people|extremists?|terrorists?))\b", re.I)
_GROUPS = {"fighter", "civilian"}  # the kinds of people a report of movement is about (jihadists, militants … are fighters)


def _names_no_other(subject: Subject, text: str) -> bool:
    return not context_qualifiers(text) - subject.qualifiers  # "Syrian" of "Syrian Observatory" names no group


def _parties_differ(one: list[list[Claim]], other: list[list[Claim]]) -> bool:
    """Are there reports of each of two accounts, and does some party tell the one and another party the other?"""
    return bool(one and other) and not all(same_party(a[0].speaker, b[0].speaker) for a in one for b in other)


def same_party(a: str | None, b: str | None) -> bool:
    """One speaker (`same_speaker`), or one body named two ways: "Observatory head Rami Abdel
    Rahman" and "the Syrian Observatory for Human Rights" share the long name word "Observatory"."""
    long_words = lambda name: {w for w in re.findall(r"\b[A-Z][a-z]{5,}\b", name or "") if w.lower() not in QUALIFIERS}
    return same_speaker(a, b) or bool(long_words(a) & long_words(b))


def _subject_words(text: str) -> str:
    """The subject as the question wrote it ("the Syrian IS fighters")."""
    start = _AUX.match(text) or _WH_AUX.match(text)
    words = _TRUE_THAT.sub("", fold_phrasal(text[start.end() if start else 0:]))  # "is it true that the fighters …"
    refused = _REFUSED.search(words)  # "the foreigners turned down the deal"
    told = event_in(words)
    first = ("remain", refused.start()) if refused and (told is None or refused.start() < told[1]) else told
    # "the foreign fighters themselves want? Were they trying to …": the subject, without the words taking it up
    phrase = _without_intent(_TAKEN_UP.sub("", _without_intent(words[: first[1]]))).strip(" ,") if first else ""
    phrase = re.sub(r"^.*\b(?:says?|said|claims?|claimed)\s+(?:that\s+)?", "", phrase)  # "the SDF says the foreigners …"
    phrase = _OPENER.sub("", _CLAUSE_BEFORE.sub("", phrase)).rstrip(" '‘’\"“”")  # "did the Syrian jihadists 'leave' …"
    return phrase[0].lower() + phrase[1:] if phrase[:1].isupper() and not phrase.split()[0].isupper() else phrase or "they"


def headlines(question: Question, rows_of: Callable[[str], list[Sentence]], sources: list[str],
              speaker_of: Callable[[Sentence], str | None]) -> list[Found]:
    """ "A headline says all IS fighters have fled Raqqa - does the article back that?": an
    article's headline tells all of a group as gone ("All IS fighters have fled …"), while
    reports, in its own body first, tell some of that group as still there ("up to 150 foreign
    jihadists remain in the city"). Asked only of a headline; `sources` are the articles
    retrieval found, `rows_of(source)` an article's sentences, `speaker_of` who says one."""
    if not _ASKS_HEADLINE.search(question.text):
        return []
    for source in sources:
        rows = rows_of(source)
        head = rows[0] if _is_headline(rows) else None
        gone = _ALL_GONE.search(head.text) if head else None
        if gone is None:
            continue
        group = set(terms(gone.group("group")))
        qualifiers, nouns = group & QUALIFIERS, group - QUALIFIERS - {"is"}  # "All IS fighters": foreign or Syrian, fighters
        if not nouns:
            continue
        bodies = rows[1:] + [s for other in sources if other != source for s in rows_of(other)[1:]]
        told = [s for s in bodies if _still_there(s.text, qualifiers, nouns)]
        said = Claim(head, "assertion", head.text.strip(), speaker=f"the headline of {source}")
        remaining = lambda clause: _has("remain", fold_phrasal(clause))  # noqa: E731
        sides = [[said]] + _by_party([Claim(s, "assertion", _words_telling(s.text, remaining) or s.text.strip(), speaker=speaker_of(s))
                                      for s in told], MAX_SPEAKERS)
        if len(sides) >= 2:
            return [Found(f"whether all {gone.group('group').strip()} left", sides, answers_kind=True)]
    return []


def _is_headline(rows: list[Sentence]) -> bool:
    """Does the article open with a headline: a line of its own, set apart by a blank line, no full stop?"""
    return len(rows) > 1 and rows[1].start - rows[0].end >= 2 and not re.search(r"[.!?\"”]\s*$", rows[0].text)


def _still_there(text: str, qualifiers: set[str], nouns: set[str]) -> bool:
    """Does `text` tell some of the group (of `qualifiers`, any more narrowly) as still there?"""
    folded = fold_phrasal(text)
    own = set(terms(text))
    return _has("remain", folded) and not _negated("remain", text) and bool(own & nouns) and qualifiers <= own \
        and not _ALL_GONE.search(text)


def _by_party(claims: list[Claim], most: int) -> list[list[Claim]]:
    """Claims as sides: the first of each of up to `most` parties, with its syndicated copies
    (the same sentence in other articles); a party's other reports are left out."""
    sides: list[list[Claim]] = []
    for claim in claims:
        side = next((s for s in sides if same_party(s[0].speaker, claim.speaker)), None)
        if side is None and len(sides) < most:
            sides.append([claim])
        elif side is not None and claim.sentence.text == side[0].sentence.text \
                and claim.sentence.source not in {c.sentence.source for c in side}:
            side.append(claim)
    return sides


_ASKS_HEADLINE = re.compile(r"\bhead(?:line|lines)\b|\btitle\b", re.I)
_ALL_GONE = re.compile(rf"\b(?:all|every)\b(?P<group>(?:\s+[\w\-’']+){{1,4}}?)\s+(?:(?:have|has|had)\s+)?(?:(?:now|already)\s+)?"
                       rf"(?:{EVENTS['left']})\b", re.I)
