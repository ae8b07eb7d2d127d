"""Question-aware ranking of evidence, and grouping of syndicated copies.

`rank` scores each retrieved sentence by how much of the question it covers (IDF-weighted
term overlap, with a little credit for terms in its neighbours, so "…, he said" keeps the
topic of the sentence before) and by dense similarity, then by whether it holds what the
question asks for: a figure for "how many" (best when the figure counts the asked-for
thing), a time for "when", a name for "who", and so on. `group_copies` folds sentences
that say the same thing in several articles into one `Statement` that cites every copy.

What it does not do: decide to abstain or compose text — the answerers do, from `relevance`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from assistant.claims import EVENTS, quantity_claims
from assistant.discrepancies import ASKS_SHARE, PEOPLE, counts_what_is_asked, question_event
from assistant.index import Index, Sentence
from assistant.question import ASKS_END, Question, spelled_out
from assistant.retrieval import Evidence
from assistant.text import INSTANCES, ORG_WORDS, OUTLETS, acronym_names, covered, fold_phrasal, names, numbers, stem, term_set, terms, words

_DURATION = r"(?:hours?|days?|weeks?|months?|years?|minutes?|decades?|times?)"
# Names of days and months are matched as capitalised ("May", not "may"); the rest in any case ("Last night, …").
TIME = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|(?:19|20)\d\d"
                  r"|(?i:yesterday|today|tonight|overnight|last night|morning|afternoon|evening|(?:past|last|next) (?:\d+|\w+) " + _DURATION
                  + r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|few|many) " + _DURATION + r"))\b")
DURATION = re.compile(r"\b(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|a few|many) " + _DURATION
                      + r"|(?:for|spent|took|lasted) (?:hours|days|weeks|months|years))\b", re.I)
FOCUS = 0.12  # a question's term used by fewer than this share of sentences is what it is specifically about
INSTANCE_FIT = 0.2  # a sentence telling instances of what the question names in general (`text.INSTANCES`)
MISSPELT = 0.88  # a question's word (6+ letters) the corpus never uses, this close to one it does, is that word misspelt
KNOWN_SPELLING = 0.8  # a question's name (5+ letters) this close to a corpus word is that word misspelt ("Sellow")
# "what did X say / make of / think of …": X is the party asked to speak
_ASKED_SPEAKER = re.compile(r"\b(?:what|how)\s+(?:did|does|do|has|have|had|would|will)\s+(?P<who>(?:[\w’'\-]+\s+){1,5}?)"
                            r"(?:say|said|make of|think|react|respond|reply|tell|feel|view)\b"  # "what did damascus say …"
                            r"|^\W*what\s+(?P<bare>(?:[\w’'\-]+\s+){1,5}?)(?:say|says|said|thinks?|thought)\b"  # "what the
                            # government of assad said about the deal?"
                            r"|\b(?:has|have|did|does|do)\s+(?P<whether>(?:[\w’'\-]+\s+){1,5}?)(?:say|said|comment\w*|react\w*|"
                            r"respond\w*)\s+(?:anything|something|publicly|officially)\b", re.I)  # "has damascus said anything …?"
_WRITINGS = {"piec", "report", "articl", "stori", "stor", "outlet", "paper", "wire", "copi", "copy", "version", "sourc", "account",
             "coverag", "headlin", "press", "media", "news"}
_AUXILIARY = {"did", "does", "do", "has", "have", "had", "would", "will", "is", "are", "was", "were", "can", "could"}
_ANYONE = {"guy", "folk", "peopl", "anyon", "everyon", "other", "they", "them", "he", "she", "it", "local", "offici",
           "side", "parti", "someon", "somebodi", "anybodi", "everybodi"}  # "what does the kurdish side say?": the Kurds, whatever the articles call their party
_WHO_SAID = re.compile(r"^\s*(?:and\s+|so\s+|but\s+|then\s+)?who\s+(?:\w+\s+)?(?:said|says|say|told|tells|claimed|stated)\b", re.I)
_GOES_ON = re.compile(r"\b(?:go(?:es)? on|went on|going on|continue[sd]?|last(?:s|ed)?|keep going|(?:keep|kept) (?:on )?\w+ing)\b", re.I)
# "how long have they been fighting?", "how long has the fight lasted?": a perfect tense asks how
# long so far; "how long have they said they'd keep fighting?" still asks until when
_SO_FAR = re.compile(r"\bhow long\s+(?:have|has|had)\b(?!.*(?:\b(?:will|would|going to|until|till)\b|[’']d\b))", re.I)
ASKS_DATE = re.compile(r"\b(?:what|which|exact)\s+(?:\w+\s+)?date\b", re.I)  # "on what calendar date"
ASKS_MONTH = re.compile(r"\b(?:what|which)\s+month\b", re.I)
ASKS_YEAR = re.compile(r"\b(?:what|which)\s+year\b", re.I)
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_MONTHS = re.compile(rf"\b{_MONTH}\b")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
CALENDAR_DATE = re.compile(rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b")
ASKS_DURATION = re.compile(r"\bhow long\b(?!\s+a\b)|\b(?:until|till) when\b|\b(?:until|till)\s*\?*\s*$|\bwhat (?:period|time ?span|length of time)\b|\bhow many (?:days|hours|weeks|months)\b", re.I)
CHOICE = re.compile(r"\beither\b.+\bor\b|\bwhether to\b.+\bor\b|\b(?:choice|choose) between\b|\b(?:options?|choices?|alternatives?)\b", re.I)
# "an alliance of …", "made up of …", "a Kurdish-Arab militia alliance" (two capitalised parts: not "US-led … coalition")
MADE_OF = re.compile(r"\b(?:alliance|coalition|union|federation|grouping|umbrella|mix|group) of\b|\bmade up of\b|\bcompris\w+\b"
                     r"|\bcomposed of\b|\bconsist\w* of\b|(?-i:\b[A-Z][\w]+-[A-Z][\w]+) (?:\w+ )?(?:alliance|coalition|force)\b"
                     r"|(?-i:\b[A-Z]\w*[’']s\s+[A-Z][a-z]+(?:,\s+[A-Z][a-z]+)*\s+and\s+[A-Z][a-z]+)\s+"  # "the SDF's Arab and Kurdish fighters"
                     r"(?:fighters|forces|militias?|members|troops|units)\b", re.I)
REASON = re.compile(r"\b(?:because|so (?:that|they|as)|in order to|to (?:prevent|minimi[sz]e|avoid|guarantee|ensure|secure|accelerate|allow|stop|end|protect)|as a way|due to|for fear|aimed at|sought to|wanting to)\b", re.I)


@lru_cache(maxsize=65536)  # asked of the same sentences question after question
def offers_choice(text: str) -> bool:
    """Does `text` state a choice ("they either stay and fight or they surrender", "the options are …")?"""
    return bool(CHOICE.search(text))


@lru_cache(maxsize=65536)  # asked of the same sentences question after question
def gives_reason(text: str) -> bool:
    """Does `text` give a reason ("… to prevent …", "because …", "for fear …")?"""
    return bool(REASON.search(text))


@dataclass
class Scored:
    evidence: Evidence
    relevance: float  # how well the sentence covers the question, 0..1
    fit: float        # bonus or penalty for holding what the question asks for
    also_fit: float = 0.0  # the same for the second part of a two-part question
    penalty: float = 0.0   # what a headline loses against the body sentence that says it in full
    first_fit: float | None = None  # of a two-part question, the fit for its first part alone

    @property
    def score(self) -> float:
        return self.relevance + self.fit - self.penalty

    @property
    def sentence(self) -> Sentence:
        return self.evidence.sentence


@dataclass
class Statement:
    """One thing said, by one or more articles (syndicated copies)."""

    text: str
    copies: list[Scored] = field(default_factory=list)

    @property
    def best(self) -> Scored:
        return max(self.copies, key=lambda s: s.score)

    @property
    def sentences(self) -> list[Sentence]:
        return [c.sentence for c in self.copies]


class Ranker:
    def __init__(self, index: Index):
        self.index = index
        self._parts: frozenset[str] | None = None
        self._by_start: dict[str, list[str]] | None = None
        self._speakers: dict[Sentence, frozenset[str]] = {}  # per sentence, for the index's lifetime
        self._figures: dict[Sentence, tuple] = {}            # likewise
        self._near: dict[Sentence, frozenset[str]] = {}      # likewise
        self._roles: dict[tuple[str, str], frozenset[str]] = {}  # per article and name

    def weight(self, term: str) -> float:
        """Inverse document frequency over sentences; a word the corpus never uses weighs most."""
        lexicon = self.index.lexicon
        return math.log((lexicon.n_sentences + 1) / (lexicon.df.get(term, 0) + 0.5)) + 1

    def share(self, term: str) -> float:
        """The share of sentences that use `term`."""
        lexicon = self.index.lexicon
        return lexicon.df.get(term, 0) / max(lexicon.n_sentences, 1)

    def focus(self, question: Question) -> tuple[str, ...]:
        """The question's own terms that few sentences use (`FOCUS`), rarest first, at most three."""
        rare = sorted((self.index.lexicon.df.get(t, 0), t) for t in set(question.terms)
                      if 0 < self.share(t) < FOCUS and t != "is")
        return tuple(t for _, t in rare[:3])

    def unknown_names(self, question: Question) -> list[str]:
        """Names in the question that no article uses, in any spelling close to it: "Was Abu
        Bakr al-Baghdadi in Raqqa?" asks about someone the articles never mention. A single
        capitalised word that opens a sentence of the question ("Summarise …") is no name."""
        text = _without_aside(question.text)
        unknown = [name for name in asked_names(text) if terms(name)
                   and not any(self._known(t) for t in terms(name)) and not self._known_compound(name)]
        return unknown + [word for word in self._asked_speakers(text) if word.lower() not in map(str.lower, unknown)]

    def _asked_speakers(self, text: str) -> list[str]:
        """Words in lower case of the party a question asks to speak that no article uses:
        "what did damascus or moscow make of the deal?" asks what nobody in the articles says."""
        asked = _ASKED_SPEAKER.search(text)
        if not asked:
            return []
        who = re.findall(r"[\w’'\-]+", asked.group("who") or asked.group("bare") or asked.group("whether"))
        if asked.group("bare") and _AUXILIARY & {w.lower() for w in who}:
            return []  # "what the heck did they say": the party comes after the auxiliary
        if any(stem(w) in _WRITINGS for w in who):
            return []  # "what do the other pieces say": the articles themselves
        return [word for word in who
                if word.islower() and terms(word) and not set(terms(word)) & _ANYONE  # a capitalised one is a name above
                and not any(self._known(t) for t in terms(word))]

    def _known_compound(self, name: str) -> bool:
        """ "SDF-held" is known when its named part is: the articles say "held by the SDF"."""
        parts = [p for w in name.split() if "-" in w for p in w.split("-") if p[:1].isupper()]
        return bool(parts) and all(any(self._known(t) for t in terms(p)) for p in parts)

    def _known(self, term: str) -> bool:
        vocabulary = self.index.lexicon.df
        if vocabulary.get(term, 0) > 0 or term in self._hyphen_parts():  # "US" in "US-backed"
            return True
        if any(self._known(other) for other in _ALIASES.get(term, ())):  # "the French" in articles on France
            return True
        spellings = self._spellings(term[:2])
        if len(term) >= 6 and any(w.startswith(term[:max(5, len(term) - 3)]) for w in spellings):
            return True  # "Lebanese" and the articles' "Lebanon" (in "Syrian-Lebanon"), "Iraqis" and "Iraq"
        return len(term) >= 5 and bool(difflib.get_close_matches(term, spellings, n=1, cutoff=KNOWN_SPELLING))

    def spelled_right(self, term: str) -> str:
        """`term` as the articles spell it, when the corpus never uses it but a word very like
        it ("civillian" -> "civilian"); else `term` itself."""
        if len(term) < 6 or self.index.lexicon.df.get(term, 0) > 0:
            return term
        close = difflib.get_close_matches(term, self._spellings(term[:2]), n=1, cutoff=MISSPELT)
        return close[0] if close else term

    def _spellings(self, start: str) -> list[str]:
        """Corpus words that begin like `start`: a misspelt name keeps its first letters."""
        if self._by_start is None:
            self._by_start = defaultdict(list)
            for word in set(self.index.lexicon.df) | self._hyphen_parts():
                self._by_start[word[:2]].append(word)
        return self._by_start.get(start, [])

    def _hyphen_parts(self) -> frozenset[str]:
        if self._parts is None:
            self._parts = frozenset(stem(p) for t in self.index.lexicon.df if "-" in t for p in t.split("-") if p)
        return self._parts

    def copies_of(self, sentence: Sentence) -> list[Sentence]:
        """Sentences in other articles that say exactly this (up to spelling and punctuation)."""
        return self.index.lexicon.copies_of(sentence)

    def rank(self, question: Question, evidence: list[Evidence]) -> list[Scored]:
        wanted = self.wanted(question)
        scored = [self._scored(question, wanted, e) for e in evidence]
        return sorted(scored, key=lambda s: s.score, reverse=True)

    def _scored(self, question: Question, wanted: list[tuple[str, float]], evidence: Evidence) -> Scored:
        """One candidate's relevance and fits; of a two-part question ("who runs it and where is
        it based?"), its fit is the better of its two parts', each kept for the answerer."""
        s = evidence.sentence
        kind = self._fit(question.kind, question, s)
        first = kind + self._words_fit(question, s) + (CAPTION_FIT if ASKS_PHOTO.search(question.text) and self.is_caption(s) else 0.0) \
            + (INSTANCE_FIT if self._tells_instances(question, s) else 0.0)
        also = self._fit(question.also, question, s) if question.also else 0.0
        return Scored(evidence, self.relevance(wanted, evidence, question), max(first, also) if question.also else first,
                      also, HEADLINE if headline(s.text) else 0.0, kind if question.also else None)

    def wanted(self, question: Question) -> list[tuple[str, float]]:
        """The question's terms with their weights: its own at full IDF, borrowed context at half."""
        own = [(t, self.weight(t)) for t in dict.fromkeys(question.terms)]
        own += [(f"#{n}", self.weight(f"#{n}")) for n in sorted(numbers(question.text))]  # "who said 275 left?": the figure
        context = dict.fromkeys(question.context_terms + terms(" ".join(question.context_names)))
        return own + [(t, 0.5 * self.weight(t)) for t in context if t not in question.terms and t not in question.earlier_party]

    def relevance(self, wanted: list[tuple[str, float]], evidence: Evidence, question: Question) -> float:
        lexicon = self.index.lexicon
        own = _by_acronym(lexicon.terms_of(evidence.sentence) | self.speaker_terms(evidence.sentence), question)
        own |= {f"#{n}" for n in numbers(evidence.sentence.text)}
        if ASKS_PHOTO.search(question.text) and self.is_caption(evidence.sentence):  # its credit, split off, is part of it
            own |= frozenset().union(*(lexicon.terms_of(s) for s in self.neighbours(evidence.sentence, 0, 1)))
        near = self.near_terms(evidence.sentence)
        total = sum(w for _, w in wanted) or 1.0
        told = lambda t: t in own or not own.isdisjoint(INSTANCES.get(t, ()))  # noqa: E731  "atrocities": "killed …"
        covered = sum(w * (1.0 if told(t) else 0.3 if t in near else 0.0) for t, w in wanted)
        return 0.5 * covered / total + 0.5 * max(evidence.dense, 0.0)

    def _tells_instances(self, question: Question, sentence: Sentence) -> bool:
        """Does the sentence tell instances of what the question names in general ("which
        atrocities?": "killed dozens of captured soldiers"), not only name it ("the stage for
        some of its darkest atrocities")?"""
        wanted = covered(question.terms)
        return bool(wanted) and not self.index.lexicon.terms_of(sentence).isdisjoint(wanted)

    def _words_fit(self, question: Question, sentence: Sentence) -> float:
        """ "How did Col. Dillon characterise the arrangement?" asks for his words: his quotations
        ("“This is a local solution,” he said.") hold them, whatever they share with the question."""
        words = ASKS_WORDS.search(question.text)
        if not words:
            return 0.0
        if not QUOTED.search(sentence.text):  # "Bali described the civilians … as human shields.": just what was asked
            verb = words.group(1)[:6]
            told = re.search(rf"\b[A-Z][\w\-]+\s+{re.escape(verb)}\w*\b", sentence.text)
            return 2 * WORDS_FIT if told and set(question.terms) & self.index.lexicon.terms_of(sentence) else 0.0
        speaker = self.index.lexicon.speaker_of(sentence)
        asked = set(terms(" ".join(names(question.text) | set(question.context_names))))
        return WORDS_FIT if speaker and asked & set(terms(speaker.name)) - TITLE_TERMS else 0.0

    def _fit(self, kind: str, question: Question, sentence: Sentence) -> float:
        """Bonus when the sentence holds the kind of answer the question wants, penalty when it cannot."""
        text = sentence.text
        if kind == "number":
            return _number_fit(question, sentence, self.figures(sentence),
                               lambda: " ".join(s.text for s in self.neighbours(sentence, 1, 0)))
        asks_end = kind == "time" and ASKS_END.search(question.text)  # "when will the fighting stop?": "… until the city is clean"
        if kind == "time" and (ASKS_DURATION.search(question.text) or asks_end):  # "how long will it go on?": the same
            ends_until = re.search(r"\b(?:until|till)\s*\?*\s*$", question.text, re.I)  # "what would it go on until?"
            so_far = _SO_FAR.search(question.text)  # "how long have they been fighting?": how long so far, not until when
            until = not so_far and (_GOES_ON.search(question.text) or asks_end or ends_until or re.search(r"\b(?:until|till) when\b", question.text, re.I)) \
                and re.search(r"\buntil\b(?!\s+(?:the\s+(?:very\s+|bitter\s+)?end|this|that|now|today)\b)", text, re.I)  # "until the end",
                # "until this very moment": no end told
            if ends_until or asks_end:
                return 0.25 if until else 0.05 if DURATION.search(text) else -0.1
            return 0.2 if DURATION.search(text) or until else -0.1
        years, told_years = (set(_YEAR.findall(question.text)), set(_YEAR.findall(text))) if kind == "time" else (set(), set())
        if years and told_years and not years & told_years:
            return -0.15  # "what month in 2014?" is not answered by "in November 2015"
        if kind == "time" and ASKS_YEAR.search(question.text):  # "what year did IS take Raqqa?": a year
            return 0.15 if told_years - years else -0.15
        if kind == "time" and ASKS_MONTH.search(question.text):  # "what month in 2014?": a month the question does not give
            return 0.15 if any(m.group() not in question.text for m in _MONTHS.finditer(text)) else -0.15
        if kind == "time" and ASKS_DATE.search(question.text):  # "on what date …?": a calendar date, not a year or a weekday
            return 0.15 if CALENDAR_DATE.search(text) else -0.15
        if kind == "time":  # a time the question does not give already: "what month in 2014?" is not answered by "in 2014"
            told = [t.group() for t in TIME.finditer(text) if t.group().lower() not in question.text.lower()]
            if not told:
                return -0.15
            # "when did they get into Raqqa?": "in June" says when; "after four months of battle" only how long since
            return 0.15 if any(not DURATION.fullmatch(t) for t in told) else 0.05
        if kind == "person":
            speaker = self.index.lexicon.speaker_of(sentence) if _WHO_SAID.search(question.text) else None
            if speaker and _new_names(question, speaker.name):  # "who said that?": "…, he added." after "…, Colonel Ryan Dillon said."
                return 0.2
            before = " ".join(s.text for s in self.neighbours(sentence, 1, 0))
            fit = _person_fit(question, text, before, lambda name: self.roles(sentence.source, name))
            return 0.15 if fit <= 0.08 and named_next(self.index, sentence, question) is not None else fit  # the next sentence names them
        if kind == "place":
            return _place_fit(question, text)
        if kind == "reason":  # the reason in this sentence, or in the next one ("…, wanting to …, he said.")
            following = self.neighbours(sentence, 0, 1)
            tells = self.index.lexicon.tells
            return 0.12 if tells(sentence, "reason") else 0.1 if following and tells(following[0], "reason") else 0.0
        if kind == "choice":  # "what choices did they have?": "they either stay and fight or surrender"
            return 0.2 if self.index.lexicon.tells(sentence, "choice") else 0.0
        if kind == "composition":  # "who makes up the SDF?": "…, a Kurdish-Arab militia alliance"
            return 0.2 if MADE_OF.search(text) else 0.0
        if kind == "definition":  # "what exactly is the SDF?": "the Syrian Democratic Forces (SDF), a US-backed alliance …"
            return 0.2 if _defines(question, text) else 0.0
        return 0.0

    def figures(self, sentence: Sentence) -> tuple:
        """The sentence's figures as claims: those ingest saved, or read afresh when the claim
        code has changed since. They do not change between questions."""
        if sentence not in self._figures:
            saved = self.index.lexicon.claims_of(sentence.source, sentence.index)
            self._figures[sentence] = tuple(c for c in saved if c.kind == "quantity") if saved is not None \
                else tuple(quantity_claims(sentence, None))
        return self._figures[sentence]

    def roles(self, source: str, name: str) -> frozenset[str]:
        """The roles article `source` gives the person `name` (`roles_in`), read once, of the
        sentences ingest found giving any (`gives_roles`)."""
        if (source, name) not in self._roles:
            surname, tells = name.split()[-1], self.index.lexicon.tells
            rows = [s for s in self.index.sentences.get(source, []) if surname in s.text and tells(s, "role")]
            self._roles[(source, name)] = roles_in(name, rows)
        return self._roles[(source, name)]

    def speaker_terms(self, sentence: Sentence) -> frozenset[str]:
        """The terms of who says the sentence when another sentence names them: "…," he said
        is about what "coalition spokesman Colonel Ryan Dillon" says."""
        if sentence not in self._speakers:
            speaker = self.index.lexicon.speaker_of(sentence)
            elsewhere = speaker is not None and speaker.named_in != sentence
            self._speakers[sentence] = frozenset(terms(speaker.name)) if elsewhere else frozenset()
        return self._speakers[sentence]

    def near_terms(self, sentence: Sentence) -> frozenset[str]:
        """The terms of the sentences just before and after `sentence` in its article."""
        if sentence not in self._near:
            self._near[sentence] = frozenset().union(*(self.index.lexicon.terms_of(s) for s in self.neighbours(sentence)))
        return self._near[sentence]

    def is_caption(self, sentence: Sentence) -> bool:
        """Does `sentence` describe a photo: it carries the credit ("…, Syria October 10, 2017. (Photo:
        Reuters)"), or the next sentence is the credit alone, as a sentence splitter leaves it?"""
        credit = CAPTION.search(sentence.text)
        if credit:
            return len(sentence.text) - len(credit.group()) > MIN_CAPTION
        following = self.neighbours(sentence, 0, 1)
        return bool(following) and len(following[0].text) <= MIN_CAPTION + 10 and bool(CAPTION.search(following[0].text)) \
            and len(sentence.text) > MIN_CAPTION

    def neighbours(self, sentence: Sentence, before: int = 1, after: int = 1) -> list[Sentence]:
        rows = self.index.sentences.get(sentence.source, [])
        return [s for s in rows[max(0, sentence.index - before):sentence.index + after + 1] if s.index != sentence.index]


