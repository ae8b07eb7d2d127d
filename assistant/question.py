"""What a question asks for, and the standalone form of a follow-up.

`analyse` classifies the expected answer (a number, a person or organisation, a place, a
time, a reason, a choice between options, what something is made up of, yes/no, or
anything else), finds the thing a "how many" question counts, and folds in the previous
turn when the question leans on it ("What did she say about it?", "And the foreign
ones?"). It does not rewrite the question with a model; an LLM backend may condense
further (see `answering.llm`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.text import ORG_WORDS, OUTLETS, STOP, fold_phrasal, names, stem, terms

KINDS = ("number", "person", "place", "time", "reason", "choice", "composition", "definition", "yesno", "other")
TYPED = {"number", "time", "person", "place"}  # the kinds whose answer has a form of its own: a figure, a time, a name, a place

_KIND_PATTERNS = [
    ("number", r"\bhow many (?!(?:days|hours|weeks|months|years|minutes)\b)|\bhow (much|large|big|long a list)\b|\b(?:the|its|their|[\w’']+[’']s)\s+population\b|\bpopulation of\b|\b(?:what|which) (?:exact |precise |actual )?(number|share|percentage|proportion|portion|fraction|figure|range)\b|\bwhat (?:is|was|are|were) (?:the|their|his|her|its) (?:exact |precise |actual )?(?:numbers|figures|range|count|tally|totals?)\b|\bwhat per ?cent\b|\bnumber of\b|\bestimate[sd]?\b.*\b(fighters|people|civilians)\b"
               r"|\bwhat(?:[’']s| is| was| were| are) the (?:population|size|death toll|toll|count|total|tally|strength|head ?count)\b|\bhead ?count\b|\b(?:death|casualty) tolls?\b"
               # "hundreds or thousands?", "200 or 275?"; a terse "Civilian numbers out of Raqqa?"
               r"|\b(?:dozens|hundreds|thousands|(?!(?:19|20)\d\d\b)\d[\d,]*)\s*,?\s+or\s+(?:dozens|hundreds|thousands|\d[\d,]*)\b"
               r"|^(?!(?:did|do|does|is|are|was|were|has|have|had|can|could|will|would|who|what|which|how|where|when|why)\b)"
               r"(?:the\s+)?(?:[\w\-]+\s+){0,2}(?:numbers|counts?|tall(?:y|ies)|totals?)\b"  # not "tribal figures": people
               r"(?![^?]*\b(?:is|are|was|were|do|does|did|don[’']?t|doesn[’']?t|match\w*|agree\w*|differ\w*)\b)"
               r"|\b(?:vs\.?|versus)\s+[^?]{1,40}?\b(?:numbers?|figures?|counts?|tall(?:y|ies)|totals?|estimates?)\s*\?*\s*$"),  # "… - SOHR vs SDF numbers?"
    ("time", r"\bhow many (?:days|hours|weeks|months|years|minutes)\b|\b(?:until|till) when\b|\b(?:until|till)\s*\?*\s*$|(?<!until )(?<!till )\bwhen\b|\bwhat (?:exact |calendar |specific |precise )?(day|date|time|year|month|period)\b|\bhow long\b|\bwhich (day|year|month)\b|\bon what day\b"),
    # "where does the coalition stand on …?" asks a position, not a place
    ("place", r"\bwhere\b(?!\s+(?:do|does|did|is|are|was|were|would|will)\s+(?:[\w\-’'.]+\s+){1,6}?stand(?:s|ing)?\b(?!\s+(?:in|at|near|outside|inside)\b))|\b(?:which (?:way|direction)|what direction)s? (?:did|do|does|were|was|are|is|had|have|has|will|would)\b|\bwhich (city|cities|town|province|country|countries|region|area|territory|river|camp|border)\b|\bwhat (city|cities|town|towns|province|provinces|country|countries|region|regions|area|areas|territory|river)\b|\b(?:what|which) destinations?\b|\b(?:what|which) nationalit(?:y|ies)\b"),
    ("reason", r"\bwhy\b|\bwhat (was|is) the (reason|purpose|aim|goal|rationale|justification|motive)\b|\bfor what reason\b|\bwhat for\b|\bhow come\b"
               r"|\b(?:what|which) (?:\w+ )?(?:reasons?|justifications?|rationale|explanations?|motives?) (?:did|does|do|was|were|is|are|has|have|had)\b"),  # "what reason did he give for …?"
    ("choice", r"\b(?:what|which) (?:\w+ ){0,5}?(?:choices?|options?|alternatives?)\b"),  # "what did he say their options were?"
    ("composition", r"\b(?:who|what|which)(?: \w+){0,3}? (?:makes?|made)(?: (?:it|them|this|that))? up\b"
                    r"|\bwhat(?:[’']s| is| was| are| were) the (?:\w+ )?(?:makeup|make-up|composition) of\b|\b(?:is|are|was|were) (?:\w+ )?(?:made up|composed|comprised) of\b"
                    r"|\bwhat (?:is|are|was|were) (?:\w+ ){1,4}(?:made up|made|composed) of\b"),  # "what is the SDF made of?"
    # "what exactly is the SDF?": what a name stands for (lower-cased here; `answer_kind` checks the name)
    ("definition", r"^\s*what\s+(?:exactly\s+)?(?:is|are|was|were)\s+(?:the\s+)?(?!(?:the\s+|his\s+|her\s+|their\s+|its\s+)?(?:reason|purpose|aim|goal|point|name|names)\b)"
                   r"(?![\w\-’'. ]*[’']s\s+names?\b)"  # "what is that council member's name?" asks who
                   r"[\w\-’'. ]{2,40}\?*\s*$"
                   r"|^\s*how\s+(?:should|do|would|can|could|might|to)\s+(?:(?:i|we|you|one)\s+)?describe\s+(?:the\s+)?[\w\-’'. ]{2,40}\?*\s*$"),  # "how
    # do I describe the SDF?": what it is
    ("person", r"\bwho\b|\bwhom\b|\bwhose\b|\bwhich (\w+ )?(group|organi[sz]ation|militia|official|spokes\w+|alliance|forces?|monitor|person|agency|outlet|news|commander|leader|member)\b|\bwhat (group|organi[sz]ation|militia|alliance|monitor|agency)\b|\bnames? of\b|\bwhat (?:is|was|are|were) (?:his|her|their|its) names?\b"
               r"|[’']s\s+names?\b|^\s*(?:and\s+)?(?:(?:the|his|her|their|its)\s+)?(?:full\s+)?names?\s*\?*\s*$"  # "the member's name?", "name?"
               r"|\b(?:spokes\w+|head|leader|chief|commander|director|official|member|boss|colonel|general)\s+names?\s*\?*\s*$"),  # "ypg spox name?"
    ("yesno", r"^(?:(?:and|so|but|then|also),?\s+)?(did|does|do|is|are|was|were|has|have|had|can|could|will|would|should)"
              r"(?:n[’']t)?\b"),  # "didn't one of them say otherwise?"
]

_ANAPHORA = re.compile(r"\b(he|she|they|them|his|her|their|it|its|this|that|these|those|there|him)\b|^(and|what about|how about|so|then)\b"
                      r"|\bthe same\b|\botherwise\b|\bthe other (?:side|one|party|parties)\b", re.I)  # "the same number" as what was said
_COUNTED = re.compile(r"\bhow many (?!(?:do|does|did|have|has|had|will|would|can|could|should)\b)((?:[\w\-’']+\s+){0,3}?[\w\-’']+?)(?=\s+(?:did|do|does|were|was|are|(?-i:is)|have|had|has|left|leav\w*|remain\w*|stay\w*|fled|flee\w*|surrender\w*|withdr\w*|pull\w*|got|get|went|go|escap\w*|die\w*|killed|hold(?!outs?\b)\w*|still|in|from|of|according)\b|\?|$)", re.I)


@dataclass
class Question:
    text: str
    kind: str
    terms: list[str]
    target: list[str] = field(default_factory=list)
    context_terms: list[str] = field(default_factory=list)
    context_names: set[str] = field(default_factory=set)
    context: str = ""  # the earlier question a follow-up leans on, as asked
    also: str | None = None  # a second question joined on ("Where is it based and who runs it?"): its kind
    compares: bool = False  # "Does the SDF agree with that?": every side of the earlier answer is wanted
    checks_agreement: bool = False  # "Do the reports agree on …?": asks whether the articles agree, and is told so
    wording: bool = False  # "I want to quote it exactly": asks for the words themselves (see `wordings`)
    earlier_party: set[str] = field(default_factory=set)  # of a comparing follow-up naming another party: the
    # terms of the earlier answer's names, retrieved with but not ranked for ("Did the Kurds confirm that?")
    answered: str = ""  # the earlier answer a follow-up leans on, markers stripped
    focus: tuple[str, ...] = ()  # its rarest own terms in the corpus ("negotiations" of "Were negotiations
    # under way over the foreign fighters left in Raqqa?"), set by the ranker: what it is most specifically about

    @property
    def query(self) -> str:
        """The standalone text used for retrieval."""
        extra = " ".join(sorted(self.context_names)) + " " + " ".join(self.context_terms)
        return f"{self.text} {extra}".strip()


def answer_kind(text: str) -> str:
    lowered = re.sub(r"^(?:and|so|but|then|also),?\s+", "", spelled_out(text.lower().strip()))  # "and where did they go?"
    lowered = re.sub(r"^(?:according to|per|in the words of)\s+(?:(?!\b(?:how|what|who|when|where|why|which)\b)[^,?]){1,60},\s*(?=\w)",
                     "", lowered)  # "according to X, what …?": what is asked follows the source
    lowered = re.sub(r"^(?:when|after|before|once|while|since|as soon as)\b(?=[^,?]*\b(?:was|were|is|are|had|has|have|did|do|does|"
                     r"says?|said|came|went|left|got|gave|took|told|fled|\w+ed)\b)"
                     r"[^,?]{1,80},\s*(?=(?:did|do|does|was|were|is|are|has|have|"
                     r"had|can|could|would|will|who|what|which|how|where|why)\b)", "", lowered)  # "When the figure was
    # cited, did it denote fighters alone …?": the main clause asks
    if _IN_A_GROUP.match(spelled_out(text.strip())):  # "who's actually in the SDF?", "who are the SDF?": its makeup
        return "composition"
    lowered = _TOPIC_FIRST.sub("", lowered)  # "I'm confused about the human shields thing - were they freed …?"
    opened = re.search(_KIND_PATTERNS[-1][1], lowered) or _WH_OPENING.match(lowered) \
        or re.match(r"(?:the|those|these|their|its)\b[^,;:—–?]*?\s(?:who|which)\b", lowered)  # "(and) the syrian ones who
    # left?": a noun phrase and its relative clause (not "the fighters in raqqa, they come from which countries?")
    for kind, pattern in _KIND_PATTERNS:
        match = re.search(pattern, lowered)
        if match and not (opened and kind != "yesno" and match.start() > 0 and _relative(lowered, match.start())):
            if kind == "definition" and not _NAMED.search(spelled_out(text.strip())[match.start():]) and not text.islower():
                continue  # "what was their stated aim?" asks no name's meaning; all in lower case, any may be a name
            return kind
    return "other"


# the topic the asker announces before a dash or colon, when a question follows it: "I'm confused about the human
# shields thing - were they freed when the deal went through, or …?" asks yes or no, not when
_TOPIC_FIRST = re.compile(r"^(?:(?:i[’']?m|i am)\s+(?:(?:a bit|so|really|still)\s+)?(?:confused|unclear|not sure|puzzled|lost|curious)"
                          r"\s+(?:about|on|over|by|re)|about|on|re|regarding|as for|quick (?:q|question)(?:\s+(?:on|about|re))?)\b"
                          r"[^?]{0,80}?\s(?:-|–|—|:)\s+(?=(?:did|do|does|was|were|is|are|has|have|had|can|could|would|will|"
                          r"who|what|which|how|where|when|why)\b)"
                          r"|^(?:the|those|these)\s+[^?:—–]{3,80}?(?::|\s-|\s?[—–])\s+(?=(?:where|when|why|how)\b)")  # "The
# thousands of civilians who got out on Saturday night: where did they go?"
# who is in a named group, or who a group written as an acronym are ("who are the SDF, exactly?")
_IN_A_GROUP = re.compile(r"^(?:(?:and|so|but|ok),?\s+)?(?i:who)\s+(?i:is|are)\s+(?:(?i:actually|exactly|really)\s+)?"
                         r"(?:(?i:in)\s+(?:the\s+)?(?:[A-Z][\w\-’']*\s*)+|(?:the\s+)?[A-Z]{2,6}s?)"
                         r"(?:,?\s*(?i:exactly|really|actually))?\s*\?*\s*$")
_NAMED = re.compile(r"\b(?:is|are|was|were|describe)\s+(?:exactly\s+)?(?:the\s+)?(?:[\w\-’'.]+\s+){0,3}?[A-Z][\w\-’'.]*\s*\?*\s*$")


_CONTRACTED = re.compile(r"\b(who|what|where|when|how|why|which|that|there|it)[’']s\b", re.I)
_UNAPOSTROPHISED = re.compile(r"\b(who|what|where|how)s\b", re.I)  # "whos the spokesman": typed without the apostrophe


def spelled_out(text: str) -> str:
    """ "who's the head" -> "who is the head": the question's kind is read from full forms."""
    return _UNAPOSTROPHISED.sub(r"\1 is", _CONTRACTED.sub(r"\1 is", text))


