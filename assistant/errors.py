"""The assistant's errors. Each message says what to do about it.

    AssistantError              base class; the CLI prints its message and exits 2
    ├── QuestionError           the question is empty, whitespace only or too long
    ├── CorpusError             the corpus folder is missing, empty or holds no readable article
    ├── StoreError              store/ cannot be opened (corrupted, incompatible): rebuild it
    └── BackendError            an answering backend is misconfigured (e.g. a bad LLM setting)

Callers at the edge (CLI, UI) catch `AssistantError` and show `str(error)`; nothing else
of the internals reaches a user.
"""


class AssistantError(Exception):
    """Base class for every error the assistant raises on purpose."""


class QuestionError(AssistantError, ValueError):
    """The question cannot be asked as given."""


class CorpusError(AssistantError):
    """The corpus folder cannot be used."""


class StoreError(AssistantError):
    """The vector store cannot be opened or written."""


class BackendError(AssistantError):
    """An answering backend is misconfigured."""
