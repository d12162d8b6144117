"""What a recording someone else made replays as, through `switchboard demo --replay` (the replay agents on the real
SDK server classes), over both wire versions: a status time without a zone, and whole numbers in data parts and
metadata; and `send --record` onto a file that exists, which adds the turn or refuses, never replaces."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from demo_support import DemoProcess, demo_env, start_demo

from switchboard.export.json_doc import load

SEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "recordings"
ZONE_LESS = "2026-11-27T05:06:22.393536"  # the time of the issue: a status time some servers send without a zone
NUMBERS = {"length": 3, "ratio": 2.5, "exact": 2**60 + 1, "list": [1, 2.0, {"n": 7}], "flag": True}
CALLS = [("1.0", False), ("1.0", True), ("0.3", False), ("0.3", True)]


def _seed(name: str) -> dict[str, Any]:
    return json.loads((SEEDS / f"{name}.json").read_text())


def _run(agents_file: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "switchboard", "--agents", str(agents_file), *args],
        capture_output=True,
        text=True,
        env=demo_env(home),
        timeout=90,
    )


@pytest.fixture(scope="module")
def odd_replay(tmp_path_factory) -> DemoProcess:
    """One replay of a recording holding, per wire version and style, a legacy task whose status time has no
    zone and an echo whose data part and metadata hold whole numbers."""
    legacy, echo = _seed("legacy-task"), _seed("echo-data")
    task = legacy["exchanges"][0]["events"][0]["event"]["task"]
    task["status"]["timestamp"] = ZONE_LESS
    reply = echo["exchanges"][0]["events"][0]["event"]["message"]
    reply["parts"][1]["data"] = NUMBERS
    reply["metadata"] = {"count": 2, "nested": {"n": 1}}
    doc = copy.deepcopy(legacy)
    doc["agents"] = {**legacy["agents"], "echo": "http://127.0.0.1:1/"}
    doc["exchanges"] = []
    for _ in CALLS:
        for source in (legacy, echo):
            exchange = copy.deepcopy(source["exchanges"][0])
            exchange["view"] = len(doc["exchanges"]) + 1
            exchange["agent"] = "legacy" if source is legacy else "echo"
            doc["exchanges"].append(exchange)
    home = tmp_path_factory.mktemp("odd-replay")
    path = home / "odd.json"
    path.write_text(json.dumps(doc))
    replay = start_demo(home, "--replay", str(path), "--pace", "instant")
    yield replay
    replay.interrupt()


def _call(replay: DemoProcess, agent: str, text: str, version: str, stream: bool) -> list[dict[str, Any]]:
    args = ["send", agent, text, "-o", "json", "--a2a-version", version, *(["--stream"] if stream else [])]
    done = _run(replay.agents_file, replay.home, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    if stream:
        return [json.loads(line) for line in done.stdout.splitlines()]
    return [json.loads(done.stdout)]


@pytest.mark.parametrize(("version", "stream"), CALLS)
def test_a_status_time_without_a_zone_replays_as_that_time_in_utc(odd_replay, version, stream):
    """The issue: this recording made the replay fail with InternalError (protobuf refused the time)."""
    (answer,) = [d for d in _call(odd_replay, "legacy", "3 km in miles", version, stream) if "task" in d]
    status = answer["task"]["status"]
    assert status["state"] == "TASK_STATE_COMPLETED"
    replayed = datetime.fromisoformat(status["timestamp"].replace("Z", "+00:00"))
    assert replayed == datetime.fromisoformat(ZONE_LESS).replace(tzinfo=UTC)
    assert answer["task"]["artifacts"][0]["parts"][0]["text"] == "3 km = 1.86411 mi"


@pytest.mark.parametrize(("version", "stream"), CALLS)
def test_whole_numbers_in_data_and_metadata_replay_as_integers(odd_replay, version, stream):
    """Through the SDK's server a Struct makes every number a double (3 -> 3.0); the replay puts them back."""
    (answer,) = [d for d in _call(odd_replay, "echo", "hi", version, stream) if "message" in d]
    message = answer["message"]
    data = message["parts"][1]["data"]
    assert json.dumps(data, sort_keys=True) == json.dumps(NUMBERS, sort_keys=True)  # 3, not 3.0; 2**60+1 exact
    assert message["metadata"] == {"count": 2, "nested": {"n": 1}}
    assert type(message["metadata"]["count"]) is int