# Chat shorthand, as people type a quick question: "how many r there", "wat did he say abt it"
_SHORTHAND = {"r": "are", "u": "you", "ur": "your", "abt": "about", "b4": "before", "bc": "because", "cuz": "because",
              "coz": "because", "wat": "what", "wht": "what", "hw": "how", "ppl": "people", "thru": "through",
              "govt": "government", "tho": "though", "pls": "please", "w/": "with", "w/o": "without", "hrs": "hours",
              "yrs": "years", "mins": "minutes", "em": "them", "'em": "them", "’em": "them", "msg": "message",
              "msgs": "messages", "info": "information", "approx": "approximately", "nums": "numbers", "yday": "yesterday",
              "civs": "civilians", "civ": "civilian", "spox": "spokesman", "#": "number"}
_SHORTHAND_WORD = re.compile(r"(?<![\w/’'.\-])(?:" + "|".join(sorted(map(re.escape, _SHORTHAND), key=len, reverse=True))
                             + r")(?![\w/’'\-]|\.\w)", re.I)  # not the "U" of "U.S." nor "R-rated"


def in_full(text: str) -> str:
    """The question with chat shorthand written out: "how many of them r there" -> "… are there"."""
    text = _SHORTHAND_WORD.sub(lambda m: _SHORTHAND[m.group().lower()], text)
    return _ACCORDING.sub("according", _WITH.sub("with", text))


_WITH = re.compile(r"(?<![\w/’'.\-])w(?=\s+(?:them|him|her|it|their|his|the|a|an|its)\b)")  # "family w them"; not the W of a name

_ACCORDING = re.compile(r"\bac{1,2}or{1,2}d\w{1,4}(?=\s+to\b)", re.I)  # "acording to the coalition": whose account it asks


_WH_OPENING = re.compile(r"(?:how|what|why|when|where|which|who|whom|whose)\b")


_EMBEDDING = re.compile(r"\b(?:know|known|say|said|tell|told|ask|asked|specify|specified|explain|mention|mentioned|"
                        r"clear|unclear|sure|report|reported|confirm|confirmed|reveal|revealed)\s+$")


def _relative(text: str, at: int) -> bool:
    """Is the wh-word at `at` a relative pronoun ("Were the members who surrendered locals?",
    "How did the members who surrendered make contact?") rather than an embedded question
    ("Did he say who brokered it?")? Only asked of questions that open with their own
    question word or auxiliary."""
    return text[at:].startswith(("who", "which", "where", "when", "whose", "whom")) and not _EMBEDDING.search(text[:at])


