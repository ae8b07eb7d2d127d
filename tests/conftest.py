"""Shared fixtures. All state lives under pytest's tmp paths; nothing touches the network."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


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
