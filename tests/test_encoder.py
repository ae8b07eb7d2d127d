"""The NumPy question encoder gives the ingest model's vectors."""

import numpy as np
import pytest

from assistant.encoder import MiniLM, model_dir
from assistant.index import embedding_model

pytestmark = pytest.mark.slow

TEXTS = ["How many Syrian fighters left Raqqa?", "¿Cuántos combatientes quedan?", "",
         "\"We completely deny any negotiations or deal for the exit of Daesh,\" Nuri Mahmoud told AFP.",
         "word " * 400]  # longer than the model's 256 tokens: truncated the same way


def test_numpy_minilm_matches_sentence_transformers():
    ours = MiniLM(model_dir()).encode(TEXTS)
    theirs = np.asarray(embedding_model().get_text_embedding_batch(TEXTS))
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    assert np.all((ours * theirs).sum(axis=1) > 0.9999)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_asking_a_question_imports_neither_torch_nor_llama_index(seeds_bot):
    """The cold `assistant ask` path: torch, sentence-transformers and llama_index.core cost
    seconds to import, and answering a question over a built store needs none of them."""
    import subprocess
    import sys

    code = ("import sys; from assistant import Assistant; "
            f"bot = Assistant(corpus_dir={str(seeds_bot.settings.corpus_dir)!r}, "
            f"store_dir={str(seeds_bot.settings.store_dir)!r}); "
            "answer = bot.ask('How many Syrian fighters left Raqqa?'); "
            "print(bool(answer.citations), *(m in sys.modules for m in ('torch', 'sentence_transformers', 'llama_index.core')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "False", "False"]
