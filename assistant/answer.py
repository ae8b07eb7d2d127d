"""The one answer type every surface shares: API, CLI `--json`, UI and evals.

An `Answer` is plain data. It is built by the answering backends and checked by
`citations.finalize`, so that every `[n]` in `text` has exactly one `Citation` and every
citation's `quote` is the verbatim text of its source between `start` and `end`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Citation(BaseModel):
    """One numbered reference from the answer text to an exact span of a source."""

    marker: int = Field(description="The n of the [n] marker in the answer text.")
    source: str = Field(description="The source's id: its file name in the corpus folder.")
    quote: str = Field(description="The supporting text, verbatim from the source.")
    start: int = Field(description="Offset of the quote's first character in the source text.")
    end: int = Field(description="Offset just past the quote's last character in the source text.")


class Claim(BaseModel):
    """One side's account in a discrepancy."""

    value: str = Field(description="What this side says, e.g. 'about 200' or 'denied'.")
    source: str = Field(description="The source id of the article that prints it.")
    quote: str = Field(description="The sentence that states it, verbatim.")
    attributed_to: str | None = Field(default=None, description="Who says it, when the article names them.")
    marker: int | None = Field(default=None, description="The citation marker for this claim in the answer text.")


class Discrepancy(BaseModel):
    """Sources (or people quoted in them) giving incompatible accounts of one thing."""

    topic: str = Field(description="What the accounts disagree about, e.g. 'Syrian fighters who left'.")
    claims: list[Claim] = Field(description="Each side's account; at least two are incompatible.")


class Answer(BaseModel):
    """What `Assistant.ask` returns."""

    question: str = Field(description="The question as asked.")
    text: str = Field(description="Markdown answer with inline citation markers [1], [2] …")
    citations: list[Citation] = Field(default_factory=list, description="One per marker used in text.")
    discrepancies: list[Discrepancy] = Field(default_factory=list, description="Disagreements bearing on the question.")
    abstained: bool = Field(default=False, description="True when the articles do not answer the question.")
    backend: str = Field(default="extractive", description="'extractive' or the LLM's model name.")
    notices: list[str] = Field(default_factory=list, description="Things the user should know, e.g. a fallback.")
    usage: dict[str, Any] = Field(default_factory=dict, description="Token counts and cost, when an LLM answered.")

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form; `assistant ask --json` prints exactly this."""
        return self.model_dump(mode="json")