def counted_thing(text: str) -> list[str]:
    """Stems of what a "how many" question counts: "How many Syrian fighters left?" -> [syrian, fighter]."""
    text = fold_phrasal(text)  # "how many members gave themselves up": "… members surrender"
    text = _TRAILING_WORD.sub("?", text)  # "how many actually made it out tho": how many left
    text = _TALKING_ABOUT.sub("how many", text)  # "how many are we talking about?": of those the question names
    text = _HOW_MANY_ADVERB.sub("how many ", text)  # "how many actually surrendered?": as "how many surrendered?"
    part = _PART_OF.search(text)
    if part and not _AN_EVENT.fullmatch(part.group(1)):  # "how many of them are left?" counts them, not "left"
        return terms(part.group(1))  # "how many of them were kids?" counts kids
    if _NUMBER_WHO.search(text):
        return ["peopl"]  # "the number who surrendered": whoever did, unnamed
    match = _COUNTED.search(text) or _NUMBER_OF.search(text) or _COUNTED_PLURAL.search(text)
    if match:
        if _AN_EVENT.fullmatch(match.group(1)):
            return ["peopl"]  # "how many died?": whoever did, unnamed
        counted = terms(match.group(1))
        return counted[:-1] + ["member"] if counted[-1:] == ["is"] else counted  # "how many (foreign) IS have
        # surrendered?": its members, any (or the foreign ones)
    if not re.search(r"\bhow many\b|\bnumber of\b", text, re.I) and (own := _FIGURE_OF.search(text)) \
            and not re.search(r"\b(?:hours?|days?|weeks?|months?|years?|minutes?|per ?cent|percent)\b", own.group(1), re.I):
        return terms(own.group(1))
    if _EVENT_TALLY.search(text):
        return ["peopl"]  # "surrender tallies - coalition vs council?": whoever did it, unnamed
    return ["popul"] if _POPULATION.search(text) else []  # "What was Raqqa's population?" counts inhabitants


# a count of whoever did something, nothing counted named: "the number who surrendered", "the total that left",
# "the number of those who fled"
_NUMBER_WHO = re.compile(r"\b(?:number|count|total|tally|figure)\s+(?:of\s+(?:those|the ones|people)\s+)?(?:who|that)\s+"
                         r"(?!(?:is|was|are|were|has|have|had|did|does|do|the|they|he|she|it)\b)", re.I)
# counts named by what was done: "surrender tallies", "the evacuation numbers", "withdrawal figures"; one party's
# "surrender figure" is that party's count
_EVENT_TALLY = re.compile(r"\b(?:surrender\w*|departures?|evacuations?|exits?|withdrawals?)\s+(?:tallies|numbers|figures|counts|totals)\b", re.I)


_COUNTED_GROUPS = {"civilian", "fighter", "famili", "hostag", "resid", "refuge", "prison"}  # whom a follow-up's bare count means
# a word the asker ends on that counts nothing: "… tho", "… then?", "… anyway?", "… in total?"
_TRAILING_WORD = re.compile(r"\s+(?:though|tho|then|anyway|anyhow|exactly|really|again|now|overall|in total|all told|in the end|"
                            r"roughly|approximately|approx|lol)\s*[?.!]*\s*$", re.I)
_HOW_MANY_ADVERB = re.compile(r"\bhow many\s+(?:(?:actually|really|truly|in fact|in the end|eventually|finally|just|all|managed to|"
                              r"(?:were|was) able to|could|got to)\s+)+", re.I)  # "how many actually managed to get out?": how many got out
_TALKING_ABOUT = re.compile(r"\bhow many\s+(?:are|were|is)\s+(?:we|you|they)\s+(?:talking|speaking)\s+about\b", re.I)
# "the number of …", "what number of …", "coalition number of IS out of Raqqa"
_NUMBER_OF = re.compile(_COUNTED.pattern.replace(r"\bhow many ", r"\b(?:total )?numbers? of "), re.I)
_COUNTED_PLURAL = re.compile(r"\bhow many ((?:[\w\-’']+\s+){0,2}?[a-z][\w\-’']*s)\b", re.I)  # "how many members sit on …?"
_POPULATION = re.compile(r"\bpopulation\b", re.I)
_PART_OF = re.compile(r"\bhow many of (?:them|those|these|the [\w\-]+)\s+(?:were|are|was|is)\s+((?:[\w\-’']+\s+){0,2}?[\w\-’']+)\s*\?*\s*$", re.I)
_AN_EVENT = re.compile(r"(?:died|die|killed|left|fled|surrendered|remained|stayed|escaped|survived)", re.I)
# "is it true that only around 150 foreigners are left?": the question's own figure counts what it asks about
_FIGURE_OF = re.compile(r"\b\d[\d,]*\s+((?:[A-Za-z][\w\-’']*\s+){0,2}?[a-z][\w\-’']*?s)\b(?=\s+(?:are|were|is|was|have|had|"
                        r"who|that|left|remain\w*|stay\w*|still|in|fled|surrender\w*)\b|\s*\?|\s*$)")


