"""A question-answering assistant over a folder of news articles, citing every claim.

    from assistant import Assistant
    answer = Assistant().ask("How many fighters left Raqqa?")
"""

from assistant import _offline

_offline.configure()

from assistant.answer import Answer, Citation, Claim, Discrepancy  # noqa: E402
from assistant.errors import AssistantError, BackendError, CorpusError, QuestionError, StoreError  # noqa: E402
from assistant.settings import Settings  # noqa: E402


def __getattr__(name: str):
    # `Assistant` pulls in llama-index, Chroma and torch; import it only when it is asked for,
    # so `from assistant import Answer` (the UI, the evals) stays quick.
    if name == "Assistant":
        from assistant.assistant import Assistant

        return Assistant
    raise AttributeError(name)


__all__ = ["Answer", "Assistant", "AssistantError", "BackendError", "Citation", "Claim", "CorpusError",
           "Discrepancy", "QuestionError", "Settings", "StoreError"]
