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


def test_the_encoder_the_ingest_exports_to_onnx_matches_sentence_transformers(seeds_bot):
    from assistant.encoder import onnx_path

    path = onnx_path(seeds_bot.settings.store_dir)
    assert path.exists()  # written by the ingest that built the store
    encoder = MiniLM(model_dir(), path)
    assert encoder.onnx == path
    ours = np.vstack([encoder.encode(TEXTS, threads=2), encoder.encode(TEXTS[:2])])  # both sessions
    theirs = np.asarray(embedding_model().get_text_embedding_batch(TEXTS + TEXTS[:2]))
    assert np.all((ours * theirs).sum(axis=1) > 0.9999)
    assert "w" not in encoder.__dict__  # the NumPy weights are never loaded


def test_without_the_exported_file_the_numpy_pass_answers(tmp_path):
    encoder = MiniLM(model_dir(), tmp_path / "missing.onnx")
    assert encoder.onnx is None and encoder.encode(TEXTS[:1]).shape == (1, 384)


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
