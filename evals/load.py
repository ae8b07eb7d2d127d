"""A bounded load test of the chat UI's `/respond` endpoint, over loopback only.

    python -m evals.load --clients 20 --seconds 60 [--url URL] [--report reports/load.json]

Without `--url` it builds an `Assistant` over a copy of the shipped seeds/ (index in a temporary
folder, removed afterwards), forced to the offline extractive backend and the embedded Chroma
store, answers one warm-up question, and launches the UI in this process on 127.0.0.1 at a free
port, queued with `ui_settings().concurrency` (ASSISTANT_UI_CONCURRENCY, default 4) exactly as
`app.py` does. With `--url` it targets that running app instead, but refuses any address that is
not loopback (127.0.0.0/8, ::1, or a `localhost` that resolves only to those).

Then `--clients` threads, each with its own `gradio_client.Client`, ask the fixed QUESTIONS
round-robin (each client starting at a different one), each waiting for the full streamed
answer, until `--seconds` have passed or `--max-requests` (default clients*seconds*2) have been
started. A request counts as an error when it raises, times out (`--timeout`, default 60 s)
or its final answer has no citation marker. It prints and writes (`--report`) JSON: clients,
seconds, requests, errors, error rate, throughput (completed requests per wall-clock second),
latency p50/p95/max in ms over the successful requests, and the concurrency limit used
(`--concurrency` overrides it for the app started here; for `--url` Gradio does not publish
the limit, so the report holds `--concurrency` as given, or null).

What it does not do: send traffic anywhere but loopback; ask follow-ups (every question starts
a fresh chat); check that answers are right (that is `python -m evals`); ramp load up or down;
load the re-index endpoint; or run without bounds: no new request starts after the deadline or
the request cap, and each in-flight one is given up after `--timeout`.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import math
import shutil
import socket
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, redirect_stdout, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import assistant  # noqa: F401  (sets the offline environment before gradio is imported)
from assistant.errors import AssistantError

PROJECT_DIR = Path(__file__).resolve().parent.parent
SEEDS = PROJECT_DIR / "seeds"
QUESTIONS = [
    "How many Syrian fighters left Raqqa?",
    "How many foreign fighters remained in Raqqa?",
    "Who heads the Raqqa Civil Council?",
    "Who is the head of the Syrian Observatory for Human Rights?",
    "Were there negotiations over the fighters' exit?",
    "Which militia spearheads the SDF?",
    "How many ISIS militants surrendered in the 24 hours before the coalition's emailed statement?",
    "When did the Syrian Democratic Forces first push into Raqqa?",
]
CITE = 'class="cite"'  # how `ui.render_answer` renders a citation marker
CONNECT_SECONDS = 30  # most time one client may take to connect


@dataclass(frozen=True)
class Result:
    """One request: how long it took and, when it failed, why."""

    seconds: float
    error: str | None = None


# --- where the traffic goes ----------------------------------------------------------------

def loopback_url(url: str) -> str:
    """`url` if it is http(s) on a loopback address; else an `AssistantError`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AssistantError(f"--url must be an http(s) URL, not {url!r}.")
    if not _is_loopback(parts.hostname):
        raise AssistantError(f"--url must point at this machine (127.0.0.1, ::1 or localhost), not {parts.hostname}.")
    return url


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        if host.lower() != "localhost":
            return False
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in infos)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_bot(root: Path):
    """An offline `Assistant` over a copy of seeds/ under `root` (extractive, embedded store)."""
    from assistant import Assistant, Settings

    shutil.copytree(SEEDS, root / "corpus")
    settings = Settings(backend="extractive", chroma_host=None)
    return Assistant(corpus_dir=root / "corpus", store_dir=root / "store", settings=settings)


@contextmanager
def local_app(bot, concurrency: int) -> Iterator[str]:
    """The UI around `bot` on 127.0.0.1 at a free port, queued like `app.py`; yields its URL."""
    from assistant import ui

    demo = ui.build(bot).queue(default_concurrency_limit=concurrency)
    _, url, _ = demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True,
                            quiet=True, **ui.LAUNCH_OPTIONS)
    try:
        yield url
    finally:
        with redirect_stdout(sys.stderr):  # Gradio announces the closing on stdout
            demo.close()


@contextmanager
def seeds_app(concurrency: int | None = None) -> Iterator[tuple[str, int]]:
    """The UI over the seeds in a temporary folder, warmed up; yields (URL, concurrency limit)."""
    from assistant import ui

    concurrency = concurrency or ui.ui_settings().concurrency
    with tempfile.TemporaryDirectory(prefix="loadtest-") as tmp:
        print("Building the index and loading the embedding model…", file=sys.stderr, flush=True)
        bot = make_bot(Path(tmp))
        ui.warm_up(bot)
        with local_app(bot, concurrency) as url:
            yield url, concurrency


# --- the clients ---------------------------------------------------------------------------

def connect(url: str):
    """A `gradio_client.Client` for `url` (loopback checked), with telemetry off."""
    from gradio_client import Client

    url = loopback_url(url)
    try:
        return Client(url, verbose=False, analytics_enabled=False, download_files=False,
                      httpx_kwargs={"timeout": CONNECT_SECONDS})
    except Exception as exc:  # noqa: BLE001  (refused, timed out, not a Gradio app…)
        raise AssistantError(f"cannot use the app at {url}: {type(exc).__name__}: {exc}") from None


