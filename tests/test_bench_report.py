"""The benchmark report's arithmetic and verdicts, on hand-made measurements (no timing here)."""

from evals.bench import TARGETS, alternated
from evals.bench_report import markdown, projection, verdicts, write

ROWS = [
    {"corpus": "seeds", "articles": 5, "sentences": 103, "distinct": 100, "ingest_distinct_ratio": 0.9, "raw_embed_per_s": 150.0, "ingest_per_s": 140.0,
     "ingest_ratio": 0.93, "reingest_share": 0.01, "ask_p50_ms": 30.0, "ask_p95_ms": 60.0, "first_pass_p95_ms": 70.0, "baseline_p95_ms": 40.0,
     "baseline_p50_ms": 20.0, "vs_baseline_p95": 1.5, "cold_start_s": 3.1, "ingest_rss_mb": 700.0, "query_rss_mb": 330.0},
    {"corpus": "2000", "articles": 2000, "sentences": 40000, "distinct": 10000, "ingest_distinct_ratio": 0.7, "raw_embed_per_s": 150.0, "ingest_per_s": 120.0,
     "ingest_ratio": 0.8, "reingest_share": 0.02, "ask_p50_ms": 50.0, "ask_p95_ms": 120.0, "first_pass_p95_ms": 95.0, "baseline_p95_ms": 90.0,
     "baseline_p50_ms": 60.0, "vs_baseline_p95": 1.33, "cold_start_s": 4.5, "ingest_rss_mb": 1200.0, "query_rss_mb": 800.0},
]


def test_verdicts_judge_the_largest_corpus():
    lines = "\n".join(verdicts(ROWS, TARGETS))
    assert "ingest_ratio: 0.8 (target >= 0.9) — NOT met" in lines
    assert "reingest_share: 0.02 (target <= 0.05) — met" in lines
    assert "ask_p95_ms: 120 (target <= 100) — NOT met" in lines
    assert "first_pass_p95_ms: 95 (target <= 100) — met" in lines
    assert "vs_baseline_p95: 1.33 (target <= 1.0) — NOT met" in lines
    assert "cold_start_s: 4.5 (target <= 4.0) — NOT met" in lines
    assert "peak_rss_mb: 1.2e+03 (target <= 1536) — met" in lines


def test_projection_scales_the_measured_rates():
    text = "\n".join(projection(ROWS))
    assert "~2,000,000" in text          # 20 sentences per article × 100,000
    assert "~18.5 h" in text             # 2,000,000 / 30 embedded per second (120/s, a quarter distinct)
    assert "~3.1 GB" in text             # 2,000,000 × 384 × 4 bytes


def test_the_report_files_are_written(tmp_path):
    write(ROWS, TARGETS, tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {"bench.json", "bench.md", "bench.png"}
    assert "| 2000 | 2,000 | 40,000 |" in markdown(ROWS, TARGETS)
    assert (tmp_path / "bench.png").stat().st_size > 10_000


def test_alternating_rounds_report_medians_and_the_ratios_range():
    ours = [{"p50_ms": p50, "p95_ms": p95, "first_pass_p95_ms": p95, "asks": 118, "rss_mb": rss}
            for p50, p95, rss in ((10, 20, 300), (12, 30, 350), (11, 22, 320))]
    theirs = [{"p50_ms": 15, "p95_ms": p95, "rss_mb": 400} for p95 in (25, 20, 22)]
    query, baseline = alternated(list(zip(ours, theirs)))
    assert (query["p50_ms"], query["p95_ms"], query["rss_mb"]) == (11, 22, 350)  # medians; the largest RSS
    assert baseline["p95_ms"] == 22
    assert query["vs_baseline_p95"] == 1.0  # the median of 0.8, 1.5 and 1.0: each round's own ratio
    assert query["vs_baseline_range"] == "0.80–1.50"
    assert "| 0.80–1.50 |" in markdown([{**ROWS[1], "vs_baseline_range": "0.80–1.50"}], TARGETS)
