"""Evidence for a question: sentences fetched by dense and BM25 retrieval, fused by rank.

Dense retrieval multiplies the question's vector by every sentence's, saved in the lexicon
by the ingest (exact, and no Chroma import on a cold start), or beyond `lexical.EXACT_ROWS`
asks the Chroma collection's HNSW for nearest neighbours; BM25 (the bm25s index
that ingest builds through `llama-index-retrievers-bm25`, saved in the lexicon) searches the
same sentences; the two lists are fused by reciprocal rank (k = 60, as in Cormack et al.
and LlamaIndex's `QueryFusionRetriever`). Each `Evidence` also carries the cosine
similarity of its sentence to the query, because the answerers need an absolute measure of
relevance (rank fusion only gives an order).

Why not `QueryFusionRetriever` itself: it keys nodes by content hash, so our text-less
dense hits all shared one hash and forty neighbours collapsed into a single node; and
importing `llama_index.core` costs ~1.8 s of every cold `assistant ask`. Fusing by node id
here is eight lines.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby
from operator import itemgetter

import numpy as np

from assistant.encoder import blas_threads
from assistant.index import Index, Sentence

RECENT = 4  # query vectors kept: those of the question being answered
RRF_K = 60.0  # reciprocal-rank constant: one list's outliers cannot dominate the other's


def reciprocal_rank_fusion(rankings: list[list[str]], top_k: int) -> list[tuple[str, float]]:
    """Ids from several best-first rankings, ordered by the sum of 1 / (RRF_K + rank)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, id_ in enumerate(ranking):
            fused[id_] = fused.get(id_, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(fused.items(), key=lambda item: item[1], reverse=True)[:top_k]


@dataclass(frozen=True)
class Evidence:
    sentence: Sentence
    fused: float  # reciprocal-rank fusion score
    dense: float  # cosine similarity to the query

    @property
    def source(self) -> str:
        return self.sentence.source

    @property
    def text(self) -> str:
        return self.sentence.text


class Retriever:
    def __init__(self, index: Index):
        self.index = index
        self.settings = index.settings
        self._lock = threading.Lock()
        self._counting = _Counting()
        self._recent: dict[str, list[float]] = {}
        self._near: dict[str, dict[str, float]] = {}  # dense neighbours of those queries, when `prepare` found them

    @cached_property
    def embed(self):
        """The question embedder: all-MiniLM-L6-v2 run by ONNX Runtime from the file the ingest
        exported, or in NumPy (`encoder`): the same vectors as the ingest's torch model without
        torch's seconds of import on every cold start."""
        from assistant.encoder import MiniLM, model_dir, onnx_path

        return MiniLM(model_dir(self.settings.embed_model), onnx_path(self.index.store_dir, self.settings.embed_model))

    @cached_property
    def dense(self) -> "ExactNeighbours | ChromaNeighbours":
        lexicon = self.index.lexicon
        top_k = min(self.settings.top_k, lexicon.rows)
        if lexicon.vectors is not None:
            return ExactNeighbours(lexicon.vectors, lexicon.vector_of, lexicon.order, top_k)
        return ChromaNeighbours(self.index.collection, top_k)

    @cached_property
    def lexical(self):
        return self.index.lexicon.bm25(self.settings.top_k)

    def retrieve(self, query: str, expansion: str = "", focus: str = "") -> list[Evidence]:
        """The top fused sentences for `query`, best first. `expansion` (synonyms) widens the
        lexical search only; the dense search embeds the query as asked; `focus` (a few of its
        words) is a third, lexical, ranking of its own."""
        with self._counting, self._lock:  # bm25s is not thread-safe
            vector = self._vector(query)
            near = self._near.get(query)
            cosines = dict(near) if near is not None else self.dense.neighbours(vector)
            lexical = self.lexical.search(f"{query} {expansion}".strip())
            focused = self.lexical.search(focus) if focus else []
        fused = reciprocal_rank_fusion([list(cosines), lexical] + ([focused] if focused else []), self.settings.top_k)
        found = [(self.index.sentence(id_), id_, score) for id_, score in fused]
        found = [(s, id_, score) for s, id_, score in found if s is not None]
        cosines.update(self._cosines([id_ for _, id_, _ in found if id_ not in cosines], vector))
        return [Evidence(s, score, cosines.get(id_, 0.0)) for s, id_, score in found]

    def evidence_of(self, sentences: list[Sentence], query: str) -> list[Evidence]:
        """`sentences` as evidence for `query` that no retriever ranked (fused score 0), with
        their cosine similarity to it."""
        ids = [self.index.lexicon.ids[(s.source, s.index)] for s in sentences]
        cosines = self._cosines(ids, self._vector(query))
        return [Evidence(s, 0.0, cosines.get(id_, 0.0)) for s, id_ in zip(sentences, ids)]

    def prepare(self, queries: list[str]) -> None:
        """Embed the texts one question will search with in one batch, and find their dense
        neighbours in one pass (a follow-up searches with and without its borrowed context: two
        texts for little more than the price of one; exact search is bound by reading the
        vectors, which one product over both queries reads once)."""
        todo = [q for q in dict.fromkeys(queries) if q not in self._recent]
        if todo:
            with self._counting:
                vectors = self._encode(todo)
                self._remember(dict(zip(todo, vectors)))
                self._near.update(zip(todo, self.dense.neighbours_of(vectors)))

    def _vector(self, query: str) -> list[float]:
        if query not in self._recent:
            self._remember({query: self._encode([query])[0]})
        return self._recent[query]

    def _encode(self, texts: list[str]) -> list[list[float]]:
        alone = self._counting.count <= 1  # no other question waiting: both cores for this one
        return self.embed.encode(texts, threads=min(2, os.cpu_count() or 1) if alone else 1).tolist()

    def _remember(self, vectors: dict[str, list[float]]) -> None:
        """Keep the vectors of the question being answered, never an earlier question's: a
        benchmark that asks the same questions twice must not time a cache."""
        self._recent = {**(self._recent if len(self._recent) + len(vectors) <= RECENT else {}), **vectors}
        self._near = {query: near for query, near in self._near.items() if query in self._recent}

    def _cosines(self, ids: list[str], vector: list[float]) -> dict[str, float]:
        """Cosine similarity to `vector` of stored nodes (those BM25 found and dense did not)."""
        if not ids:
            return {}
        lexicon = self.index.lexicon
        if lexicon.vectors is not None:
            known = [id_ for id_ in ids if id_ in lexicon.row_of]
            with blas_threads(1):
                rows = lexicon.vector_of[[lexicon.row_of[id_] for id_ in known]]
                sims = lexicon.vectors[rows] @ np.asarray(vector, dtype=np.float32)
            return dict(zip(known, sims.tolist()))
        rows = self.index.collection.get(ids=ids, include=["embeddings"])
        sims = np.asarray(rows["embeddings"], dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
        return dict(zip(rows["ids"], sims.tolist()))


class _Counting:
    """A context manager counting the threads inside it: how many questions want the encoder now."""

    def __init__(self):
        self.count, self._lock = 0, threading.Lock()

    def __enter__(self):
        with self._lock:
            self.count += 1

    def __exit__(self, *exc):
        with self._lock:
            self.count -= 1


class ExactNeighbours:
    """Nearest sentences by cosine similarity, computed exactly: the distinct unit vectors the
    ingest stored, times the question's (one matrix-vector product, a row per distinct
    sentence: up to ~37,000 at 2,000 articles); the nearest vectors then stand for every
    sentence that has them. The ties and the cut are `ChromaNeighbours`', so both give the
    same evidence wherever HNSW finds the true neighbours."""

    def __init__(self, vectors: np.ndarray, vector_of: np.ndarray, ids: list[str], top_k: int):
        self.vectors, self.vector_of, self.ids, self.top_k = vectors, vector_of, ids, top_k

    @cached_property
    def _sharing(self) -> tuple[np.ndarray, np.ndarray]:
        """The sentences (rows of `ids`) of each vector: those of vector v are
        `order[starts[v]:starts[v + 1]]`, in `ids` order."""
        order = np.argsort(self.vector_of, kind="stable")
        starts = np.searchsorted(self.vector_of[order], np.arange(len(self.vectors) + 1))
        return order, starts

    def neighbours(self, vector: list[float]) -> dict[str, float]:
        """Node id -> cosine similarity of the `top_k` nearest sentences, nearest first."""
        return self.neighbours_of([vector])[0]

    def neighbours_of(self, vectors: list[list[float]]) -> list[dict[str, float]]:
        """`neighbours` of each vector, from one product: the stored vectors are read once for all."""
        if not self.ids:
            return [{} for _ in vectors]
        with blas_threads(1):  # one: the next encode is not slowed by spinning threads (37,000 rows: 9 ms, 6 on two)
            sims = self.vectors @ np.asarray(vectors, dtype=np.float32).T
        return [self._nearest(sims[:, column]) for column in range(sims.shape[1])]

    def _nearest(self, sims: np.ndarray) -> dict[str, float]:
        """The nearest `top_k` sentences, from the similarity of each distinct vector: the
        sentences of the `top_k + TIE_SLACK` nearest vectors hold them, with every copy tied
        at the cut."""
        k = min(self.top_k + TIE_SLACK, len(sims))
        best = np.argpartition(-sims, k - 1)[:k]
        order, starts = self._sharing
        nearest: list[tuple[str, float]] = []
        # Nearest distance first, each distance's sentences by id; a distance is read only while
        # fewer than `top_k` are in hand (a seed sentence repeated in hundreds of articles is one
        # vector: its copies are not all listed and sorted to keep a few).
        by_distance = sorted((round(1.0 - sim, TIE_DIGITS), v, sim) for v, sim in zip(best.tolist(), sims[best].tolist()))
        for _, tied in groupby(by_distance, key=itemgetter(0)):
            if len(nearest) >= self.top_k:
                break
            nearest += sorted((self.ids[n], sim) for _, v, sim in tied for n in order[starts[v]:starts[v + 1]].tolist())
        return dict(nearest[: self.top_k])


class ChromaNeighbours:
    """Nearest sentences in the Chroma collection, by cosine similarity.

    LlamaIndex's `ChromaVectorStore` retriever asks Chroma for every hit's metadata and text
    and rebuilds full nodes from JSON (~6 ms a question); the sentence table already has the
    text, so this asks for ids and distances only."""

    def __init__(self, collection, top_k: int):
        self.collection, self.top_k = collection, top_k

    def neighbours(self, vector: list[float]) -> dict[str, float]:
        """Node id -> cosine similarity of the `top_k` nearest sentences, nearest first."""
        hits = self.collection.query(query_embeddings=[vector], n_results=self.top_k + TIE_SLACK, include=["distances"])
        # Copies of one sentence in syndicated articles are equally near, and HNSW returns equals in
        # whatever order (and, at the cut, whichever one) its build happened to give: ordered by id
        # and cut here, the same question gets the same evidence in every process.
        nearest = sorted(zip(hits["distances"][0], hits["ids"][0]), key=lambda hit: (round(hit[0], TIE_DIGITS), hit[1]))
        return {id_: 1.0 - d for d, id_ in nearest[: self.top_k]}  # cosine space

    def neighbours_of(self, vectors: list[list[float]]) -> list[dict[str, float]]:
        return [self.neighbours(vector) for vector in vectors]


TIE_DIGITS = 6  # distances equal to this many digits are ties
TIE_SLACK = 8   # neighbours fetched beyond top_k, so that copies tied at the cut are all seen
