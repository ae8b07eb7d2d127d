"""Read a folder of articles into LlamaIndex `Document`s, and split text into sentences.

A source's id is its file name. `read_corpus` keeps the file's text exactly as decoded, so
citation offsets index the article as written. It reads `.txt` and `.md`; any other file,
and any file that is empty, binary, or too large, is reported by name in `Corpus.skipped`
and left out without stopping the rest. It does not watch the folder: ingest re-reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from assistant.errors import CorpusError

SUPPORTED_SUFFIXES = (".txt", ".md")


@dataclass(frozen=True)
class Skipped:
    """A file left out of the corpus, and why."""

    name: str
    reason: str


@dataclass
class Corpus:
    documents: list[Document] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def read_corpus(folder: Path, max_bytes: int = 5_000_000) -> Corpus:
    """Read every supported article in `folder` (not recursive)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CorpusError(f"Corpus folder {folder} does not exist. Create it and put .txt or .md articles in it, "
                          "or point ASSISTANT_CORPUS_DIR (or `assistant ingest PATH`) at one.")
    corpus = Corpus()
    for path in sorted(p for p in folder.iterdir() if not p.name.startswith(".")):
        reason = _unusable(path, max_bytes)
        text = None if reason else _decode(path.read_bytes())
        if text is None:
            corpus.skipped.append(Skipped(path.name, reason or "binary content (contains NUL bytes)"))
        elif not text.strip():
            corpus.skipped.append(Skipped(path.name, "empty"))
        else:
            corpus.documents.append(to_document(path.name, text))
    if not corpus.documents:
        raise CorpusError(f"No readable .txt or .md article in {folder}. Add articles there and run `assistant ingest`.")
    return corpus


def to_document(source: str, text: str) -> Document:
    """A Document whose id is the source name; metadata is kept out of embeddings and prompts."""
    from llama_index.core import Document  # imported here: questions never need it, and it costs ~1.8 s

    title = next((line.strip() for line in text.splitlines() if line.strip()), source)[:120]
    meta = {"source": source, "title": title, "n_sentences": len(split_sentences(text))}
    return Document(id_=source, text=text, metadata=meta,
                    excluded_embed_metadata_keys=list(meta), excluded_llm_metadata_keys=list(meta))


def _unusable(path: Path, max_bytes: int) -> str | None:
    if not path.is_file():
        return "not a regular file"
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        return f"unsupported type {path.suffix or '(no extension)'}; only .txt and .md are read"
    try:
        size = path.stat().st_size
    except OSError as error:
        return f"unreadable: {error.strerror}"
    if size > max_bytes:
        return f"too large ({size / 1e6:.1f} MB > {max_bytes / 1e6:.1f} MB; raise ASSISTANT_MAX_FILE_BYTES)"
    return None


def _decode(raw: bytes) -> str | None:
    """UTF-8 (with or without BOM), else Latin-1 — news archives are full of the latter."""
    if b"\x00" in raw:
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# --- sentences -------------------------------------------------------------------------

_LINE = re.compile(r"[^\n]+")


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, each a verbatim substring, in order.

    Lines are split first (headlines and captions carry no full stop and would otherwise be
    glued to the next sentence), then Punkt splits each line, and two sentences a bad copy
    ran together ("…Abdel RahThe coalition said…") are parted; then a quotation that runs
    over several sentences is kept whole with its attribution:
    '"We deny any deal. We are fighting," Nuri Mahmoud told AFP.' is one unit, so the quote
    and its speaker are cited together. Whitespace at either end is dropped, so
    `text.find(s)` lands on the sentence itself.
    """
    return list(_split(text))


@lru_cache(maxsize=2048)
def _split(text: str) -> tuple[str, ...]:
    """Memoised: ingest splits each new article twice, to count its sentences when it reads it
    and again in the node parser. Every article is read before any is parsed, so this holds
    up to 2,048 of them (~15 MB at news lengths)."""
    return tuple(s for line in _LINE.findall(text) for s in _join_quotes(line, _punkt(line)))


def _join_quotes(line: str, parts: list[str], longest: int = 4) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(parts):
        j = i
        while j + 1 < len(parts) and j - i + 1 < longest and open_quote(" ".join(parts[i:j + 1])):
            j += 1
        if j > i and not open_quote(" ".join(parts[i:j + 1])):  # the quote closes: one unit
            start = line.index(parts[i])
            out.append(line[start:line.index(parts[j], start) + len(parts[j])])
            i = j + 1
        else:  # no quote, or one that never closes: the sentence alone
            out.append(parts[i])
            i += 1
    return out


def open_quote(text: str) -> bool:
    """True while a quotation opened in `text` has not closed. Straight and curly marks are
    counted together: articles mix them ("minimise civilian casualties”)."""
    return (text.count('"') + text.count("“") + text.count("”")) % 2 == 1


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of `split_sentences(text)` in `text`."""
    spans, cursor = [], 0
    for sentence in split_sentences(text):
        start = text.index(sentence, cursor)
        spans.append((start, start + len(sentence)))
        cursor = start + len(sentence)
    return spans


def _punkt(line: str) -> list[str]:
    return [piece for a, b in _tokenizer().span_tokenize(line) for piece in _unglued(line[a:b].strip()) if piece]


# Two sentences run together by a bad copy ("…Rami Abdel RahThe US-led coalition told AFP…"):
# a lower-case letter directly followed by a capitalised word that opens sentences.
_GLUED = re.compile(r"(?<=[a-z]{2})(?=(?:The|A|An|In|On|At|But|And|It|He|She|They|We|This|That|Earlier|Meanwhile|However) )")


def _unglued(sentence: str) -> list[str]:
    return [part.strip() for part in _GLUED.split(sentence)]


@lru_cache(maxsize=1)
def _tokenizer():
    from llama_index.core.utils import globals_helper  # sets NLTK's data path to the copy llama-index ships

    return globals_helper.punkt_tokenizer
