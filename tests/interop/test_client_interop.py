"""Our client against the official SDK servers: a2a-sdk 1.x (v1.0, and v0.3 compat), a2a-sdk 0.3.26, and
@a2a-js/sdk (v1.0, and v0.3 compat).

Every scenario runs against all of them; the behaviour a client must tolerate differs between them, and the
assertions say where.
"""

from __future__ import annotations

import asyncio
import base64

import pytest

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.cards import fetch_card
from switchboard.a2a.client import connect as connect_to
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import CardNotFoundError, CredentialsMissingError, ProtocolError
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import DataPart, FilePart, Message, Task, TaskState, TextPart
from switchboard.a2a.tap import Tap
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView

FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)


async def connect(server, **kwargs) -> Transport:
    return await connect_to(server.url, **kwargs)


async def turn(client: Transport, message=None, **kwargs) -> tuple[TaskView, list]:
    view, events = TaskView(), []
    async for event in follow_turn(client, message, policy=FAST, **kwargs):
        events.append(event)
        if not isinstance(event, Notice):
            view.apply(event)
    return view, events


async def test_card_on_the_well_known_path_and_the_legacy_path(reference_server):
    async with new_http_client() as http:
        resolved = await fetch_card(reference_server.url, http)
        assert resolved.card_url.endswith("/.well-known/agent-card.json")
        assert resolved.card.skills[0].id == "greet"
        legacy = reference_server.url + ".well-known/agent.json"
        if reference_server.stack == "sdk03":
            old = await fetch_card(legacy, http)  # a card URL is used as is
            assert old.card.name == resolved.card.name
        else:
            with pytest.raises(CardNotFoundError) as caught:  # sdk 1.x and the JS SDK serve no 0.2 path
                await fetch_card(legacy, http)
            assert caught.value.exit_code == 3 and legacy in caught.value.message
    async with await connect(reference_server) as client:
        assert client.endpoint.version == reference_server.wire_version
        assert (client.endpoint.binding, client.url) == (reference_server.binding, reference_server.endpoint_url)


async def test_blocking_send_then_follow_up_in_the_same_task_to_completion(reference_server):
    async with await connect(reference_server) as client:
        first = await client.send(new_message("hi"))
        assert isinstance(first, Task)
        assert first.status.state is TaskState.INPUT_REQUIRED
        assert first.status.message.text == "What name should I greet?"
        second = await client.send(new_message("Ada", task_id=first.id, context_id=first.context_id))
        assert isinstance(second, Task) and second.id == first.id
        assert second.status.state is TaskState.COMPLETED
        artifacts = {a.artifact_id: a for a in second.artifacts}
        assert artifacts["greeting-artifact"].text == "Hello, Ada! Nice to meet you."


async def test_streamed_turns_assemble_the_three_chunk_artifact_exactly(reference_server):
    async with await connect(reference_server) as client:
        view, _events = await turn(client, new_message("hi"))
        assert view.state is TaskState.INPUT_REQUIRED
        assert [s.message.text for s in view.timeline if s.message][:2] == ["thinking", "checking what I need"]
        follow_up = new_message("Grace", task_id=view.task_id, context_id=view.context_id)
        async for event in follow_turn(client, follow_up, policy=FAST):
            if not isinstance(event, Notice):
                view.apply(event)
        assert view.state is TaskState.COMPLETED
        greeting = view.artifacts["greeting-artifact"]
        assert greeting.text == "Hello, Grace! Nice to meet you."
        assert greeting.chunks == 3 and greeting.closed
        assert len({m.message_id for m in view.history}) == len(view.history)


async def test_a_streamed_answer_to_input_required_ends_completed(reference_server):
    # The question asked blocking, the answer streamed, followed on a fresh view (as a new process would). A stream
    # that answers a waiting task may open with the task as it stands, still input-required (the JS SDK does; the
    # spec has a task stream begin with the Task): that is the turn's start, not its outcome.
    async with await connect(reference_server) as client:
        question = await client.send(new_message("hi"))
        assert question.status.state is TaskState.INPUT_REQUIRED
        answer = new_message("Ada", task_id=question.id, context_id=question.context_id)
        view, _events = await turn(client, answer, streaming=True)
    assert (view.task_id, view.state) == (question.id, TaskState.COMPLETED)
    assert view.turn_over and view.status_text == "done"
    greeting = view.artifacts["greeting-artifact"]
    assert greeting.text == "Hello, Ada! Nice to meet you."
    assert greeting.chunks == 3 and greeting.closed


async def test_auth_required_streamed_then_answered_streamed(reference_server):
    async with await connect(reference_server) as client:
        # The JS SDK keeps this stream open after auth-required (the spec closes a stream only at a terminal
        # state): the turn ends on the state, so the follower closes it.
        asked, _ = await asyncio.wait_for(turn(client, new_message("auth please"), streaming=True), 10)
        assert (asked.state, asked.status_text) == (TaskState.AUTH_REQUIRED, "Send your access code to continue")
        answer = new_message("code 1234", task_id=asked.task_id, context_id=asked.context_id)
        view, _ = await asyncio.wait_for(turn(client, answer, streaming=True), 10)
    assert (view.task_id, view.state, view.status_text) == (asked.task_id, TaskState.COMPLETED, "authorized")


