"""The load test harness (`evals.load`): its loopback guard, stop rule and numbers (fast),
and one short, bounded run against the app on a free loopback port (slow).

The slow run builds its own Assistant with `evals.load.make_bot` rather than reusing
`seeds_bot`: that one follows the environment's backend, and a load test must never turn
into dozens of calls to a remote LLM."""

from __future__ import annotations

import time

import pytest

from assistant.errors import AssistantError
from evals import load


# --- fast: no app, no network --------------------------------------------------------------

@pytest.mark.parametrize("url", ["http://127.0.0.1:7860/", "http://localhost:7860", "https://[::1]:8443/",
                                 "http://127.0.0.2:80"])
def test_loopback_urls_are_accepted(url):
    assert load.loopback_url(url) == url


@pytest.mark.parametrize("url", ["http://10.0.0.1:7860", "http://example.com/", "http://0.0.0.0:7860",
                                 "http://127.0.0.1.nip.io/", "ftp://127.0.0.1/", "owner/space", "http://[::2]/"])
def test_anything_but_loopback_is_refused_before_connecting(url):
    with pytest.raises(AssistantError):
        load.connect(url)


def test_budget_stops_at_the_request_cap_and_at_the_deadline():
    capped = load.Budget(seconds=60, limit=3)
    assert [capped.take() for _ in range(5)] == [True, True, True, False, False]
    timed = load.Budget(seconds=0.05, limit=1000)
    assert timed.take()
    time.sleep(0.06)
    assert not timed.take() and timed.remaining() == 0


def test_summary_counts_errors_and_takes_latency_from_successes_only():
    results = [load.Result(s / 1000) for s in range(1, 101)] + [load.Result(9.0, "TimeoutError: ")]
    s = load.summarize(results, clients=2, seconds=10, elapsed=20.2, concurrency=4)
    assert (s["requests"], s["errors"], s["error_rate"], s["throughput_rps"]) == (101, 1, 0.0099, 5.0)
    assert s["latency_ms"] == {"p50": 50.0, "p95": 95.0, "max": 100.0}
    assert s["concurrency_limit"] == 4 and s["error_samples"] == ["TimeoutError: "]
    assert load.summarize([], 1, 1, 1.0, None)["latency_ms"]["p95"] is None


def test_reply_text_reads_both_message_shapes():
    assert load.reply_text([{"role": "assistant", "content": [{"type": "text", "text": "a [1]"}]}]) == "a [1]"
    assert load.reply_text([{"role": "assistant", "content": "plain"}]) == "plain"
    assert load.reply_text([]) == ""


# --- slow: a real app on a free loopback port ----------------------------------------------

@pytest.fixture(scope="module")
def load_app_url(tmp_path_factory):
    bot = load.make_bot(tmp_path_factory.mktemp("load-bot"))
    with load.local_app(bot, concurrency=2) as url:
        yield url


@pytest.mark.slow
def test_a_short_bounded_run_answers_every_request_with_citations(load_app_url):
    started = time.monotonic()
    summary = load.run(clients=4, seconds=5, url=load_app_url, max_requests=60, timeout=30, concurrency=2)
    assert time.monotonic() - started < 5 + 30 + 10  # bounded: deadline plus one request's timeout
    assert summary["errors"] == 0, summary["error_samples"]
    assert 4 <= summary["requests"] <= 60
    assert summary["latency_ms"]["p95"] is not None and summary["latency_ms"]["p95"] > 0
    assert summary["throughput_rps"] > 0 and summary["concurrency_limit"] == 2
