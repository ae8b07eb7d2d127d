"""Incremental ingest into Chroma, embedded and server: idempotent, replaces, deletes, never duplicates."""

import sys
from collections import Counter

import pytest

from assistant.index import Index
from assistant.settings import Settings

pytestmark = pytest.mark.slow


def ids_by_source(index: Index) -> Counter:
    return Counter(i.split("#")[0] for i in index.collection.get(include=[])["ids"])


def no_duplicate_sentences(index: Index) -> bool:
    rows = index.collection.get(include=["metadatas"])
    keys = [(m["source"], i.split("#")[2]) for i, m in zip(rows["ids"], rows["metadatas"])]
    return len(keys) == len(set(keys))


@pytest.fixture(params=["embedded", "server"])
def index(request, corpus, tmp_path):
    """The same contract for the embedded store and a Chroma server (CHROMA_HOST/CHROMA_PORT)."""
    settings = Settings(corpus_dir=corpus, store_dir=tmp_path / "store")
    if request.param == "server":
        host, port = request.getfixturevalue("chroma_server")
        settings = settings.model_copy(update={"chroma_host": host, "chroma_port": port,
                                               "collection": f"test_{request.node.name}"[:60].replace("[", "_").replace("]", "")})
    return Index(settings)


def test_ingesting_twice_changes_nothing(index):
    first = index.ingest()
    assert len(first.added) == 5 and first.sentences > 90
    before = sorted(index.collection.get(include=[])["ids"])
    second = index.ingest()
    assert second.added == second.updated == second.removed == [] and len(second.unchanged) == 5
    assert sorted(index.collection.get(include=[])["ids"]) == before


def test_a_modified_article_is_replaced(index, corpus):
    index.ingest()
    path = corpus / "003_3ba6f3b9afe6fb2a.txt"
    path.write_text("Final Raqa push begins\n\nA single new sentence about 42 fighters.\n")
    report = index.ingest()
    assert report.updated == ["003_3ba6f3b9afe6fb2a.txt"]
    texts = [s.text for s in index.sentences["003_3ba6f3b9afe6fb2a.txt"]]
    assert texts == ["Final Raqa push begins", "A single new sentence about 42 fighters."]
    assert no_duplicate_sentences(index)


def test_a_deleted_article_is_removed(index, corpus):
    index.ingest()
    (corpus / "004_5699ca3a0153345e.txt").unlink()
    report = index.ingest()
    assert report.removed == ["004_5699ca3a0153345e.txt"]
    assert "004_5699ca3a0153345e.txt" not in ids_by_source(index)
    assert "004_5699ca3a0153345e.txt" not in index.texts


