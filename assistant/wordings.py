"""Wordings: one quotation worded differently by different articles.

Asked for someone's exact words ("I want to quote it exactly", "is it worded the same in both
copies?"), the answer must say when the articles do not agree on them: one AFP copy has the
coalition adding "foreign fighters (were) not being allowed to leave", the other "Foreign
fighters are not being allowed to leave Raqqa." That is no dispute about what happened, so only
a question about the words draws it.

Two quotations are one worded differently when they have one voice, most of the shorter one's
words recur in the longer in the same order (`SHARED`, at least `LEAST_WORDS` words), and yet
they are not reprints of each other (`text.copy_key`). "We're very adamant about not allowing
foreign fighters to leave the city" shares "foreign fighters … to leave" with the coalition's
statement, but not most of its words in order: another quotation. One voice is one speaker,
or a body and someone speaking for it (`speakers.speaks_for`): an SDF statement's "The battle
will continue until the whole city is clean" and, in another report, the SDF campaign's
spokeswoman's "The battle... will continue until the entire city is cleared" are one vow,
worded two ways. Two people are two voices, however alike their words.

What it does not do: find quotations (retrieval and `ranking` do), or compare quotations whose
speaker is not known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from difflib import SequenceMatcher

from assistant.claims import Claim
from assistant.discrepancies import BEARING, Found
from assistant.index import Sentence
from assistant.question import Question
from assistant.text import copy_key

_QUOTATION = re.compile(r"[\"“]([^\"“”]{12,})[\"”]?")
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
SHARED = 0.6       # of the shorter quotation's words, in order, that the longer must have
LEAST_WORDS = 4    # and at least this many of them
MAX_QUOTATIONS = 3  # the most relevant quotations whose other wordings are sought


def quotation(text: str) -> str | None:
    """The longest quoted stretch of a sentence ("foreign fighters (were) not being allowed to leave")."""
    quoted = [m.group(1).strip().rstrip(",;:") for m in _QUOTATION.finditer(text)]
    return max(quoted, key=len) if quoted else None


def worded_differently(a: str, b: str) -> bool:
    """Are quotations `a` and `b` one quotation, worded differently (see the module docstring)?"""
    if copy_key(a) == copy_key(b):
        return False  # a reprint, up to punctuation and spelling
    x, y = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    shared = sum(block.size for block in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks())
    return shared >= LEAST_WORDS and shared >= SHARED * min(len(x), len(y))


def quoted(ranked: Iterable) -> list[Sentence]:
    """The sentences of `ranked` (best first) that quote someone, up to `MAX_QUOTATIONS` of different wordings."""
    found: list[Sentence] = []
    for item in ranked:
        words = quotation(item.sentence.text)
        if words and not any(copy_key(words) == copy_key(quotation(s.text)) for s in found):
            found.append(item.sentence)
        if len(found) == MAX_QUOTATIONS:
            break
    return found


def wordings(question: Question, ranked: list, speaker_of: Callable[[Sentence], str | None],
             copies_of: Callable[[Sentence], list[Sentence]], one_voice: Callable[[Sentence, Sentence], bool]) -> list[Found]:
    """For a question about someone's words (`Question.wording`), the first of the best quotations
    of `ranked` (each nearly as relevant as the best evidence) that other ranked sentences word
    differently in one voice (`one_voice(a, b)`: see the module docstring): a discrepancy whose
    sides are the wordings, each with its reprints. A likelier quotation every article words
    alike ("The last thing we want is …") does not hide a less likely one they word differently."""
    if not question.wording:
        return []
    best = max((item.relevance for item in ranked), default=0.0)
    told = [(item.sentence, words) for item in ranked if (words := quotation(item.sentence.text))]  # read once for all tried
    for sentence in quoted(item for item in ranked if item.relevance >= BEARING * best):
        words = quotation(sentence.text)
        others = [other for other, its in told if other.source != sentence.source and worded_differently(words, its)
                  and one_voice(sentence, other)]
        if others and (found := _found(sentence, others, speaker_of, copies_of)):
            return found
    return []


def _found(sentence: Sentence, others: list[Sentence], speaker_of, copies_of) -> list[Found]:
    """`sentence`'s quotation set against the other wordings of it, each a side with its reprints."""
    sides, seen = [], set()
    for s in [sentence] + others:
        key = copy_key(quotation(s.text))
        if key not in seen:
            seen.add(key)
            group = [s] + [c for c in copies_of(s) if c.source != s.source]
            sides.append([Claim(c, "wording", quotation(s.text), speaker=speaker_of(c)) for c in group])  # reprints: its words
    return [Found("the wording of this quotation", sides, answers_kind=True)] if len(sides) >= 2 else []