def analyse(text: str, history: list[dict] | None = None) -> Question:
    """The question's kind, terms and target, with context from `history` when it needs it."""
    asked_for_words = bool(ASKS_WORDING.search(text))  # said, often, in the purpose dropped next
    text = _without_preamble(_without_format(text))
    text, told_differ = _without_told_differ(_one_question(_without_contrast(_without_purpose(in_full(text)))))
    question = Question(text=text, kind=answer_kind(text), terms=_topic_terms(text), target=counted_thing(text),
                        wording=asked_for_words)
    asked, aside = _with_aside(text)
    if aside:  # "why were there civilians in the convoy? wasn't the deal that they'd be let go": the aside weighs half
        question.terms = _topic_terms(asked)
        question.context_terms = [t for t in terms(aside) if t not in question.terms]
        if _EVERY_ACCOUNT.search(aside):  # "… Give me every number floating around.", "I'm seeing different numbers."
            question.compares, question.context_terms = True, []  # every side's figure; the aside names no topic
    checked = _REPORTED.split(text)[-1] if _REPORTED.search(text) else None  # what is asked of a claim reported first
    question.compares = question.compares or bool(
        _ANYONE_DISPUTES.search(text)  # "X says … - does anyone dispute that?": every side
        or checked is not None and bool(_AGREEMENT.search(checked)  # "X says …. do the Kurds confirm that?"
                                        or not _SPEAKS_FOR_SELF.match(checked) and _AGREEMENT.search(_with_auxiliary(checked))  # "…
                                        # coalition confirm that?"; not "… I saw two different figures"
                                        or _HOLDS_UP.search(checked)  # "… - did that hold up?"
                                        or _CHALLENGE.search(checked)  # "…, but didn't the YPG deny …?"
                                        or _WHICH_IS_RIGHT.match(checked)))  # "X says there was no deal. who is right?"
    if told_differ and _WHICH_IS_RIGHT.match(text.rsplit(" -", 1)[-1]):  # "Syrian fighters who left - X has one
        question.kind = "number" if _ASKS_FIGURE.search(told_differ) else "other"  # number, Y another. which is it?"
    if told_differ or _WHO_IS_RIGHT.search(text) or _DISCREPANCY.search(text) or _OR_DENIED.search(text) \
            or _SOURCES_AGREE.search(text) and not _ONES_LINE.search(text):
        question.compares = True  # "…, or are the Kurds right that there was none?", "what's the discrepancy over …?"
    if _TWO_AGREE.search(text):  # "do the observatory and the SDF agree on …?", however the parties are written
        question.compares = True
    if len({n for n in names(text) if n.lower() not in STOP}) >= 2 and (_SAME_OR_NOT.search(text) or _WHO_MORE.search(text)) \
            and not _ONES_POSITION.search(text):  # "Across the reports, is the coalition's position stated consistently?"
        question.compares = True  # "Did the YPG and the SDF tell the same story …?", "who puts it higher, X or Y?"
    agreement = _ACCOUNTS_AGREE.search(text) or _SOURCES_AGREE.search(text)
    if agreement:  # "Do the reports quoting Alloush agree on where it went?": the check's words name no topic
        question.checks_agreement = True  # whose accounts to compare is read as before: "the reports quoting Alloush" are one party's
        checked = set(terms(agreement.group(0))) & _CHECK_WORDS
        question.terms = [t for t in question.terms if t not in checked] or question.terms
    asked, check = _with_accounts_check(text)
    if check:  # "Where were they heading? Is this reported the same way everywhere?": where, by every account
        own = _topic_terms(asked)
        question.terms = own + [t for t in _topic_terms(check) if t not in _ACCOUNT_WORDS and t not in own]
        question.compares = question.checks_agreement = True
    if question.kind == "time" and _FIRST_TIME.search(text):  # "when did the SDF first get in?": when they got in
        question.terms = [t for t in question.terms if t != "first"]
    if question.kind == "time" and _WHICH_TIME.search(text):  # "what month did IS take Raqqa?": "month" is the kind asked
        question.terms = [t for t in question.terms if t not in _TIME_UNITS]
    if question.kind == "place" and _WHICH_WAY.search(text):  # "which way did they want to go?": "way" is the kind asked
        question.terms = [t for t in question.terms if t not in ("way", "direct")]
    if question.kind == "time" and _HOW_LONG_SO_FAR.search(text):  # "how long has the battle been going on?": about the
        question.terms = [t for t in question.terms if t not in _LASTING] or question.terms  # battle; "going on" asks how long
    if question.kind == "time" and ASKS_END.search(text):  # "when will the fighting end?" is about the fighting, not "the end"
        question.terms = [t for t in question.terms if t not in _ENDING]
    if _WHO_RUNS.search(text):  # "who runs the monitor (and where is it based)?" is about the monitor; "runs"
        question.terms = [t for t in question.terms if t not in _RUNNING] or question.terms  # asks for its head
    if question.kind == "composition":  # "who makes up the SDF?" is about the SDF; "makes up" asks the kind
        question.terms = [t for t in question.terms if t not in _MAKING_UP]
    if question.kind == "number":  # "what share of the city …?" is answered "90 per cent of the city"
        question.terms = ["cent" if t in _SHARE else t for t in question.terms]
    joined = _JOINED.search(text)
    if joined and answer_kind(joined.group(1)) not in (question.kind, "other", "yesno"):
        question.also = answer_kind(joined.group(1))
    elif joined and question.kind == answer_kind(joined.group(1)) \
            and answer_kind(text[: joined.start()]) not in (question.kind, "other", "yesno"):
        # "What choice did they have, and why does it oppose …?": the first part's kind, the second's too
        question.kind, question.also = answer_kind(text[: joined.start()]), question.kind
    previous = _previous_turns(normalise_history(history))
    if previous and _CHALLENGE.search(text):  # "wait, didn't the Kurds say there was no deal?", "ok but didnt someone on
        question.compares = True  # the council say some got out anyway?": the challenge's side beside the answer's, on any topic
    if previous and _leans_on_history(text, question.terms):
        user, assistant = previous
        user = in_full(user)
        if question.kind == "other" and user:
            elliptical = re.match(r"^(?:what about|how about|and(?!\s+(?:what|who|whom|whose|where|when|why|how|which)\b))\b",
                                  text.strip(), re.I)  # "And the foreign ones?"; not "and what did she say …?"
            question.kind = answer_kind(user) if elliptical else "other"
        unfilled = _FILLER.sub("", text)  # "ok so does the SDF agree?"
        same_in = _same_in_a_source(unfilled)  # "same in reuters?"
        agrees = _AGREEMENT.search(unfilled) or _AGREEMENT.search(_with_auxiliary(unfilled)) or _LINES_UP.search(text) \
            or _IS_THAT_WHAT.search(unfilled) or _COMPARATIVE.search(text) and _ASKS_FIGURE.search(text) \
            or same_in  # "ok so that lines up with what the SDF says?", "… put the number higher?"
        if question.kind in ("yesno", "other") and user and (agrees or question.kind == "yesno" and _OTHERWISE.search(text)):
            question.kind = answer_kind(user)  # "Does the SDF agree with that?": what the SDF says of the same thing
            if _ASKS_FIGURE.search(text) and re.search(r"\d", assistant or "") \
                    or question.kind == "other" and _A_COUNT.search(assistant or "") \
                    and (set(question.terms) & _AGREEING or _ASKS_FIGURE.search(user) or same_in):
                question.kind = "number"  # "does the SDF give the same number?" after the monitor's "about 200"; "does
                # the observatory agree with him?" after what he told Reuters: "no more than 200-300" foreign militants;
                # "same in reuters?" after "obs figure for foreign fighters left", answered "up to 150 foreign jihadists"
            question.compares = True
            question.checks_agreement = question.checks_agreement or bool(same_in)  # "same in reuters?"
            if agrees:  # "does the observatory agree with him?": "agree" asks for its account, it names no topic
                question.terms = [t for t in question.terms if t not in _AGREEING] or question.terms
        if question.compares and (_CHECKS_ACCOUNTS.match(unfilled) or _HOW_THEY_DIFFER.match(unfilled)):
            # "does he give the same range everywhere or does it move around?": the earlier topic, every account
            # of it; the words of the check name no topic
            question.terms = [t for t in question.terms if t not in _ACCOUNT_WORDS | _VARYING]
        if user and _WHO_SAID_IT_DID.search(text) and _DENIED_IN.search(assistant or ""):
            question.compares = True  # "wait so who said they did leave??" after a denial: the claim it denied, and by whom
        if user and _WHO_SAYS_WHICH.search(text):  # "who says which?": the earlier question, by every party's account
            question.kind, question.compares = answer_kind(user), True
            question.target = question.target or counted_thing(user)
        if not question.target and question.kind == "number":  # "the same count?" after "about 100 IS fighters had surrendered"
            question.target = counted_thing(user) or counted_thing(_strip_markers(assistant or ""))
        groups = [t for t in dict.fromkeys(terms(user)) if t in _COUNTED_GROUPS]
        if question.target == ["peopl"] and question.kind == "number" and len(groups) == 1:
            question.target = groups  # "how many actually made it out?" after "is there a deal to get civilians out?"
        # what "that" is: the answer's words, when asked who said it or when the earlier question named
        # little but a figure ("where does the 275 figure come from?" … "does anyone dispute that number?")
        thin = question.compares and len([t for t in terms(user) if t not in _ACCOUNT_WORDS]) < 2
        source = _strip_markers(assistant) if (_WHO_SAID_THAT.search(text) or thin) and assistant else user
        question.context_terms = list(dict.fromkeys([t for t in terms(source) if t not in question.terms] + question.context_terms))
        question.context_names = names(user) | names(_strip_markers(assistant))
        question.context = user
        question.answered = _strip_markers(assistant)
        party = _ASKED_OF_PARTY.match(user)
        said_by = set(terms(party["who"] or party["whose"])) if party else set()
        if said_by and question.kind in ("yesno", "number") and not question.compares \
                and not ASKS_WHAT_WAS_SAID.search(text) and not said_by & set(question.terms):
            # "So did any of them end up leaving?", "how many of them are left?" after "What did the coalition's
            # Colonel Dillon say about foreign fighters leaving?": what became of what that turn asked about, by
            # any account; the party's words would only find its own lines again ("who is their spokesman?" and
            # "has the coalition …?" still ask about the party)
            question.context_terms = [t for t in question.context_terms if t not in said_by]
            question.context_names = {n for n in question.context_names if not set(terms(n)) <= said_by}
        if question.compares and _names_a_party(text):
            # "Did the Kurds confirm that?": the earlier topic, as another party tells it; the
            # earlier party's names would only bring back the answer just given
            question.earlier_party = {t for n in question.context_names for t in terms(n)}
    return question


# A follow-up asking what the earlier turn's party said or holds ("what did it say about …?", "and its
# reason?"), not what happened
ASKS_WHAT_WAS_SAID = re.compile(r"\b(?:say|says|said|tell|told|claim\w*|position|stance|line|view|think|believe\w*|"
                                r"according|describ\w*|call\w*|put|estimat\w*|reckon\w*|guess\w*|figures?|report\w*|quot\w*|mean|meant|add\w*|"
                                r"reason|why|insist\w*|warn\w*|announc\w*|deny|denied|confirm\w*|want\w*|expect\w*)\b", re.I)