def reply_text(chat: list) -> str:
    """The last chat message's text (Gradio gives a string or a list of parts)."""
    content = chat[-1]["content"] if chat else ""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def ask(client, question: str, timeout: float) -> Result:
    """One full `/respond` round trip, timed; an error unless the answer cites something."""
    start = time.perf_counter()
    job = client.submit(question, api_name="/respond")
    try:
        chat, _, _ = job.result(timeout=timeout)
        error = None if CITE in reply_text(chat) else "answer without a citation marker"
    except Exception as exc:  # noqa: BLE001  (every failure is a data point, not a crash)
        with suppress(Exception):
            job.cancel()
        error = f"{type(exc).__name__}: {exc}"[:300]
    return Result(time.perf_counter() - start, error)


class Budget:
    """Shared stop rule: no request starts after `deadline` or once `limit` have started."""

    def __init__(self, seconds: float, limit: int):
        self.deadline, self.left, self._lock = time.monotonic() + seconds, limit, threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                return False
            self.left -= 1
            return True

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())


def worker(client, first: int, budget: Budget, timeout: float, results: list[Result]) -> None:
    """Ask QUESTIONS round-robin from `first` while `budget` allows; append each `Result`."""
    n = first
    while budget.take():
        results.append(ask(client, QUESTIONS[n % len(QUESTIONS)], timeout))
        n += 1


def drive(url: str, clients: int, seconds: float, max_requests: int, timeout: float) -> tuple[list[Result], float]:
    """Run `clients` workers against `url`; returns every `Result` and the wall-clock seconds."""
    connections: list = []
    try:
        for _ in range(clients):
            connections.append(connect(url))
        return _race(connections, seconds, max_requests, timeout)
    finally:
        for c in connections:
            c.close()


def _race(connections: list, seconds: float, max_requests: int, timeout: float) -> tuple[list[Result], float]:
    results: list[Result] = []
    budget = Budget(seconds, max_requests)
    threads = [threading.Thread(target=worker, args=(c, i, budget, timeout, results), daemon=True,
                                name=f"load-client-{i}") for i, c in enumerate(connections)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:  # a worker outlives the deadline by at most one request's timeout
        t.join(timeout=budget.remaining() + timeout + 5)
    return list(results), time.perf_counter() - start


# --- the numbers ---------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank `q`-th percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summarize(results: list[Result], clients: int, seconds: float, elapsed: float, concurrency: int | None) -> dict:
    """The report: counts, error rate, throughput and latency of the successful requests."""
    ok_ms = [r.seconds * 1000 for r in results if r.error is None]
    errors = [r.error for r in results if r.error is not None]
    ms = lambda v: None if v is None else round(v, 1)  # noqa: E731
    return {"clients": clients, "seconds": seconds, "elapsed_s": round(elapsed, 2), "requests": len(results),
            "errors": len(errors), "error_rate": round(len(errors) / len(results), 4) if results else None,
            "throughput_rps": round(len(results) / elapsed, 3) if elapsed > 0 else None,
            "latency_ms": {"p50": ms(percentile(ok_ms, 50)), "p95": ms(percentile(ok_ms, 95)),
                           "max": ms(max(ok_ms, default=None))},
            "concurrency_limit": concurrency, "error_samples": sorted(set(errors))[:5]}


def run(clients: int, seconds: float, url: str | None = None, max_requests: int | None = None,
        timeout: float = 60.0, concurrency: int | None = None) -> dict:
    """The whole test: against `url` (loopback only) or an app over the seeds started here.

    `concurrency` is the local app's queue limit (default `ui_settings().concurrency`); for a
    `url` it is only recorded, since Gradio does not publish the limit."""
    cap = max_requests if max_requests is not None else int(clients * seconds * 2)
    if url is not None:
        url = loopback_url(url)
        results, elapsed = drive(url, clients, seconds, cap, timeout)
        return summarize(results, clients, seconds, elapsed, concurrency)
    with seeds_app(concurrency) as (local, concurrency):
        results, elapsed = drive(local, clients, seconds, cap, timeout)
    return summarize(results, clients, seconds, elapsed, concurrency)


# --- command line --------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evals.load", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (default: 20)")
    parser.add_argument("--seconds", type=float, default=60, help="how long new requests start (default: 60)")
    parser.add_argument("--url", help="a running app on loopback (default: start one over seeds/ here)")
    parser.add_argument("--report", type=Path, help="also write the JSON report to this file")
    parser.add_argument("--max-requests", type=int, help="cap on requests started (default: clients*seconds*2)")
    parser.add_argument("--concurrency", type=int, help="queue limit of the app started here (default: "
                        "ASSISTANT_UI_CONCURRENCY or 4); with --url only recorded in the report")
    parser.add_argument("--timeout", type=float, default=60, help="seconds before one request is given up (default: 60)")
    args = parser.parse_args(argv)
    if not (1 <= args.clients <= 200 and 0 < args.seconds <= 3600 and args.timeout > 0):
        parser.error("need 1 <= --clients <= 200, 0 < --seconds <= 3600 and --timeout > 0")
    if any(v is not None and v < 1 for v in (args.max_requests, args.concurrency)):
        parser.error("--max-requests and --concurrency must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the load test; 0 when every request succeeded, 1 when some failed, 2 on bad options."""
    args = parse_args(argv)
    try:
        summary = run(args.clients, args.seconds, args.url, args.max_requests, args.timeout, args.concurrency)
    except AssistantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    text = json.dumps(summary, indent=2)
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text + "\n", encoding="utf-8")
    return 0 if summary["requests"] and not summary["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
