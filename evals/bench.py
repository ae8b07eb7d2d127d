"""Benchmark: ingest, query latency, cold start and memory as the corpus grows, beside a plain
LlamaIndex baseline on the same store.

    python -m evals.bench                      # seeds, 200 and 2,000 synthetic articles
    python -m evals.bench --sizes 0,200        # 0 = the shipped seeds
    python -m evals.bench --corpus my/folder   # any folder of articles

Each phase runs in a fresh subprocess, so peak RSS is that phase's own:
- raw: embedding throughput of the corpus's sentences with the ingest model, loaded and
  warm, the sentences sorted by length so batches carry the least padding (the physical
  limit of ingest here; in article order the same model is ~30% slower); timed twice, over
  every sentence (the issue's ratio) and over the distinct ones only, since ingest embeds a
  repeated sentence once (the synthetic corpora repeat seed sentences: 1,610 distinct in
  3,686 at 200 articles), so that ingest is also compared with a like-for-like limit;
- ingest: a full ingest and an unchanged re-ingest, the model loaded and warm, in its own
  process so its peak RSS is the ingest's alone;
- query: warm `Assistant.ask` latency (offline backend) over the gold questions;
- baseline: `VectorStoreIndex` retriever + `CitationQueryEngine` with `MockLLM` on the same
  Chroma collection, the same questions; the query and baseline phases alternate `--rounds`
  times (default 3), since this machine's speed drifts by tens of percent within minutes: each
  ours ÷ baseline ratio is of two phases run back to back, and a row reports the medians over
  the rounds with the range of the ratios;
- cold start: wall time of `assistant ask "…"` from a new process to the printed answer.

Writes reports/bench/bench.{json,md,png}. Targets are reported, not asserted: this is a
measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"ingest_ratio": (">=", 0.9), "reingest_share": ("<=", 0.05), "ask_p95_ms": ("<=", 100),
           "first_pass_p95_ms": ("<=", 100), "vs_baseline_p95": ("<=", 1.0), "cold_start_s": ("<=", 4.0),
           "peak_rss_mb": ("<=", 1536)}


def run_phase(code: str, **env: str) -> dict:
    """Run `code` in a fresh interpreter; it prints one JSON line last, with its peak RSS added."""
    wrapped = code + "\nimport resource, json\nprint(json.dumps({**RESULT, 'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))"
    out = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True, cwd=ROOT,
                         env={**_env(), **env})
    if out.returncode:
        raise RuntimeError(f"phase failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _env() -> dict:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith(("ASSISTANT_", "OPENAI_", "CHROMA_"))}


RAW = """
import time
from assistant import _offline; _offline.configure()
from assistant.settings import Settings
from assistant.index import embedding_model
from assistant.corpus import read_corpus, split_sentences
settings = Settings(corpus_dir=CORPUS, store_dir=STORE)
model = embedding_model(settings.embed_model, settings.embed_batch_size)
model.get_text_embedding_batch(["warm up"] * 8)
sentences = [s for d in read_corpus(settings.corpus_dir, settings.max_file_bytes).documents for s in split_sentences(d.text)]
sentences.sort(key=len)  # the best batching there is (least padding), as ingest orders each step's sentences
def embed_all(texts):
    t = time.perf_counter()
    for i in range(0, len(texts), 2048):  # in slices, as ingest does: a list of 37k vectors of floats would dominate RSS
        model.get_text_embedding_batch(texts[i:i + 2048])
    return time.perf_counter() - t
distinct = sorted(set(sentences), key=lambda s: (len(s), s))
RESULT = {"sentences": len(sentences), "raw_embed_s": embed_all(sentences), "distinct": len(distinct), "raw_distinct_s": embed_all(distinct)}
"""

INGEST = """
import time
from assistant import _offline; _offline.configure()
from assistant.settings import Settings
from assistant.index import Index, embedding_model
settings = Settings(corpus_dir=CORPUS, store_dir=STORE)
embedding_model(settings.embed_model, settings.embed_batch_size).get_text_embedding_batch(["warm up"] * 8)
index = Index(settings)
t = time.perf_counter(); report = index.ingest(); first = time.perf_counter() - t
t = time.perf_counter(); index.ingest(); again = time.perf_counter() - t
RESULT = {"articles": len(report.added), "ingest_s": first, "reingest_s": again}
"""

QUERY = """
import json, time, statistics
from assistant import Assistant
questions = [json.loads(l)["question"] for l in open("evals/gold.jsonl")]
bot = Assistant(corpus_dir=CORPUS, store_dir=STORE, ingest=False)
for q in questions[:3]: bot.ask(q)
times = []
for q in questions * REPEAT:
    t = time.perf_counter(); bot.ask(q); times.append((time.perf_counter() - t) * 1000)