# The party an earlier question asks about, and what about: "What did the coalition's Colonel Ryan Dillon say
# about foreign fighters leaving Raqqa?", "What's the coalition's position on the foreign fighters?"
_ASKED_OF_PARTY = re.compile(r"^\s*(?:and\s+|so\s+)?(?:what|how)\s+(?:did|does|do|has|have|had|is|was|were)\s+(?P<who>.{2,80}?)\s+"
                             r"(?:say|said|says|tell|told|claim|report|describe|announce|state|think|make)\w*\b"
                             r"|^\s*(?:and\s+|so\s+)?what(?:[’']s| is| was| are| were)\s+(?P<whose>.{2,80}?)[’']s?\s+"
                             r"(?:position|stance|line|view|take|account|version)\b", re.I)


# A follow-up setting what another party said against the answer just given
_CHALLENGE = re.compile(r"^\s*(?:(?:wait|hold on|hang on|hmm+|but|and|ok|okay|so|yeah|yes|right|um+|uh+)\b[\s,.!]*)*(?:i thought|didn[’']?t|did not|hadn[’']?t|had not|haven[’']?t|hasn[’']?t|doesn[’']?t|does not|wasn[’']?t it|"
                        r"weren[’']?t they|isn[’']?t it)\b.*\b(?:say|said|says|claim\w*|den(?:y|ied|ies)|insist\w*|told)\b", re.I)
# "Who said that?": whose words the answer just given reports, so those words are what to find
_WHO_SAID_IT_DID = re.compile(r"\bwho\s+(?:said|says|claimed|claims|told \w+|reported)\s+(?:that\s+)?(?:they|it|he|she|some|any)\b", re.I)
_DENIED_IN = re.compile(r"\b(?:den(?:y|ied|ies|ial)|wrong|rejected|dismissed|not true|false)\b", re.I)
_WHO_SAID_THAT = re.compile(r"^\s*(?:and\s+|so\s+)?(?:who|which \w+)\s+(?:was it that\s+)?(?:said|says|say|told|claimed|stated|made)\s+"
                            r"(?:that|this|it|those)\b", re.I)


# "the exact wording", "word for word", "verbatim", "worded differently", "I want to quote it exactly",
# "what exactly did the coalition's email say?"
ASKS_WORDING = re.compile(r"\bword(?:ing|ed)\b|\bwords?[- ]for[- ]words?\b|\bverbatim\b|\bphras(?:ed|ing)\b"
                          r"|\b(?:exact|precise|actual|same)\s+(?:words?|quotes?|quotations?|language)\b"
                          r"|\bquot\w*\s+(?:it|that|this|them|him|her)\s+(?:exactly|precisely|directly|verbatim)\b"
                          r"|\b(?:what|how)\s+(?:exactly|precisely)\s+(?:did|does|do|was|were|is)\b[^?]*\b(?:say|said|tell|told|write|wrote|put|word|phrase)\b"
                          r"|\b(?:pull|direct)[- ]quotes?\b", re.I)  # "how exactly did they word it?", "for a pull quote"


def _without_preamble(text: str) -> str:
    """The question without a greeting or a label before it: "Quick one: who makes up the SDF?"
    asks who makes up the SDF; "quick" and "one" are no part of it."""
    return _PREAMBLE.sub("", text) or text


_PREAMBLE = re.compile(r"^\s*(?:(?:hi|hey|hello)(?:\s+there)?\s*[,!.]\s*)?(?:(?:a\s+|one\s+)?(?:quick|last|final|another|more|"
                       r"follow[- ]?up|simple|small|short)(?:\s+(?:one|q|question|thing|check))?|question|q)\s*(?::|\s[-–—])\s+"
                       r"(?=\S)", re.I)


def _without_purpose(text: str) -> str:
    """The question without what the asker says they will do with the answer: "Give me the YPG
    spokesman's actual words, I want to read them on air." asks for his words, not about reading."""
    return _PURPOSE.sub("", text) or text


def _without_format(text: str) -> str:
    """The question without the form it wants the answer in, or whom the answer is for: "In one
    line, how should we describe who makes up the SDF?" asks who makes it up."""
    bare = re.sub(r"\s+([?,.:;!])", r"\1", re.sub(r"\s{2,}", " ", _FORMAT.sub(" ", text)))
    bare = re.sub(r",+(?=[?.!:;]|$)", "", bare).strip(" ,")
    return bare if re.search(r"\w", bare) else text


# The form the asker wants the answer in, or whom it is for: no topic ("in one line", "in plain terms",
# "for the briefing note", "for listeners")
_FORMAT = re.compile(r"\b(?:in\s+(?:one|a|a single|a short|one short)\s+(?:line|sentence|phrase)|in\s+plain\s+(?:terms|english|words)"
                     r"|for\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:script|briefing(?:\s+note)?|listeners|viewers|readers|intro|graphic|"
                     r"caption|lower[- ]third|bulletin|newsletter))\b,?", re.I)
_PURPOSE = re.compile(r"(?:(?<=[,;.!?])|\s[-—–])\s*(?:i|we)\s*(?:want|need|have|[’']d like|would like|[’']m trying|am trying|[’']re trying|are trying|"
                      r"[’']m going|am going|[’']ll need)\s+to\s+(?!(?:know|understand|find|check|confirm|see|learn|hear|be sure)\b"
                      r"(?!\s+(?:before|because|since|so that|for (?:my|our|the))\b))"
                      r"[^?.!;]*[.!]?\s*$", re.I)  # "I need to know before we use the word on air": no topic


def _without_contrast(text: str) -> str:
    """The question without an aside that says what it does not ask about: "How many Syrian
    (not foreign) IS fighters got out?" counts the Syrian ones; "foreign" is no part of it."""
    return _CONTRAST.sub("", text)


_CONTRAST = re.compile(r"\s*\((?:not|rather than|as opposed to|excluding|except)\s+(?:the\s+)?[\w\-’']+(?:\s+ones?)?\s*\)"
                       r"|,\s*(?:not|rather than|as opposed to)\s+(?:the\s+)?[\w\-’']+(?:\s+ones?)?\s*(?=,)", re.I)


def _without_told_differ(text: str) -> tuple[str, str]:
    """The question without a sentence in which the user says the accounts differ ("coalition
    gives one surrender count, the locals another. how many IS actually gave themselves up?"),
    and that sentence ("" if none): it asks for every account and names no topic (nor a group:
    "the locals" there are a party), except what it names before a dash or colon."""
    if not _TOLD_DIFFER.search(text):
        return text, ""
    parts = [(part, bool(_TOLD_DIFFER.search(part))) for part in re.split(r"(?<=[.?!])\s+", text.strip())]
    kept = " ".join(_lead_in(part) if told else part for part, told in parts).strip()
    return (kept if "?" in kept else text), " ".join(part for part, told in parts if told)


def _lead_in(told: str) -> str:
    """What a sentence telling that accounts differ names before a dash or colon: "Syrian IS fighters
    who left - Observatory has one number, SDF another." is about the Syrian fighters who left."""
    head = re.split(r"\s[-—–]\s|[—–:]\s*", told[:_TOLD_DIFFER.search(told).start()], maxsplit=1)
    return head[0].strip() + " -" if len(head) == 2 and head[0].strip() else ""


def _one_question(text: str) -> str:
    """ "and the foreign ones? are they allowed out too?" -> "are the foreign ones allowed out
    too?": an elliptical opening names whom the question after it means by its pronoun."""
    split = _ELLIPTICAL_THEN.match(text)
    if not split or not _PRONOUN.search(split["rest"]) or _PRONOUN.fullmatch(split["who"]):
        return text
    return _PRONOUN.sub(split["who"], split["rest"], count=1)


_ELLIPTICAL_THEN = re.compile(r"^\s*(?:and|what about|how about)\s+(?P<who>[^?.!]{2,40}?)\s*\?\s+(?P<rest>\S.*)$", re.I)
_PRONOUN = re.compile(r"\b(?:they|them|it|he|she|him|her)\b", re.I)


def _with_aside(text: str) -> tuple[str, str]:
    """A question followed by an aside the user adds ("…? wasn't the deal that they'd be let go"):
    (the question, the aside); ("", "") when the text asks no wh-question first, or asks another
    after it (with a question mark: "…, really? is it 275 fighters or 275 total?")."""
    first, mark, rest = text.partition("?")
    if not mark or not rest.strip(" ?") or "?" in rest or answer_kind(first) in ("yesno", "other") \
            or answer_kind(rest) not in ("yesno", "other") or _WH_OPENING.match(rest.strip().lower()):
        return "", ""
    return first + "?", rest.strip()


