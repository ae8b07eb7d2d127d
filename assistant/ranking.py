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

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from assistant.claims import quantity_claims
from assistant.discrepancies import counts_what_is_asked
from assistant.index import Index, Sentence
from assistant.question import Question
from assistant.retrieval import Evidence
from assistant.text import names, numbers, stem, terms, words

_DURATION = r"(?:hours?|days?|weeks?|months?|years?|minutes?|decades?|times?)"
TIME = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|yesterday|today|tonight|overnight|last night|(?:19|20)\d\d|(?:past|last|next) (?:\d+|\w+) " + _DURATION + r"|morning|afternoon|evening)\b")
REASON = re.compile(r"\b(?:because|so (?:that|they|as)|in order to|to (?:prevent|minimi[sz]e|avoid|guarantee|ensure|secure|accelerate|allow|stop|end|protect)|as a way|due to|for fear|aimed at|sought to|wanting to|as human shields)\b", re.I)
PLACE = re.compile(r"\b(?:in|to|towards|toward|from|near|into|at|of)\s+((?:the\s+)?[A-Z][\w’'\-]+(?:\s+[A-Z][\w’'\-]+)*)")


@dataclass
class Scored:
    evidence: Evidence
    relevance: float  # how well the sentence covers the question, 0..1
    fit: float        # bonus or penalty for holding what the question asks for

    @property
    def score(self) -> float:
        return self.relevance + self.fit

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

    @cached_property
    def idf(self) -> dict[str, float]:
        df, n = Counter(), 0
        for rows in self.index.sentences.values():
            for s in rows:
                df.update(set(terms(s.text)))
                n += 1
        self._unseen = math.log(n + 1) + 1
        return {t: math.log((n + 1) / (c + 0.5)) + 1 for t, c in df.items()}

    def weight(self, term: str) -> float:
        return self.idf.get(term, self._unseen if hasattr(self, "_unseen") else 5.0)

    @cached_property
    def _by_key(self) -> dict[tuple, list[Sentence]]:
        table: dict[tuple, list[Sentence]] = {}
        for rows in self.index.sentences.values():
            for s in rows:
                table.setdefault(_key(s.text), []).append(s)
        return table

    def copies_of(self, sentence: Sentence) -> list[Sentence]:
        """Sentences in other articles that say exactly this (up to spelling and punctuation)."""
        return [s for s in self._by_key.get(_key(sentence.text), []) if s.source != sentence.source]

    def rank(self, question: Question, evidence: list[Evidence]) -> list[Scored]:
        scored = [Scored(e, self.relevance(question, e), fit(question, e.sentence)) for e in evidence]
        return sorted(scored, key=lambda s: s.score, reverse=True)

    def relevance(self, question: Question, evidence: Evidence) -> float:
        own = set(terms(evidence.text))
        near = set(terms(" ".join(s.text for s in self.neighbours(evidence.sentence))))
        wanted = [(t, 1.0) for t in dict.fromkeys(question.terms)]
        wanted += [(t, 0.5) for t in dict.fromkeys(question.context_terms + terms(" ".join(question.context_names)))
                   if t not in question.terms]
        total = sum(self.weight(t) * w for t, w in wanted) or 1.0
        covered = sum(self.weight(t) * w * (1.0 if t in own else 0.3 if t in near else 0.0) for t, w in wanted)
        return 0.5 * covered / total + 0.5 * max(evidence.dense, 0.0)

    def neighbours(self, sentence: Sentence, before: int = 1, after: int = 1) -> list[Sentence]:
        rows = self.index.sentences.get(sentence.source, [])
        return [s for s in rows[max(0, sentence.index - before):sentence.index + after + 1] if s.index != sentence.index]


def fit(question: Question, sentence: Sentence) -> float:
    """Bonus when the sentence holds the kind of answer the question wants, penalty when it cannot."""
    kind, text = question.kind, sentence.text
    if kind == "number":
        return _number_fit(question, sentence)
    if kind == "time":
        return 0.15 if TIME.search(text) else -0.15
    if kind == "person":
        return 0.12 if _new_names(question, text) else -0.12
    if kind == "place":
        asked = {n.lower() for n in names(question.text)}
        return 0.12 if any(m.group(1).lower().removeprefix("the ") not in asked for m in PLACE.finditer(text)) else -0.1
    if kind == "reason":
        return 0.12 if REASON.search(text) else 0.0
    return 0.0


def _number_fit(question: Question, sentence: Sentence) -> float:
    found = quantity_claims(sentence, None)
    if re.search(r"\bper ?cent|share|percentage|proportion", question.text, re.I):
        found = [c for c in found if c.quantity.percent]
    if not found:
        return -0.25
    if any(counts_what_is_asked(question, c) for c in found):
        return 0.25
    if not question.target:
        return 0.1
    return 0.05 if set(question.target) & set(terms(sentence.text)) else -0.05


def _new_names(question: Question, text: str) -> set[str]:
    asked = {stem(w) for w in words(question.text)}
    return {n for n in names(text) if not {stem(w) for w in n.split()} <= asked}


def group_copies(ranked: list[Scored]) -> list[Statement]:
    """Fold near-identical sentences from different articles into one statement, best first."""
    statements: list[Statement] = []
    for item in ranked:
        home = next((st for st in statements if _same(st.text, item.sentence.text)
                     and item.sentence.source not in {s.source for s in st.sentences}), None)
        if home:
            home.copies.append(item)
        else:
            statements.append(Statement(item.sentence.text, [item]))
    return statements


def _key(text: str) -> tuple:
    return tuple(terms(text)) + tuple(sorted(numbers(text)))


def _same(a: str, b: str) -> bool:
    if numbers(a) != numbers(b):
        return False
    ta, tb = set(terms(a)), set(terms(b))
    return bool(ta and tb) and len(ta & tb) / len(ta | tb) >= 0.8