async def test_data_and_file_parts_both_ways(reference_server):
    payload = b"\x00binary\xffbytes"
    parts = [
        TextPart(text="parts please"),
        DataPart(data={"city": "Oslo", "days": 3}),
        FilePart(raw=base64.b64encode(payload).decode(), name="blob.bin", media_type="application/octet-stream"),
        FilePart(url="https://example.com/report.pdf", name="report.pdf", media_type="application/pdf"),
    ]
    # Stacks whose v0.3 REST encodes file bytes twice get no inline file, and theirs arrives as the base64 of its
    # bytes (SPEC-NOTES §9); see servers.py for them and for the stack whose file names do not travel.
    twice_encoded = reference_server.file_bytes_twice_encoded
    if twice_encoded:
        del parts[2]
    async with await connect(reference_server) as client:
        view, _ = await turn(client, new_message(parts))
    assert view.state is TaskState.COMPLETED
    extras = view.artifacts["extras-artifact"].parts
    assert isinstance(extras[0], DataPart) and extras[0].data["name"] == "Ada"
    assert extras[0].data["length"] == 3  # 3.0 from sdk 1.x (protobuf Struct), 3 from sdk 0.3
    hello = base64.b64encode(b"hello bytes\n") if twice_encoded else b"hello bytes\n"
    assert isinstance(extras[1], FilePart) and extras[1].content == hello
    assert isinstance(extras[2], FilePart) and extras[2].url == "https://example.com/hello.png"
    received = view.artifacts["received-artifact"].parts[0].data
    assert received["kinds"] == ["text", "data", "file"] if twice_encoded else ["text", "data", "file", "file"]
    assert received["data"] == [{"city": "Oslo", "days": 3}]
    if not twice_encoded:
        name = "blob.bin" if reference_server.file_names_travel else None
        assert received["files"][0]["size"] == len(payload) and received["files"][0]["name"] == name
    assert received["files"][-1]["url"] == "https://example.com/report.pdf"


async def test_a_direct_message_reply_blocking_and_streamed(reference_server):
    async with await connect(reference_server) as client:
        reply = await client.send(new_message("quick hello"))
        assert isinstance(reply, Message) and reply.text == "quick reply to: quick hello"
        view, _events = await turn(client, new_message("quick one"))
        assert view.reply is not None and view.reply.text == "quick reply to: quick one"
        assert view.turn_over and view.task_id is None


async def test_cancel_a_running_task(reference_server):
    async with await connect(reference_server) as client:
        started = await client.send(new_message("slow job"), blocking=False)
        assert isinstance(started, Task)
        assert not started.status.state.ends_turn
        canceled = await client.cancel_task(started.id)
        assert canceled.status.state is TaskState.CANCELED
        assert (await client.get_task(started.id)).status.state is TaskState.CANCELED
        # Canceling twice: the spec allows both answers, TaskNotCancelableError (the Python SDKs) and, cancel being
        # idempotent, the task still canceled (the JS SDK).
        try:
            again = await client.cancel_task(started.id)
        except ProtocolError as error:
            assert error.code == "TaskNotCancelableError"
        else:
            assert again.id == started.id and again.status.state is TaskState.CANCELED
        # A task that ended otherwise is not cancelable, on every stack.
        failed = await client.send(new_message("fail please"))
        with pytest.raises(ProtocolError) as caught:
            await client.cancel_task(failed.id)
        assert caught.value.code == "TaskNotCancelableError"


async def test_subscribe_to_a_running_task_until_it_is_canceled(reference_server):
    async with await connect(reference_server) as client:
        started = await client.send(new_message("slow job"), blocking=False)
        ticks = asyncio.Event()
        view = TaskView()

        async def watch():
            async for event in follow_turn(client, task_id=started.id, policy=FAST):
                if isinstance(event, Notice):
                    continue
                view.apply(event)
                if sum(1 for s in view.timeline if s.message and s.message.text.startswith("tick")) >= 2:
                    ticks.set()

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(ticks.wait(), 10)
        await client.cancel_task(started.id)
        await asyncio.wait_for(watcher, 10)
        # sdk 0.3's resubscribe ends without a final event; the follower reads the task to learn it.
        assert view.state is TaskState.CANCELED


async def test_get_an_unknown_task(reference_server):
    async with await connect(reference_server) as client:
        with pytest.raises(ProtocolError) as caught:
            await client.get_task("no-such-task")
    assert caught.value.code == "TaskNotFoundError"
    assert caught.value.a2a_code == -32001


