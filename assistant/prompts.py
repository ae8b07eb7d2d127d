"""Prompt templates from `prompts/`, checked on load.

Each template is a plain text file with `{field}` placeholders. `load(name, fields)` fails
fast, with the file's path, when the template's placeholders differ from the fields the code
fills, so a renamed field cannot silently produce a prompt with "{question}" left in it.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

from assistant.errors import BackendError
from assistant.settings import PROJECT_DIR

PROMPTS_DIR = PROJECT_DIR / "prompts"

EXPECTED = {"system": set(), "answer": {"question", "sources", "disagreements"}, "condense": {"history", "question"}}


@lru_cache(maxsize=None)
def load(name: str, folder: Path = PROMPTS_DIR) -> str:
    """The template `name`.txt, after checking its placeholders against `EXPECTED[name]`."""
    path = Path(folder) / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BackendError(f"Prompt template {path} cannot be read ({error.strerror}); restore it from git.") from error
    found = {field for _, field, _, _ in string.Formatter().parse(text) if field}
    if found != EXPECTED[name]:
        raise BackendError(f"Prompt template {path} has fields {sorted(found)}; the code fills {sorted(EXPECTED[name])}. "
                           "Edit the template so they match.")
    return text


def render(name: str, **fields: str) -> str:
    return load(name).format(**fields)
