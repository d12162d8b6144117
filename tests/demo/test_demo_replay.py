"""`switchboard demo --replay FILE`: a session recorded against the real demo agents (official a2a-sdk servers),
served back by the replay process, and what a client sees the second time compared with the first: the same
events, chunk for chunk, with only the live ids changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from demo_support import FAST, DemoProcess, demo_env, start_demo

from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import ArtifactUpdate, TaskState
from switchboard.a2a.recording import Recorded
from switchboard.a2a.redact import Redactor
from switchboard.a2a.wire import v10
from switchboard.a2ui.negotiation import CAPABILITIES_KEY
from switchboard.agents import load_agents
from switchboard.conversation import Conversation
from switchboard.demo import writer
from switchboard.demo.replay import pauses, served_name
from switchboard.export import export_transcript
from switchboard.export.json_doc import load
from switchboard.export.transcript import Exchange, of_conversation
from switchboard.link import open_link

INTERVIEW = ("interview me", "Ada", "test my own agent")


def _run(agents_file: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "switchboard", "--agents", str(agents_file), *args],
        capture_output=True,
        text=True,
        env=demo_env(home),
        timeout=90,
    )


def _anonymous(value: Any, names: dict[str, str]) -> Any:
    """`value` with every live id (task, context, the client's message ids) replaced by its order of appearance."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("taskId", "contextId", "id", "messageId") and isinstance(item, str) and item in names:
                item = names[item]
            out[key] = _anonymous(item, names)
        return out
    if isinstance(value, list):
        return [_anonymous(v, names) for v in value]
    return value


def _ids(value: Any, found: dict[str, str], prefix: str = "") -> dict[str, str]:
    """Every task, context and user message id in `value`, each to a stable placeholder (in order of appearance)."""
    if isinstance(value, dict):
        for key, item in value.items():
            live = key in ("taskId", "contextId") or (key == "id" and "status" in value)
            if live and isinstance(item, str) and item not in found:
                found[item] = f"<{key}-{len(found)}>"
            if key == "messageId" and value.get("role") == "ROLE_USER" and item not in found:
                found[item] = f"<user-message-{len(found)}>"
            _ids(item, found)
    elif isinstance(value, list):
        for item in value:
            _ids(item, found)
    return found


def _events(path: Path) -> list[list[dict]]:
    """Per exchange, its events as v1.0 JSON with the live ids anonymized."""
    transcript = load(json.loads(path.read_text()))
    raw = [[v10.encode_event(r.event) for r in e.events] for e in transcript.exchanges]
    messages = [v10.encode_message(e.message) for e in transcript.exchanges if e.message]
    names = _ids([raw, messages], {})
    return _anonymous(raw, names)


@pytest.fixture(scope="module")
def writer_recording(demo: DemoProcess, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    home = tmp_path_factory.mktemp("record")
    path = home / "tides.json"
    done = _run(demo.agents_file, home, "send", "writer", "tides", "--stream", "-o", "json", "--record", str(path))
    assert done.returncode == 0, done.stderr
    return path, done


@pytest.fixture(scope="module")
def writer_replay(writer_recording, tmp_path_factory):
    path, _ = writer_recording
    replay = start_demo(tmp_path_factory.mktemp("replay"), "--replay", str(path), "--pace", "instant")
    yield replay
    replay.interrupt()


def test_the_replayed_writer_stream_is_the_recorded_one_chunk_for_chunk(writer_recording, writer_replay, tmp_path):
    path, first = writer_recording
    again = tmp_path / "again.json"
    second = _run(
        writer_replay.agents_file, tmp_path, "send", "writer", "tides", "--stream", "-o", "json", "--record", str(again)
    )
    assert second.returncode == 0, second.stderr
    recorded, replayed = _events(path), _events(again)
    chunks = [e for e in recorded[0] if "artifactUpdate" in e]
    assert len(chunks) > 20  # the writer's document came in many chunks, and each was kept
    assert replayed == recorded
    # What the person sees on stdout is the same stream too, once the live ids are named alike.
    first_lines = [json.loads(line) for line in first.stdout.splitlines()]
    second_lines = [json.loads(line) for line in second.stdout.splitlines()]
    assert _anonymous(second_lines, _ids(second_lines, {})) == _anonymous(first_lines, _ids(first_lines, {}))
    text = "".join(c["artifactUpdate"]["artifact"]["parts"][0]["text"] for c in chunks)
    assert text == writer.compose("tides")


def test_the_replay_prints_its_agents_and_a_command_and_serves_a_card(writer_replay):
    text = writer_replay.startup_text
    assert "replaying" in text and f"Agents file: {writer_replay.agents_file}" in text
    assert "send writer tides --stream" in text  # the recorded message, to send first
    (entry,) = load_agents(writer_replay.agents_file, env={}).agents
    assert entry.name == "writer"
    done = _run(writer_replay.agents_file, writer_replay.home, "card", "get", "writer", "-o", "json")
    assert done.returncode == 0, done.stderr
    card = json.loads(done.stdout)
    assert card["capabilities"]["streaming"] is True and "tides" in json.dumps(card["skills"])


def test_a_message_past_the_recording_gets_a_plain_answer_saying_so(writer_recording, tmp_path):
    path, _ = writer_recording
    (tmp_path / "home").mkdir()
    replay = start_demo(tmp_path / "home", "--replay", str(path), "--pace", "instant")
    try:
        first = _run(replay.agents_file, tmp_path, "send", "writer", "something else", "-o", "json")
        assert first.returncode == 0 and "tides" in first.stdout  # played in order when no text matches
        second = _run(replay.agents_file, tmp_path, "send", "writer", "more", "-o", "json")
        assert second.returncode == 0, second.stderr
        assert "nothing more" in second.stdout
    finally:
        replay.interrupt()


async def _converse(agents_file: Path, name: str, version: str | None, *messages: str) -> Conversation:
    entry = load_agents(agents_file, env={}).find(name)
    async with new_http_client() as http:
        link = await open_link(entry, http=http, prefer_version=version)
        conversation = Conversation(link, policy=FAST)
        for text in messages:
            async for _ in conversation.send(text):
                pass
        await link.aclose()
    return conversation


def _without_announcements(value: Any) -> Any:
    """The exchanges minus what our client announced it renders: the interviewer's card declares A2UI and a
    replay's card does not (it knows only the recording), so only the messages we send differ there."""
    if isinstance(value, dict):
        kept = {k: _without_announcements(v) for k, v in value.items() if k != CAPABILITIES_KEY}
        return {k: v for k, v in kept.items() if not (k == "metadata" and v == {})}
    if isinstance(value, list):
        return [_without_announcements(v) for v in value]
    return value


def _shown_turns(conversation: Conversation) -> list:
    doc = json.loads(export_transcript(of_conversation(conversation, "interviewer"), "json", Redactor()).text)
    exchanges = _without_announcements(doc["exchanges"])
    for exchange in exchanges:
        exchange.pop("sentAt")
        for event in exchange["events"]:
            event.pop("at")
    return _anonymous(exchanges, _ids(exchanges, {}))


@pytest.mark.parametrize("version", ["1.0", "0.3"])
async def test_an_interview_replays_question_by_question_over_both_versions(demo, tmp_path, version):
    conversation = await _converse(demo.agents_file, "interviewer", version, *INTERVIEW)
    assert [t.view.state for t in conversation.turns] == [
        TaskState.INPUT_REQUIRED,
        TaskState.INPUT_REQUIRED,
        TaskState.COMPLETED,
    ]
    path = tmp_path / "interview.json"
    path.write_text(export_transcript(of_conversation(conversation, "interviewer"), "json", Redactor()).text)
    (tmp_path / "home").mkdir()
    replay = start_demo(tmp_path / "home", "--replay", str(path), "--pace", "instant")
    try:
        again = await _converse(replay.agents_file, "interviewer", version, *INTERVIEW)
    finally:
        replay.interrupt()
    assert [t.view.state for t in again.turns] == [t.view.state for t in conversation.turns]
    assert _shown_turns(again) == _shown_turns(conversation)
    for before, after in zip(conversation.turns, again.turns, strict=True):
        assert after.view.question == before.view.question
        assert {k: a.text for k, a in after.view.artifacts.items()} == {
            k: a.text for k, a in before.view.artifacts.items()
        }


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("missing.json", None, "cannot read"),
        ("wire.har", "{}", "only a JSON transcript"),
        ("notes.json", "not json", "is not JSON"),
        ("other.json", '{"format": "something else"}', "not a recording"),
        ("empty.json", '{"format": "a2a-switchboard.transcript", "version": 1, "exchanges": []}', "nothing to replay"),
    ],
)
def test_a_file_that_is_not_a_recording_is_refused_with_what_to_do(tmp_path, name, content, says):
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "switchboard", "demo", "--replay", str(path), "--port", "0"],
        capture_output=True,
        text=True,
        env=demo_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "--record FILE.json" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_original_pace_is_the_recorded_gaps_and_a_long_gap_is_capped():
    exchange = Exchange(
        1,
        "writer",
        None,
        "2026-03-15T10:00:00.000Z",
        [
            Recorded("2026-03-15T10:00:00.250Z", ArtifactUpdate.model_construct()),
            Recorded("2026-03-15T10:00:01.000Z", ArtifactUpdate.model_construct()),
            Recorded("2026-03-15T11:00:00.000Z", ArtifactUpdate.model_construct()),
            Recorded("not a time", ArtifactUpdate.model_construct()),
        ],
    )
    assert pauses(exchange) == [0.25, 0.75, 60.0, 0.0]


def test_agents_named_by_url_get_a_name_an_agents_file_takes():
    assert served_name("writer") == "writer"
    assert served_name("http://127.0.0.1:9101/") == "agent-127-0-0-1-9101"
    assert served_name("https://agents.example.com/a2a") == "agents-example-com-a2a"
