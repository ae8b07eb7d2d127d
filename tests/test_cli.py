"""The `assistant` command, in-process (the model is loaded once per session)."""

import json

import pytest

from assistant.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture
def store(seeds_bot):
    return str(seeds_bot.settings.store_dir)


def test_ask_json_prints_exactly_the_answer(capsys, store, seeds_bot):
    assert main(["--store", store, "ask", "How many Syrian fighters left Raqqa?", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == seeds_bot.ask("How many Syrian fighters left Raqqa?").to_dict()
    assert {c["source"] for c in printed["citations"]} >= {"003_3ba6f3b9afe6fb2a.txt", "004_5699ca3a0153345e.txt"}


def test_ask_file_answers_one_json_line_per_question(capsys, store, tmp_path):
    questions = tmp_path / "q.txt"
    questions.write_text("Who heads the Raqqa Civil Council?\n\nWho won the World Cup?\n")
    assert main(["--store", store, "ask", "--file", str(questions), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["abstained"] for a in lines] == [False, True]


def test_text_output_lists_numbered_sources(capsys, store):
    assert main(["--store", store, "ask", "When did IS capture Raqqa?"]) == 0
    out = capsys.readouterr().out
    assert "2014" in out and "\n[1] " in out and "(extractive)" in out


def test_bad_question_is_one_line_and_exit_2(capsys, store):
    assert main(["--store", store, "ask", "   "]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: The question is empty") and err.count("\n") == 1


def test_missing_corpus_is_a_clear_error(capsys, tmp_path):
    assert main(["--store", str(tmp_path / "s"), "ingest", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err