def _without_aside(text: str) -> str:
    """The question without what the asker adds after it that asks nothing ("… leave? Some of my
    constituents fear they'll turn up in Europe."; "…? sounds like PR tbh"): a name there is
    the asker's, not one the articles must mention."""
    asked = text.rfind("?")
    aside = text[asked + 1:].strip() if asked > 0 else ""
    return text[:asked + 1] if aside and not _ASKS.match(aside) else text


_ASKS = re.compile(r"(?:and |but |so |or )?(?:who|whom|whose|what|when|where|why|how|which|is|are|was|were|do|does|did|can|could|will|"
                   r"would|has|have|had|should)\b", re.I)  # "…? Is Zorland involved": a second question, its mark left out


def asked_names(text: str) -> list[str]:
    """The names a question asks about: its capitalised words or runs of them, but not a single
    word that opens one of its sentences ("Summarise …") nor the outlet telling the story, nor
    an abbreviation of a common noun ("did they check their IDs?")."""
    openers = {m.group(1) for m in re.finditer(r"(?:^|[.?!]\s+)[\"“'‘(]?([A-Z][\w’'\-]*)", text)}
    return [name for name in sorted(names(OUTLETS.sub(" ", text)))
            if name not in openers and re.sub(r"[’']s$", "", name) not in _COMMON_ABBREVIATIONS]  # "the MP's office"


