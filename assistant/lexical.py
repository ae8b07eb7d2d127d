"""What questions need from the store besides vectors, derived once per ingest and saved.

Every question needs the sentence table (offsets and text of every sentence), the source
texts (to verify quotes), BM25 over the sentences, term document frequencies (for IDF)
and the groups of syndicated copies. Rebuilt in each new process from a full read of the
Chroma collection, they cost ~18 s of start-up and ~1 GB at 2,000 articles. So ingest
writes them once to `store/lexical/`:

- `table.json` — sentences, texts, document frequencies, copy groups, each sentence's
  speaker and mention (`speakers.read`: question-independent, so read here rather than on
  every question that retrieves it), its claims, speaker and terms, what it tells
  (`FLAGS`: whether it states a denial, a reason, …), and the collection's row count when
  it was written;
- `bm25/` — the bm25s index (through `BM25Retriever.persist`), loaded memory-mapped;
- `vectors.npy` — the sentences' embeddings, loaded memory-mapped, each distinct one once
  (a sentence reprinted word for word in other articles has one vector, as ingest embeds it
  once), and `vector_of.npy`, each sentence's row in them: dense search multiplies them by
  the question's vector (`retrieval.ExactNeighbours`), so a question never opens Chroma,
  whose import alone was ~3 s of a 5 s cold `assistant ask` at 2,000 articles. Written up to
  `EXACT_ROWS` sentences; beyond, Chroma's HNSW searches.

Ingest deletes the folder before it changes anything, so a killed ingest leaves none rather
than a stale one. With a shared Chroma server another machine can ingest, so there a `Lexicon`
whose recorded row count differs from the collection's is rebuilt on load.

What it does not do: decide relevance (`ranking`) or fuse retrievers (`retrieval`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.errors import StoreError
from assistant.text import TERMS, copy_key, stem, term_set, terms

if TYPE_CHECKING:
    import numpy as np

FORMAT = 26  # bump when what is saved changes (2: document frequencies count acronyms; 3: BM25 in
            # table order; 4: "IS" counted as a term; 5: a hyphenated word's parts counted too;
            # 6: speaker readings; 7: claims, speakers and term sets; 8: claims read by a newer
            # claims.py: bump whenever claim extraction changes; 9: terms fold "said there was no"
            # and drop negated auxiliaries; 10: "go along with" is "agree with", holdouts are fighters;
            # 11: "get into" is "entered", "a big deal" is "important";
            # 12: "guys" are members; 13: "UK" and "British" are "Britain"; 14: "ran off", "walked
            # out", "took off" are "left": bump whenever text.terms changes; 15: vectors.npy;
            # 16: each sentence's own terms in order, and what its term set adds to them;
            # 17: each distinct vector saved once, with vector_of.npy; 18: each sentence's flags,
            # what it tells (`FLAGS`), so a first question never runs their patterns over it;
            # 19: "ordinary people" are civilians, "clawed back" is recaptured, Americans are the US;
            # 20: a foothold, holding ground and hanging on are a presence; 21: getting or sending word
            # is contact; 22: pushed or kicked out is driven from;
            # 23: to reckon is to estimate; 24: Iraq is Iraqi;
            # 25: a solution or an arrangement is a deal; 26: to take a place is to capture it)
# What a sentence tells, asked of every sentence of the articles a question retrieves ("does it
# give a reason?", "does it name someone's role?"): each a question of its text alone, answered
# at ingest. Cached by text, they had been read on a sentence's first meeting: over the gold
# questions at 2,000 articles, ~3,500 pattern searches that only a first pass paid. Saved with
# the hash of the files that decide them, and read afresh when those have changed since.
FLAGS = {"denial": ("claims", "says_denial"), "release": ("alternatives", "tells_release"),
         "destination": ("alternatives", "tells_destination"), "reason": ("ranking", "gives_reason"),
         "choice": ("ranking", "offers_choice"), "role": ("ranking", "gives_roles"),
         "who did": ("discrepancies", "tells_who_did")}
FLAGS_BY = hashlib.sha1(b"".join((Path(__file__).parent / f"{module}.py").read_bytes()
                                 for module in sorted({module for module, _ in FLAGS.values()}))).hexdigest()[:16]
EXACT_ROWS = 250_000  # sentences (~13,000 articles) up to which the vectors are saved for exact search:
                      # 384 MB memory-mapped and ~40 ms a question at the limit


@dataclass(frozen=True)
class Sentence:
    """One sentence of one source, with its offsets in the source text."""

    source: str
    index: int
    start: int
    end: int
    text: str


@dataclass
class Lexicon:
    folder: Path
    rows: int                                 # Chroma rows this was built from
    ids: dict[tuple[str, int], str]          # (source, index) -> node id
    sentences: dict[str, list[Sentence]]
    texts: dict[str, str]
    df: Counter
    copies: list[list[tuple[str, int]]] = field(default_factory=list)  # groups of one sentence reprinted
    readings: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)  # text -> speaker, mention
    reader: str = ""                          # `speakers.READER` of the code that read them
    claims: dict[tuple[str, int], list] = field(default_factory=dict)  # (source, index) -> claims as rows
    claims_reader: str = ""                   # `claims.READER` of the code that read them
    speakers: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)  # -> (name, index naming them)
    terms: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # -> `text.terms` of the sentence, in order
    extra: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # -> what `text.term_set` adds (acronyms, parts)
    flags: dict[str, list[str]] = field(default_factory=dict)  # text -> what it tells, of `FLAGS`
    flags_by: str = ""                        # `FLAGS_BY` of the code that read them
    vectors: np.ndarray | None = None         # distinct unit embeddings, memory-mapped; None: search Chroma
    vector_of: np.ndarray | None = None       # a sentence's row in `order` -> its embedding's row in `vectors`

    def __post_init__(self) -> None:
        from assistant.speakers import learn  # speakers reads Sentence from here

        learn(self.readings, self.reader)
        self._teach_terms()

    def _teach_terms(self) -> None:
        """Give `text` the terms saved for every sentence (`text.learn`)."""
        from assistant.text import learn

        learn((s.text, own, self.extra.get((s.source, s.index), ())) for s in self._rows
              if (own := self.terms.get((s.source, s.index))) is not None)

    # --- building -----------------------------------------------------------------------

    @classmethod
    def build(cls, folder: Path, nodes: list[tuple[str, int, str]], texts: dict[str, str],
              vectors: dict[str, np.ndarray] | None = None) -> "Lexicon":
        """From stored nodes (id, start offset or -1, text), the source texts and the nodes'
        embeddings by id (kept for exact search when there are all of them and at most
        `EXACT_ROWS`); saves it."""
        ids, table = {}, defaultdict(list)
        for id_, start, text in nodes:
            source, _, i = id_.split("#")
            start = start if start >= 0 else texts.get(source, "").find(text)
            table[source].append(Sentence(source, int(i), start, start + len(text), text))
            ids[(source, int(i))] = id_
        sentences = {s: sorted(rows, key=lambda r: r.index) for s, rows in sorted(table.items())}
        every = [s for rows in sentences.values() for s in rows]
        owns = [terms(s.text) for s in every]
        sets = [term_set(s.text) for s in every]
        df = Counter(t for found in sets for t in found)
        from assistant.speakers import READER, read

        readings = {s.text: read(s.text) for s in every}
        lexicon = cls(Path(folder), len(nodes), ids, sentences, texts, df, _copy_groups(every), readings, READER)
        from assistant import claims  # reads speakers, learnt above
        from assistant.speakers import attribute

        said = {(s.source, s.index): attribute(sentences[s.source], s.index) for s in every}
        lexicon.speakers = {key: (found.name, found.named_in.index) for key, found in said.items() if found}
        lexicon.claims = {key: rows for key, found in said.items()
                          if (rows := [claims.to_row(c) for c in claims.extract_said(sentences[key[0]], key[1], found)])}
        lexicon.claims_reader = claims.READER
        lexicon.terms = {(s.source, s.index): own for s, own in zip(every, owns)}
        lexicon.extra = {(s.source, s.index): added for s, own, found in zip(every, owns, sets) if (added := sorted(found.difference(own)))}
        lexicon.flags = {text: told for text in readings if (told := [f for f, test in _tests().items() if test(text)])}
        lexicon.flags_by = FLAGS_BY
        lexicon._teach_terms()
        if vectors and len(nodes) <= EXACT_ROWS and all(id_ in vectors for id_ in lexicon.order):
            lexicon.vectors, lexicon.vector_of = _distinct([vectors[id_] for id_ in lexicon.order])
        lexicon.save(nodes)
        return lexicon

    def save(self, nodes: list[tuple[str, int, str]]) -> None:
        """Write the folder atomically: a reader sees the old one, the new one, or none."""
        tmp = self.folder.with_name(self.folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        if nodes:  # BM25's documents in the table's order, so a hit's number is its row there
            _bm25_of([(id_, s.start, s.text) for id_, s in zip(self.order, self._rows)]).persist(
                str(tmp / "bm25"), show_progress=False)
        table = {"format": FORMAT, "rows": self.rows, "texts": self.texts, "df": self.df,
                 "sentences": [[id_, s.start, s.end, s.text] for id_, s in zip(self.order, self._rows)],
                 "copies": self.copies,
                 "readings": [self.readings.get(s.text) for s in self._rows],  # parallel to "sentences"
                 "reader": self.reader, "terms_by": TERMS,
                 "claims": [self.claims.get((s.source, s.index)) for s in self._rows],  # parallel to "sentences"
                 "claims_reader": self.claims_reader,
                 "speakers": [self.speakers.get((s.source, s.index)) for s in self._rows],  # parallel to "sentences"
                 "terms": [self.terms.get((s.source, s.index)) for s in self._rows],  # parallel to "sentences"
                 "extra": [self.extra.get((s.source, s.index)) for s in self._rows],
                 "flags": [self.flags.get(s.text) for s in self._rows], "flags_by": self.flags_by}  # parallel to "sentences"
        (tmp / "table.json").write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
        if self.vectors is not None:
            import numpy as np

            np.save(tmp / "vectors.npy", self.vectors)
            np.save(tmp / "vector_of.npy", self.vector_of)
        remove(self.folder)
        os.replace(tmp, self.folder)

    # --- loading ------------------------------------------------------------------------

    @classmethod
    def load(cls, folder: Path, rows: int | None = None) -> "Lexicon | None":
        """The saved lexicon, or None when there is none, it is unreadable, its terms were
        counted by another `text.py`, or (given `rows`) it was built from another number of
        stored rows."""
        try:
            table = json.loads((Path(folder) / "table.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(table, dict) or table.get("format") != FORMAT or rows is not None and table.get("rows") != rows \
                or table.get("terms_by") != TERMS:
            return None
        try:
            return cls._from_table(Path(folder), table["rows"], table)
        except (KeyError, TypeError, ValueError):  # a table cut short or edited by hand: rebuilt like a missing one
            return None

    @classmethod
    def _from_table(cls, folder: Path, rows: int, table: dict) -> "Lexicon":
        ids, by_source = {}, defaultdict(list)
        for id_, start, end, text in table["sentences"]:
            source, _, i = id_.split("#")
            by_source[source].append(Sentence(source, int(i), start, end, text))
            ids[(source, int(i))] = id_
        copies = [[tuple(k) for k in group] for group in table["copies"]]
        readings = {text: tuple(pair) for (_, _, _, text), pair in zip(table["sentences"], table["readings"]) if pair}
        keys = [(id_.split("#")[0], int(id_.rsplit("#", 1)[1])) for id_, *_ in table["sentences"]]
        claims = {key: found for key, found in zip(keys, table["claims"]) if found}
        speakers = {key: tuple(found) for key, found in zip(keys, table["speakers"]) if found}
        own = dict(zip(keys, table["terms"]))
        extra = {key: added for key, added in zip(keys, table["extra"]) if added}
        flags = {text: told for (_, _, _, text), told in zip(table["sentences"], table["flags"]) if told}
        return cls(folder, rows, ids, dict(by_source), table["texts"], Counter(table["df"]), copies, readings,
                   table["reader"], claims, table["claims_reader"], speakers, own, extra, flags, table["flags_by"],
                   *_vectors(folder, len(keys)))

    def claims_of(self, source: str, index: int) -> tuple | None:
        """The claims ingest read in sentence `index` of `source`; None when they were read by
        another version of the claim code (the caller reads them afresh)."""
        from assistant import claims

        if self.claims_reader != claims.READER:
            return None
        return tuple(claims.from_row(row, self.sentences[source], index) for row in self.claims.get((source, index), ()))

    def tells(self, sentence: Sentence, flag: str) -> bool:
        """Whether `sentence` tells `flag` of `FLAGS` ("reason": gives a reason), as ingest read
        it; read afresh when the code deciding it has changed since."""
        if self.flags_by == FLAGS_BY:
            return flag in self.flags.get(sentence.text, ())
        return _tests()[flag](sentence.text)

    def figures_of(self, source: str) -> list[tuple[int, str]]:
        """The sentences of `source` that state a figure, with the stem of what it counts
        ([(index, "fighter")]), so a question about a quantity can weigh every account of it in
        the articles retrieval found, not only the sentences it ranked. Read per article when
        first asked for (all 2,000 articles at once had cost a first question ~21 ms)."""
        found = self._figures.get(source)
        if found is None:
            rows = ((s.index, self.claims.get((source, s.index), ())) for s in self.sentences.get(source, ()))
            found = self._figures[source] = [(index, head) for index, claims in rows
                                             for head in {row[3][-1] for row in claims if row[0] == "quantity" and row[3]}]
        return found

    @cached_property
    def _figures(self) -> dict:
        return {}

    @cached_property
    def said_by(self) -> dict[str, list[tuple[str, int]]]:
        """Sentences by the name words of who says them ("dillon" -> keys), so a question about
        what someone said can reach quotations that share no other word with it ("This is a
        local solution," he said)."""
        out: dict[str, list[tuple[str, int]]] = {}
        for key, (name, _) in self.speakers.items():
            for word in {stem(w) for w in re.findall(r"\b[A-Z][\w’'\-]+", name)}:
                out.setdefault(word, []).append(key)
        return out

    def terms_of(self, sentence: Sentence) -> frozenset[str]:
        """`text.term_set` of a sentence, as ingest counted it (this version of text.py did:
        a table counted by another is not loaded)."""
        key = (sentence.source, sentence.index)
        found = self._term_sets.get(key)
        if found is None:
            saved = self.terms.get(key)
            found = self._term_sets[key] = frozenset(saved).union(self.extra.get(key, ())) if saved is not None \
                else term_set(sentence.text)
        return found

    def own_terms(self, sentence: Sentence) -> list[str]:
        """`text.terms` of a sentence, as ingest read them: a question never folds the phrasal
        verbs of a sentence it has not met before (~0.2 ms each, ~7 ms of a first question at
        2,000 articles)."""
        saved = self.terms.get((sentence.source, sentence.index))
        return saved if saved is not None else terms(sentence.text)

    @cached_property
    def _term_sets(self) -> dict:
        return {}

    def speaker_of(self, sentence: Sentence):
        """Who says `sentence` (`speakers.attribute`), as ingest read it; read afresh, and kept,
        when the speaker code has changed since."""
        from assistant.speakers import READER, Speaker, attribute

        key = (sentence.source, sentence.index)
        if self.reader == READER:
            found = self.speakers.get(key)
            return found and Speaker(found[0], self.sentences[sentence.source][found[1]])
        if key not in self._fresh_speakers:
            self._fresh_speakers[key] = attribute(self.sentences.get(sentence.source, []), sentence.index)
        return self._fresh_speakers[key]

    @cached_property
    def _fresh_speakers(self) -> dict:
        return {}

    def bm25(self, top_k: int) -> "BM25Search":
        """BM25 over the sentences, memory-mapped from `bm25/`."""
        try:
            return BM25Search(self.folder / "bm25", self.order, top_k)
        except (OSError, ValueError) as error:
            raise StoreError(f"The BM25 index in {self.folder} is unreadable ({error}). "
                             "Run `assistant ingest --rebuild` to rebuild the store.") from error

    @cached_property
    def _rows(self) -> list[Sentence]:
        return [s for rows in self.sentences.values() for s in rows]

    @cached_property
    def order(self) -> list[str]:
        """Node ids in the table's order (BM25's document numbers, the rows of `vectors`)."""
        return [self.ids[(s.source, s.index)] for s in self._rows]

    @cached_property
    def row_of(self) -> dict[str, int]:
        """Node id -> its number in `order`."""
        return {id_: n for n, id_ in enumerate(self.order)}

    @cached_property
    def n_sentences(self) -> int:
        return sum(len(rows) for rows in self.sentences.values())

    @cached_property
    def _group_of(self) -> dict[tuple[str, int], int]:
        return {key: n for n, group in enumerate(self.copies) for key in group}

    def copies_of(self, sentence: Sentence) -> list[Sentence]:
        """Sentences in other articles that say exactly this (up to spelling and punctuation)."""
        n = self._group_of.get((sentence.source, sentence.index))
        keys = self.copies[n] if n is not None else []
        return [self.sentences[s][i] for s, i in keys if s != sentence.source and i < len(self.sentences.get(s, []))]


class BM25Search:
    """The saved bm25s index, queried directly: tokenised as `BM25Retriever` indexed it
    (English stop words, Snowball stemmer), without importing LlamaIndex at question time."""

    def __init__(self, folder: Path, ids: list[str], top_k: int):
        import bm25s
        import Stemmer

        self.model = bm25s.BM25.load(str(folder), mmap=True, load_corpus=False)
        self.stemmer = Stemmer.Stemmer("english")
        self.ids, self.top_k = ids, max(1, min(top_k, len(ids)))

    def search(self, query: str) -> list[str]:
        """Ids of the best-matching sentences, best first; those sharing no word are left out."""
        import bm25s
        import numpy as np

        [tokens] = bm25s.tokenize(query, stopwords="en", stemmer=self.stemmer, show_progress=False, return_ids=False)
        known = self.model.get_tokens_ids(tokens)
        if not known:
            return []
        # The top k of the scoring sentences only: most score 0, and `np.argpartition` over
        # that many ties (bm25s's own top-k) took 5 ms of a 2,000-article question, not 0.1.
        scores = self.model.get_scores_from_ids(known)
        hits = np.flatnonzero(scores > 0)
        if len(hits) > self.top_k:
            hits = np.sort(hits[np.argpartition(scores[hits], -self.top_k)[-self.top_k:]])
        best = hits[np.argsort(-scores[hits], kind="stable")]  # ties in sentence order
        return [self.ids[int(d)] for d in best]


@lru_cache(maxsize=1)
def _tests() -> dict:
    """`FLAGS`' functions (imported when first asked for: they import this module)."""
    return {flag: getattr(importlib.import_module(f"assistant.{module}"), name) for flag, (module, name) in FLAGS.items()}


def _distinct(rows: list) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct embedding of `rows` once, in order of first use, and each row's place in them."""
    import numpy as np

    if not rows:
        return np.zeros((0, 0), dtype=np.float32), np.zeros(0, dtype=np.int32)
    first: dict[bytes, int] = {}
    vector_of = np.asarray([first.setdefault(np.asarray(row, dtype=np.float32).tobytes(), len(first)) for row in rows],
                           dtype=np.int32)
    vectors = np.frombuffer(b"".join(first), dtype=np.float32).reshape(len(first), -1)
    return vectors, vector_of


def _vectors(folder: Path, rows: int) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The saved embeddings, memory-mapped, and each sentence's row in them; (None, None) when
    there are none (too many sentences to search exactly) or they do not fit the table (then
    Chroma answers: slower, never wrong)."""
    import numpy as np

    try:
        vectors = np.load(folder / "vectors.npy", mmap_mode="r")
        vector_of = np.load(folder / "vector_of.npy")
    except (OSError, ValueError):
        return None, None
    if vectors.ndim != 2 or vectors.dtype != np.float32 or vector_of.shape != (rows,) or vector_of.dtype != np.int32 \
            or rows and not 0 <= vector_of.min() <= vector_of.max() < len(vectors):
        return None, None
    return vectors, vector_of


def remove(folder: Path) -> None:
    """Delete a saved lexicon (ingest does, before it changes the store)."""
    shutil.rmtree(folder, ignore_errors=True)


def _copy_groups(sentences: list[Sentence]) -> list[list[tuple[str, int]]]:
    by_key: dict[tuple, list[Sentence]] = defaultdict(list)
    for s in sentences:
        by_key[copy_key(s.text)].append(s)
    return [[(s.source, s.index) for s in group] for group in by_key.values() if len({s.source for s in group}) > 1]


def _bm25_of(nodes: list[tuple[str, int, str]]):
    """BM25 over bare sentence nodes: id and text only, so the saved corpus stays small."""
    from llama_index.core.schema import TextNode
    from llama_index.retrievers.bm25 import BM25Retriever

    bare = [TextNode(id_=id_, text=text) for id_, _, text in nodes]
    return BM25Retriever.from_defaults(nodes=bare, similarity_top_k=min(40, len(bare)))
