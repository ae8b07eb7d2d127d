"""Run the gold Q&A set through the assistant, score it, write reports, apply the gate.

    python -m evals [--gold FILE] [--backend NAME] [--corpus DIR] [--store DIR]
                    [--reports DIR] [--thresholds FILE] [--no-gate]
    assistant eval [same options]

One `Assistant` is built (index in a fresh temporary store unless `--store` is given), then
every gold item is asked with its history and timed. Scores, 95% bootstrap intervals and
per-item results go to `reports/eval.json`, `eval.md` and `eval.png`; the summary table is
printed. Exit status: 1 when a gated metric misses its threshold (unless `--no-gate`),
2 for unusable options or files, 0 otherwise.

What it does not do: change the assistant, or tune anything on the gold set.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from evals import report
from evals.degraded import BACKENDS, make_assistant
from evals.score import aggregate, failed, gate, score_item, validate_thresholds

EVALS_DIR = Path(__file__).resolve().parent
PROJECT_DIR = EVALS_DIR.parent


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evals", description="Score the assistant on the gold Q&A set.")
    parser.add_argument("--gold", type=Path, default=EVALS_DIR / "gold.jsonl", help="gold items, one JSON per line")
    parser.add_argument("--backend", default="extractive", choices=BACKENDS, help="assistant backend (default: extractive)")
    parser.add_argument("--corpus", type=Path, default=PROJECT_DIR / "seeds", help="corpus folder (default: seeds/)")
    parser.add_argument("--store", type=Path, help="index folder (default: a fresh temporary folder, removed afterwards)")
    parser.add_argument("--reports", type=Path, default=Path("reports"), help="output folder (default: reports/)")
    parser.add_argument("--thresholds", type=Path, default=EVALS_DIR / "thresholds.json", help="gate thresholds (JSON)")
    parser.add_argument("--no-gate", action="store_true", help="always exit 0 when the run completes")
    argv = list(sys.argv[1:] if argv is None else argv)
    return parser.parse_args(argv[1:] if argv[:1] == ["--"] else argv)  # `assistant eval -- --no-gate`


def load_jsonl(path: Path) -> list[dict]:
    """The gold items in `path` (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def embedding_similarity(settings):
    """Cosine similarity under the assistant's own sentence embedder, cached per string."""
    from assistant.index import embedding_model

    model = embedding_model(settings.embed_model, settings.embed_batch_size)

    @lru_cache(maxsize=None)
    def embed(text: str) -> np.ndarray:
        vector = np.asarray(model.get_text_embedding(text), dtype=np.float64)
        return vector / (np.linalg.norm(vector) or 1.0)

    return lambda a, b: float(embed(a) @ embed(b))


def retrieval_query(item: dict) -> str:
    """The question, plus the previous user turn for a follow-up."""
    previous = [m.get("content", "") for m in item.get("history", []) if m.get("role") == "user"]
    return f"{item['question']} {previous[-1]}" if previous else item["question"]


def ask(bot, item: dict) -> tuple[dict, float, str | None]:
    """The answer as a dict, the milliseconds `ask` took, and the error if it raised one."""
    from assistant.errors import AssistantError

    started = time.perf_counter()
    try:
        answer, error = bot.ask(item["question"], history=item.get("history") or []).to_dict(), None
    except AssistantError as exc:
        answer, error = {"text": "", "citations": [], "discrepancies": [], "abstained": False}, str(exc)
    return answer, (time.perf_counter() - started) * 1000, error


def evaluate_item(bot, item: dict, similarity) -> dict:
    """Ask one gold item and score it."""
    answer, latency, error = ask(bot, item)
    evidence = bot.retriever.retrieve(retrieval_query(item))[: bot.settings.top_k]
    retrieved = list(dict.fromkeys(e.source for e in evidence))
    scores = score_item(item, answer, retrieved, similarity)
    return {"id": item.get("id"), "question": item["question"], "flags": item.get("flags", []),
            "reference": item.get("reference", ""), "answer": answer, "latency_ms": latency,
            "retrieved_sources": retrieved, "scores": scores, "failed": failed(scores), "error": error}


@contextlib.contextmanager
def store_dir(path: Path | None):
    """`path`, or a temporary folder removed on exit."""
    if path is not None:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="evals-store-", ignore_cleanup_errors=True) as tmp:
        yield Path(tmp)


def run_items(args, items: list[dict]) -> tuple[list[dict], dict]:
    """Build the assistant, warm it up, and evaluate every item; returns results and run info."""
    with store_dir(args.store) as store:
        started = time.perf_counter()
        bot = make_assistant(args.backend, args.corpus, store)
        bot.retriever.retrieve("warm-up")  # load the embedder and BM25 before timing any ask
        startup = time.perf_counter() - started
        similarity = embedding_similarity(bot.settings)
        results = [evaluate_item(bot, item, similarity) for item in items]
        top_k = bot.settings.top_k
    seen = sorted({r["answer"].get("backend") for r in results if r["answer"].get("backend")})
    info = {"backend": args.backend, "backends_seen": seen, "gold": str(args.gold), "items": len(items),
            "corpus": str(args.corpus), "top_k": top_k, "startup_s": round(startup, 2),
            "errors": sum(1 for r in results if r["error"])}
    return results, info


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        thresholds = json.loads(args.thresholds.read_text(encoding="utf-8"))
        validate_thresholds(thresholds)
        items = load_jsonl(args.gold)
    except (OSError, ValueError) as error:  # json.JSONDecodeError is a ValueError
        print(f"error: {error}", file=sys.stderr)
        return 2
    results, info = run_items(args, items)
    aggregates = aggregate(results)
    checks = gate(aggregates, thresholds)
    report.write_all(args.reports, info, aggregates, checks, results, thresholds)
    print(report.summary_table(aggregates, checks))
    print(f"\nreports written to {args.reports}/eval.json, eval.md, eval.png")
    failing = [c for c in checks if c.status == "FAIL"]
    for c in failing:
        value = aggregates[c.metric]["value"]
        print(f"GATE FAILED: {c.metric} = {value:.3f}, required {c.bound}", file=sys.stderr)
    return 1 if failing and not args.no_gate else 0
