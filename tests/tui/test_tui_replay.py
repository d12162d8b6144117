"""`switchboard replay FILE` in the TUI (Pilot): conversations recorded against the real demo fleet (official a2a-sdk
servers), played again through the replay agents, each turn drawn from the same events as the first time, and nothing
typeable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input
from tui_support import demo_fleet, until

from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import TaskState, TextPart
from switchboard.a2a.redact import Redactor
from switchboard.conversation import Conversation
from switchboard.demo import writer
from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import start_in_background
from switchboard.demo.replay import replay_agents
from switchboard.export import export_transcript
from switchboard.export.json_doc import load
from switchboard.export.transcript import Transcript, of_conversation
from switchboard.link import open_link
from switchboard.tui.replay import READ_ONLY, SECRET_STAND_IN, ReplayApp, steps_of
from switchboard.tui.widgets.composer import Composer, MessageArea
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.transcript import ArtifactBox

SIZE = (120, 40)
INTERVIEW = ("interview me", "Ada", "test my own agent")


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """A writer turn and a whole interview, recorded against the real fleet, in one JSON transcript."""
    import asyncio

    async def record(fleet) -> Transcript:
        combined = Transcript("conversation", "writer and interviewer")
        for name, messages in (("writer", ("tides",)), ("interviewer", INTERVIEW)):
            async with new_http_client() as http:
                link = await open_link(fleet.agent(name).as_entry(), http=http)
                conversation = Conversation(link)
                for text in messages:
                    async for _ in conversation.send(text):
                        pass
                await link.aclose()
            part = of_conversation(conversation, name, fleet.agent(name).url)
            offset = len(combined.exchanges)
            for exchange in part.exchanges:
                exchange.view += offset
            combined.exchanges += part.exchanges
            combined.agents.update(part.agents)
        return combined

    with demo_fleet(DemoSettings(writer_pace_ms=1)) as fleet:
        transcript = asyncio.run(record(fleet))
    path = tmp_path_factory.mktemp("recording") / "session.json"
    path.write_text(export_transcript(transcript, "json", Redactor()).text)
    return path


def _turns(conversation: Conversation) -> list[dict]:
    """What each turn showed: the state it ended in, the question, the reply and the artifacts' text."""
    return [
        {
            "sent": [p.text for p in t.message.parts if isinstance(p, TextPart)],
            "state": t.view.state,
            "question": [p.text for p in t.view.question if isinstance(p, TextPart)],
            "artifacts": {k: a.text for k, a in t.view.artifacts.items()},
            "timeline": [s.state for s in t.view.timeline],
        }
        for t in conversation.turns
    ]


