"""The openai provider's protocol handling against a scripted OpenAI-compatible server.

No model: a loopback HTTP server answers with canned JSON, so the fallback from
``json_schema`` to ``json_object``, retries of 503 and the error mapping are exercised
through the real SDK and HTTP stack.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import BaseModel

from codeproof.core.errors import AuthenticationError, ProviderResponseError
from codeproof.llm.base import Message
from codeproof.llm.openai_provider import OpenAIChatModel


class Answer(BaseModel):
    value: int


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }


class _Scripted(BaseHTTPRequestHandler):
    """Replies from ``script``: a list of (status, body) consumed per request."""

    script: list[tuple[int, dict[str, Any]]] = []  # noqa: RUF012 - reset per test
    bodies: list[dict[str, Any]] = []  # noqa: RUF012

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        type(self).bodies.append(body)
        fmt = (body.get("response_format") or {}).get("type")
        if fmt == "json_schema":
            status, reply = 400, {"error": {"message": "json_schema unsupported", "code": 400}}
        else:
            status, reply = type(self).script.pop(0)
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def base_url() -> Iterator[str]:
    _Scripted.script, _Scripted.bodies = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


ASK = [Message(role="user", content="a number")]


def test_json_schema_rejected_falls_back_to_json_object(base_url: str, allow_model: None) -> None:
    _Scripted.script = [(200, _completion('{"value": 3}')), (200, _completion('{"value": 4}'))]
    model = OpenAIChatModel(model="m", base_url=base_url, max_retries=0)
    assert model.generate(ASK, Answer).value == 3
    kinds = [b.get("response_format", {}).get("type") for b in _Scripted.bodies]
    assert kinds == ["json_schema", "json_object"]
    assert model.generate(ASK, Answer).value == 4  # remembered: no json_schema attempt
    assert [b["response_format"]["type"] for b in _Scripted.bodies[2:]] == ["json_object"]


def test_503_is_retried_then_succeeds(base_url: str, allow_model: None) -> None:
    _Scripted.script = [(503, {"error": {"message": "busy"}}), (200, _completion("ok"))]
    model = OpenAIChatModel(model="m", base_url=base_url, max_retries=2, retry_wait_s=0.0)
    reply = model.chat(ASK)
    assert reply.text == "ok" and reply.usage.completion_tokens == 3
    assert model.stats.snapshot().retries == 1


def test_401_is_an_authentication_error(base_url: str, allow_model: None) -> None:
    _Scripted.script = [(401, {"error": {"message": "bad key"}})]
    model = OpenAIChatModel(model="m", base_url=base_url, max_retries=3, retry_wait_s=0.0)
    with pytest.raises(AuthenticationError) as info:
        model.chat(ASK)
    assert info.value.hint is not None and "api_key" in info.value.hint
    assert len(_Scripted.bodies) == 1


def test_other_4xx_keeps_the_status_code(base_url: str, allow_model: None) -> None:
    _Scripted.script = [(404, {"error": {"message": "no such model"}})]
    model = OpenAIChatModel(model="m", base_url=base_url, max_retries=3, retry_wait_s=0.0)
    with pytest.raises(ProviderResponseError) as info:
        model.chat(ASK)
    assert info.value.status_code == 404
    assert len(_Scripted.bodies) == 1
