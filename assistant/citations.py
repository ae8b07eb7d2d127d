"""Turn a draft with `[n]` markers into an answer whose every marker resolves.

`finalize` is pure: given the draft text, what each marker points at and the source texts,
it drops markers that point nowhere (a model's invented `[9]`), renumbers the rest
1, 2, 3 … in order of first use, lists exactly the citations the text uses, and checks
that every quote is the verbatim text of its source at its offsets. `unsupported` tells
which statements name a figure or a name that none of their cited quotes (or the quotes'
neighbouring sentences) contains: the LLM backend uses it to strip or flag such citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.answer import Citation
from assistant.index import Sentence
from assistant.text import names, numbers, stem, terms, words

MARKER = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True)
class Draft:
    """What an answering backend produces: text with markers, and what each marker cites."""

    text: str
    cites: dict[int, Sentence]
    abstained: bool = False
    notices: list[str] = field(default_factory=list)
    usage: dict = field(default_factory=dict)
    backend: str | None = None  # who wrote it, when not the configured backend (a fallback)


def finalize(draft: Draft, source_texts: dict[str, str]) -> tuple[str, list[Citation]]:
    """Resolve, renumber and verify markers; returns the final text and its citations."""
    renumber: dict[int, int] = {}
    for match in MARKER.finditer(draft.text):
        old = int(match.group(1))
        if old in draft.cites and old not in renumber:
            renumber[old] = len(renumber) + 1

    def replace(match: re.Match) -> str:
        old = int(match.group(1))
        return f"[{renumber[old]}]" if old in renumber else ""

    text = MARKER.sub(replace, draft.text)
    text = re.sub(r"(?:\[\d+\])+", _tidy_group, text)      # "[3][1][3]" -> "[1][3]"
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()
    citations = [_citation(new, draft.cites[old], source_texts) for old, new in renumber.items()]
    return text, sorted(citations, key=lambda c: c.marker)


def _tidy_group(match: re.Match) -> str:
    numbers_ = sorted({int(n) for n in MARKER.findall(match.group())})
    return "".join(f"[{n}]" for n in numbers_)


def _citation(marker: int, sentence: Sentence, source_texts: dict[str, str]) -> Citation:
    text = source_texts.get(sentence.source)
    if text is not None and text[sentence.start:sentence.end] != sentence.text:
        raise AssertionError(f"stale index: quote not found at {sentence.source}[{sentence.start}:{sentence.end}]")
    return Citation(marker=marker, source=sentence.source, quote=sentence.text, start=sentence.start, end=sentence.end)


def statements(text: str) -> list[tuple[str, list[int]]]:
    """Split answer text into statements (markers removed) with the markers each one carries.
    A statement ends at a sentence end or after its markers, where a new sentence begins."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\"“])|(?<=\])\s+(?=[A-Z\"“])|\n+", text)
    return [(MARKER.sub("", p).strip(), [int(m) for m in MARKER.findall(p)]) for p in parts if p.strip()]


def missing_support(statement: str, quotes: list[str], context: str = "", overlap: float = 0.3) -> set[str]:
    """What in `statement` none of `quotes` supports: figures and names (names may also come
    from `context`), or — when fewer than `overlap` of its content words occur in the quotes —
    the marker "(wording)"."""
    statement = MARKER.sub("", statement)
    cited = " ".join(quotes)
    missing = {n for n in numbers(statement) if n not in numbers(cited)}
    own = set(terms(statement))
    if own and len(own & set(terms(cited + " " + context))) / len(own) < overlap:
        missing.add("(wording)")
    known = {stem(w) for w in words(cited + " " + context)}
    for name in names(statement):
        if not {stem(w) for w in name.split()} & known:
            missing.add(name)
    return missing
