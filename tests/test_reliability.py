"""Bad input, killed ingests, broken stores and concurrency: the assistant keeps working and loses nothing.

Each test here is a row of the reliability table in the README.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from assistant import Assistant, QuestionError, Settings, StoreError
from assistant.index import Index
from evals.corpora import make_corpus

pytestmark = pytest.mark.slow


def test_a_100000_character_question_is_refused_with_the_limit(seeds_bot):
    with pytest.raises(QuestionError, match="100,000 characters long; the limit is 2,000"):
        seeds_bot.ask("w" * 100_000)


def test_a_non_english_question_is_answered_or_abstained_never_a_crash(seeds_bot):
    answer = seeds_bot.ask("¿Cuántos combatientes extranjeros quedan en Raqqa?")
    assert answer.abstained or answer.citations


def test_html_and_script_in_a_question_are_plain_text(seeds_bot):
    answer = seeds_bot.ask("<script>alert(1)</script> **How many** Syrian fighters left Raqqa?")
    assert "275" in answer.text and "<script>" not in answer.text


def test_malformed_history_is_ignored_not_fatal(seeds_bot):
    history = ["just a string", {"role": "system", "content": "x"}, ("Who heads the council?", "Laila Mostafa [1]."), 42]
    answer = seeds_bot.ask("What did she say about the earlier comment?", history=history)
    assert "was wrong" in answer.text


def bot_on(corpus: Path, store: Path) -> Assistant:
    return Assistant(corpus_dir=corpus, store_dir=store)


def test_a_50_mb_article_is_skipped_by_name_and_the_rest_indexed(corpus, tmp_path):
    with open(corpus / "huge.txt", "wb") as f:
        f.truncate(50_000_000)
    report = bot_on(corpus, tmp_path / "store").ingest()
    assert [s.name for s in report.skipped] == ["huge.txt"] and "50.0 MB" in report.skipped[0].reason
    assert len(report.unchanged) == 5


def test_an_article_duplicated_under_another_name_is_cited_as_a_copy(corpus, tmp_path):
    shutil.copy(corpus / "002_78f56554f5997fca.txt", corpus / "002_copy.txt")
    answer = bot_on(corpus, tmp_path / "store").ask("What did Colonel Ryan Dillon say about biometric data?")
    statement = "had given biometric data"
    assert sum(statement in part for part in answer.text.split("[")) == 1
    assert {c.source for c in answer.citations if statement in c.quote} == {"002_78f56554f5997fca.txt", "002_copy.txt"}


def test_a_renamed_article_is_moved_not_duplicated(corpus, tmp_path):
    bot = bot_on(corpus, tmp_path / "store")
    count = bot.index.collection.count()
    (corpus / "004_5699ca3a0153345e.txt").rename(corpus / "004_renamed.txt")
    report = bot.ingest()
    assert report.removed == ["004_5699ca3a0153345e.txt"] and report.added == ["004_renamed.txt"]
    assert bot.index.collection.count() == count


def test_a_directory_named_like_an_article_is_skipped(corpus, tmp_path):
    (corpus / "folder.txt").mkdir()
    report = bot_on(corpus, tmp_path / "store").ingest()
    assert [(s.name, s.reason) for s in report.skipped] == [("folder.txt", "not a regular file")]


def test_a_store_from_an_incompatible_version_asks_for_rebuild_and_rebuild_fixes_it(corpus, tmp_path):
    store = tmp_path / "store"
    bot_on(corpus, store)
    (store / "FORMAT").write_text("0")
    with pytest.raises(StoreError, match="incompatible version.*--rebuild"):
        bot_on(corpus, store)
    fixed = Assistant(corpus_dir=corpus, store_dir=store, ingest=False)
    assert len(fixed.ingest(rebuild=True).added) == 5
    assert "275" in fixed.ask("How many Syrian fighters left Raqqa?").text


def _corrupt(store: Path, target: str) -> None:
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()
    (store / target).write_bytes(b"not what it should be" * 100)


def test_a_corrupted_bm25_index_says_so_with_a_rebuild_hint(corpus, tmp_path):
    store = tmp_path / "store"
    bot_on(corpus, store)
    _corrupt(store, "lexical/bm25/data.csc.index.npy")
    with pytest.raises(StoreError, match="--rebuild"):
        bot_on(corpus, store).ask("How many Syrian fighters left Raqqa?")


def test_a_corrupted_chroma_file_stops_the_next_ingest_with_a_rebuild_hint_but_not_questions(corpus, tmp_path):
    store = tmp_path / "store"
    bot_on(corpus, store)
    _corrupt(store, "chroma/chroma.sqlite3")
    bot = bot_on(corpus, store)
    assert "275" in bot.ask("How many Syrian fighters left Raqqa?").text  # questions read the lexicon, vectors too
    with pytest.raises(StoreError, match="--rebuild"):
        bot.ingest()
    assert len(bot.ingest(rebuild=True).added) == 5


def test_a_corrupted_docstore_stops_the_next_ingest_with_a_rebuild_hint_but_not_questions(corpus, tmp_path):
    store = tmp_path / "store"
    bot_on(corpus, store)
    _corrupt(store, "docstore.json")
    bot = bot_on(corpus, store)
    assert "275" in bot.ask("How many Syrian fighters left Raqqa?").text  # questions read the lexicon
    with pytest.raises(StoreError, match="corrupted.*--rebuild"):
        bot.ingest()
    assert len(bot.ingest(rebuild=True).added) == 5


def test_a_corrupted_or_missing_lexicon_is_rebuilt_from_the_store(corpus, tmp_path):
    store = tmp_path / "store"
    expected = bot_on(corpus, store).ask("How many Syrian fighters left Raqqa?").to_dict()
    _corrupt(store, "lexical/table.json")
    assert bot_on(corpus, store).ask("How many Syrian fighters left Raqqa?").to_dict() == expected
    shutil.rmtree(store / "lexical")
    assert bot_on(corpus, store).ask("How many Syrian fighters left Raqqa?").to_dict() == expected
    table = json.loads((store / "lexical" / "table.json").read_text())
    del table["speakers"]  # valid JSON of the current format, a part missing
    (store / "lexical" / "table.json").write_text(json.dumps(table))
    assert bot_on(corpus, store).ask("How many Syrian fighters left Raqqa?").to_dict() == expected
    assert json.loads((store / "lexical" / "table.json").read_text())["rows"] == bot_on(corpus, store).index.collection.count()


def test_an_ingest_killed_mid_run_is_completed_by_the_next_without_duplicates(tmp_path):
    corpus, store = make_corpus(tmp_path / "corpus", 40), tmp_path / "store"
    env = {**os.environ, "ASSISTANT_CORPUS_DIR": str(corpus), "ASSISTANT_STORE_DIR": str(store),
           "ASSISTANT_INGEST_BATCH": "4"}
    code = "from assistant.index import Index; from assistant.settings import Settings; Index(Settings()).ingest()"
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        saved = _wait_for_saved_documents(store / "docstore.json", at_least=4, timeout=120)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert 4 <= saved < 40, "the ingest was not caught mid-run"
    index = Index(Settings(corpus_dir=corpus, store_dir=store))
    report = index.ingest()
    assert len(report.added) + len(report.unchanged) == 40 and len(report.unchanged) >= saved
    rows = index.collection.get(include=["metadatas"])
    assert len(rows["ids"]) == len(set(rows["ids"])) == sum(int(m["n_sentences"]) for m in _docs(index))


def _wait_for_saved_documents(path: Path, at_least: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            saved = len(json.loads(path.read_text())["docstore/metadata"])
        except (OSError, ValueError, KeyError):
            saved = 0
        if saved >= at_least:
            return saved
        time.sleep(0.05)
    raise AssertionError("the ingest saved nothing in time")


def _docs(index: Index) -> list[dict]:
    docstore = index._load_docstore()
    return [docstore.get_document(d).metadata for d in docstore.get_all_document_hashes().values()]


def test_ask_is_safe_from_many_threads_at_once(seeds_bot):
    questions = ["How many Syrian fighters left Raqqa?", "Who heads the Raqqa Civil Council?",
                 "When did IS capture Raqqa?", "Who won the World Cup?"] * 4
    expected = {q: seeds_bot.ask(q).to_dict() for q in set(questions)}
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(seeds_bot.ask, questions))
    assert [a.to_dict() for a in answers] == [expected[q] for q in questions]
