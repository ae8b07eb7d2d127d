"""One typed settings object, read from the environment (prefix `ASSISTANT_`).

`Settings()` reads e.g. `ASSISTANT_TOP_K=30`; the OpenAI fields also read the standard
`OPENAI_API_KEY` / `OPENAI_BASE_URL`, and the Chroma fields `CHROMA_HOST` / `CHROMA_PORT`,
so the usual variables just work. Nothing else in the package reads `os.environ` for
configuration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_DIR = Path(__file__).resolve().parent.parent


def _cache_dir() -> Path:
    """$XDG_CACHE_HOME/news-assistant, else ~/.cache/news-assistant."""
    import os

    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "news-assistant"


def _env(name: str) -> AliasChoices:
    """Accept both ASSISTANT_<NAME> and the conventional unprefixed variable."""
    return AliasChoices(f"ASSISTANT_{name}", name)


class Settings(BaseSettings):
    """Everything a user may configure, with defaults that work offline."""

    model_config = SettingsConfigDict(env_prefix="ASSISTANT_", extra="ignore", populate_by_name=True)

    corpus_dir: Path = Field(PROJECT_DIR / "seeds", description="Folder of .txt/.md articles to answer from.")
    store_dir: Path = Field(PROJECT_DIR / "store", description="Where the Chroma index and docstore persist.")
    cache_dir: Path = Field(default_factory=_cache_dir, description="What every store on this machine shares: the question encoder exported to ONNX, once per model.")
    collection: str = Field("news", description="Chroma collection name.")
    embed_model: str = Field("", description="Path or name of a sentence-transformers model; empty: the bundled all-MiniLM-L6-v2.")
    embed_batch_size: int = Field(16, description="Sentences per embedding batch at ingest (on 2 CPU cores 16 embeds faster than 64, at a third of the peak memory).")
    ingest_batch: int = Field(50, description="Articles embedded and saved per step of an ingest (a killed run keeps finished steps).")
    max_file_bytes: int = Field(5_000_000, description="Larger article files are skipped, with their name and size reported.")
    top_k: int = Field(40, description="Candidate sentences fetched by each retriever before fusion.")
    max_sentences: int = Field(4, description="Most evidence sentences an extractive answer states.")
    max_question_chars: int = Field(2000, description="Longer questions are refused with a clear error.")
    chroma_host: str | None = Field(None, validation_alias=_env("CHROMA_HOST"), description="Chroma server host; unset: embedded store.")
    chroma_port: int = Field(8000, validation_alias=_env("CHROMA_PORT"), description="Chroma server port.")
    backend: Literal["auto", "extractive", "llm"] = Field("auto", description="'auto': the LLM when a key is set, else extractive.")
    openai_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENAI_API_KEY"), description="Key for OpenAI or a compatible server.")
    openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL"), description="Base URL of an OpenAI-compatible server.")
    llm_model: str = Field("gpt-4o-mini", description="Chat model name for the LLM backend.")
    llm_timeout: float = Field(15.0, description="Seconds before an LLM call gives up (then the offline answer is shown).")
    llm_max_retries: int = Field(1, description="Retries on 429, 5xx and timeouts before falling back to the offline answer.")
    context_tokens: int = Field(3000, description="Token budget for the sources packed into an LLM prompt.")
    ui_host: str = Field("127.0.0.1", description="Address the chat UI listens on; anything but loopback wants ui_auth.")
    ui_port: int = Field(7860, description="Port of the chat UI.")
    ui_auth: SecretStr | None = Field(None, description="'user:password' for the chat UI's basic auth.")
    ui_concurrency: int = Field(4, ge=1, description="Questions the chat UI answers at once; more wait in the queue.")