async def test_a_recorded_session_plays_again_tab_by_tab_read_only(recording, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    transcript = load(json.loads(recording.read_text()))
    fleet = start_in_background(
        first_port=0, agents=replay_agents(transcript, recording, paced=False), write_file=False
    )
    try:
        entries = [a.as_entry() for a in fleet.agents]
        app = ReplayApp(steps_of(transcript), entries, recording, paced=False, steady=True)
        async with app.run_test(size=SIZE):
            await until(app.done.is_set, timeout=60)
            await until(lambda: set(app.views) == {"writer", "interviewer"})
            writer_view, interviewer_view = app.views["writer"], app.views["interviewer"]
            (turn,) = writer_view.conversation.turns
            artifact = turn.view.artifacts[writer.ARTIFACT_ID]
            recorded_chunks = sum(
                1 for e in transcript.exchanges[0].events if type(e.event).__name__ == "ArtifactUpdate"
            )
            assert artifact.text == writer.compose("tides") and artifact.chunks == recorded_chunks > 20
            assert writer_view.query(ArtifactBox).last().source == writer.compose("tides")
            assert [t["state"] for t in _turns(interviewer_view.conversation)] == [
                TaskState.INPUT_REQUIRED,
                TaskState.INPUT_REQUIRED,
                TaskState.COMPLETED,
            ]
            assert [t["sent"] for t in _turns(interviewer_view.conversation)] == [[m] for m in INTERVIEW]
            for view in (writer_view, interviewer_view):
                assert all(c.query_one(MessageArea).read_only for c in view.query(Composer))
                assert all(p.query_one(Input).disabled for p in view.query(PromptPane))
            assert "all 4 message(s) played" in app.sub_title
    finally:
        fleet.stop()
    # What the replay showed is what the recording holds, turn by turn.
    recorded = [_turns_of_exchange(e) for e in transcript.exchanges]
    shown = _turns(writer_view.conversation) + _turns(interviewer_view.conversation)
    assert shown == recorded


@pytest.mark.parametrize("size", [(130, 40), (80, 24), (60, 15)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_replay_says_its_message_box_is_read_only_and_says_so_again_when_typed_into(
    recording, tmp_path, monkeypatch, size
):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    transcript = load(json.loads(recording.read_text()))
    fleet = start_in_background(
        first_port=0, agents=replay_agents(transcript, recording, paced=False), write_file=False
    )
    try:
        entries = [a.as_entry() for a in fleet.agents]
        app = ReplayApp(steps_of(transcript), entries, recording, paced=False, steady=True)
        async with app.run_test(size=size) as pilot:
            await until(app.done.is_set, timeout=60)
            view = app.views["interviewer"]
            box = view.query_one(MessageArea)
            await until(lambda: app.focused is box)  # the keyboard is somewhere the person can see
            assert box.read_only and box.placeholder == READ_ONLY  # not "Message the agent…", "enter sends"
            footer = " ".join(str(w.render()) for w in app.screen.query_one("Footer").query("*"))
            assert "Send" not in footer and "New line" not in footer  # not offered
            if size[1] >= 22:  # below, the composer's bar gives way: the placeholder says it
                assert READ_ONLY in str(view.query_one(".composer-hint").render())
            turns = len(view.conversation.turns)
            said: list[str] = []  # kept here: a toast lasts 4 s, and a loaded machine can type slower than that
            notify = app.notify
            app.notify = lambda message, *a, **k: said.append(str(message)) or notify(message, *a, **k)  # type: ignore[method-assign]
            await pilot.press(*"hello", "enter")
            assert box.text == ""
            await until(lambda: any(READ_ONLY in message for message in said))  # not silently ignored
            await pilot.pause(0.2)
            assert len(view.conversation.turns) == turns  # and nothing went out
    finally:
        fleet.stop()


def _turns_of_exchange(exchange) -> dict:
    from switchboard.a2a.turn import TaskView

    view = TaskView()
    for recorded in exchange.events:
        view.apply(recorded.event)
    return {
        "sent": [p.text for p in exchange.message.parts if isinstance(p, TextPart)],
        "state": view.state,
        "question": [p.text for p in view.question if isinstance(p, TextPart)],
        "artifacts": {k: a.text for k, a in view.artifacts.items()},
        "timeline": [s.state for s in view.timeline],
    }


def test_steps_keep_the_order_the_gaps_and_mask_a_secret(recording):
    transcript = load(json.loads(recording.read_text()))
    transcript.exchanges[-1].secret = True
    steps = steps_of(transcript)
    assert [s.agent for s in steps] == ["writer", "interviewer", "interviewer", "interviewer"]
    assert steps[0].wait == 0.0 and all(s.wait >= 0 for s in steps)
    assert steps[-1].secret and [p.text for p in steps[-1].parts] == [SECRET_STAND_IN]


def test_replay_without_a_terminal_says_where_to_run_it(recording, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "switchboard", "replay", str(recording)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={"SWITCHBOARD_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert "no terminal" in done.stderr and "demo --replay" in done.stderr


def test_replay_of_a_file_that_is_not_a_recording_is_refused(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# notes")
    done = subprocess.run(
        [sys.executable, "-m", "switchboard", "replay", str(path)],
        capture_output=True,
        text=True,
        env={"SWITCHBOARD_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2 and "only a JSON transcript" in done.stderr and "Traceback" not in done.stderr


async def test_a_recording_with_a_zone_less_status_time_replays_to_its_end(tmp_path, monkeypatch):
    """A status time without a zone (as some servers send) made the replay agent fail with an InternalError while
    the TUI said "Replay finished"; read through `replay`'s reader, it plays the recorded task to completion."""
    from switchboard.cli.replay import read_recording

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    seed = Path(__file__).resolve().parents[1] / "fixtures" / "recordings" / "legacy-task.json"
    doc = json.loads(seed.read_text())
    doc["exchanges"][0]["events"][0]["event"]["task"]["status"]["timestamp"] = "2026-11-27T05:06:22.393536"
    path = tmp_path / "zone-less.json"
    path.write_text(json.dumps(doc))
    transcript = read_recording(path)
    fleet = start_in_background(first_port=0, agents=replay_agents(transcript, path, paced=False), write_file=False)
    try:
        app = ReplayApp(steps_of(transcript), [a.as_entry() for a in fleet.agents], path, paced=False, steady=True)
        async with app.run_test(size=SIZE):
            await until(app.done.is_set, timeout=60)
            (turn,) = app.views["legacy"].conversation.turns
            assert turn.error is None and turn.view.state == TaskState.COMPLETED
            assert [a.text for a in turn.view.artifacts.values()] == ["3 km = 1.86411 mi"]
    finally:
        fleet.stop()