def test_a_half_written_store_is_swept_and_completed(index, corpus):
    """What a killed ingest leaves: nodes Chroma holds but the docstore never recorded."""
    index.ingest()
    full = ids_by_source(index)
    # Forget one document in the docstore (as if the run died before saving it) and drop
    # half of its nodes from Chroma (as if it died mid-write).
    docstore = index._load_docstore()
    docstore.delete_document("002_78f56554f5997fca.txt")
    index._save_docstore(docstore)
    ids = sorted(i for i in index.collection.get(include=[])["ids"] if i.startswith("002_"))
    index.collection.delete(ids=ids[: len(ids) // 2])
    report = index.ingest()
    assert report.added == ["002_78f56554f5997fca.txt"]
    assert ids_by_source(index) == full and no_duplicate_sentences(index)


def test_skipped_files_are_named_and_the_rest_is_kept(index, corpus):
    (corpus / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    (corpus / "blank.txt").write_text("")
    report = index.ingest()
    assert {s.name for s in report.skipped} == {"photo.jpg", "blank.txt"}
    assert len(report.added) == 5


def test_whole_store_reads_are_paged(index, monkeypatch):
    """Chroma fails on one get() of ~30,000+ rows; every full read goes a page at a time."""
    import assistant.index as module

    index.ingest()
    one_read = index.collection.get(include=["documents"])
    monkeypatch.setattr(module, "PAGE", 7)
    paged = index._get_all(include=["documents"])
    assert sorted(zip(paged["ids"], paged["documents"])) == sorted(zip(one_read["ids"], one_read["documents"]))
    assert index.ingest().unchanged and no_duplicate_sentences(index)


def test_rebuild_starts_from_empty_and_ends_complete(index):
    index.ingest()
    count = index.collection.count()
    keep = index.store_dir / ".gitkeep"  # the repository's placeholder in store/ is not the store's to delete
    keep.touch()
    report = index.ingest(rebuild=True)
    assert len(report.added) == 5 and index.collection.count() == count and no_duplicate_sentences(index)
    assert keep.exists()


def test_stored_nodes_keep_their_text_and_source_but_no_window_title_or_neighbours(index):
    import json

    index.ingest()
    rows = index.collection.get(include=["metadatas", "documents"], limit=20)
    for meta, text in zip(rows["metadatas"], rows["documents"]):
        node = json.loads(meta["_node_content"])
        assert text and meta["ref_doc_id"] == meta["source"] == node["metadata"]["source"]
        assert not {"window", "original_text", "title", "n_sentences"} & (set(meta) | set(node["metadata"]))
        assert list(node["relationships"]) == ["1"]  # SOURCE only: no PREV/NEXT carrying their windows
        assert "metadata" not in node["relationships"]["1"] or not node["relationships"]["1"]["metadata"]


def test_a_sentence_repeated_across_articles_is_embedded_once_and_every_copy_gets_its_vector(tmp_path, monkeypatch):
    import numpy as np

    from assistant.index import embedding_model

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    wire = "The ferry service to Varo resumed on Monday, the port authority said."
    (corpus / "a.txt").write_text(f"Ferries are back\n\n{wire} Dockers had struck for nine days.\n")
    (corpus / "b.txt").write_text(f"Varo port reopens\n\n{wire} Traders welcomed the news.\n")
    model = embedding_model()
    embedded: list[str] = []
    batch = type(model).get_text_embedding_batch
    monkeypatch.setattr(type(model), "get_text_embedding_batch",
                        lambda self, texts, **kw: embedded.extend(texts) or batch(self, texts, **kw))
    index = Index(Settings(corpus_dir=corpus, store_dir=tmp_path / "store", ingest_batch=1))  # one article a step
    index.ingest()
    assert embedded.count(wire) == 1 and len(embedded) == len(set(embedded)) == 5
    rows = index.collection.get(where_document={"$contains": "ferry service"}, include=["embeddings"])
    assert len(rows["ids"]) == 2
    alone = np.asarray(model.get_text_embedding(wire))
    for vector in rows["embeddings"]:
        assert np.allclose(vector, alone, atol=1e-5)


def test_the_ingest_keeps_at_most_its_bound_of_vectors_and_embeds_an_evicted_text_again():
    from assistant.index import _EmbedOnce

    class Counting:
        calls: list[list[str]] = []

        def get_text_embedding_batch(self, texts):
            self.calls.append(list(texts))
            return [[float(len(t)), 1.0] for t in texts]

    model = Counting()
    once = _EmbedOnce(model, keep=2)
    first = once.vectors_of(["bb", "a", "bb"])
    assert model.calls == [["a", "bb"]] and [v.tolist() for v in first] == [[2.0, 1.0], [1.0, 1.0], [2.0, 1.0]]
    once.vectors_of(["ccc", "bb"])  # "a", the oldest, goes
    once.vectors_of(["a"])
    assert model.calls == [["a", "bb"], ["ccc"], ["a"]] and len(once.vectors) == 2


def test_the_question_encoder_is_exported_once_per_machine_and_linked_into_each_store(tmp_path, monkeypatch):
    import assistant.encoder as encoder

    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.txt").write_text("The council said 40 rebels left the town on Monday.")
    exported = []
    real = encoder.export
    monkeypatch.setattr(encoder, "export", lambda *args: exported.append(args[-1]) or real(*args))
    cache = tmp_path / "cache"
    stores = [Index(Settings(corpus_dir=tmp_path / "corpus", store_dir=tmp_path / name, cache_dir=cache)) for name in ("one", "two")]
    stores[0].ingest()
    monkeypatch.setitem(sys.modules, "onnx", None)  # the second store is linked without importing onnx (~1 s)
    stores[1].ingest()
    [shared] = exported
    assert shared.parent == cache  # once, into the machine's cache
    for index in stores:
        path = encoder.onnx_path(index.store_dir)
        assert path.read_bytes() == shared.read_bytes() and path.stat().st_ino == shared.stat().st_ino  # a hard link
        assert encoder.MiniLM(encoder.model_dir(), path).onnx == path
    assert not list(cache.glob("*.tmp")) and not list(stores[0].store_dir.glob("*.tmp"))


def test_a_cache_that_cannot_be_written_leaves_the_export_to_the_store(tmp_path):
    from assistant.encoder import onnx_path

    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.txt").write_text("The council said 40 rebels left the town on Monday.")
    (tmp_path / "not-a-folder").write_text("a file where the cache folder would be")
    index = Index(Settings(corpus_dir=tmp_path / "corpus", store_dir=tmp_path / "store", cache_dir=tmp_path / "not-a-folder"))
    index.ingest()
    assert onnx_path(index.store_dir).stat().st_size > 1_000_000