# an aside asking for every account, or telling that accounts differ: "Give me every number floating around,
# not just the official one", "I'm seeing different numbers"
_EVERY_ACCOUNT = re.compile(r"\b(?:every|all(?: the)?|each|various|different|differing|conflicting|competing|other|both)\s+"
                            r"(?:\w+\s+)?(?:numbers?|figures?|estimates?|counts?|tall(?:y|ies)|versions?|accounts?|claims?|sides?|"
                            r"stories|story)\b|\bnot just (?:the|one)\b", re.I)


def _with_accounts_check(text: str) -> tuple[str, str]:
    """A question, then another asking only whether the articles agree on it ("…? Is this
    reported the same way everywhere?", "…? Do the sources agree?"): (the question, the check);
    ("", "") otherwise. The check's words are no topic."""
    parts = [p for p in re.split(r"(?<=\?)\s+|,?\s+and\s+(?=(?:do|does|did|is|are|was|were|has|have)\s)", text.strip()) if p.strip(" ?")]
    last = parts[-1] if len(parts) >= 2 else ""
    if _HOW_THEY_DIFFER.match(last) or _CHECKS_ACCOUNTS.match(last) and not _WH_OPENING.match(last.strip().lower()):
        return " ".join(parts[:-1]), last
    return "", ""


# the words of such a check, which name the accounts and how they compare: "statements", "the same way", "consistently"
_ACCOUNT_WORDS = {"statement", "account", "way", "everywher", "consist", "differ", "agre", "disagre", "match", "contradict",
                  "give", "put", "figur", "number", "version", "outlet", "paper", "stori", "compar", "line", "talli", "squar",
                  "correspond", "jibe", "confirm", "disput"}
_AGREEING = {"agre", "disagre", "concur"}  # not "confirm", "contradict": what a denial is set against
_VARYING = {"move", "around", "vari", "chang", "shift", "rang"}  # "does the range move around?"
_HOW_THEY_DIFFER = re.compile(r"^\s*(?:and\s+|so\s+)?(?:how|in what way|where)\b.*\b(?:differ|disagree|contradict|compare|vary)\w*\b", re.I)
_CHECKS_ACCOUNTS = re.compile(r"^\s*(?:and\s+|but\s+|so\s+)?(?:is|are|was|were|do|does|did|has|have|had)\b.*\b(?:(?:the )?same|differently|"
                              r"differ\w*|consistent\w*|everywhere|agree\w*|disagree\w*|match\w*|contradict\w*|line\w* up|in line|"
                              r"tall(?:y|ies|ied)|square\w*|correspond\w*|jibe\w*|confirm\w*|disput\w*|"
                              r"in (?:all|every|each) (?:of )?(?:the )?(?:articles?|reports?|sources?|accounts?|outlets?))\b", re.I)
_WHO_IS_RIGHT = re.compile(r"\b(?:is|are|was|were)\s+(?:the\s+)?[\w\-]+(?:\s+[\w\-]+)?\s+right\s+(?:that|about)\b"
                           r"|\bwho(?:[’']s| is| was)\s+(?:right|correct|telling the truth)\b(?=.*\b(?:numbers?|figures?|counts?|estimates?|"
                           r"tall(?:y|ies)|how many)\b)", re.I)  # of figures: who is right about anything else asks no one's account
# after a reported claim: "who is right?", "which is true?", "so which is it?"
_WHICH_IS_RIGHT = re.compile(r"^\s*(?:(?:so|then|and|but|ok|okay)\b[\s,]*)*(?:who|which(?: one| side| account| version)?)\s*(?:[’']s|is|was|are)\s+"
                             r"(?:right|correct|true|telling the truth|it)\b", re.I)
_SOURCES_AGREE = re.compile(r"\b(?:do|does|did|are|were|is)\s+(?:all\s+)?(?:the\s+|these\s+|both\s+)?(?:articles|sources|reports|outlets|"
                            r"accounts|papers|stories|news reports|versions)\s+(?:all\s+|both\s+)?(?:agree|differ|disagree|match|line up|"
                            r"conflict|contradict|say the same|tell the same|give the same|square|tally)", re.I)  # "Do the articles agree on …?"
# whether the articles agree, asked of them ("do the reports quoting X agree …", "both reports - do they line up",
# "any daylight between the outlets", "does any other report give a different date?", "the same in the other reports")
_ACCOUNTS = r"(?:articles?|sources?|reports?|outlets?|accounts?|papers?|stories|story|pieces?|versions?|takes|coverage)"
_AGREE_WORDS = (r"(?:agree\w*|disagree\w*|differ\w*|line\w* up|match\w*|square\w*|tall(?:y|ies)|jibe\w*|conflict\w*|"
                r"contradict\w*|consistent\w*|at odds|the same)\b")
_ACCOUNTS_AGREE = re.compile(
    rf"\b(?:do|does|did|are|were|is|was|have|has)\s+(?:all\s+|both\s+)?(?:the\s+|these\s+|those\s+|their\s+|its\s+)?"
    rf"(?:[\w’'\-]+\s+){{0,2}}?{_ACCOUNTS}\b[^?.!]{{0,60}}?\b{_AGREE_WORDS}"
    rf"|\b{_ACCOUNTS}\b[^?.!]{{0,60}}?\b(?:do|does|did|are|were)\s+they\s+(?:all\s+|both\s+)?{_AGREE_WORDS}"
    rf"|\bany\s+(?:real\s+)?(?:daylight|disagreements?|differences?|discrepanc\w*|contradictions?|conflicts?|gap)\s+"
    rf"(?:between|among|across|in)\s+(?:the\s+|these\s+|all\s+|both\s+)?(?:[\w’'\-]+\s+)?{_ACCOUNTS}\b"
    rf"|\b(?:any|another|the)\s+other\s+{_ACCOUNTS}\b[^?.!]{{0,30}}?\bdifferent\b"
    rf"|\bsame\s+(?:\w+\s+)?(?:in|across|for)\s+(?:all\s+|every\s+|each\s+|both\s+|the\s+)?(?:other\s+)?(?:[\w’'\-]+\s+)?{_ACCOUNTS}\b"
    rf"|\bsame\s+(?:\w+\s+)?everywhere\b", re.I)
_CHECK_WORDS = {"agre", "disagr", "disagre", "line", "daylight", "differ", "match", "consist", "squar", "talli", "jibe",
                "contradict", "conflict", "stori", "piec", "take", "coverag", "outlet", "account", "version", "pictur",
                "everywher", "gap", "discrep", "paper"}  # of a check of the accounts: no topic
_POSITION = r"position|stance|line|view|policy"
# one party asked whether it has been consistent ("has the coalition been consistent about …?"): its own accounts,
# against each other; estimates or reports asked to be consistent are every party's
ONES_CONSISTENCY = re.compile(rf"(?:^|[.?!]\s+)(?:has|have|is|are|was|were)\s+(?:the\s+)?"
                              rf"(?!{_ACCOUNTS}\b|estimates?\b|figures?\b|numbers?\b|counts?\b)"
                              r"(?P<party>(?:[\w\-]+\s+){0,2}[\w\-]+)\s+(?:been\s+)?(?:consistent|inconsistent)\b", re.I)
_ONES_POSITION = re.compile(rf"[’']s\s+(?:own\s+|stated\s+|official\s+|declared\s+|public\s+)?(?:{_POSITION})\b"
                            rf"|{ONES_CONSISTENCY.pattern}", re.I)  # one party's, in every report
_ONES_LINE = re.compile(rf"[’']s\s+(?:own\s+)?(?:{_POSITION}|account|version|statement|estimate|figure|number|count)\b",
                       re.I)  # "Do the articles agree on the coalition's position?": one party's account, as each article tells it