first = sorted(times[:len(questions)])  # the first pass: every sentence's claims read for the first time
times.sort()
RESULT = {"asks": len(times), "p50_ms": times[len(times) // 2], "p95_ms": times[int(len(times) * 0.95) - 1],
          "first_pass_p95_ms": first[int(len(first) * 0.95) - 1]}
"""

BASELINE = """
import json, time
from assistant import _offline; _offline.configure()
import chromadb
from llama_index.core import VectorStoreIndex
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import CitationQueryEngine
from llama_index.vector_stores.chroma import ChromaVectorStore
from assistant.index import embedding_model
questions = [json.loads(l)["question"] for l in open("evals/gold.jsonl")]
collection = chromadb.PersistentClient(path=STORE + "/chroma").get_collection("news")
index = VectorStoreIndex.from_vector_store(ChromaVectorStore(chroma_collection=collection), embed_model=embedding_model())
engine = CitationQueryEngine.from_args(index, llm=MockLLM(), similarity_top_k=8)
for q in questions[:3]: engine.query(q)
times = []
for q in questions * REPEAT:
    t = time.perf_counter(); engine.query(q); times.append((time.perf_counter() - t) * 1000)
times.sort()
RESULT = {"p50_ms": times[len(times) // 2], "p95_ms": times[int(len(times) * 0.95) - 1]}
"""


def phase(template: str, corpus: Path, store: Path, repeat: int = 1) -> dict:
    code = template.replace("CORPUS", repr(str(corpus))).replace("STORE", repr(str(store))).replace("REPEAT", str(repeat))
    return run_phase(code)


def cold_start(corpus: Path, store: Path, runs: int = 3) -> float:
    cli = Path(sys.executable).parent / "assistant"
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(cli), "--store", str(store), "ask", "How many Syrian fighters left Raqqa?", "--corpus",
                        str(corpus)], check=True, capture_output=True, env=_env())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def alternated(runs: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Rounds of (our query phase, the baseline's), run back to back, as one of each: the median of
    each latency over the rounds (peak RSS, the largest), and on ours, the median ours ÷ baseline p95
    of the rounds and their range."""
    def median(phases: list[dict]) -> dict:
        return {key: (max if key == "rss_mb" else statistics.median)([p[key] for p in phases]) for key in phases[0]}

    ratios = sorted(ours["p95_ms"] / theirs["p95_ms"] for ours, theirs in runs)
    query = median([ours for ours, _ in runs])
    return ({**query, "vs_baseline_p95": statistics.median(ratios), "vs_baseline_range": f"{ratios[0]:.2f}–{ratios[-1]:.2f}"},
            median([theirs for _, theirs in runs]))


def measure(name: str, corpus: Path, work: Path, repeat: int, rounds: int = 3) -> dict:
    store = work / f"store-{name}"
    print(f"[{name}] raw embedding…", flush=True)
    raw = phase(RAW, corpus, store)
    print(f"[{name}] ingest…", flush=True)
    ingest = {**raw, **phase(INGEST, corpus, store)}
    print(f"[{name}] queries…", flush=True)
    query, baseline = alternated([(phase(QUERY, corpus, store, repeat), phase(BASELINE, corpus, store, repeat))
                                  for _ in range(rounds)])
    row = {"corpus": name, "articles": ingest["articles"], "sentences": ingest["sentences"],
           "distinct": ingest["distinct"], "raw_embed_per_s": ingest["sentences"] / ingest["raw_embed_s"],
           "ingest_per_s": ingest["sentences"] / ingest["ingest_s"],
           "ingest_ratio": ingest["raw_embed_s"] / ingest["ingest_s"],
           "ingest_distinct_ratio": ingest["raw_distinct_s"] / ingest["ingest_s"],
           "reingest_share": ingest["reingest_s"] / ingest["ingest_s"], "ingest_rss_mb": ingest["rss_mb"],
           "ask_p50_ms": query["p50_ms"], "ask_p95_ms": query["p95_ms"],
           "first_pass_p95_ms": query["first_pass_p95_ms"], "query_rss_mb": query["rss_mb"],
           "baseline_p50_ms": baseline["p50_ms"], "baseline_p95_ms": baseline["p95_ms"],
           "vs_baseline_p95": query["vs_baseline_p95"], "vs_baseline_range": query["vs_baseline_range"],
           "cold_start_s": cold_start(corpus, store)}
    print(json.dumps(row, indent=1), flush=True)
    return row


def corpora(sizes: list[int], folder: Path | None, work: Path) -> list[tuple[str, Path]]:
    from evals.corpora import make_corpus

    if folder:
        return [(folder.name, folder)]
    return [("seeds", ROOT / "seeds") if n == 0 else (str(n), make_corpus(work / f"corpus-{n}", n)) for n in sizes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0,200,2000", help="corpus sizes; 0 = the shipped seeds")
    parser.add_argument("--corpus", type=Path, help="benchmark this folder instead")
    parser.add_argument("--repeat", type=int, default=2, help="passes over the gold questions per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of our query phase and the baseline's")
    parser.add_argument("--reports", type=Path, default=ROOT / "reports" / "bench")
    parser.add_argument("--keep", type=Path, help="build corpora and stores here and keep them (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        rows = [measure(name, path, work, args.repeat, args.rounds)
                for name, path in corpora([int(s) for s in args.sizes.split(",")], args.corpus, work)]
    from evals.bench_report import write

    write(rows, TARGETS, args.reports)
    return 0


if __name__ == "__main__":
    sys.exit(main())
