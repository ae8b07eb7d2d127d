"""Make every library behave offline before it is imported.

Hugging Face, Gradio and Chroma otherwise try outside hosts (telemetry, model hubs), and
tiktoken downloads its BPE files on first use; llama-index-core ships those files, so we
point tiktoken at them. `setdefault` keeps any value the user chose.
"""

import os
from importlib.util import find_spec
from pathlib import Path

_DEFAULTS = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "GRADIO_ANALYTICS_ENABLED": "False",
    "ANONYMIZED_TELEMETRY": "False",
    "TOKENIZERS_PARALLELISM": "false",
}


def configure() -> None:
    for name, value in _DEFAULTS.items():
        os.environ.setdefault(name, value)
    spec = find_spec("llama_index.core")
    if spec and spec.submodule_search_locations:
        cache = Path(list(spec.submodule_search_locations)[0]) / "_static" / "tiktoken_cache"
        os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(cache))
