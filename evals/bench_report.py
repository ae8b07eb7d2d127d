"""The benchmark's report: JSON, a Markdown table with the targets, a PNG of latency against
corpus size, and a projection to 100,000 articles computed from the measured rates."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.lexical import EXACT_ROWS

COLUMNS = [("corpus", "corpus", "{}"), ("articles", "articles", "{:,}"), ("sentences", "sentences", "{:,}"),
           ("distinct", "distinct", "{:,}"), ("raw_embed_per_s", "raw embed/s", "{:.0f}"),
           ("ingest_per_s", "ingest/s", "{:.0f}"), ("ingest_ratio", "ingest ÷ raw", "{:.2f}"),
           ("ingest_distinct_ratio", "ingest ÷ raw distinct", "{:.2f}"), ("reingest_share", "re-ingest share", "{:.1%}"),
           ("ask_p50_ms", "ask p50 ms", "{:.0f}"), ("ask_p95_ms", "ask p95 ms", "{:.0f}"),
           ("first_pass_p95_ms", "first-pass p95 ms", "{:.0f}"),
           ("baseline_p95_ms", "baseline p95 ms", "{:.0f}"), ("vs_baseline_p95", "ours ÷ baseline", "{:.2f}"),
           ("vs_baseline_range", "ours ÷ baseline, each round", "{}"),
           ("cold_start_s", "cold start s", "{:.2f}"), ("ingest_rss_mb", "ingest RSS MB", "{:.0f}"),
           ("query_rss_mb", "query RSS MB", "{:.0f}")]


def write(rows: list[dict], targets: dict, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bench.json").write_text(json.dumps({"rows": rows, "targets": targets}, indent=1))
    (folder / "bench.md").write_text(markdown(rows, targets))
    plot(rows, folder / "bench.png")
    print((folder / "bench.md").read_text())


def markdown(rows: list[dict], targets: dict) -> str:
    head = "| " + " | ".join(title for _, title, _ in COLUMNS) + " |"
    lines = [head, "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(fmt.format(row.get(key, "–")) for key, _, fmt in COLUMNS) + " |" for row in rows]
    return "\n".join(["# Benchmark", "", *lines, "", "## Targets", "", *verdicts(rows, targets), "",
                      "## Projection to 100,000 articles", "", *projection(rows), ""])


def verdicts(rows: list[dict], targets: dict) -> list[str]:
    """Each target judged at the largest corpus (the ingest ratio on every corpus past 500 sentences)."""
    largest = max(rows, key=lambda r: r["sentences"])
    values = {"ingest_ratio": min(r["ingest_ratio"] for r in rows if r["sentences"] > 500) if any(
                  r["sentences"] > 500 for r in rows) else largest["ingest_ratio"],
              "reingest_share": largest["reingest_share"], "ask_p95_ms": largest["ask_p95_ms"],
              "first_pass_p95_ms": largest["first_pass_p95_ms"], "vs_baseline_p95": largest["vs_baseline_p95"],
              "cold_start_s": largest["cold_start_s"],
              "peak_rss_mb": max(max(r["ingest_rss_mb"], r["query_rss_mb"]) for r in rows)}
    out = []
    for key, (op, bound) in targets.items():
        ok = values[key] >= bound if op == ">=" else values[key] <= bound
        out.append(f"- {key}: {values[key]:.3g} (target {op} {bound}) — {'met' if ok else 'NOT met'}")
    return out


def projection(rows: list[dict]) -> list[str]:
    largest = max(rows, key=lambda r: r["sentences"])
    per_article = largest["sentences"] / max(largest["articles"], 1)
    sentences = 100_000 * per_article
    per_distinct_s = largest["ingest_per_s"] * largest["distinct"] / largest["sentences"]  # sentences embedded/s
    hours = sentences / per_distinct_s / 3600
    vectors_gb = sentences * 384 * 4 / 1e9
    return [
        f"- Sentences: ~{sentences:,.0f} ({per_article:.0f} per article, as measured).",
        f"- First ingest: ~{hours:.1f} h on this 2-core machine if every sentence were distinct, at the measured "
        f"{per_distinct_s:.0f} embedded sentences/s (the synthetic corpora repeat seed sentences, so their "
        "ingest/s above is higher; real reprints cut the time by their share). Embedding is the bound; it scales "
        "with cores or a GPU, and re-ingests touch only changed articles.",
        f"- Vectors: ~{vectors_gb:.1f} GB of float32 plus the HNSW graph. Up to {EXACT_ROWS:,} sentences the lexicon "
        "keeps each distinct vector once, memory-mapped, and a question's dense search is exact, one matrix-vector "
        "product (linear in the distinct sentences: ~4 ms for 37,000 on one core of the stop-37 machine, 0.2 ms for "
        "the 7,272 distinct ones of the 2,000-article corpus); beyond that no "
        "vectors are saved and Chroma's HNSW searches, as here. Embedded Chroma keeps its index in the querying "
        "process's memory, so from here on run a Chroma server (`CHROMA_HOST`): it holds the vectors once for "
        "every client.",
        "- What still grows in the assistant's own process: the lexicon ingest saves in `store/lexical/`. BM25 is "
        "memory-mapped, but the sentence table and source texts are one JSON read whole at start-up (14 MB at "
        "2,000 articles, so ~0.7 GB here): at this size they belong in SQLite or a memory-mapped table, read per "
        "question, and rebuilding the lexicon after each ingest should become incremental.",
        "- Query cost per question: exact search grows with the corpus up to the switch, HNSW search beyond it "
        "is logarithmic; BM25 and our ranking work on a fixed number of "
        "candidates (top_k), so warm latency should grow slowly. The measured rows above are the evidence to "
        "extrapolate from.",
    ]


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["articles"])
    x = [r["articles"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in (("ask_p50_ms", "ours p50"), ("ask_p95_ms", "ours p95"), ("baseline_p95_ms", "LlamaIndex baseline p95")):
        ax.plot(x, [r[key] for r in rows], marker="o", label=label)
    ax.axhline(100, color="grey", linestyle="--", linewidth=1, label="target p95 100 ms")
    ax.set_xscale("log")
    ax.set_xlabel("articles in the corpus")
    ax.set_ylabel("warm ask latency (ms)")
    ax.set_title("Query latency against corpus size")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
