"""Fuzz: the REST task API's answers (task documents, error bodies), read by TasksApiClient as the product runs it.

A turn is a POST and then GETs until the turn ends; each answer here is drawn: a task document broken at the JSON
or the byte level, or noise, under any status and content type. The turn gives our events, or a SwitchboardError
(a poll that never ends is a TimedOutError at the client's own bound), in time; each event can be shown and
applied to a TaskView, and nothing shown holds a terminal control.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from fuzz_calls import show
from fuzz_inputs import answers, bounded, documented, shown_clean
from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.tasks_api import TasksApiClient
from switchboard.a2a.turn import TaskView

BASE = "http://tasks.test/api"
DOCUMENTS = [
    {"id": "t-1", "status": "working", "context_id": "c-1", "output": "partial"},
    {"id": "t-1", "status": "completed", "context_id": "c-1", "output": {"k": [1, 2.5, None], "s": "done"}},
    {"id": "t-1", "status": "input_required", "question": "Which one?"},
    {"id": "t-1", "status": "failed", "error": "it broke"},
    {"id": "t-1", "status": "queued"},
]
# Found by this suite: JSON nested 980 deep reads, and then breaks whatever writes it again (RecursionError).
DEEP_OUTPUT = b'{"id": "t-1", "status": "completed", "output": ' + b"[" * 980 + b"]" * 980 + b"}"
DEEP_STATUS = b'{"id": "t-1", "status": ' + b"[" * 980 + b"]" * 980 + b"}"
STATUSES = st.sampled_from([200, 200, 200, 201, 202, 400, 401, 404, 409, 500])
CONTENT_TYPES = st.sampled_from(["application/json", "text/html", "", "application/json; charset=utf-16"])


@st.composite
def servers(draw: st.DrawFn) -> list[tuple[int, str, bytes]]:
    """The answers to the turn's requests, in order (the last one repeats)."""
    count = draw(st.integers(1, 4))
    return [
        (draw(STATUSES), draw(CONTENT_TYPES), draw(answers(draw(st.sampled_from(DOCUMENTS))))) for _ in range(count)
    ]


async def turn(replies: list[tuple[int, str, bytes]], op: str) -> None:
    served = iter(replies)
    last = replies[-1]

    def answer(request: httpx.Request) -> httpx.Response:
        status, content_type, body = next(served, last)
        return httpx.Response(status, headers={"content-type": content_type} if content_type else {}, content=body)

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    client = TasksApiClient(BASE, agent_id="echo", http=http, poll_interval=0.001, poll_timeout=0.5)
    error: SwitchboardError | None = None
    view = TaskView()
    try:
        if op == "get":
            events: list[Any] = [await client.get_task("t-1")]
        else:
            stream = client.run_turn("hi", task_id="t-1" if op == "answer" else None)
            events = [event async for event in stream]
        for event in events:
            show(event)
            view.apply(event)
        json.dumps(view.output_text)
    except Exception as exc:
        error = documented(exc)
    finally:
        await http.aclose()
    shown_clean(error, client.notes)


@fuzz(examples=150)
@given(replies=servers(), op=st.sampled_from(["turn", "answer", "get"]))
@example(replies=[(200, "application/json", DEEP_OUTPUT)], op="get")
@example(replies=[(200, "application/json", DEEP_STATUS)], op="get")
@example(
    replies=[(201, "application/json", b'{"id": "\\ud800", "status": "working"}')], op="turn"
)  # found: UnicodeEncodeError
def test_any_answer_of_the_task_api_is_our_events_or_a_documented_error(replies, op):
    bounded(lambda: turn(replies, op))
