"""Shared fixtures. All state lives under pytest's tmp paths; nothing touches the network."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture(scope="session", autouse=True)
def machine_cache(tmp_path_factory):
    """The machine-wide cache (the exported question encoder) in a folder of the session's own,
    shared by every store the tests build, as it is by a user's stores."""
    import os

    folder = tmp_path_factory.mktemp("machine-cache")
    before, os.environ["ASSISTANT_CACHE_DIR"] = os.environ.get("ASSISTANT_CACHE_DIR"), str(folder)
    yield folder
    if before is None:
        os.environ.pop("ASSISTANT_CACHE_DIR", None)
    else:
        os.environ["ASSISTANT_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def seeds_bot(tmp_path_factory):
    """An Assistant over a copy of the shipped seeds, indexed once per test session."""
    from assistant import Assistant

    root = tmp_path_factory.mktemp("seeds-bot")
    corpus = root / "corpus"
    shutil.copytree(SEEDS, corpus)
    return Assistant(corpus_dir=corpus, store_dir=root / "store")


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A fresh, writable copy of the seeds."""
    folder = tmp_path / "corpus"
    shutil.copytree(SEEDS, folder)
    return folder


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory):
    """A real Chroma server (`chroma run`) on a free loopback port, its log in a file; stopped at the end."""
    chroma = Path(sys.executable).parent / "chroma"
    if not chroma.exists():
        pytest.skip("the `chroma` command is not installed in this environment")
    root = tmp_path_factory.mktemp("chroma-server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(root / "chroma.log", "w")
    proc = subprocess.Popen([str(chroma), "run", "--path", str(root / "data"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_until_up(f"http://127.0.0.1:{port}/api/v2/heartbeat", proc, root / "chroma.log")
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def _wait_until_up(url: str, proc: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"chroma run exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"chroma run did not answer at {url}: {log.read_text()[-2000:]}")