# the claim and its denial asked together: "was there a deal, or did the Kurds deny it?", "some say yes, the YPG say no",
# "one piece says brokered, AFP has a denial", "was there a deal or not? the YPG guy flat out denies it"
_OR_DENIED = re.compile(r"\bor\s+(?:did|do|does|is|are|was|were|has|have|had)\s+(?:[\w\-’']+\s+){0,3}?(?:den(?:y|ied|ies)|disput(?:e|es|ed)|"
                        r"reject(?:s|ed)?|refut(?:e|es|ed)|contradict(?:s|ed)?)\b|\bsays? (?:yes|so)\b.*\bsays? no\b|\bsays? no\b.*\bsays? (?:yes|so)\b"
                        r"|\b(?:has|had|carr(?:ies|ied)|runs|ran|quot(?:es|ed)|cit(?:es|ed)|report(?:s|ed))\s+(?:a|an|the|some)\s+"
                        r"(?:\w+\s+)?denials?\b"
                        # the claim asked, then a party's denial of it told: "was there a deal or not? the YPG guy denies it"
                        r"|\?\s*[^?]*\b(?:den(?:y|ies|ied)|disput(?:e|es|ed)|reject(?:s|ed)|refut(?:e|es|ed)|contradict(?:s|ed))\s+"
                        r"(?:it|that|this|any such|the (?:claim|report|story|idea))\b", re.I)
_DISCREPANCY = re.compile(r"\b(?:discrepanc\w*|disagreements?|contradictions?|inconsistenc\w*)\b", re.I)
# the user says the accounts differ: "the kurds say one thing, everyone else says another", "coalition gives one
# surrender count, the locals another", "the timelines don't match", "i keep reading different things"
_TOLD_DIFFER = re.compile(r"\b(?:says?|said|claims?|claimed|gives?|gave|puts?|tells?|told|has|have)\s+one\s+(?:[\w\-]+\s+){0,2}?"
                          r"(?:thing|number|figure|count|story|version|total|estimate|tally|answer)\b[^?]{0,80}?\b(?:another|something else)\b"
                          r"|\b(?:don[’']?t|do not|doesn[’']?t|does not)\s+(?:match|agree|line up|add up|square|tally)\b"
                          r"|\b(?:reading|hearing|seeing|getting|read|heard|seen|got)\s+(?:\w+\s+)?(?:different|conflicting|contradictory|"
                          r"mixed)\s+(?:things|stuff|reports|numbers|figures|stories|accounts|versions|answers|messages|signals)\b", re.I)
_SAME_OR_NOT = re.compile(r"\b(?:the same|agree\w*|disagree\w*|differ\w*|match\w*|consistent\w*|contradict\w*|line\w* up|"
                          r"at odds|in line)\b", re.I)  # two parties, and whether their accounts agree
# two parties asked whether they agree: "do the observatory and the SDF agree on …?", "did the monitor and the
# council give the same number?"
_TWO_AGREE = re.compile(r"\b(?:do|does|did|are|were)\s+(?:both\s+)?(?:the\s+)?[\w\-’']+(?:\s+[\w\-’']+){0,3}?\s+and\s+(?:the\s+)?"
                        r"[\w\-’']+(?:\s+[\w\-’']+){0,3}?\s+(?:both\s+)?(?:agree|disagree|differ|match|line up|tally|"
                        r"say the same|tell the same|give the same|put (?:it|the \w+) (?:at )?the same)\b", re.I)
_WHO_MORE = re.compile(r"\b(?:who|which)\b[^?]*\b(?:higher|lower|more|fewer|less|bigger|larger|smaller|greater|most|fewest|least)\b", re.I)
_HOLDS_UP = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:did|does|do|is|was|has|have)\s+(?:that|this|it)\b.*\b(?:hold(?:s|ing)? up|stand(?:s|ing)? up|"
                       r"hold(?:s)? true|true|right|correct|accurate|pan(?:ned)? out|the case|happen\w*)\b", re.I)  # a reported claim, checked
_REPORTED = re.compile(r"\b(?:says?|said|saying|claims?|claimed|claiming|reports?|reported|reckon(?:s|ed)?|believes?|believed|thinks?|thought|according to|"
                       r"puts?|estimat(?:es|ed))\b[^.?!\-—–]*?"
                       r"(?:[.?!\-—–]+\s+|[,;]\s+(?=but\b))", re.I)  # a claim, then a question on it ("… too... is that so?")
_OTHERWISE = re.compile(r"\b(?:otherwise|differently|the contrary|the opposite)\b", re.I)  # "didn't a member say otherwise?"
_SHARE = {"share", "proportion", "percentag", "portion", "fraction", "percent"}
_ANYONE_DISPUTES = re.compile(r"\bvs\.?\s|\bversus\b|\bcompared? (?:to|with)\b"  # "sdf vs the observatory - who says more?"
                             r"|\b(?:anyone|anybody|any one|someone|somebody|everyone|everybody|others?|other (?:sides?|parties|sources?|reports?|"
                             r"articles?|outlets?|accounts?))\b(?:\s+else)?\s+(?:\w+\s+){0,4}?(?:disput|den(?:y|ies|ied)|disagree|"
                             r"contradict|challeng|question|back|support|confirm|agree|corroborat)\w*", re.I)
_JOINED = re.compile(r"\b(?:and|or|,)\s+((?:who|whom|where|when|why|how many|how much|how long|what|which)\b.*)", re.I)


_A_COUNT = re.compile(r"\d[\d,]*(?:\s*(?:-|–|to)\s*\d[\d,]*)?[”\"']?\s+(?:[\w\-]+\s+)?(?!(?:days|weeks|months|years|hours|"
                     r"minutes)\b)(?:[a-z]{3,}s|people|men|women|children)\b")  # an answer that is a count


_SPEAKS_FOR_SELF = re.compile(r"\s*(?:i|we|i[’']ve|i[’']m|we[’']ve)\b", re.I)


def _same_in_a_source(text: str) -> bool:
    """ "same in reuters?", "is it the same according to the Observatory?": the answer just given,
    set beside what an outlet or party says. Not "same for the foreign ones?", which asks the
    earlier question of something else, nor "same in mosul?", a place."""
    match = _SAME_IN.match(text)
    if not match:
        return False
    source = match["source"]
    return bool(OUTLETS.search(text) or set(source.lower().split()) & ORG_WORDS or _ACRONYM_TYPED.fullmatch(source)
                or match["by"].lower() != "in" and names(source) - {text.split()[0]})  # "according to Selo", not "in Mosul"


_SAME_IN = re.compile(r"^\s*(?:(?:is|was|does|did|do)\s+)?(?:(?:it|that|this|they|he|she)\s+(?:(?:is|was|say|says|said|have|has)\s+)?)?"
                      r"(?:the\s+)?same\s+(?P<by>in|from|at|according to|per|with)\s+(?:the\s+)?(?P<source>[\w’'\-]+(?:\s+[\w’'\-]+)?)"
                      r"\s*[?.!]*\s*$", re.I)
_ACRONYM_TYPED = re.compile(r"[A-Z]{2,5}|[b-df-hj-np-tv-z]{2,5}")  # "SDF"; "sdf", "afp", "ypg" typed in lower case (no vowel)


def _with_auxiliary(text: str) -> str:
    """A question typed without its auxiliary, as a follow-up often is ("observatory agree with
    him?", "coalition's number match that?"), with one: "does observatory agree with him?"."""
    short = len(text.split()) <= 10 and not re.search(r"[?.!;:—–]\s*\S", text)  # one short clause, nothing after it
    return text if _OPENS_QUESTION.match(text) or not short else "does " + text


_OPENS_QUESTION = re.compile(r"^\s*(?:do|does|did|would|will|is|are|was|were|has|have|had|can|could|should|isn[’']?t|"
                             r"wasn[’']?t|doesn[’']?t|didn[’']?t|who|whom|whose|what|where|when|why|how|which)\b", re.I)
# A yes/no follow-up asking whether another party shares the answer just given ("Does the SDF
# agree?", "does the SDF put their number at the same figure?").
_FILLER = re.compile(r"^(?:(?:ok|okay|so|and|but|well|right|hmm+|huh|eh|oh|ah|uh+|um+|yeah|wait|hang on)\b[\s,.!]*)+", re.I)
_LINES_UP = re.compile(r"\b(?:lines? up|match(?:es)?|tall(?:y|ies)|squares?|fits?(?: in)?|(?:is|are|was|were) (?:the )?same as|(?:is|are|was|were) in line)"
                       r"\s+with\b", re.I)  # "that lines up with what the SDF says"
