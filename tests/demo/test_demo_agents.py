"""Every demo agent through the project's own client (connect, follow_turn, TaskView), on both wires."""

from __future__ import annotations

import asyncio
import base64

import httpx
import pytest
from demo_support import API_KEY, BOTH_VERSIONS, TOKEN, connect, connect_gatekeeper, turn

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import (
    AuthFailedError,
    CredentialsMissingError,
    ProtocolError,
    UsageError,
)
from switchboard.a2a.model import ArtifactUpdate, DataPart, FilePart, Message, StatusUpdate, TaskState
from switchboard.a2a.tasks_api import TasksApiClient
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.demo import flaky, gatekeeper, interviewer, legacy, researcher, tasks_agent, writer

WORKING, COMPLETED = TaskState.WORKING, TaskState.COMPLETED
INPUT_REQUIRED, AUTH_REQUIRED = TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED


def working_texts(events: list) -> list[str]:
    return [
        e.status.message.text
        for e in events
        if isinstance(e, StatusUpdate) and e.status.state is WORKING and e.status.message is not None
    ]


async def until_working(client: Transport, task_id: str) -> None:
    """Poll until the task has left `submitted` (a long task started with a non-blocking send)."""
    for _ in range(100):
        if (await client.get_task(task_id)).status.state is WORKING:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"task {task_id} never started working")


# --- echo -------------------------------------------------------------------------------------------------


@BOTH_VERSIONS
async def test_echo_answers_with_a_direct_message_and_no_task(demo, version):
    async with await connect(demo, "echo", version) as client:
        assert client.endpoint.version == version
        view, _ = await turn(client, "hello there")
        blocking = await client.send(new_message("is anybody out there?"))
    assert view.reply is not None and view.task_id is None
    assert view.reply.text == "echo: hello there"
    assert isinstance(blocking, Message) and blocking.text == "echo: is anybody out there?"


# --- writer -----------------------------------------------------------------------------------------------


@BOTH_VERSIONS
async def test_writer_streams_status_and_the_whole_document_in_many_chunks(demo, version):
    topic = "a short story about tides"
    expected = writer.compose(topic)
    async with await connect(demo, "writer", version) as client:
        view, events = await turn(client, f"{topic} pace 0")
    assert view.state is COMPLETED
    artifact = view.artifacts[writer.ARTIFACT_ID]
    assert artifact.text == expected  # joined exactly as sent, chunk by chunk
    assert artifact.closed
    chunks = [e for e in events if isinstance(e, ArtifactUpdate)]
    assert len(chunks) == len(writer.split_chunks(expected)) > 50
    assert not chunks[0].append and all(c.append for c in chunks[1:])
    assert [bool(c.last_chunk) for c in chunks].count(True) == 1 and chunks[-1].last_chunk
    said = working_texts(events)
    assert said[0] == "outlining: a short story about tides"
    assert [s for s in said if s.startswith("drafting")] == [f"drafting section {i}/4" for i in range(1, 5)]


# --- interviewer ------------------------------------------------------------------------------------------


@BOTH_VERSIONS
@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "blocking"])
async def test_interviewer_asks_twice_then_completes_with_the_answers_as_data(demo, version, streaming):
    async with await connect(demo, "interviewer", version) as client:
        first, _ = await turn(client, "interview me", streaming=streaming)
        assert first.state is INPUT_REQUIRED
        assert first.status_text == interviewer.QUESTION_NAME
        ids = {"task_id": first.task_id, "context_id": first.context_id}
        second, _ = await turn(client, "Ada", streaming=streaming, **ids)
        assert second.state is INPUT_REQUIRED and second.task_id == first.task_id
        # A client that announces no A2UI gets no form: the choices are numbered, and "2" picks one.
        assert second.status_text == interviewer.question_goal("Ada")
        assert "Pick a choice (1-3) or say it in your own words." in second.status_text
        offered = [p.data for p in second.status.message.parts if isinstance(p, DataPart)]
        assert offered == [{"choices": interviewer.CHOICES}]
        third, _ = await turn(client, "2", streaming=streaming, **ids)
    assert third.state is COMPLETED
    summary = third.artifacts["interview"]
    assert "Ada" in summary.text
    assert [p.data for p in summary.parts if isinstance(p, DataPart)] == [
        {"name": "Ada", "goal": interviewer.CHOICES[1]}
    ]


