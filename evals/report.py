"""Write an evaluation run to disk: `eval.json`, `eval.md` and `eval.png`.

`summary_table` is the Markdown table printed to stdout and put at the top of `eval.md`;
the chart is a horizontal bar per rate metric with its 95% interval and threshold.

What this module does not do: compute anything (see `evals.score`).
"""

from __future__ import annotations

import json
from pathlib import Path

from evals.score import LATENCIES, Check

GOT_CHARS = 300


def _fmt(value, latency: bool) -> str:
    if value is None:
        return "—"
    return f"{value:.0f}" if latency else f"{value:.3f}"


def summary_table(aggregates: dict[str, dict], checks: list[Check]) -> str:
    """Markdown table: metric, value, 95% CI, n, threshold, pass/fail."""
    lines = ["| metric | value | 95% CI | n | threshold | result |", "|---|---:|---|---:|---|---|"]
    for check in checks:
        agg, latency = aggregates[check.metric], check.metric in LATENCIES
        ci = "—" if agg["low"] is None else f"[{agg['low']:.3f}, {agg['high']:.3f}]"
        lines.append(f"| {check.metric} | {_fmt(agg['value'], latency)} | {ci} | {agg['n']} "
                     f"| {check.bound or '—'} | {check.status} |")
    return "\n".join(lines)


def _one_line(text: str, limit: int = GOT_CHARS) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failures_section(results: list[dict]) -> str:
    """Markdown list of the items that failed some per-item metric."""
    failing = [r for r in results if r["failed"]]
    lines = [f"## Per-item failures ({len(failing)} of {len(results)} items)", ""]
    for r in failing:
        lines += [f"### {r['id']} ({', '.join(r['flags'])}): failed {', '.join(r['failed'])}", "",
                  f"- **question:** {_one_line(r['question'])}",
                  f"- **expected:** {_one_line(r['reference'])}",
                  f"- **got:** {_one_line(r['answer'].get('text', ''))}"]
        if r.get("error"):
            lines.append(f"- **error:** {_one_line(r['error'])}")
        lines.append("")
    return "\n".join(lines)


def write_markdown(path: Path, run: dict, aggregates: dict, checks: list[Check], results: list[dict]) -> None:
    header = (f"# Evaluation: backend `{run['backend']}`, {run['items']} items from `{run['gold']}`\n\n"
              f"Answered by: {', '.join(run['backends_seen']) or '—'}. Latency is per `ask`, after a warm-up.\n")
    body = [header, summary_table(aggregates, checks), "", failures_section(results)]
    path.write_text("\n".join(body), encoding="utf-8")


def write_json(path: Path, run: dict, aggregates: dict, checks: list[Check], results: list[dict]) -> None:
    gate = {c.metric: {"bound": c.bound, "status": c.status} for c in checks if c.bound}
    data = {"run": run, "metrics": aggregates, "gate": gate, "items": results}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def write_chart(path: Path, aggregates: dict, thresholds: dict) -> None:
    """Horizontal bars of the rate metrics, 95% intervals as error bars, thresholds as ticks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n, a in aggregates.items() if n not in LATENCIES and a["value"] is not None][::-1]
    values = [aggregates[n]["value"] for n in names]
    errors = [[max(0.0, v - aggregates[n]["low"]) for n, v in zip(names, values)],
              [max(0.0, aggregates[n]["high"] - v) for n, v in zip(names, values)]]
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(names) + 1.2))
    ax.barh(names, values, xerr=errors, color="#4c78a8", ecolor="#333333", capsize=3)
    for y, name in enumerate(names):
        for kind, bound in thresholds.get(name, {}).items():
            ax.plot([bound, bound], [y - 0.4, y + 0.4], color="#d62728" if kind == "min" else "#ff7f0e", lw=2)
    ax.set_xlim(-0.02, 1.02)  # so that a threshold of 0 stays visible
    ax.set_xlabel("rate (95% bootstrap CI; red tick: min threshold, orange: max)")
    ax.set_title("Evaluation")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_all(reports: Path, run: dict, aggregates: dict, checks: list[Check], results: list[dict],
              thresholds: dict) -> None:
    """Write eval.json, eval.md and eval.png under `reports`."""
    reports.mkdir(parents=True, exist_ok=True)
    write_json(reports / "eval.json", run, aggregates, checks, results)
    write_markdown(reports / "eval.md", run, aggregates, checks, results)
    write_chart(reports / "eval.png", aggregates, thresholds)