def test_a_conversation_recorded_turn_by_turn_replays_whole(tmp_path):
    """interviewer-conversation.json was recorded by three `send --record` onto one file: replayed, the answers
    continue the task, and it ends where the recording did."""
    replay = start_demo(tmp_path, "--replay", str(SEEDS / "interviewer-conversation.json"), "--pace", "instant")
    try:
        first = json.loads(
            _run(replay.agents_file, tmp_path, "send", "interviewer", "interview me", "-o", "json").stdout
        )
        task = first["task"]
        assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
        states = []
        for text in ("Ada", "test my agent"):
            done = _run(replay.agents_file, tmp_path, "send", "interviewer", text, "--task-id", task["id"],
                        "--context-id", task["contextId"], "-o", "json")  # fmt: skip
            assert done.returncode == 0, done.stderr
            states.append(json.loads(done.stdout)["task"]["status"]["state"])
        assert states == ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED"]
    finally:
        replay.interrupt()


# --- send --record onto a file that exists -----------------------------------------------------------------------


def _fields(stdout: str) -> dict[str, str]:
    return {k: v for k, _, v in (line.partition(": ") for line in stdout.splitlines()) if v}


def test_record_onto_a_recording_of_the_same_agent_adds_the_answer_as_the_next_turn(cli, tmp_path):
    """Issue 26: the answer's turn replaced the question's. Now the file holds both, the answer in the question's
    task view and answering its input-required status."""
    path = tmp_path / "interview.json"
    asked = cli("send", "interviewer", "interview me", "--record", str(path))
    assert asked.returncode == 0, asked.stderr
    ids = _fields(asked.stdout)
    answered = cli("send", "interviewer", "Ada", "--task-id", ids["Task ID"], "--context-id", ids["Context ID"],
                   "--record", str(path))  # fmt: skip
    assert answered.returncode == 0, answered.stderr
    fresh = cli("send", "interviewer", "interview me", "--record", str(path))
    assert fresh.returncode == 0, fresh.stderr
    transcript = load(json.loads(path.read_text()))
    question, answer, _ = transcript.exchanges
    assert [e.view for e in transcript.exchanges] == [1, 1, 2]  # a new task gets a view of its own
    assert [p.text for p in question.message.parts] == ["interview me"]
    assert [p.text for p in answer.message.parts] == ["Ada"]
    assert answer.answers is not None and answer.answers.state.value == "input-required"
    assert transcript.title == "interviewer: 3 messages"


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("other.json", None, "a recording of legacy"),
        ("notes.json", b"my own notes, not JSON", "is not JSON"),
        ("page.md", b"# a page I wrote", "does not replace a record"),
    ],
)
def test_record_onto_something_else_is_refused_before_sending_and_the_file_is_kept(cli, tmp_path, name, content, says):
    path = tmp_path / name
    if content is None:
        assert cli("send", "legacy", "1 m in cm", "--record", str(path)).returncode == 0
        content = path.read_bytes()
    else:
        path.write_bytes(content)
    refused = cli("send", "echo", "hi", "--record", str(path))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert says in refused.stderr and str(path) in refused.stderr
    assert "echo: hi" not in refused.stdout  # nothing was sent
    assert path.read_bytes() == content


def test_the_startup_text_prints_a_recorded_message_without_its_escape_sequences(tmp_path):
    """The start-up text suggests sending the recorded first message: someone else's text, so a terminal escape
    in it (here one that retitles the window) must not reach the terminal."""
    doc = _seed("legacy-task")
    doc["exchanges"][0]["message"]["parts"] = [{"text": "\x1b]0;owned\x07convert\nthis\x1b[2J"}]
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(doc))
    replay = start_demo(tmp_path, "--replay", str(path), "--pace", "instant")
    replay.interrupt()
    assert "send legacy 'convert this' --stream" in replay.startup_text
    assert "\x1b" not in replay.startup_text and "\x07" not in replay.startup_text