# --- researcher -------------------------------------------------------------------------------------------


@BOTH_VERSIONS
async def test_researcher_stops_when_canceled(demo, version):
    async with await connect(demo, "researcher", version) as client:
        started = await client.send(new_message("the history of radio"), blocking=False)
        await until_working(client, started.id)
        canceled = await client.cancel_task(started.id)
        assert canceled.status.state is TaskState.CANCELED
        await asyncio.sleep(1.5)  # past the next progress tick: nothing may follow the cancel
        later = await client.get_task(started.id)
    assert later.status.state is TaskState.CANCELED
    assert later.status.message is not None and later.status.message.text == researcher.ResearcherExecutor.cancel_text
    assert not later.artifacts


@BOTH_VERSIONS
async def test_researcher_canceled_while_streaming_ends_its_stream(demo, version):
    async with await connect(demo, "researcher", version) as client:
        view, events, canceled_at = TaskView(), [], None
        async for event in client.stream(new_message("the history of radio")):
            view.apply(event)
            events.append(event)
            if canceled_at is None and working_texts(events):
                canceled = await client.cancel_task(view.task_id)
                canceled_at = len(events)
        final = await client.get_task(view.task_id)  # the stream ended by itself, long before 30 s of work
    assert canceled.status.state is TaskState.CANCELED
    assert working_texts(events) == ["searching sources 1/10"]
    assert view.state in (WORKING, TaskState.CANCELED)  # the SDK may close the stream before CANCELED reaches it
    assert final.status.state is TaskState.CANCELED


@BOTH_VERSIONS
async def test_researcher_resubscribe_after_a_dropped_stream_and_its_files(demo, version):
    async with await connect(demo, "researcher", version) as client:
        dropped = TaskView()
        stream = client.stream(new_message("quick: solar sails"))
        async for event in stream:
            dropped.apply(event)
            if dropped.state is WORKING:
                break  # the person closed the stream
        await stream.aclose()
        view, events = await turn(client, task_id=dropped.task_id)
    assert view.state is COMPLETED
    assert any(t.startswith(researcher.PHASES) for t in working_texts(events))
    parts = view.artifacts[researcher.ARTIFACT_ID].parts
    inline = next(p for p in parts if isinstance(p, FilePart) and p.raw)
    assert inline.name == "sources.csv" and inline.media_type == "text/csv"
    assert base64.b64decode(inline.raw) == researcher.sources_csv("solar sails")
    by_url = next(p for p in parts if isinstance(p, FilePart) and p.url)
    assert by_url.name == "report.md" and by_url.url.startswith(demo.url("researcher"))
    async with httpx.AsyncClient() as http:
        report = await http.get(by_url.url)
    assert report.status_code == 200 and report.text == researcher.report_markdown("solar sails")


# --- gatekeeper -------------------------------------------------------------------------------------------


async def test_gatekeeper_refuses_every_call_without_the_key_but_shows_its_card(demo):
    url = demo.url("gatekeeper")
    async with httpx.AsyncClient() as http:
        card = await http.get(url + ".well-known/agent-card.json")
        call = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}
        refused = await http.post(url, json=call, headers={"A2A-Version": "1.0"})
        wrong = await http.post(url, json=call, headers={"A2A-Version": "1.0", "X-API-Key": "nope"})
        legacy_call = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "x"}}
        refused_v03 = await http.post(url, json=legacy_call)
    assert card.status_code == 200 and API_KEY not in card.text  # the public card names the variable only
    assert card.json()["securitySchemes"]["apiKey"]["apiKeySecurityScheme"] == {
        "location": "header",
        "name": "X-API-Key",
    }
    assert [refused.status_code, wrong.status_code, refused_v03.status_code] == [401, 401, 401]
    with pytest.raises(CredentialsMissingError):
        await connect(demo, "gatekeeper")
    async with await connect(demo, "gatekeeper", credentials=Credentials(api_key="wrong")) as client:
        with pytest.raises(AuthFailedError) as caught:
            await client.send(new_message("open the vault"))
    assert caught.value.exit_code == 4


