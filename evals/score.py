"""Score one answer against its gold item, aggregate over items, and apply the gate.

`score_item` turns an item and an answer into a flat dict of per-item metrics, `None` where
a metric does not apply to the item (e.g. `false_alarm` outside agreement items), so that
`aggregate` can simply average what is there. `gate` compares aggregates with thresholds.

What this module does not do: run the assistant or write files (see `evals.run` and
`evals.report`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evals import metrics as m

# aggregate name -> per-item key; the per-item key is None where the item is not counted.
RATES = {
    "correctness": "correct",                       # all items
    "token_f1": "token_f1",                         # answerable items
    "citation_valid": "citation_valid",             # all items
    "citation_recall": "citation_recall",           # answerable items the assistant answered
    "citation_precision": "citation_precision",     # answerable items the assistant answered
    "grounding": "grounding",                       # answered items whose text has figures
    "discrepancy_recall": "discrepancy_found",      # conflict items
    "discrepancy_attribution": "discrepancy_attributed",  # conflict items
    "false_alarm_rate": "false_alarm",              # agreement items
    "abstention_accuracy": "abstention_ok",         # all items
    "recall_at_k": "recall_at_k",                   # answerable items
}
LATENCIES = {"latency_p50_ms": 50, "latency_p95_ms": 95}
LOWER_IS_BETTER = {"false_alarm_rate", "latency_p50_ms", "latency_p95_ms"}


def score_item(item: dict, answer: dict, retrieved: list[str], similarity=None) -> dict:
    """Every per-item metric for one answer (`None` where the metric does not apply)."""
    answerable = not m.is_unanswerable(item)
    answered = answerable and not answer.get("abstained")
    return {
        "correct": m.correct(item, answer),
        "token_f1": m.token_f1(answer.get("text", ""), item.get("reference", "")) if answerable else None,
        "citation_valid": m.citation_valid(answer),
        "citation_recall": m.citation_recall(answer, similarity) if answered else None,
        "citation_precision": m.citation_precision(answer, similarity) if answered else None,
        "grounding": None if answer.get("abstained") else m.grounding(answer),
        "discrepancy_found": m.discrepancy_found(item, answer),
        "discrepancy_attributed": m.discrepancy_attributed(item, answer),
        "false_alarm": m.false_alarm(item, answer) if "agreement" in item.get("flags", []) else None,
        "abstention_ok": m.abstention_ok(item, answer),
        "recall_at_k": m.recall_at_k(item, retrieved) if answerable else None,
    }


def failed(scores: dict) -> list[str]:
    """The per-item metrics this item fails (token_f1 is graded, so never listed)."""
    out = []
    for key, value in scores.items():
        if value is None or key == "token_f1":
            continue
        bad = value if key == "false_alarm" else (value is False or (not isinstance(value, bool) and value < 1))
        if bad:
            out.append(key)
    return out


def aggregate(results: list[dict]) -> dict[str, dict]:
    """Name -> {value, low, high, n}: rates with 95% bootstrap intervals, latency percentiles."""
    out = {}
    for name, key in RATES.items():
        values = [float(r["scores"][key]) for r in results if r["scores"].get(key) is not None]
        low, high = m.bootstrap_ci(values)
        out[name] = {"value": float(np.mean(values)) if values else None, "low": low, "high": high, "n": len(values)}
    latencies = [r["latency_ms"] for r in results if r.get("latency_ms") is not None]
    for name, q in LATENCIES.items():
        value = float(np.percentile(latencies, q)) if latencies else None
        out[name] = {"value": value, "low": None, "high": None, "n": len(latencies)}
    return out


@dataclass
class Check:
    """One row of the gate: a metric, its bound, and whether it passes."""

    metric: str
    bound: str | None   # e.g. ">= 0.9"; None when the metric is not gated
    status: str         # "pass", "FAIL", "n/a" (gated but not measured) or "-" (not gated)


def validate_thresholds(thresholds: dict) -> None:
    """Raise ValueError for unknown metric names or malformed bounds (a typo must not
    silently disable a gate)."""
    known = set(RATES) | set(LATENCIES)
    for name, spec in thresholds.items():
        if name not in known:
            raise ValueError(f"thresholds: unknown metric {name!r}; known: {', '.join(sorted(known))}")
        if not isinstance(spec, dict) or not spec or set(spec) - {"min", "max"} \
                or not all(isinstance(v, (int, float)) for v in spec.values()):
            raise ValueError(f"thresholds: {name!r} must be {{\"min\": x}} and/or {{\"max\": x}}, not {spec!r}")


def gate(aggregates: dict[str, dict], thresholds: dict) -> list[Check]:
    """One `Check` per aggregate metric, in table order."""
    validate_thresholds(thresholds)
    checks = []
    for name, agg in aggregates.items():
        spec = thresholds.get(name)
        if not spec:
            checks.append(Check(name, None, "-"))
            continue
        bound = " and ".join(f"{'>=' if k == 'min' else '<='} {v:g}" for k, v in spec.items())
        value = agg["value"]
        if value is None:
            checks.append(Check(name, bound, "n/a"))
            continue
        ok = value >= spec.get("min", -np.inf) and value <= spec.get("max", np.inf)
        checks.append(Check(name, bound, "pass" if ok else "FAIL"))
    return checks
