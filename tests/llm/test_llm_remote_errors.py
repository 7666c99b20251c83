"""The SDK-backed providers (openai, anthropic) map failures alike, through their real SDKs.

A loopback HTTP server answers with scripted statuses; each provider must raise the
same codeproof error class with the same data, chained to the SDK exception.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anthropic
import openai
import pytest

from codeproof.core.errors import (
    AuthenticationError,
    ContextLengthError,
    LLMError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.anthropic_provider import AnthropicChatModel
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.openai_provider import OpenAIChatModel
from codeproof.llm.remote import RemoteChatModel

ASK = [Message(role="user", content="hi")]
TINY = ChatSettings(max_tokens=4)
SDK_ERROR: dict[str, type[Exception]] = {
    "openai": openai.OpenAIError,
    "anthropic": anthropic.AnthropicError,
}
OK_REPLY: dict[str, dict[str, Any]] = {
    "openai": {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    },
    "anthropic": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 3},
    },
}
CONTEXT_FULL = {"error": {"message": "too long", "type": "exceed_context_size_error"}}


class _Scripted(BaseHTTPRequestHandler):
    """Answers each POST with the next (status, body, delay_s) of ``script``."""

    script: list[tuple[int, dict[str, Any], float]] = []  # noqa: RUF012 - reset per test
    requests = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        type(self).requests += 1
        status, reply, delay_s = type(self).script.pop(0)
        time.sleep(delay_s)
        data = json.dumps(reply).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up waiting (the timeout test)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def server_url() -> Iterator[str]:
    _Scripted.script, _Scripted.requests = [], 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def _model(provider: str, base_url: str, **options: Any) -> RemoteChatModel[Any, Any]:
    cls = OpenAIChatModel if provider == "openai" else AnthropicChatModel
    options = {"max_retries": 3, "retry_wait_s": 0.0, **options}
    return cls(model="m", base_url=base_url, api_key="k", **options)


def _failure(model: RemoteChatModel[Any, Any], expected: type[LLMError]) -> LLMError:
    with pytest.raises(expected) as info, model:
        model.chat(ASK, TINY)
    err = info.value
    assert err.provider == model.name and err.hint
    assert isinstance(err.__cause__, SDK_ERROR[model.name])
    return err


PROVIDERS = ["openai", "anthropic"]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("status", [401, 403])
def test_rejected_key_is_an_authentication_error_not_retried(
    provider: str, status: int, server_url: str, allow_model: None
) -> None:
    _Scripted.script = [(status, {"error": {"message": "no"}}, 0.0)]
    err = _failure(_model(provider, server_url), AuthenticationError)
    assert err.status_code == status
    assert err.hint is not None and "llm.api_key" in err.hint
    assert _Scripted.requests == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_no_configured_key_is_the_servers_authentication_error(
    provider: str, server_url: str, allow_model: None
) -> None:
    _Scripted.script = [(401, {"error": {"message": "missing key"}}, 0.0)]
    cls = OpenAIChatModel if provider == "openai" else AnthropicChatModel
    err = _failure(cls(model="m", base_url=server_url, api_key=None), AuthenticationError)
    assert err.status_code == 401 and _Scripted.requests == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_other_4xx_keeps_status_and_server_message(
    provider: str, server_url: str, allow_model: None
) -> None:
    _Scripted.script = [(404, {"error": {"message": "no such model"}}, 0.0)]
    err = _failure(_model(provider, server_url), ProviderResponseError)
    assert err.status_code == 404
    assert f"{server_url} answered HTTP 404" in err.message
    assert _Scripted.requests == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_503_is_retried_then_answers(provider: str, server_url: str, allow_model: None) -> None:
    _Scripted.script = [(503, {"error": {"message": "busy"}}, 0.0), (200, OK_REPLY[provider], 0.0)]
    with _model(provider, server_url) as model:
        reply = model.chat(ASK, TINY)
    assert (reply.text, reply.usage.completion_tokens) == ("ok", 3)
    assert model.stats.snapshot().retries == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_slow_server_is_a_timeout(provider: str, server_url: str, allow_model: None) -> None:
    _Scripted.script = [(200, OK_REPLY[provider], 1.0)]
    model = _model(provider, server_url, timeout_s=0.2, max_retries=0)
    err = _failure(model, ProviderTimeoutError)
    assert err.status_code is None
    assert err.message.endswith(f"no answer from {server_url} in time")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_closed_port_is_unreachable(provider: str, allow_model: None) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    err = _failure(_model(provider, url, max_retries=0), ProviderUnreachableError)
    assert err.message.endswith(f"cannot reach {url}")
    assert err.hint is not None and "llm.base_url" in err.hint


def test_openai_context_overflow_is_a_context_length_error(
    server_url: str, allow_model: None
) -> None:
    _Scripted.script = [(400, CONTEXT_FULL, 0.0)]
    err = _failure(_model("openai", server_url), ContextLengthError)
    assert err.status_code == 400
    assert _Scripted.requests == 1


def test_anthropic_400_stays_a_response_error(server_url: str, allow_model: None) -> None:
    _Scripted.script = [(400, CONTEXT_FULL, 0.0)]
    err = _failure(_model("anthropic", server_url), ProviderResponseError)
    assert err.status_code == 400


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_failure_is_mapped_too(provider: str, server_url: str, allow_model: None) -> None:
    _Scripted.script = [(401, {"error": {"message": "no"}}, 0.0)]
    with _model(provider, server_url) as model, pytest.raises(AuthenticationError) as info:
        list(model.stream(ASK, TINY))
    assert info.value.status_code == 401
    assert isinstance(info.value.__cause__, SDK_ERROR[provider])
