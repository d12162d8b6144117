"""TasksApiClient against a real HTTP server on 127.0.0.1 (tasks_api_server.py): flows, errors, secrets."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from tasks_api_server import ASK_CONTEXT, TOKEN, TasksApiServer

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.errors import (
    AuthFailedError,
    InvalidResponseError,
    ProtocolError,
    TimedOutError,
    UnreachableError,
)
from switchboard.a2a.model import ArtifactUpdate, DataPart, StatusUpdate, Task, TaskState, TextPart
from switchboard.a2a.tap import Tap
from switchboard.a2a.tasks_api import TasksApiClient, read_state
from switchboard.a2a.turn import TaskView

FAST = {"poll_interval": 0.05, "poll_timeout": 10.0}


@pytest.fixture(scope="session")
def server() -> Iterator[TasksApiServer]:
    running = TasksApiServer()
    running.start()
    yield running
    running.stop()


def client_for(server: TasksApiServer, token: str | None = TOKEN, **kwargs) -> TasksApiClient:
    options = {"agent_id": "echo", "credentials": Credentials(bearer=token), **FAST, **kwargs}
    return TasksApiClient(server.base_url, **options)


async def run(client: TasksApiClient, text: str, task_id: str | None = None) -> tuple[list, TaskView]:
    events = [event async for event in client.run_turn(text, task_id=task_id)]
    view = TaskView()
    for event in events:
        view.apply(event)
    return events, view


def shape(events: list) -> list[tuple[str, str | None]]:
    """Each event as (kind, state) so a whole sequence compares in one assert."""
    out = []
    for event in events:
        if isinstance(event, Task | StatusUpdate):
            out.append((event.kind, event.status.state.value))
        else:
            out.append((event.kind, None))
    return out


async def test_hello_works_then_completes_with_text_output(server):
    async with client_for(server) as client:
        events, view = await run(client, "hello")
    # in_progress after running is the same state, so it adds no event; the output precedes the end.
    assert shape(events) == [
        ("task", "submitted"),
        ("status-update", "working"),
        ("artifact-update", None),
        ("status-update", "completed"),
    ]
    artifact = events[2]
    assert artifact.artifact.artifact_id == "output" and artifact.artifact.name == "output"
    assert artifact.append is False and artifact.last_chunk is True
    assert view.state is TaskState.COMPLETED and view.turn_over
    assert view.output_text == "Hello back"
    assert view.artifacts["output"].closed
    assert view.context_id == view.task_id  # no context_id from the server: the task id stands in
    assert client.notes == []  # a well-formed exchange raises no lint warnings


async def test_ask_stops_at_input_required_and_the_answer_completes_it(server):
    async with client_for(server) as client:
        first, view = await run(client, "ask")
        assert shape(first) == [
            ("task", "submitted"),
            ("status-update", "working"),
            ("status-update", "input-required"),
        ]
        assert view.state is TaskState.INPUT_REQUIRED and view.turn_over
        assert view.status_text == "What is your name?"
        assert view.history[-1].role == "agent"

        second, _ = await run(client, "Ada", task_id=view.task_id)
    for event in second:
        view.apply(event)
    assert shape(second) == [("task", "working"), ("artifact-update", None), ("status-update", "completed")]
    part = second[1].artifact.parts[0]
    assert isinstance(part, DataPart) and part.data == {"greeting": "Hi Ada"}
    assert view.state is TaskState.COMPLETED
    # The thin answer to POST .../input names no context; the task stays in the one it had.
    assert {event.context_id for event in first + second} == {ASK_CONTEXT}
    answered = [r for r in server.seen if r.path == f"/tasks/{view.task_id}/input"]
    assert answered[-1].body == {"input": "Ada", "correlation_id": None}


async def test_boom_fails_with_the_error_text(server):
    async with client_for(server) as client:
        events, view = await run(client, "boom")
    assert shape(events)[-1] == ("status-update", "failed")
    assert view.state is TaskState.FAILED
    assert view.status_text == "exploded"
    assert not view.artifacts


async def test_a_post_that_already_ends_the_turn_is_read_in_full(server):
    async with client_for(server) as client:
        events, view = await run(client, "instant")
    # One snapshot, fetched by GET because the POST answer carried no output.
    assert shape(events) == [("task", "completed")]
    assert view.output_text == "at once"


async def test_follow_reads_an_existing_task_to_the_end_of_its_turn(server):
    async with client_for(server) as client:
        task = await client.submit("hello")
        events = [event async for event in client.follow(task.id)]
    assert isinstance(events[0], Task) and events[0].id == task.id
    assert isinstance(events[-1], StatusUpdate) and events[-1].status.state is TaskState.COMPLETED
    assert any(isinstance(e, ArtifactUpdate) and e.artifact.parts == [TextPart(text="Hello back")] for e in events)


async def test_correlation_id_travels_in_headers_and_bodies(server):
    async with client_for(server, correlation_id="corr-42") as client:
        _, view = await run(client, "ask")
        await run(client, "Ada", task_id=view.task_id)
    mine = [r for r in server.seen if r.headers.get("x-correlation-id") == "corr-42"]
    paths = {(r.method, r.path) for r in mine}
    assert ("POST", "/tasks") in paths
    assert ("GET", f"/tasks/{view.task_id}") in paths
    assert ("POST", f"/tasks/{view.task_id}/input") in paths
    assert all(r.body["correlation_id"] == "corr-42" for r in mine if r.method == "POST")


@pytest.mark.parametrize("token", [None, "wrong-token"], ids=["no-token", "wrong-token"])
async def test_refused_credentials_are_an_auth_error(server, token):
    async with client_for(server, token=token) as client:
        with pytest.raises(AuthFailedError) as caught:
            await client.submit("hello")
    assert caught.value.exit_code == 4
    assert "401" in caught.value.message and caught.value.hint


async def test_a_turn_that_never_ends_times_out_naming_the_task(server):
    async with client_for(server, poll_timeout=0.3) as client:
        seen = []
        with pytest.raises(TimedOutError) as caught:
            async for event in client.run_turn("forever"):
                seen.append(event)
    error = caught.value
    assert error.exit_code == 5 and error.hint
    task_id = seen[0].id
    assert task_id in error.message and f"{server.base_url}/tasks/{task_id}" in error.message
    assert shape(seen) == [("task", "submitted"), ("status-update", "working")]


async def test_a_closed_port_is_unreachable():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # The socket is closed, so nothing listens on the port any more.
    async with TasksApiClient(f"http://127.0.0.1:{port}", agent_id="echo", **FAST) as client:
        with pytest.raises(UnreachableError) as caught:
            await client.submit("hello")
    assert caught.value.exit_code == 3
    assert str(port) in caught.value.message


async def test_an_unknown_status_reads_as_unknown_with_one_note(server):
    notes: list[str] = []
    async with client_for(server, on_note=notes.append) as client:
        events, view = await run(client, "weird")
    assert shape(events) == [
        ("task", "submitted"),
        ("status-update", "unknown"),
        ("artifact-update", None),
        ("status-update", "completed"),
    ]
    assert view.output_text == "ok"
    assert len(notes) == 1 and "Frobnicating" in notes[0]
    assert client.notes == notes


@pytest.mark.parametrize("script", ["html", "shape", "nostatus"])
async def test_a_body_that_is_not_a_task_document_is_an_invalid_response(server, script):
    async with client_for(server) as client:
        with pytest.raises(InvalidResponseError) as caught:
            _ = [event async for event in client.run_turn(script)]
    error = caught.value
    assert error.url and error.url.startswith(f"{server.base_url}/tasks/")
    assert error.url in error.message


async def test_unknown_task_and_answer_out_of_turn_keep_their_a2a_names(server):
    async with client_for(server) as client:
        with pytest.raises(ProtocolError) as missing:
            await client.get_task("no-such-task")
        task = await client.submit("hello")
        with pytest.raises(ProtocolError) as not_waiting:
            await client.answer(task.id, "unasked")
    assert missing.value.code == "TaskNotFoundError" and "no-such-task" in missing.value.message
    assert not_waiting.value.code == "UnsupportedOperationError"


async def test_the_bearer_token_never_reaches_the_tap(server):
    tap = Tap()
    async with client_for(server, tap=tap) as client:
        await run(client, "ask")
    # A token the server refuses is still a secret, and is redacted too.
    async with client_for(server, token="other-secret-9", tap=tap) as refused:
        with pytest.raises(AuthFailedError) as caught:
            await refused.submit("hello")
    # The server echoed the token in its 401 body; neither the error nor the tap may repeat it.
    assert "[redacted]" in caught.value.message and "other-secret-9" not in caught.value.message
    requests = [r for r in tap.records if r.kind == "request"]
    assert len(requests) >= 3
    # Header names are compared case-insensitively: the tap keeps them as sent.
    auth = [v for r in requests for k, v in r.headers.items() if k.lower() == "authorization"]
    assert len(auth) == len(requests) and set(auth) == {"Bearer [redacted]"}
    dump = repr(list(tap.records))
    assert TOKEN not in dump and "other-secret-9" not in dump


@pytest.mark.parametrize(
    ("raw", "state"),
    [
        ("Queued", TaskState.SUBMITTED),
        ("in progress", TaskState.WORKING),
        ("IN-PROGRESS", TaskState.WORKING),
        ("waiting-for-input", TaskState.INPUT_REQUIRED),
        ("Auth Required", TaskState.AUTH_REQUIRED),
        (" Success ", TaskState.COMPLETED),
        ("error", TaskState.FAILED),
        ("Cancelled", TaskState.CANCELED),
        ("rejected", TaskState.REJECTED),
        ("paused", None),
    ],
)
def test_status_strings_are_read_tolerantly(raw, state):
    assert read_state(raw) is state