# Abbreviations of common nouns, written in capitals but naming no one
_COMMON_ABBREVIATIONS = {"ID", "IDs", "TV", "OK", "DNA", "GPS", "PM", "MP", "MPs", "AM", "FAQ", "HQ", "VIP", "VIPs"}
# Words the articles may write another way: a people and its country, a month and its abbreviation (as stems)
_ALIASES = {stem(a): tuple(stem(w) for w in b.split()) for a, b in {
    "french": "france", "american": "america us", "americans": "america us", "dutch": "netherlands holland",
    "turkish": "turkey", "spanish": "spain", "danish": "denmark", "swedish": "sweden", "swiss": "switzerland",
    "greek": "greece", "irish": "ireland", "scottish": "scotland", "welsh": "wales", "polish": "poland",
    "finnish": "finland", "norwegian": "norway", "chinese": "china", "iraqi": "iraq", "iraqis": "iraq",
    "iranian": "iran", "israeli": "israel", "egyptian": "egypt", "jordanian": "jordan", "saudi": "saudi arabia",
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november", "dec": "december"}.items()}


ASKS_WORDS = re.compile(r"\bhow (?:did|does|do|has|have|would) (?:[\w.\-’']+ ){1,5}?(characteri[sz]e|describe|call|"
                        r"sum(?:marise|marize)? up|portray|depict|put it|label|term|explain|justify|defend)\b", re.I)
QUOTED = re.compile(r"[\"“”]")
WORDS_FIT = 0.15
# a photo's caption, as the articles print it: "… at a military camp in Ain Issa, Syria October 10, 2017. (Photo:
# Reuters)", "REUTERS/Jane Doe", "AFP PHOTO / …"
CAPTION = re.compile(r"\((?:file\s+)?(?:photo(?:graph)?|picture|image|pic)\s*:\s*[^)]{1,60}\)|\b(?:REUTERS|AFP|AP)/[A-Z]|"
                     r"\bAFP PHOTO\b|^(?:photo(?:graph)?|picture|image)\s*:", re.I)
# a question about a photo: "what's the photo in the Reuters piece showing?", "what does the caption say?"; not "the
# big picture", "paint a picture", "need a name for the caption"
ASKS_PHOTO = re.compile(r"\b(?:photo(?:graph)?s?|pics?|images?|cutline)\b|(?<!\bfor the )(?<!\bfor a )(?<!on-screen )\bcaptions?\b"
                        r"|\b(?:the|that|this)\s+picture\b", re.I)
CAPTION_FIT = 0.25
MIN_CAPTION = 20  # characters a caption has besides its credit
TITLE_TERMS = {"colonel", "col", "mr", "ms", "dr", "general", "spokesman", "head"}


def _defines(question: Question, text: str) -> bool:
    """Does `text` say what the question's name is: the name (or a run of capitalised words
    whose initials spell it) followed by ", a/an …" or "is a/an …"?"""
    initials = lambda name: "".join(w[0] for w in name.split() if w[:1].isupper())  # noqa: E731
    asked = {n.lower() for n in names(question.text) or _lower_case_name(question.text)}  # compared in any case
    for match in _APPOSITIVE.finditer(text):
        named = match.group(1).strip("() ")
        short, words_of = initials(named).lower(), [w.strip("()").lower() for w in named.split()]
        if any(n in (named.lower(), short) or n in words_of or named.lower() == "".join(w[0] for w in n.split())
               for n in asked):
            return True  # "SDF" for "Syrian Democratic Forces (SDF), a …"; "RCC - a …" for "the Raqqa Civil Council"
    return False


_APPOSITIVE = re.compile(r"((?:\(?[A-Z][\w\-’']*\)?\s*)+?)\)?(?:(?:,|\s+[-–—])?\s+(?:(?:is|was|are|were)\s+)?(?:a|an)\s+"
                         r"(?!\w+\s+(?:of|for)\b)|,\s+(?:formed|founded|set up|created|established)\s+(?:by|under|in|to)\b)", re.M)
# "…, formed under SDF auspices to oversee the city": a participle says what it is too


def _lower_case_name(text: str) -> set[str]:
    """ "what exactly is the raqqa civil council": the asked name, typed in lower case."""
    asked = re.search(r"\b(?:is|are|was|were)\s+(?:exactly\s+)?(?:the\s+)?([a-z][\w\-’' ]+?)\s*\?*\s*$", text)
    return {asked.group(1)} if asked and text.islower() else set()


HEADLINE = 0.2  # a headline states what the story's sentences say in full and attribute


def headline(text: str) -> bool:
    """A headline or crosshead ("Final Raqa push begins"): no sentence-ending punctuation."""
    return not re.search(r"[.!?][\"'”’)\]]*\s*$", text)


def _by_acronym(own: frozenset[str], question: Question) -> frozenset[str]:
    """A sentence that writes "SDF" covers the question's "Syrian Democratic Forces"."""
    spelled = [name for acronym, name in acronym_names(question.text) if acronym in own]
    return own.union(*spelled) if spelled else own


_ROLE = (r"(spokes(?:man|woman|person)|head|leader|commander|chief|official|minister|president|"
         r"director|colonel|general|envoy|monitor|mayor|governor|member)s?\b")
_ROLES = re.compile(r"\b" + _ROLE, re.I)


def role_stems(text: str) -> set[str]:
    """The stems of the roles `text` names ("spokesperson" is a "spokesman")."""
    return {stem(m.group(1)) for m in _ROLES.finditer(text)}


_STRICT_PERSON = re.compile(r"\bnames? of\b|\bwho (?:is|was|are|were) the\b|\bwhich (?:\w+ )?(?:official|spokes\w+|"
                            r"person|commander|leader|head|chief)\b|\bwho (?:(?:is|was|are|were) )?(?:heads?|leads?|runs?|commands?|"
                            r"heading|leading|running|commanding|headed|led|ran|commanded|in charge)\b", re.I)
# who a group was, asked of the many ("who were the victims?"), and a group told by who they are ("Yazidi women")
_WHO_WERE_THE_MANY = re.compile(r"\bwho (?:are|were) the (?:\w+ )?(?:victims|dead|casualties|captives|prisoners|hostages|ones|people)\b", re.I)
_A_PEOPLE = re.compile(r"\b(?!The\b|A\b|An\b)[A-Z][a-z]+\s+(?:[a-z]+(?:men|ers|ors|ists|ians|ants|ents|ees)|women|children|boys|girls|"
                       r"families|hostages|captives|refugees|pilgrims)\b")
# The roles a question's verb asks for: "Who was commanding the fighters?" wants a commander.
_ROLE_VERBS = [(re.compile(r"\bwho (?:(?:is|was|are|were) )?command\w*", re.I), {"command"}),
               (re.compile(r"\bwho (?:(?:is|was|are|were) )?(?:leads?|leading|led|heads?|heading|headed|runs?|running|ran|in charge)\b", re.I),
                {"leader", "head", "chief", "command", "director"})]
_ASKS_GROUP = re.compile(r"\b(?:which|what) (?:\w+ )?(?:group|organi[sz]ation|militia|alliance|force|monitor|agency|"
                         r"outlet|unit|party|faction|movement)s?\b", re.I)
_PARTNER = re.compile(r"^\s*(?:and\s+)?who\s+(?:[\w’'\-]+\s+){0,6}?([a-z]+(?:ing|ed))\s+(?:with|alongside)\b", re.I)
_AGENT = re.compile(r"\b(?:was|were|is|are|been|being)\s+\w+ed\s+by\s+(?:the\s+|a\s+|an\s+)?\w+", re.I)
_PLACE_CUES = re.compile(r"\w-based\b|\bbased (?:in|at)\b|\b(?:province|territory|territories|border|region|areas?|valley|river|towards?|destinations?|"
                         r"enclave|city of|countries|country)\b"
                         r"|\b(?:in|at|near|inside)\s+(?:a|an)\s+(?:[\w\-]+\s+){0,2}(?:building|house|prison|jail|camp|compound|installation"
                         r"|facility|base|village|hospital|school|stadium|mosque|square|plant|site|basement|cave|tunnel)s?\b", re.I)
# "according to Mr Abdel Rahman", "told Reuters", "to Col Dillon": a person or outlet after the preposition
_NOT_A_PLACE = re.compile(r"\baccording to (?:the )?\w+$|\b(?:Mr|Mrs|Ms|Dr|Col|Colonel|Gen|General|Lt|Sheikh|President|"
                          r"Minister|Spokesman|Spokeswoman)$")
_NAMES_A_PLACE = re.compile(r"\b(?:which|what) (?:\w+ )?(?:city|cities|town|towns|province|provinces|country|countries|"
                            r"village|villages|region|state|states|nationality|nationalities)\b|\bname of the (?:city|town|province|country)\b", re.I)
PLACE = re.compile(r"\b(?:in|to|towards|toward|into|near|along|at|(?:town|city|village|stronghold|province|capital|bastion|port|enclave) of)\s+((?:the\s+)?[A-Z][\w’'\-]+(?:\s+[A-Z][\w’'\-]+)*)")
REGION = re.compile(r"\b((?:the\s+)?[A-Z][\w’'\-]+(?:\s+[A-Z][\w’'\-]+)*)\s+(?:border|frontier|province|region|valley)\b")  # "on the Syrian-Lebanon border"
ORIGIN = re.compile(r"\bfrom\s+((?:the\s+)?[A-Z][\w’'\-]+(?:\s+[A-Z][\w’'\-]+)*)")
_ASKS_ORIGIN = re.compile(r"\bcomes? from\b|\bcame from\b|\bhail(?:s|ed)? from\b|\bfrom\s*\??$|\borigins?\b|"
                          r"\bnationalit(?:y|ies)\b", re.I)


def _number_fit(question: Question, sentence: Sentence, found: tuple, before: Callable[[], str]) -> float:
    """How well the sentence's figures (`found`, as claims) answer a "how many"; `before` gives
    the text of the sentence before it, where the event a bare count belongs to is often told."""
    if ASKS_SHARE.search(question.text):
        found = [c for c in found if c.quantity.percent]
    if not found:
        return -0.25
    asked_event = question_event(question)
    matching = [c for c in found if counts_what_is_asked(question, c)]
    said_before = lambda: re.search(rf"\b(?:{EVENTS[asked_event]})\b", before() + " " + sentence.text, re.I)
    if any(asked_event is None or c.event == asked_event for c in matching):
        return 0.25
    if (_COUNTS_NOTHING_NAMED.search(fold_phrasal(question.text))
            or not question.target and not set(question.terms) & PEOPLE and _WHAT_NUMBER.search(question.text)) \
            and asked_event is not None and any(c.event == asked_event for c in found):
        return 0.2  # "how many did it say gave up?", "what number did the coalition give in its statement about
        # surrenders?": a count of whoever did what is asked
    if matching and asked_event is not None and all(c.event is None for c in matching) and not said_before():
        return 0.0  # a count of the thing, but of no asked event, here or just before: "they numbered about 200"
    if matching or not question.target:
        return 0.05 if asked_event is None or matching else 0.0
    return -0.05


# "what number did the coalition give …?": a figure asked for, and nothing counted named
_WHAT_NUMBER = re.compile(r"\bwhat\s+(?:number|figure|count|total|tally|estimate)\s+(?:did|does|do|has|have|had)\b", re.I)
# "how many did it say gave up?", "how many of them surrendered?": no thing counted, only what they did
_COUNTS_NOTHING_NAMED = re.compile(r"\bhow many\s+(?:of (?:them|those|these)\s+)?(?:did|do|does|have|had|has|would|will|could|"
                                   r"surrender\w*|left|leav\w*|fled|withdr\w*|remain\w*|stay\w*|die\w*|killed)\b", re.I)


def named_next(index, sentence: Sentence, question: Question) -> Sentence | None:
    """The next sentence of `sentence`'s article when `sentence` leaves a role unnamed ("But a
    spokesman for the YPG denied …") and the next one's speaker is a person it names ("…,"
    Nuri Mahmoud told AFP): who the role is. A question asking for a role ("who commands …?")
    takes only that role."""
    unnamed = _UNNAMED_ROLE.search(sentence.text)
    asked = role_stems(_asked_role(question.text))
    asked |= _roles_by_verb(question.text)
    asked -= {"offici"}  # "which YPG official?": a spokesman is one
    if not unnamed or asked and not asked & set(terms(unnamed.group(0))):
        return None
    rows = index.sentences.get(sentence.source, [])
    following = rows[sentence.index + 1] if sentence.index + 1 < len(rows) else None
    speaker = index.lexicon.speaker_of(following) if following is not None else None
    if speaker is None or speaker.named_in != following:
        return None
    person = re.findall(r"\b[A-Z][a-z][\w’'\-]*", _ROLES.split(speaker.name)[-1])  # the name after any title
    roles = role_stems(speaker.name)
    if roles and not roles & role_stems(unnamed.group(0)):
        return None  # "one of its members …" then "Union head Ravi Das said …": another person
    return following if len(person) >= 2 and not {w.lower() for w in person} & ORG_WORDS else None


def _person_fit(question: Question, text: str, before: str, roles_of: Callable[[str], frozenset[str]]) -> float:
    """`before`: the sentence before; `roles_of(name)`: the roles the article gives that person."""
    partner = _PARTNER.search(question.text)  # "Who was the council working with?": whoever it worked with
    if partner and re.search(rf"\b{re.escape(partner.group(1)[:4])}\w*\s+(?:closely\s+)?with\b", text, re.I):
        return 0.2
    if _ASKS_GROUP.search(question.text):  # "Which group spearheads the SDF?" wants an organisation
        if _group_names(question, text):
            return 0.2
        return 0.05 if _new_names(question, text) else -0.12
    people = _person_names(question, text) | {n for n in _new_names(question, text)  # "Bali described …"
                                              if " " not in n and roles_of(n)}
    roles = role_stems(_asked_role(question.text)) | _roles_by_verb(question.text)
    # the role is the person's own ("Mostafa Bali, another SDF spokesman"), not a word nearby:
    # "top leaders were based there, and hostages said Mohammed Emwazi …" names no leader; a role left unnamed just before is the one named now ("But a spokesman
    # for the YPG denied …" / "…," Nuri Mahmoud told AFP)
    has_role = not roles or any(roles & roles_of(p) for p in people) \
        or bool(roles & term_set(before)) and not _person_names(question, before)
    if people and has_role:
        return 0.2
    asked = spelled_out(question.text)
    if _WHO_WERE_THE_MANY.search(asked) and _A_PEOPLE.search(text):
        return 0.15  # "who were the victims?": "a slave market for Yazidi women captured in Iraq" tells who, by no name
    if _STRICT_PERSON.search(asked):
        return -0.15
    if _new_names(question, text) or _AGENT.search(text):  # "was brokered by the council and tribal elders"
        return 0.08
    return -0.12


_ROLE_WORD = r"(spokes(?:man|woman|person|men|women)|heads?|leaders?|commanders?|chiefs?|officials?|ministers?|" \
             r"president|directors?|colonel|general|envoys?|monitor|mayor|governor|members?)"
_UNNAMED_ROLE = re.compile(rf"\b(?:a|an|another|one)\s+(?:[\w\-’']+\s+){{0,3}}?{_ROLE_WORD}\b(?!\s+(?:[A-Z]|of the [A-Z]\w+ [A-Z]))")


def roles_in(name: str, sentences: list[Sentence]) -> frozenset[str]:
    """The role stems an article gives the person `name`, known by surname ("Bali" is the
    "Mostafa Bali, another SDF spokesman" of another sentence): "SDF spokesman Talal Selo",
    "Laila Mostafa, head of the council", "the head of the Observatory, Rami Abdel Rahman".
    A name of one word ("Raqqa") is a person only through a full name the article gives a role."""
    surname = name.split()[-1]
    return frozenset(role for s in sentences if surname in s.text for last, role in _roles_given(s.text) if last == surname)


_RUN = r"([A-Z][\w’'\-]*(?:\s+[A-Z][\w’'\-]*)+)"  # a name of two capitalised words or more
_GIVEN = [re.compile(rf"\b{_ROLE_WORD}\s+{_RUN}"),                         # "SDF spokesman Talal Selo"
          re.compile(rf"{_RUN},\s+[^,;:.\"“”]{{0,60}}?\b{_ROLE_WORD}\b"),      # "Mostafa Bali, another SDF spokesman"
          re.compile(rf"\b{_ROLE_WORD}\s+(?:of|for|at)\s+[^,;:]{{0,60}},\s+{_RUN}")]  # "the head of the council, Laila Mostafa"


def gives_roles(text: str) -> bool:
    """Does `text` name anyone with a role (`_roles_given`)?"""
    return bool(_roles_given(text))


@lru_cache(maxsize=65536)
def _roles_given(text: str) -> tuple[tuple[str, str], ...]:
    """(surname, role stem) of each person the sentence names with a role (no organisations)."""
    found = []
    for i, pattern in enumerate(_GIVEN):
        for m in pattern.finditer(text):
            role, run = (m.group(2), m.group(1)) if i == 1 else (m.group(1), m.group(2))
            if not {w.lower() for w in run.split()} & ORG_WORDS:
                found.append((run.split()[-1], stem(role.lower())))
    return tuple(found)


_ASKED = re.compile(r"\b(?:who(?:[’']s| is| was| are| were)|which|what(?:[’']s| is| was)?|names? of)\s+((?:the\s+|a\s+|an\s+)?"
                    r"(?:[\w’'\-]+\s+){0,4}?)" + _ROLE, re.I)


@lru_cache(maxsize=256)  # asked of every candidate sentence for one question
def _roles_by_verb(question: str) -> frozenset[str]:
    """The roles the question's verb asks for, its contractions written out ("who's commanding
    …?": a commander)."""
    asked = spelled_out(question)
    return next((frozenset(wanted) for verb, wanted in _ROLE_VERBS if verb.search(asked)), frozenset())


@lru_cache(maxsize=256)
def _asked_role(question: str) -> str:
    """The role the question asks a person by ("Who is the head of …", "Which SDF spokesman …"),
    not one that only says whose account it wants ("According to the Raqqa official, who …")."""
    match = _ASKED.search(spelled_out(question))
    return match.group(0) if match else ""


def _person_names(question: Question, text: str) -> set[str]:
    """Names of two or more capitalised words that are not organisations, and not from the question."""
    return {n for n in _new_names(question, text)
            if len(n.split()) >= 2 and not {w.lower() for w in n.split()} & ORG_WORDS
            and "is" not in {stem(w) for w in n.split() if w.isupper()}}  # "Syrian IS" is the group, no one


def _group_names(question: Question, text: str) -> set[str]:
    """New names of organisations: with an organisation word, or an acronym ("YPG")."""
    return {n for n in _new_names(question, text)
            if {w.lower() for w in n.split()} & ORG_WORDS or (n.isupper() and len(n) >= 2)}


def _place_fit(question: Question, text: str) -> float:
    if re.search(r"\bbased\b|\bheadquarter|\blocated\b", question.text, re.I):  # "Where is it based?": "the Britain-based …", "based in …"
        return 0.2 if re.search(r"\w-based\b|\bbased (?:in|at)\b", text) else -0.1
    asked = {stem(w) for n in names(question.text) | question.context_names for w in n.split()} | {"is"}  # "Raqa" is
    asked |= {stem(w) for w in words(f"{question.text} {question.context}")}  # the asked "Raqqa" (or the earlier turn's),
    # "deir ezzor" in lower case; IS no place
    found = ORIGIN if _ASKS_ORIGIN.search(question.text) else PLACE  # "where do they come from?": not where they go
    matches = list(found.finditer(text)) + (list(REGION.finditer(text)) if found is PLACE else [])
    places = [m.group(1) for m in matches if not {stem(w) for w in m.group(1).split() if w.lower() != "the"} <= asked
              and not {w.lower() for w in m.group(1).split()} & ORG_WORDS
              and not re.fullmatch(r"(?:the\s+)?[A-Z]{3,5}", m.group(1))  # "fell to the SDF": an organisation's acronym
              and not _NOT_A_PLACE.search(text[:m.start(1)] + m.group(1).split()[0])]
    if places:
        return 0.15
    if _NAMES_A_PLACE.search(question.text):  # "Which countries …?" is not answered by "their countries of origin"
        return -0.1
    return 0.06 if _PLACE_CUES.search(text) else -0.1  # a named place beats "unknown destinations"


def _new_names(question: Question, text: str) -> set[str]:
    asked = _stems(question.text)
    return {n for n in names(text) if not {stem(w) for w in n.split()} <= asked}


@lru_cache(maxsize=256)
def _stems(text: str) -> frozenset[str]:
    """The stems of a question's words (asked of every candidate sentence for one question)."""
    return frozenset(stem(w) for w in words(text))


def group_copies(ranked: list[Scored], own_terms: Callable[[Sentence], list[str]] | None = None) -> list[Statement]:
    """Fold near-identical sentences from different articles into one statement, best first.
    `own_terms` gives a sentence's `text.terms` (`Lexicon.own_terms`: as ingest read them)."""
    statements: list[Statement] = []
    keys: list[tuple[frozenset, set, set]] = []  # per statement: its terms, its figures, its sources
    for item in ranked:
        text = item.sentence.text
        own = frozenset(own_terms(item.sentence) if own_terms else terms(text))  # its own words: no derived acronyms
        figures = numbers(text)
        home = next((i for i, (t, f, sources) in enumerate(keys) if f == figures and _overlap(own, t) >= NEAR_COPY
                     and item.sentence.source not in sources), None)
        if home is None:
            statements.append(Statement(text, [item]))
            keys.append((own, figures, {item.sentence.source}))
        else:
            statements[home].copies.append(item)
            keys[home][2].add(item.sentence.source)
    return statements


def _overlap(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


NEAR_COPY = 0.75  # share of content words two sentences must share to be one statement reprinted