@BOTH_VERSIONS
async def test_gatekeeper_auth_required_then_the_passcode(demo, version):
    async with await connect_gatekeeper(demo, version) as client:
        first, events = await turn(client, "open the vault")
        assert first.state is AUTH_REQUIRED and first.status_text == gatekeeper.ASK_PASSCODE
        assert "sesame" in first.status_text
        assert working_texts(events)[0] == "checking your request"
        ids = {"task_id": first.task_id, "context_id": first.context_id}
        wrong, _ = await turn(client, "open says me", **ids)
        assert wrong.state is AUTH_REQUIRED and wrong.status_text == gatekeeper.WRONG_PASSCODE
        right, _ = await turn(client, "sesame", **ids)
    assert right.state is COMPLETED and right.task_id == first.task_id
    assert "The vault is open" in right.artifacts["vault"].text
    assert API_KEY not in str(right.to_task())


# --- flaky ------------------------------------------------------------------------------------------------


@BOTH_VERSIONS
@pytest.mark.parametrize(
    ("ask", "state", "said"),
    [("fail", TaskState.FAILED, "failed on purpose"), ("reject", TaskState.REJECTED, "rejected:")],
)
async def test_flaky_fails_or_rejects_as_asked(demo, version, ask, state, said):
    async with await connect(demo, "flaky", version) as client:
        view, _ = await turn(client, f"please {ask}")
    assert view.state is state and view.status_text.startswith(said)


@BOTH_VERSIONS
async def test_flaky_crashes_mid_stream_and_the_task_is_failed(demo, version):
    async with await connect(demo, "flaky", version) as client:
        view = TaskView()
        with pytest.raises(ProtocolError) as caught:
            async for event in client.stream(new_message("crash")):
                view.apply(event)
        assert flaky.CRASH_TEXT in caught.value.message
        assert [s.message.text for s in view.timeline if s.state is WORKING] == ["warming up", "about to crash"]
        after = await client.get_task(view.task_id)
    assert after.status.state is TaskState.FAILED


@BOTH_VERSIONS
async def test_flaky_explains_itself_otherwise(demo, version):
    async with await connect(demo, "flaky", version) as client:
        view, _ = await turn(client, "what can you do?")
    assert view.reply is not None and view.reply.text == flaky.HELP


# --- legacy -----------------------------------------------------------------------------------------------


async def test_legacy_serves_a_legacy_card_at_both_paths(demo):
    url = demo.url("legacy")
    async with httpx.AsyncClient() as http:
        new_path = (await http.get(url + ".well-known/agent-card.json")).json()
        old_path = (await http.get(url + ".well-known/agent.json")).json()
    assert new_path == old_path
    assert "supportedInterfaces" not in new_path
    assert new_path["url"] == url
    assert new_path["protocolVersion"] == "0.3.0" and new_path["preferredTransport"] == "JSONRPC"
    async with await connect(demo, "legacy") as client:
        assert client.card.shape == "legacy" and client.endpoint.version == "0.3"
    with pytest.raises(UsageError) as forced:  # the person's choice the card cannot satisfy
        await connect(demo, "legacy", "1.0")
    assert "offers 0.3" in forced.value.message


@pytest.mark.parametrize("method", ["SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask"])
async def test_legacy_refuses_v10_method_names_like_a_real_03_server(demo, method):
    call = {"jsonrpc": "2.0", "id": 7, "method": method, "params": {"id": "x"}}
    async with httpx.AsyncClient() as http:
        answer = await http.post(demo.url("legacy"), json=call, headers={"A2A-Version": "1.0"})
    assert answer.status_code == 200
    assert answer.json() == {"error": {"code": -32601, "message": "Method not found"}, "id": 7, "jsonrpc": "2.0"}


async def test_legacy_asks_for_the_missing_unit_then_converts(demo):
    async with await connect(demo, "legacy") as client:
        direct, _ = await turn(client, "10 km to mi")
        assert direct.state is COMPLETED and direct.output_text == "10 km = 6.21371 mi"
        first, _ = await turn(client, "72 f")
        assert first.state is INPUT_REQUIRED and first.status_text.startswith("Which unit should I convert 72 f to?")
        ids = {"task_id": first.task_id, "context_id": first.context_id}
        again, _ = await turn(client, "kg", **ids)
        assert again.state is INPUT_REQUIRED and "c, k" in again.status_text
        done, _ = await turn(client, "celsius", **ids)
    assert done.state is COMPLETED and done.artifacts["conversion"].text == legacy.answer(72, "f", "c")