async def test_a_failing_and_a_rejected_task(reference_server):
    async with await connect(reference_server) as client:
        failed, _ = await turn(client, new_message("fail please"))
        assert failed.state is TaskState.FAILED and failed.status_text == "failed on purpose"
        rejected = await client.send(new_message("reject this"))
        assert rejected.status.state is TaskState.REJECTED


async def test_an_executor_crash_mid_stream(reference_server):
    async with await connect(reference_server) as client:
        if reference_server.stack == "sdk03":
            # sdk 0.3 cuts the stream off, leaves the task `working` for ever, and a re-subscription to it
            # never ends. The follower reads the task, re-subscribes, notices the stall and falls back to
            # polling, where the caller's timeout governs.
            wedged = FollowPolicy(poll_interval=0.1, backoff=0.05, stall_timeout=1.0, max_reattach=1)
            notices, view = [], TaskView()
            async for event in follow_turn(client, new_message("crash now"), streaming=True, policy=wedged):
                if isinstance(event, Notice):
                    notices.append(event.text)
                    if "polling instead" in event.text:
                        break
                else:
                    view.apply(event)
            assert any("broke" in n for n in notices)
            assert any("re-subscribing" in n for n in notices)
            assert view.state is TaskState.WORKING and view.status_text == "about to crash"
        elif reference_server.stack == "js":
            # The JS SDK sends no error frame: it fails the task, the exception's text in the status message, and
            # ends the stream there (the spec leaves how a crash is told to the server).
            view, events = await turn(client, new_message("crash now"), streaming=True)
            assert view.state is TaskState.FAILED
            assert view.status_text == "Agent execution error: executor crashed on purpose"
        else:
            # sdk 1.x sends the error as a frame (over REST a google.rpc.Status without the exception's text; the
            # v0.3 REST compat cuts the stream instead); the follower reports it and reads the task's real end.
            view, events = await turn(client, new_message("crash now"), streaming=True)
            notices = [e.text for e in events if isinstance(e, Notice)]
            if reference_server.binding in ("JSONRPC", "GRPC"):  # gRPC: status UNKNOWN, the exception's text
                assert any("InternalError" in n and "crashed on purpose" in n for n in notices)
            elif reference_server.wire_version == "1.0":
                assert any("InternalError" in n for n in notices)
            else:
                assert any("broke" in n for n in notices)
            assert view.state is TaskState.FAILED


async def test_an_agent_that_demands_an_api_key(auth_server):
    async with new_http_client() as http:
        card = (await fetch_card(auth_server.url, http)).card
    assert card.security and "X-API-Key" in {s.param_name for s in card.security_schemes.values()}
    with pytest.raises(CredentialsMissingError) as caught:
        await connect(auth_server)
    assert caught.value.exit_code == 4
    tap = Tap()
    async with await connect(auth_server, credentials=Credentials(api_key=auth_server.api_key), tap=tap) as client:
        result = await client.send(new_message("quick hello"))
    assert isinstance(result, Message)
    sent = [r for r in tap.records if r.kind == "request" and r.method != "GET"]  # not the card's
    assert sent and lowered(sent[0].headers)["x-api-key"] == "[redacted]"
    assert all(auth_server.api_key not in (r.body + str(r.headers) + r.url) for r in tap.records)


async def test_wrong_api_key_is_refused_with_auth_failed(auth_server):
    from switchboard.a2a.errors import AuthFailedError

    async with await connect(auth_server, credentials=Credentials(api_key="wrong-key")) as client:
        with pytest.raises(AuthFailedError) as caught:
            await client.send(new_message("quick hello"))
    assert caught.value.exit_code == 4


async def test_list_tasks_on_v10_and_a_clear_error_on_v03(reference_server):
    from switchboard.a2a.errors import UsageError

    async with await connect(reference_server) as client:
        task = await client.send(new_message("fail please"))
        if client.endpoint.version == "1.0":
            page = await client.list_tasks(context_id=task.context_id)
            assert [t.id for t in page.tasks] == [task.id]
        else:
            with pytest.raises(UsageError):
                await client.list_tasks()


async def test_extended_card(reference_server):
    async with await connect(reference_server) as client:
        extended = await client.extended_card()
    assert "secret" in {s.id for s in extended.skills}


async def test_correlation_id_travels_as_header_and_metadata(reference_server):
    tap = Tap()
    async with await connect(reference_server, tap=tap, correlation_id="run-1:delegate:step") as client:
        await client.send(new_message("quick hello"))
    request = next(r for r in tap.records if r.kind == "request" and r.method != "GET")  # not the card's
    headers = lowered(request.headers)  # gRPC metadata keys are lower case
    assert headers["x-correlation-id"] == "run-1:delegate:step"
    assert '"correlationId":"run-1:delegate:step"' in request.body
    if client.endpoint.version == "1.0":
        assert headers["a2a-version"] == "1.0"
    else:
        assert "a2a-version" not in headers


def lowered(headers: dict[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}
