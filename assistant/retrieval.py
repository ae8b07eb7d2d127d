"""Evidence for a question: sentences fetched by dense and BM25 retrieval, fused by rank.

Dense retrieval runs over the Chroma vector store; BM25 (bm25s through
`llama-index-retrievers-bm25`) over the same sentences; LlamaIndex's `QueryFusionRetriever`
fuses the two lists by reciprocal rank. Each `Evidence` also carries the cosine similarity
of its sentence to the query, read from the stored embeddings, because the answerers need
an absolute measure of relevance (rank fusion only gives an order).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np

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
    def fusion(self):
        from llama_index.core import VectorStoreIndex
        from llama_index.core.llms import MockLLM
        from llama_index.core.retrievers import QueryFusionRetriever
        from llama_index.retrievers.bm25 import BM25Retriever

        k = self.settings.top_k
        dense = VectorStoreIndex.from_vector_store(self.index.vector_store, embed_model=self.embed).as_retriever(
            similarity_top_k=k)
        nodes = self.index.nodes()
        bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=min(k, len(nodes)))
        return QueryFusionRetriever([dense, bm25], llm=MockLLM(), mode="reciprocal_rerank", num_queries=1,
                                    use_async=False, similarity_top_k=k)

    def retrieve(self, query: str, expansion: str = "") -> list[Evidence]:
        """The top fused sentences for `query`, best first. `expansion` (synonyms) widens the
        lexical search only; the dense search embeds the query as asked."""
        from llama_index.core.schema import QueryBundle

        with self._lock:  # the torch model and bm25s are not documented as thread-safe
            vector = self.embed.get_query_embedding(query)
            results = self.fusion.retrieve(QueryBundle(f"{query} {expansion}".strip(), embedding=vector))
        found = [(self.index.sentence(r.node.node_id), r) for r in results]
        found = [(s, r) for s, r in found if s is not None]
        cosines = self._cosines([s for s, _ in found], vector)
        return [Evidence(s, r.score or 0.0, cosines.get((s.source, s.index), 0.0)) for s, r in found]

    def _cosines(self, sentences: list[Sentence], vector: list[float]) -> dict[tuple[str, int], float]:
        ids = self.index.node_ids(list(dict.fromkeys((s.source, s.index) for s in sentences)))
        if not ids:
            return {}
        rows = self.index.collection.get(ids=ids, include=["embeddings"])
        sims = np.asarray(rows["embeddings"], dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
        keys = [(i.split("#")[0], int(i.split("#")[2])) for i in rows["ids"]]
        return dict(zip(keys, sims.tolist()))
