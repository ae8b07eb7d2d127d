"""The scripted OpenAI server, exercised through the real `openai` client and LlamaIndex over HTTP."""

from __future__ import annotations

import json
import time

import openai
import pytest

from assistant.fakes import Reply, ScriptedOpenAIServer

MESSAGES = [{"role": "system", "content": "Cite sources."}, {"role": "user", "content": "How many fighters left?"}]


@pytest.fixture
def server():
    with ScriptedOpenAIServer() as s:
        yield s


def client(server, **kwargs) -> openai.OpenAI:
    options = {"max_retries": 0, "timeout": 5.0, **kwargs}
    return openai.OpenAI(base_url=server.base_url, api_key="test-key", **options)


def test_base_url_is_loopback_with_a_real_port(server):
    assert server.base_url.startswith("http://127.0.0.1:")
    assert server.base_url.endswith("/v1")
    assert int(server.base_url.split(":")[2].split("/")[0]) > 0


def test_plain_completion_round_trips_and_records_the_request(server):
    server.enqueue("The SDF said 275 [1].")
    response = client(server).chat.completions.create(model="gpt-test", messages=MESSAGES, temperature=0)

    assert response.choices[0].message.content == "The SDF said 275 [1]."
    assert response.choices[0].message.role == "assistant"
    assert response.choices[0].finish_reason == "stop"
    assert response.model == "gpt-test"
    assert response.usage.prompt_tokens == 6 and response.usage.completion_tokens == 5
    assert response.usage.total_tokens == 11
    assert server.requests == [{"model": "gpt-test", "messages": MESSAGES, "temperature": 0}]
    path, headers, body = server.calls[0]
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer test-key"
    assert body["messages"] == MESSAGES
    assert server.pending == []


def test_replies_are_consumed_in_order_and_usage_can_be_scripted(server):
    server.enqueue("first", Reply(content="second", usage=(100, 7)))
    assert len(server.pending) == 2
    llm = client(server)
    one = llm.chat.completions.create(model="m", messages=MESSAGES)
    two = llm.chat.completions.create(model="m", messages=MESSAGES)
    assert [one.choices[0].message.content, two.choices[0].message.content] == ["first", "second"]
    assert (two.usage.prompt_tokens, two.usage.completion_tokens, two.usage.total_tokens) == (100, 7, 107)


def test_streaming_yields_several_chunks_that_join_to_the_content(server):
    text = "Around 275 fighters left Raqqa, according to the SDF [1]."
    server.enqueue(text)
    chunks = list(client(server).chat.completions.create(model="m", messages=MESSAGES, stream=True))

    pieces = [c.choices[0].delta.content or "" for c in chunks if c.choices]
    assert len([p for p in pieces if p]) > 1
    assert "".join(pieces) == text
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert all(c.object == "chat.completion.chunk" and c.usage is None for c in chunks)
    assert server.requests[0]["stream"] is True


def test_streaming_sends_usage_when_asked(server):
    server.enqueue(Reply(content="one two three", usage=(12, 3)))
    stream = client(server).chat.completions.create(
        model="m", messages=MESSAGES, stream=True, stream_options={"include_usage": True})
    chunks = list(stream)

    assert chunks[-1].choices == []
    assert (chunks[-1].usage.prompt_tokens, chunks[-1].usage.completion_tokens) == (12, 3)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "one two three"


def test_rate_limit_then_success_is_retried_quickly(server):
    server.enqueue(Reply.error(429), "after the retry")
    started = time.monotonic()
    response = client(server, max_retries=1).chat.completions.create(model="m", messages=MESSAGES)

    assert response.choices[0].message.content == "after the retry"
    assert len(server.requests) == 2
    assert time.monotonic() - started < 0.3  # retry-after-ms keeps the backoff short


def test_rate_limit_without_retries_raises_with_openai_error_body(server):
    server.enqueue(Reply.error(429))
    with pytest.raises(openai.RateLimitError) as caught:
        client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert caught.value.status_code == 429
    assert caught.value.code == "rate_limit_exceeded"
    assert caught.value.response.headers["retry-after"] == "0"


def test_server_error_raises_internal_server_error(server):
    server.enqueue(Reply.error(500, "boom"))
    with pytest.raises(openai.InternalServerError) as caught:
        client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert caught.value.status_code == 500
    assert "boom" in caught.value.message
    assert len(server.requests) == 1


def test_an_error_reply_to_a_streaming_request_raises_before_any_chunk(server):
    server.enqueue(Reply.error(503, "overloaded"))
    with pytest.raises(openai.InternalServerError) as caught:
        list(client(server).chat.completions.create(model="m", messages=MESSAGES, stream=True))
    assert caught.value.status_code == 503


def test_a_slow_reply_makes_the_client_time_out(server):
    server.enqueue(Reply.timeout(5.0))
    started = time.monotonic()
    with pytest.raises(openai.APITimeoutError):
        client(server, timeout=0.5).chat.completions.create(model="m", messages=MESSAGES)
    assert time.monotonic() - started < 2.0
    assert server.pending == []


def test_garbage_body_raises_json_decode_error(server):
    # openai 2.x does not wrap a body that claims JSON but is not: the stdlib error escapes.
    server.enqueue(Reply.garbage())
    with pytest.raises(json.JSONDecodeError):
        client(server).chat.completions.create(model="m", messages=MESSAGES)


def test_context_length_raises_bad_request_with_its_code(server):
    server.enqueue(Reply.context_length())
    with pytest.raises(openai.BadRequestError) as caught:
        client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert caught.value.status_code == 400
    assert caught.value.code == "context_length_exceeded"


def test_empty_reply_is_a_valid_completion_with_empty_content(server):
    server.enqueue(Reply.empty())
    response = client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert response.choices[0].message.content == ""
    assert response.usage.completion_tokens == 0


def test_empty_queue_answers_500_no_scripted_reply(server):
    with pytest.raises(openai.InternalServerError) as caught:
        client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert "no scripted reply" in caught.value.message
    assert len(server.requests) == 1


def test_models_lists_the_scripted_model(server):
    assert [m.id for m in client(server).models.list()] == ["scripted-model"]
    assert server.calls[0][0] == "/v1/models"


def test_stopped_server_refuses_connections():
    with ScriptedOpenAIServer() as s:
        url = s.base_url
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=url, api_key="k", max_retries=0, timeout=1.0).models.list()
    with pytest.raises(RuntimeError):
        s.base_url


def test_llamaindex_openai_like_chat_and_stream_chat(server):
    from llama_index.core.llms import ChatMessage
    from llama_index.llms.openai_like import OpenAILike

    text = "The SDF said 275 fighters left [1]."
    server.enqueue(text, text)
    llm = OpenAILike(model="scripted-model", api_base=server.base_url, api_key="k", is_chat_model=True,
                     max_retries=0)
    messages = [ChatMessage(role="user", content="hi")]

    assert llm.chat(messages).message.content == text
    deltas = [r.delta for r in llm.stream_chat(messages) if r.delta]
    assert len(deltas) > 1
    assert "".join(deltas) == text
    assert [r["messages"] for r in server.requests] == [[{"role": "user", "content": "hi"}]] * 2
    assert server.requests[1]["stream"] is True
