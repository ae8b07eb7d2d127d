"""A scripted stand-in for the OpenAI Chat Completions API, for tests of the LLM path.

`ScriptedOpenAIServer` is a stdlib HTTP server on 127.0.0.1 (OS-chosen port) that answers
`POST /v1/chat/completions` with replies queued in advance, in the manner of llm's
MockModel `enqueue` and httpx's mock transport, so tests drive the real `openai` client
over real HTTP:

    with ScriptedOpenAIServer() as server:
        server.enqueue("The SDF said 275 [1].", Reply.error(429))
        client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0)

It does: plain and streamed (SSE) completions, `stream_options.include_usage`, error
statuses with OpenAI-style bodies, delays (so client timeouts fire), malformed bodies,
`GET /v1/models`, and it records every request. It does not: tools/function calls,
logprobs, `n > 1`, the Responses or embeddings APIs, authentication, or reading the
prompt — replies come from the queue only, in order. An empty queue gives a 500.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

MODEL = "scripted-model"
_ERROR_KINDS = {429: ("requests", "rate_limit_exceeded"), 401: ("invalid_request_error", "invalid_api_key")}


@dataclass(frozen=True)
class Reply:
    """One scripted response. `body`, when set, is sent verbatim (dict → JSON) instead of a completion."""

    content: str = ""
    status: int = 200
    delay: float = 0.0
    body: dict | str | bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    usage: tuple[int, int] | None = None  # (prompt_tokens, completion_tokens); None → word counts

    @classmethod
    def error(cls, status: int, message: str | None = None, code: str | None = None,
              type: str | None = None) -> Reply:
        """An error status with an OpenAI-style `{"error": {...}}` body; 429 says retry after ~0 s."""
        fallback = ("server_error" if status >= 500 else "invalid_request_error", None)
        kind, default_code = _ERROR_KINDS.get(status, fallback)
        error = {"message": message or f"scripted error {status}", "type": type or kind,
                 "param": None, "code": code or default_code}
        # openai ignores `retry-after: 0` (it wants > 0), so `retry-after-ms` is what keeps backoff short.
        headers = {"retry-after": "0", "retry-after-ms": "1"} if status == 429 else {}
        return cls(status=status, body={"error": error}, headers=headers)

    @classmethod
    def timeout(cls, seconds: float, content: str = "too late") -> Reply:
        """A normal reply sent only after `seconds`, so a client with a shorter timeout gives up."""
        return cls(content=content, delay=seconds)

    @classmethod
    def garbage(cls) -> Reply:
        """A 200 labelled JSON whose body is not JSON (a streaming client just sees no chunks)."""
        return cls(body="<html>this is not json", headers={"content-type": "application/json"})

    @classmethod
    def empty(cls) -> Reply:
        """A valid completion whose content is the empty string."""
        return cls(content="")

    @classmethod
    def context_length(cls) -> Reply:
        """The 400 OpenAI sends when the prompt is too long (code `context_length_exceeded`)."""
        return cls.error(400, "This model's maximum context length is 8192 tokens.", code="context_length_exceeded")


def _words(text: Any) -> int:
    if isinstance(text, list):  # content parts: [{"type": "text", "text": ...}, ...]
        return sum(_words(part.get("text", "")) for part in text if isinstance(part, dict))
    return len(str(text or "").split())


def _usage(reply: Reply, request: dict) -> dict:
    if reply.usage:
        prompt, completion = reply.usage
    else:
        prompt = sum(_words(m.get("content")) for m in request.get("messages", []) if isinstance(m, dict))
        completion = _words(reply.content)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _chunks(content: str) -> list[str]:
    """Split into words, keeping the whitespace, so the pieces join back to `content`."""
    return re.findall(r"\s*\S+\s*", content) or ([content] if content else [])


class _Handler(BaseHTTPRequestHandler):
    server_version = "ScriptedOpenAI/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._record(None)
        models = {"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "scripted"}]}
        found = self.path.rstrip("/") == "/v1/models"
        self._send_reply(Reply(body=models) if found else Reply.error(404, f"no route {self.path}"), {})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        self._record(body)
        if self.path.rstrip("/") != "/v1/chat/completions":
            reply = Reply.error(404, f"no route {self.path}")
        else:
            reply = self.server.scripted._next() or Reply.error(500, "no scripted reply", code="no_scripted_reply")
            if callable(reply):  # computed from the request, e.g. to cite the sources it numbered
                reply = reply(body)
                reply = reply if isinstance(reply, Reply) else Reply(content=reply)
        if reply.delay and self.server.scripted._stopping.wait(reply.delay):
            return  # server is shutting down
        try:
            self._send_reply(reply, body if isinstance(body, dict) else {})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. it timed out)

    def _record(self, body: Any) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.scripted._record(self.path, headers, body)

    def _send_reply(self, reply: Reply, request: dict) -> None:
        model = request.get("model") or MODEL
        if reply.body is None and request.get("stream"):
            return self._stream(reply, request, model)
        body = reply.body
        if body is None:
            message = {"role": "assistant", "content": reply.content, "refusal": None}
            choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}
            body = {**_envelope("chat.completion", model), "choices": [choice], "usage": _usage(reply, request)}
        data = json.dumps(body) if isinstance(body, dict) else body
        data = data.encode() if isinstance(data, str) else data
        length = {"content-length": str(len(data))}
        self._head(reply.status, {"content-type": "application/json", **reply.headers, **length})
        self.wfile.write(data)
        self.wfile.flush()

    def _stream(self, reply: Reply, request: dict, model: str) -> None:
        self._head(reply.status, {"content-type": "text/event-stream", "cache-control": "no-cache", **reply.headers})
        base = _envelope("chat.completion.chunk", model)
        deltas = [{"role": "assistant", "content": ""}] + [{"content": c} for c in _chunks(reply.content)] + [{}]
        for i, delta in enumerate(deltas):
            finish = "stop" if i == len(deltas) - 1 else None
            self._event({**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]})
        if (request.get("stream_options") or {}).get("include_usage"):
            self._event({**base, "choices": [], "usage": _usage(reply, request)})
        self._event("[DONE]")

    def _event(self, payload: dict | str) -> None:
        data = payload if isinstance(payload, str) else json.dumps(payload)
        self.wfile.write(f"data: {data}\n\n".encode())
        self.wfile.flush()

    def _head(self, status: int, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()


def _envelope(kind: str, model: str) -> dict:
    return {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": kind, "created": int(time.time()),
            "model": model, "system_fingerprint": None}


class ScriptedOpenAIServer:
    """An OpenAI-compatible server on 127.0.0.1 that answers chat completions from a queue of `Reply`s."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._calls: list[tuple[str, dict[str, str], Any]] = []
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> ScriptedOpenAIServer:
        """Bind to 127.0.0.1 on a free port and serve in a daemon thread."""
        self._stopping.clear()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.scripted = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port; delayed replies still sleeping are abandoned."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1`, ready for `openai.OpenAI(base_url=...)`."""
        if self._httpd is None:
            raise RuntimeError("ScriptedOpenAIServer is not running; use `with` or start()")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def enqueue(self, *replies: str | Reply | Callable[[dict], str | Reply]) -> None:
        """Queue replies for the next chat-completion requests, in order; a str is the assistant's
        content; a callable is called with the request body when the request arrives."""
        with self._lock:
            self._queue.extend(r if isinstance(r, Reply) or callable(r) else Reply(content=r) for r in replies)

    @property
    def pending(self) -> list[Reply]:
        """Replies not yet consumed."""
        with self._lock:
            return list(self._queue)

    @property
    def requests(self) -> list[Any]:
        """Parsed JSON bodies of every request received, in order (None for GETs)."""
        with self._lock:
            return [body for _, _, body in self._calls]

    @property
    def calls(self) -> list[tuple[str, dict[str, str], Any]]:
        """`(path, headers, body)` for every request, in order; header names lower-cased."""
        with self._lock:
            return list(self._calls)

    def _next(self) -> Reply | None:
        with self._lock:
            return self._queue.popleft() if self._queue else None

    def _record(self, path: str, headers: dict[str, str], body: Any) -> None:
        with self._lock:
            self._calls.append((path, headers, body))
