"""Tests of the evaluation harness: the metrics on hand-made answers (offline, fast), the
gate logic, the degraded backends, and one slow end-to-end gate test on real answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals import metrics as m
from evals.score import aggregate, failed, gate, score_item

GOLD = Path(__file__).resolve().parent.parent / "evals" / "gold.jsonl"

Q_SELO = "SDF spokesman Talal Selo said 275 Syrian fighters had left the city."
Q_OBS = "The Syrian Observatory for Human Rights said about 200 fighters had left."
Q_LEFT = "A convoy of fighters left Raqqa on Sunday."


def cite(marker: int, quote: str, source: str = "a.txt") -> dict:
    return {"marker": marker, "source": source, "quote": quote, "start": 0, "end": len(quote)}


def answer(text: str, citations=(), discrepancies=(), abstained: bool = False) -> dict:
    return {"question": "q", "text": text, "citations": list(citations), "discrepancies": list(discrepancies),
            "abstained": abstained, "backend": "test", "notices": [], "usage": {}}


CONFLICT = {"id": "c", "question": "How many Syrian fighters left?", "history": [], "flags": ["conflict"],
            "answer_patterns": [r"\b200\b", r"\b275\b"], "reference": "Accounts differ: 200 or 275.",
            "sources": ["obs.txt", "reuters.txt"],
            "conflict_sides": [{"patterns": [r"\b200\b"], "sources": ["obs.txt"], "attributed_to": "Syrian Observatory"},
                               {"patterns": [r"\b275\b"], "sources": ["reuters.txt"], "attributed_to": "SDF spokesman Talal Selo"}]}
AGREEMENT = {"id": "a", "question": "How much of Raqqa was retaken?", "history": [], "flags": ["agreement"],
             "answer_patterns": [r"\b90\b"], "reference": "Around 90 per cent.", "sources": ["a.txt"], "conflict_sides": []}
UNANSWERABLE = {"id": "u", "question": "Who won the World Cup?", "history": [], "flags": ["unanswerable"],
                "answer_patterns": [], "reference": "Not covered.", "sources": [], "conflict_sides": []}
ABSTENTION = answer("The articles don't say. None of the indexed articles answers “Who won the World Cup?”.",
                    abstained=True)


# --- statements --------------------------------------------------------------------------

def test_statements_split_at_marker_groups_and_sentence_ends():
    text = ("Selo said 275 Syrian fighters left. [1][2] Accounts differ on the number of Syrian fighters who left: "
            "SDF spokesman Talal Selo put it at 275 [1][2]; the Syrian Observatory put it at about 200 [3].")
    assert m.statements(text) == [
        ("Selo said 275 Syrian fighters left.", [1, 2]),
        ("Accounts differ on the number of Syrian fighters who left: SDF spokesman Talal Selo put it at 275", [1, 2]),
        ("the Syrian Observatory put it at about 200", [3]),
    ]


def test_statements_keep_inner_markers_and_abbreviations():
    assert m.statements("Col. Ryan Dillon [1] said 300 remain. The U.S. Army agreed.") == [
        ("Col. Ryan Dillon said 300 remain.", [1]), ("The U.S. Army agreed.", [])]


# --- correctness and F1 ------------------------------------------------------------------

def test_correct_needs_every_pattern_and_no_abstention():
    assert m.correct(CONFLICT, answer("Some say 200 [1], others 275 [2]."))
    assert not m.correct(CONFLICT, answer("Some say 200 [1]."))
    assert not m.correct(CONFLICT, answer("Some say 200, others 275.", abstained=True))
    assert not m.correct(AGREEMENT, answer("About half of it [90].")), "a marker is not an answer"


def test_token_f1_ignores_markers_articles_and_punctuation():
    assert m.token_f1("The 90 per cent [1][2].", "around 90 per cent") == pytest.approx(2 * 1 * 0.75 / 1.75)
    assert m.token_f1("A city.", "city") == 1.0
    assert m.token_f1("Mayadeen", "Raqqa") == 0.0


# --- citations ---------------------------------------------------------------------------

def test_missing_citation_lowers_recall_but_is_not_invalid():
    a = answer("Selo said 275 Syrian fighters left. [1] The Observatory said about 200 fighters had left.",
               [cite(1, Q_SELO)])
    assert m.citation_valid(a)
    assert m.citation_recall(a) == 0.5
    assert m.citation_precision(a) == 1.0


def test_invalid_marker_is_invalid_and_unsupported():
    a = answer("Selo said 275 Syrian fighters left. [9]", [cite(1, Q_SELO)])
    assert not m.citation_valid(a)
    assert m.citation_recall(a) == 0.0


def test_unused_or_duplicate_citation_is_invalid():
    assert not m.citation_valid(answer("Selo said 275 fighters left. [1]", [cite(1, Q_SELO), cite(2, Q_OBS)]))
    assert not m.citation_valid(answer("Selo said 275 fighters left. [1]", [cite(1, Q_SELO), cite(1, Q_OBS)]))
    assert m.citation_valid(answer("Selo said 275 fighters left. [1]", [cite(1, Q_SELO)]))


def test_uncited_answer_is_invalid_unless_it_abstained():
    assert not m.citation_valid(answer("Selo said 275 fighters left."))
    assert m.citation_valid(ABSTENTION)
    assert m.citation_recall(ABSTENTION) == 1.0


def test_wrong_figure_fails_support_and_grounding():
    a = answer("Selo said 300 Syrian fighters left the city. [1]", [cite(1, Q_SELO)])
    assert not m.supports("Selo said 300 Syrian fighters left the city.", [Q_SELO])
    assert m.citation_recall(a) == 0.0
    assert m.grounding(a) == 0.0
    mixed = answer("Selo said 275 left [1], the Observatory 3,000 [2].", [cite(1, Q_SELO), cite(2, Q_OBS)])
    assert m.grounding(mixed) == 0.5
    assert m.grounding(answer("No figures here [1].", [cite(1, Q_SELO)])) is None


def test_support_checks_names_with_spelling_variants_and_similarity():
    assert m.supports("Sello said 275 fighters left Raqa.", [Q_SELO + " Raqqa"])
    assert not m.supports("Laila Mostafa said 275 fighters left.", [Q_SELO]), "an unnamed speaker in the quote"
    assert m.supports("Accounts differ: 3,000 left.", ["More than 3000 civilians left."])
    assert not m.supports("Selo said 275 fighters left.", [])
    assert m.supports("Selo said 275 left.", [Q_SELO], similarity=lambda a, b: 0.9)
    assert not m.supports("Selo said 275 left.", [Q_SELO], similarity=lambda a, b: 0.2)


def test_redundant_citation_is_imprecise():
    # [2] alone does not support the statement, and [1] supports it without [2].
    a = answer("Selo said 275 Syrian fighters left. [1][2]", [cite(1, Q_SELO), cite(2, Q_LEFT)])
    assert m.citation_recall(a) == 1.0
    assert m.citation_precision(a) == 0.5
    # Two copies that each support the statement are both precise.
    b = answer("Selo said 275 Syrian fighters left. [1][2]", [cite(1, Q_SELO), cite(2, Q_SELO, "b.txt")])
    assert m.citation_precision(b) == 1.0
    # A reprint that dropped a name the statement keeps ("… told AFP") is still a copy, cited by design.
    c = answer(Q_SELO + " AFP [1][2]", [cite(1, Q_SELO + " AFP"), cite(2, Q_SELO, "b.txt")])
    assert m.citation_precision(c) == 1.0


# --- discrepancies, false alarms, abstention ---------------------------------------------

BOTH_SIDES = answer(
    "Accounts differ on how many left: SDF spokesman Talal Selo put it at 275 [1]; "
    "the Syrian Observatory put it at about 200 [2].",
    [cite(1, Q_SELO, "reuters.txt"), cite(2, Q_OBS, "obs.txt")],
    [{"topic": "how many left", "claims": [
        {"value": "275", "source": "reuters.txt", "quote": Q_SELO, "attributed_to": "Talal Selo", "marker": 1},
        {"value": "about 200", "source": "obs.txt", "quote": Q_OBS, "attributed_to": "the Syrian Observatory", "marker": 2}]}])


def test_discrepancy_found_needs_every_side_cited_to_its_sources():
    assert m.discrepancy_found(CONFLICT, BOTH_SIDES)
    one_side = answer("SDF spokesman Talal Selo said 275 left. [1]", [cite(1, Q_SELO, "reuters.txt")])
    assert not m.discrepancy_found(CONFLICT, one_side)
    wrong_source = answer("Selo said 275 [1]; the Observatory said 200 [2].",
                          [cite(1, Q_SELO, "reuters.txt"), cite(2, Q_OBS, "reuters.txt")])
    assert not m.discrepancy_found(CONFLICT, wrong_source)
    assert m.discrepancy_found(AGREEMENT, BOTH_SIDES) is None
    side_by_side = answer("SDF spokesman Talal Selo said 275 left [1]. The Syrian Observatory said about 200 [2].",
                          [cite(1, Q_SELO, "reuters.txt"), cite(2, Q_OBS, "obs.txt")])
    assert not m.discrepancy_found(CONFLICT, side_by_side), "both figures, but nothing said of their disagreement"
    said = dict(side_by_side, text=side_by_side["text"] + " The two accounts conflict.")
    assert m.discrepancy_found(CONFLICT, said)


def test_discrepancy_attributed_needs_a_distinctive_word_per_side():
    assert m.distinctive_words("SDF spokesman Talal Sello") == {"talal", "selo"}
    assert m.discrepancy_attributed(CONFLICT, BOTH_SIDES)
    unattributed = answer("Accounts differ: one report put it at 275 [1]; another put it at about 200 [2].",
                          [cite(1, Q_SELO, "reuters.txt"), cite(2, Q_OBS, "obs.txt")])
    assert m.discrepancy_found(CONFLICT, unattributed)
    assert not m.discrepancy_attributed(CONFLICT, unattributed)
    structured = dict(unattributed, discrepancies=[{"topic": "t", "claims": [
        {"value": "275", "source": "reuters.txt", "quote": Q_SELO, "attributed_to": "Talal Sello", "marker": 1},
        {"value": "200", "source": "obs.txt", "quote": Q_OBS, "attributed_to": "Syrian Observatory", "marker": 2}]}])
    assert m.discrepancy_attributed(CONFLICT, structured)


def test_false_alarm_on_agreement_item():
    agreed = answer("They have recaptured around 90 per cent of Raqa. [1]", [cite(1, "around 90 per cent of Raqa")])
    assert not m.false_alarm(AGREEMENT, agreed)
    assert m.false_alarm(AGREEMENT, dict(agreed, discrepancies=BOTH_SIDES["discrepancies"]))
    scores = score_item(AGREEMENT, dict(agreed, discrepancies=BOTH_SIDES["discrepancies"]), ["a.txt"])
    assert "false_alarm" in failed(scores)


def test_correct_abstention():
    assert m.correct(UNANSWERABLE, ABSTENTION) and m.abstention_ok(UNANSWERABLE, ABSTENTION)
    guessed = answer("France won. [1]", [cite(1, "France won the final.")])
    assert not m.correct(UNANSWERABLE, guessed) and not m.abstention_ok(UNANSWERABLE, guessed)
    assert not m.abstention_ok(AGREEMENT, ABSTENTION)
    scores = score_item(UNANSWERABLE, ABSTENTION, [])
    assert scores["citation_recall"] is None and scores["recall_at_k"] is None and failed(scores) == []


def test_recall_at_k():
    assert m.recall_at_k(CONFLICT, ["obs.txt", "x.txt"]) == 0.5
    assert m.recall_at_k(CONFLICT, ["reuters.txt", "obs.txt"]) == 1.0
    assert m.recall_at_k(UNANSWERABLE, ["obs.txt"]) is None


# --- statistics and the gate -------------------------------------------------------------

def test_bootstrap_interval_brackets_the_mean_and_is_deterministic():
    values = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0.5, 1]
    low, high = m.bootstrap_ci(values)
    mean = sum(values) / len(values)
    assert low < mean < high and 0 <= low and high <= 1
    assert m.bootstrap_ci(values) == (low, high)
    assert m.bootstrap_ci(values, seed=1) != (low, high)
    assert m.bootstrap_ci([0.4] * 5) == pytest.approx((0.4, 0.4))
    assert m.bootstrap_ci([]) == (None, None)


def test_aggregate_counts_only_applicable_items():
    results = [{"scores": score_item(AGREEMENT, answer("Around 90 per cent [1].", [cite(1, "around 90 per cent")]),
                                     ["a.txt"]), "latency_ms": 10.0},
               {"scores": score_item(UNANSWERABLE, ABSTENTION, []), "latency_ms": 30.0}]
    agg = aggregate(results)
    assert agg["correctness"]["value"] == 1.0 and agg["correctness"]["n"] == 2
    assert agg["false_alarm_rate"]["n"] == 1 and agg["discrepancy_recall"]["value"] is None
    assert agg["latency_p50_ms"]["value"] == 20.0


def test_gate_min_max_unmeasured_and_unknown_metrics():
    agg = {"citation_valid": {"value": 0.5}, "false_alarm_rate": {"value": 0.3}, "grounding": {"value": None}}
    checks = {c.metric: c.status for c in gate(agg, {"citation_valid": {"min": 0.9}, "false_alarm_rate": {"max": 0.5},
                                                      "grounding": {"min": 0.5}})}
    assert checks == {"citation_valid": "FAIL", "false_alarm_rate": "pass", "grounding": "n/a"}
    with pytest.raises(ValueError):
        gate(agg, {"citation_vaild": {"min": 0.9}})
    with pytest.raises(ValueError):
        gate(agg, {"citation_valid": {"at_least": 0.9}})


def test_run_rejects_bad_thresholds_before_building_anything(tmp_path):
    from evals.run import main

    bad = tmp_path / "t.json"
    bad.write_text(json.dumps({"corectness": {"min": 0.5}}))
    assert main(["--thresholds", str(bad), "--reports", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()


# --- degraded backends -------------------------------------------------------------------

def test_degradations_remove_what_they_claim():
    from assistant.answer import Answer
    from evals.degraded import drop_discrepancies, strip_citations

    text = ("Selo said 275 Syrian fighters left. [1] Accounts differ on how many left: "
            "SDF spokesman Talal Selo put it at 275 [1]; the Syrian Observatory put it at about 200 [2].")
    full = Answer.model_validate(answer(text, [cite(1, Q_SELO, "reuters.txt"), cite(2, Q_OBS, "obs.txt")],
                                        BOTH_SIDES["discrepancies"]))
    bare = strip_citations(full)
    assert "[" not in bare.text and bare.citations == [] and bare.text.startswith("Selo said 275")
    assert not m.citation_valid(bare.to_dict())
    quiet = drop_discrepancies(full)
    assert quiet.text == "Selo said 275 Syrian fighters left. [1]"
    assert [c.marker for c in quiet.citations] == [1] and quiet.discrepancies == []
    assert m.citation_valid(quiet.to_dict()) and not m.discrepancy_found(CONFLICT, quiet.to_dict())


# --- end to end --------------------------------------------------------------------------

@pytest.mark.slow
def test_gate_passes_extractive_and_fails_degraded_backends(tmp_path, capsys):
    from evals.run import main

    items = {json.loads(line)["id"]: line for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()}
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(items[i] for i in ("f09", "c08", "u06")) + "\n", encoding="utf-8")
    thresholds = tmp_path / "thresholds.json"
    thresholds.write_text(json.dumps({"citation_valid": {"min": 0.9}, "discrepancy_recall": {"min": 0.5}}))

    def run(backend: str) -> tuple[int, dict, str]:
        reports = tmp_path / backend
        argv = ["--gold", str(gold), "--backend", backend, "--store", str(tmp_path / "store"),
                "--reports", str(reports), "--thresholds", str(thresholds)]
        code = main(argv)
        captured = capsys.readouterr()
        assert (reports / "eval.md").read_text().count("| citation_valid |") == 1
        assert (reports / "eval.png").stat().st_size > 1000
        return code, json.loads((reports / "eval.json").read_text()), captured.out + captured.err

    code, data, out = run("extractive")
    assert code == 0, out
    assert data["metrics"]["citation_valid"]["value"] >= 0.9
    assert data["metrics"]["discrepancy_recall"]["value"] == 1.0
    assert len(data["items"]) == 3 and data["metrics"]["latency_p95_ms"]["value"] > 0
    assert "| citation_valid |" in out

    code, data, out = run("no-citations")
    assert code == 1
    assert data["gate"]["citation_valid"]["status"] == "FAIL"
    assert "GATE FAILED: citation_valid" in out
    assert all(not item["answer"]["citations"] for item in data["items"])

    code, data, out = run("no-discrepancies")
    assert code == 1
    assert data["gate"]["discrepancy_recall"]["status"] == "FAIL"
    assert data["gate"]["citation_valid"]["status"] == "pass"
    assert "GATE FAILED: discrepancy_recall" in out

    assert main(["--gold", str(gold), "--backend", "no-citations", "--store", str(tmp_path / "store"),
                 "--reports", str(tmp_path / "nogate"), "--thresholds", str(thresholds), "--no-gate"]) == 0