# "who says which?", "ok who says there was one and who says there wasn't?": each party's side of the last answer
_WHO_SAYS_WHICH = re.compile(r"^\s*(?:ok(?:ay)?,?\s+|so\s+|and\s+)?who\s+(?:says?|said|claims?|gives?|gave|puts?)\s+(?:which|what)\s*\??\s*$"
                             r"|^(?:ok(?:ay)?\s+|so\s+|and\s+)?who\s+(?:says?|said)\b.*\band\s+who\s+(?:says?|said)\b", re.I)
# "is that what the monitor says?", "is that how selo put it too?"
_IS_THAT_WHAT = re.compile(r"^(?:is|was|isn[’']?t|wasn[’']?t) (?:that|this|it) (?:what|how)\b.*\b(?:says?|said|reports?|reported|claims?|"
                           r"thinks?|puts?|put|describes?|described|tells?|told|sees?|saw)\b", re.I)
_COMPARATIVE = re.compile(r"\b(?:higher|lower|bigger|smaller|larger|more|fewer|less)\b", re.I)
_ASKS_FIGURE = re.compile(r"\b(?:numbers?|figures?|counts?|estimates?|totals?|tall(?:y|ies)|how many)\b", re.I)
_AGREEMENT = re.compile(r"^(?:do|does|did|would|will|is|are)\b.*(?:\b(?:agree|disagree|concur|confirm|dispute|contradict|"
                        r"corroborate|back|share|accept|support|go along|square|tally|jibe|accords?(?=\s+with\b))\w*\b(?:\s+(?:with\s+)?(?:that|this|it|those|these|them)\b)?"
                        r"|\b(?:the )?same (?:figure|number|estimate|range|count|total|tally|account|version|amount|way|story|picture|thing|ballpark|page|line|quote|wording)\b|\bsame (?:as|like)\b|\bthe same\s*[?.!]*\s*$"
                        r"|\bthe same (?:in|across) (?:all|every|each|both|the other)\b|\bthe same everywhere\b|\bmatch(?:es|ed)?\b|\bdiffer\w*\b|\bwhat (?:\w+\s+){1,4}(?:says?|said|reports?|reported|claims?|thinks?)\s+too\b|\beve(?:ryone|rybody)\b|\bother (?:sources|reports|people|outlets|articles|accounts)\b|\bsees? (?:it|that|this|things) (?:that|the same) way\b)", re.I)


# A party named in lower case: "did the kurds confirm that?", "does the coalition agree?"
_OTHER_PARTY = re.compile(r"^\w+\s+(?:the\s+)?(?!it\b|that\b|this\b|they\b|he\b|she\b|anyone\b|anybody\b|everyone\b)"
                          r"[a-z][\w\-]+\s+(?:agree|disagree|concur|confirm|dispute|contradict|corroborate|back|share|accept|support|go along)", re.I)


def _names_a_party(text: str) -> bool:
    """ "Does the SDF agree?", "did the kurds confirm that?" name whose account is wanted;
    "Does anyone confirm it?" does not."""
    opener = text.split()[0] if text.split() else ""
    return bool(names(text) - {opener}) or bool(_OTHER_PARTY.search(text))


# Words a question uses of the figures and accounts it asks about, not of the topic: "is Selo's
# number the same in every report? I saw two different figures"
_ABOUT_ACCOUNTS = {"number", "figur", "rang", "exact", "precis", "outlet", "fit", "differ", "match", "same", "everi", "see",
                   "stori", "pictur", "ballpark", "version", "higher", "lower", "put", "squar", "jibe",
                   "discrep", "disagr", "disagre", "contradict", "contradictori", "inconsist",  # "tell the same story"
                   "talli", "vs", "versus"}  # "surrender tallies - coalition vs council?"


_WHICH_WAY = re.compile(r"\b(?:which (?:way|direction)|what direction)s?\b", re.I)  # not "in what way": how
ASKS_END = re.compile(r"\bwhen (?:will|would|does|do|is|are|should)\b.*\b(?:stop|end|be over|finish|cease|wrap up|conclude)\b", re.I)
_WHICH_TIME = re.compile(r"\b(?:what|which|exact)\s+(?:\w+\s+)?(?:day|date|year|month|time)\b", re.I)
_TIME_UNITS = {"day", "date", "year", "month", "time", "calendar", "exact", "specif", "precis"}
_FIRST_TIME = re.compile(r"\bwhen\b.*(?<!\bthe)(?<!\ba)(?<!\bits)(?<!\btheir)(?<!\bhis)(?<!\bher)\s+first\b(?!\s+time\b)", re.I)  # not "the first convoy"
_WHO_RUNS = re.compile(r"\bwho(?:[’']s|\s+(?:\w+\s+)?(?:is|was|are|were))?\s+(?:actually\s+|really\s+)?(?:runs?|running|ran|in charge)\b(?!\s+(?:out|away|off|from|into)\b)", re.I)
_RUNNING = {"run", "charg"}  # stems of "runs", "in charge"
_HOW_LONG_SO_FAR = re.compile(r"\bhow long\s+(?:has|had|have|is|was|were)\b", re.I)
_LASTING = {"continu", "last", "rage", "run", "go", "drag"}  # stems of the verbs "how long has it …" asks by
_ENDING = {"stop", "end", "finish", "ceas", "wrap", "conclud"}  # stems of the verbs ASKS_END asks by
_MAKING_UP = {"make", "compos", "composit", "compris", "consist", "group", "kind", "type", "sort", "ethnic", "makeup", "like"}  # stems of "makes up", "composed of", …


_UNTIL_NOW = re.compile(r"\b(?:so|thus) far\b|\bto date\b|\b(?:up )?(?:to|till|until) now\b|\bas (?:of|at) (?:now|yet|today|this point)\b", re.I)
_IS_THAT_RIGHT = re.compile(r"\b(?:is|was|isn[’']?t|wasn[’']?t)\s+(?:that|this|it)\s+(?:really\s+)?(?:right|true|correct|so|accurate)\b", re.I)


def _topic_terms(text: str) -> list[str]:
    text = OUTLETS.sub(" ", re.sub(r"\bhow long\b", "how", text, flags=re.I))
    text = re.sub(r"\b(?:(?:mean|meant|means)\s+)?(?:the\s+)?same\s+thing\b", "same", text, flags=re.I)  # "do they mean the same thing?"
    text = _IS_THAT_RIGHT.sub(" ", text)  # "… is that right?": no topic of its own
    text = _UNTIL_NOW.sub(" ", text)  # "how many have surrendered so far?": when, not what
    text = _HOW_SAID.sub(" ", text)  # "the YPG guy flat out denies it on the record": how it was said, not what
    return [t for t in terms(text) if t not in _ABOUT_ACCOUNTS]  # "long": the kind asked


# "flat" only as a manner ("flatly", "flat out", "a flat denial"), not a home
_HOW_SAID = re.compile(r"\b(?:flatly|flat[\s-]+out|flat(?=\s+denials?\b)|outright|categorically|point[- ]blank|"
                       r"(?:on|off)\s+(?:the\s+)?record)\b", re.I)


def _leans_on_history(text: str, own_terms: list[str]) -> bool:
    return bool(_ANAPHORA.search(text)) or len(own_terms) <= 2


def normalise_history(history: object) -> list[dict]:
    """Chat messages as role/content dicts. Accepts that form and [user, assistant] pairs
    (Gradio's older tuples format); anything else in the list is ignored, not fatal."""
    messages: list[dict] = []
    for item in history if isinstance(history, (list, tuple)) else []:
        if isinstance(item, dict) and item.get("role") in ("user", "assistant"):
            messages.append({"role": item["role"], "content": str(item.get("content") or "")})
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            messages += [{"role": r, "content": str(c)} for r, c in zip(("user", "assistant"), item) if c]
    return messages


def _previous_turns(history: list[dict]) -> tuple[str, str] | None:
    user = next((m.get("content", "") for m in reversed(history) if m.get("role") == "user"), "")
    assistant = next((m.get("content", "") for m in reversed(history) if m.get("role") == "assistant"), "")
    return (str(user), str(assistant)) if user or assistant else None


def _strip_markers(text: str) -> str:
    return re.sub(r"\[\d+\]", "", text)