# --- tasks (REST task API) --------------------------------------------------------------------------------


async def fold(events) -> TaskView:
    view = TaskView()
    async for event in events:
        view.apply(event)
    return view


async def test_tasks_agent_books_a_table_after_asking_the_time(demo):
    entry = demo.agent("tasks")
    assert entry.protocol == "tasks" and entry.bearer_env == "SWITCHBOARD_DEMO_TOKEN"
    credentials = Credentials(bearer=TOKEN)
    async with TasksApiClient(entry.url, agent_id="tasks", credentials=credentials, poll_interval=0.1) as client:
        asked = await fold(client.run_turn("book a table for four"))
        assert asked.state is INPUT_REQUIRED and asked.status_text == tasks_agent.ASK_TIME
        done = await fold(client.run_turn("8pm", task_id=asked.task_id, context_id=asked.context_id))
        weather = await fold(client.run_turn("weather in Lisbon"))
    assert done.state is COMPLETED and done.task_id == asked.task_id and done.context_id == asked.context_id
    assert done.output_text.startswith("Table for four booked at 8pm.")
    assert weather.state is COMPLETED
    assert weather.artifacts["output"].parts[0].data["city"] == "Lisbon"


async def test_tasks_agent_wants_its_bearer_token(demo):
    async with TasksApiClient(demo.url("tasks"), agent_id="tasks", credentials=Credentials(bearer="nope")) as client:
        with pytest.raises(AuthFailedError):
            await client.submit("book a table")


# --- every example on every card works -------------------------------------------------------------------


async def test_every_skill_example_does_what_its_card_says(demo):
    """Each example phrase a newcomer might copy from a card, sent as is."""
    expected = {
        "echo": {"hello there": "reply", "is anybody out there?": "reply"},
        "interviewer": dict.fromkeys(["interview me", "start"], INPUT_REQUIRED),
        "gatekeeper": dict.fromkeys(["open the vault", "show me the secret plans"], AUTH_REQUIRED),
        "flaky": {"fail": TaskState.FAILED, "reject": TaskState.REJECTED, "crash": TaskState.FAILED},
        "legacy": {"10 km to mi": COMPLETED, "5 kg to lb": COMPLETED, "72 f": INPUT_REQUIRED},
    }
    expected["flaky"]["what can you do?"] = "reply"
    expected["legacy"]["convert 3 feet"] = INPUT_REQUIRED
    long_running = {"writer", "researcher"}  # their examples start, stream, and are canceled
    for name in ["echo", "writer", "interviewer", "researcher", "gatekeeper", "flaky", "legacy"]:
        credentials = Credentials(api_key=API_KEY) if name == "gatekeeper" else None
        async with await connect(demo, name, credentials=credentials) as client:
            examples = [e for s in client.card.skills for e in s.examples]
            assert examples, f"{name} has no examples"
            if name in long_running:
                for example in examples:
                    await _starts_and_streams(client, example)
                continue
            assert sorted(examples) == sorted(expected[name]), name
            for example, outcome in expected[name].items():
                if outcome is ProtocolError:
                    with pytest.raises(ProtocolError):
                        await turn(client, example)
                    continue
                view, _ = await turn(client, example)
                assert (view.reply is not None) if outcome == "reply" else (view.state is outcome), (name, example)
    for skill in demo.agent("tasks").skills:
        async with TasksApiClient(
            demo.url("tasks"), agent_id="tasks", credentials=Credentials(bearer=TOKEN), poll_interval=0.1
        ) as client:
            for example in skill["examples"]:
                view = await fold(client.run_turn(example))
                assert view.state is (INPUT_REQUIRED if skill["id"] == "book" else COMPLETED), example


async def _starts_and_streams(client: Transport, example: str) -> None:
    view = TaskView()
    async for event in client.stream(new_message(example)):
        view.apply(event)
        if view.artifacts or (view.state is WORKING and view.timeline[-1].message.text.startswith("searching")):
            await client.cancel_task(view.task_id)
            break
    assert view.task_id and view.state is WORKING, example
