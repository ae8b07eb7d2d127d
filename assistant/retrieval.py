"""Evidence for a question: sentences fetched by dense and BM25 retrieval, fused by rank.

Dense retrieval asks the Chroma collection for nearest neighbours; BM25 (bm25s through
`llama-index-retrievers-bm25`, saved by ingest in the lexicon) searches the same sentences;
LlamaIndex's `QueryFusionRetriever` fuses the two lists by reciprocal rank. Each `Evidence`
also carries the cosine similarity of its sentence to the query, because the answerers need
an absolute measure of relevance (rank fusion only gives an order).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from llama_index.core.base.base_retriever import BaseRetriever

from assistant.index import Index, Sentence


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

    @cached_property
    def embed(self):
        """The question embedder: all-MiniLM-L6-v2 in NumPy (`encoder`), the same vectors as the
        ingest's torch model without torch's seconds of import on every cold start."""
        from assistant.encoder import NumpyEmbedding

        return NumpyEmbedding(folder=self.settings.embed_model)

    @cached_property
    def dense(self) -> "ChromaNeighbours":
        return ChromaNeighbours(self.index.collection, min(self.settings.top_k, self.index.lexicon.rows))

    @cached_property
    def fusion(self):
        from llama_index.core.llms import MockLLM
        from llama_index.core.retrievers import QueryFusionRetriever

        k = self.settings.top_k
        return QueryFusionRetriever([self.dense, self.index.lexicon.bm25(k)], llm=MockLLM(), mode="reciprocal_rerank",
                                    num_queries=1, use_async=False, similarity_top_k=k)

    def retrieve(self, query: str, expansion: str = "") -> list[Evidence]:
        """The top fused sentences for `query`, best first. `expansion` (synonyms) widens the
        lexical search only; the dense search embeds the query as asked."""
        from llama_index.core.schema import QueryBundle

        with self._lock:  # bm25s and the neighbours' last scores are not thread-safe
            vector = self.embed.get_query_embedding(query)
            results = self.fusion.retrieve(QueryBundle(f"{query} {expansion}".strip(), embedding=vector))
            cosines = dict(self.dense.last)
        found = [(self.index.sentence(r.node.node_id), r) for r in results]
        found = [(s, r) for s, r in found if s is not None]
        missing = [r.node.node_id for _, r in found if r.node.node_id not in cosines]
        cosines.update(self._cosines(missing, vector))
        return [Evidence(s, r.score or 0.0, cosines.get(r.node.node_id, 0.0)) for s, r in found]

    def _cosines(self, ids: list[str], vector: list[float]) -> dict[str, float]:
        """Cosine similarity to `vector` of stored nodes (those BM25 found and dense did not)."""
        if not ids:
            return {}
        rows = self.index.collection.get(ids=ids, include=["embeddings"])
        sims = np.asarray(rows["embeddings"], dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
        return dict(zip(rows["ids"], sims.tolist()))


class ChromaNeighbours(BaseRetriever):
    """Nearest sentences in the Chroma collection, as bare nodes scored by cosine similarity.

    LlamaIndex's `ChromaVectorStore` retriever asks Chroma for every hit's metadata and text
    and rebuilds full nodes from JSON (~6 ms a question); the sentence table already has the
    text, so this asks for ids and distances only. `last` keeps the latest call's cosines."""

    def __init__(self, collection, top_k: int):
        super().__init__()
        self.collection, self.top_k = collection, top_k
        self.last: dict[str, float] = {}

    def _retrieve(self, query_bundle):
        from llama_index.core.schema import NodeWithScore, TextNode

        hits = self.collection.query(query_embeddings=[query_bundle.embedding], n_results=self.top_k, include=["distances"])
        self.last = {id_: 1.0 - d for id_, d in zip(hits["ids"][0], hits["distances"][0])}  # cosine space
        return [NodeWithScore(node=TextNode(id_=id_, text=""), score=c) for id_, c in self.last.items()]
