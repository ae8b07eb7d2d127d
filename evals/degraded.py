"""The assistant under evaluation, optionally degraded on purpose to prove the gate bites.

`make_assistant(name, corpus, store)` returns something with `ask`, `retriever` and
`settings`, like `Assistant`. Names:

- "extractive", "llm", "auto": the real `Assistant` with that `backend` setting;
- "no-citations": extractive, then every [n] marker stripped and the citations emptied;
- "no-discrepancies": extractive, then the discrepancies emptied and every "Accounts
  differ …" sentence dropped with its markers and the citations no marker uses any more.

The degradations only rewrite the `Answer` that `ask` returns; they never touch the
assistant's code or index.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

REAL_BACKENDS = ("extractive", "llm", "auto")
MARKER = re.compile(r"\[(\d+)\]")
# A discrepancy sentence ends with its last side's markers and a full stop.
DISCREPANCY_SENTENCE = re.compile(r"(?:(?<=\s)|^)Accounts differ\b(?:.*?\]\.|[^\[\]]*?\.)(?=\s|$)")


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def strip_citations(answer):
    """The answer without any [n] marker or citation (claims lose their markers too)."""
    discrepancies = [d.model_copy(update={"claims": [c.model_copy(update={"marker": None}) for c in d.claims]})
                     for d in answer.discrepancies]
    return answer.model_copy(update={"text": _tidy(MARKER.sub("", answer.text)), "citations": [],
                                     "discrepancies": discrepancies})


def drop_discrepancies(answer):
    """The answer without discrepancies: no structured ones, no "Accounts differ" sentence,
    and no citation that only such a sentence used."""
    text = _tidy(DISCREPANCY_SENTENCE.sub("", answer.text))
    used = {int(m) for m in MARKER.findall(text)}
    citations = [c for c in answer.citations if c.marker in used]
    return answer.model_copy(update={"text": text, "citations": citations, "discrepancies": []})


DEGRADATIONS: dict[str, Callable] = {"no-citations": strip_citations, "no-discrepancies": drop_discrepancies}
BACKENDS = REAL_BACKENDS + tuple(DEGRADATIONS)


class Degraded:
    """Wraps an `Assistant`; `ask` returns its answer passed through `transform`."""

    def __init__(self, bot, transform: Callable):
        self.bot, self.transform = bot, transform
        self.retriever, self.settings = bot.retriever, bot.settings

    def ask(self, question: str, history: list[dict] | None = None):
        return self.transform(self.bot.ask(question, history=history))


def make_assistant(name: str, corpus: Path | None, store: Path):
    """The assistant to evaluate, built on `corpus` with its index in `store`."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    from assistant import Assistant, Settings

    settings = Settings(backend=name if name in REAL_BACKENDS else "extractive")
    bot = Assistant(corpus_dir=corpus, store_dir=store, settings=settings)
    return Degraded(bot, DEGRADATIONS[name]) if name in DEGRADATIONS else bot
