"""Answering backends: each turns a question and its ranked evidence into a `Draft`.

- `extractive` — offline, deterministic: composes verbatim evidence sentences.
- `llm` — OpenAI or any OpenAI-compatible server (separate module, optional).
"""

from assistant.answering.extractive import ExtractiveAnswerer
from assistant.answering.llm import LLMAnswerer

__all__ = ["ExtractiveAnswerer", "LLMAnswerer"]
