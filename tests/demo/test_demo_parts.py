"""The demo's pieces on their own: documents, conversions, ports, the agents file, the background fleet."""

from __future__ import annotations

import itertools
import logging
import socket

import httpx
import pytest

from switchboard.a2a.auth.credentials import is_loopback
from switchboard.agents import load_agents
from switchboard.demo import legacy, researcher, tasks_agent, writer
from switchboard.demo.agents_file import write_agents_file
from switchboard.demo.fleet import AGENTS, _OneLineLog, bind_ports, start_in_background

# --- writer ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "topic", "pace"),
    [
        ("a short story about tides", "a short story about tides", None),
        ("a field guide to houseplants pace 10", "a field guide to houseplants", 10),
        ("Write me the history of jazz, pace 150ms", "the history of jazz", 150),
        ("pace 0", writer.DEFAULT_TOPIC, 0),
        ("", writer.DEFAULT_TOPIC, None),
    ],
)
def test_writer_reads_the_topic_and_the_pace_from_the_message(message, topic, pace):
    assert writer.parse_request(message) == (topic, pace)


@pytest.mark.parametrize("topic", ["tides", "a short story about tides", "x" * 80, "ünïcødé ✓ topics"])
def test_writer_document_is_rich_markdown_of_3_to_6_kb(topic):
    document = writer.compose(topic)
    assert 3000 <= len(document.encode()) <= 6000
    assert document.startswith("# ") and document.count("\n## ") == 5
    assert "\n- " in document and "\n1. " in document and "```python" in document and "\n| " in document


def test_writer_chunks_join_exactly_and_cut_mid_word():
    document = writer.compose("tides")
    chunks = writer.split_chunks(document)
    assert "".join(chunks) == document
    assert len(chunks) > 50 and all(1 <= len(c) <= 60 for c in chunks)
    mid_word = [a for a, b in itertools.pairwise(chunks) if a[-1].isalpha() and b[0].isalpha()]
    assert mid_word  # clients that add a separator between chunks would visibly break words


# --- researcher and legacy --------------------------------------------------------------------------------------


def test_researcher_progress_reads_like_progress():
    assert [researcher.progress(t, 5) for t in range(1, 6)] == [
        "searching sources 5/10",
        "searching sources 10/10",
        "reading sources 5/10",
        "reading sources 10/10",
        "writing the report 10/10",
    ]
    long = [researcher.progress(t, 30) for t in range(1, 31)]
    assert len(set(long)) == 30  # something new every second
    assert long[0] == "searching sources 1/10" and long[9] == "searching sources 10/10"
    assert long[10] == "reading sources 1/10" and long[-1] == "writing the report 10/10"
    assert researcher.parse_request("quick: solar sails") == ("solar sails", True)
    assert researcher.parse_request("Research the history of radio") == ("the history of radio", False)


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [(10, "km", "mi", 6.21371), (72, "f", "c", 22.2222), (0, "c", "k", 273.15), (5, "kg", "lb", 11.0231)],
)
def test_legacy_converts(value, source, target, expected):
    assert float(f"{legacy.convert(value, source, target):.6g}") == expected


def test_legacy_units_have_aliases_and_kinds():
    assert legacy.unit_of("Miles") == "mi" and legacy.unit_of("to °F") == "f" and legacy.unit_of("parsec") is None
    assert legacy.same_kind("km") == ["m", "cm", "mm", "mi", "yd", "ft", "in"]


# --- the REST task API agent, in process -------------------------------------------------------------------------


async def test_tasks_agent_answers_by_the_contract():
    app = tasks_agent.build("http://tasks.test", tasks_agent.DemoSettings(token="t0k")).app
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://tasks.test") as http:
        auth = {"Authorization": "Bearer t0k"}
        assert (await http.post("/tasks", json={"input": "book a table"})).status_code == 401
        assert (
            await http.post("/tasks", json={"input": "x"}, headers={"Authorization": "Bearer no"})
        ).status_code == 401
        assert (await http.post("/tasks", json={"nope": 1}, headers=auth)).status_code == 400
        created = await http.post("/tasks", json={"agent_id": "tasks", "input": "book a table"}, headers=auth)
        assert created.status_code == 201 and created.json()["status"] == "queued"
        task_id = created.json()["id"]
        assert (await http.get(f"/tasks/{task_id}", headers=auth)).json()["context_id"].startswith("ctx-")
        assert (await http.get("/tasks/task-9999", headers=auth)).status_code == 404
        early = await http.post(f"/tasks/{task_id}/input", json={"input": "8pm"}, headers=auth)
        assert early.status_code == 409  # still working: not waiting for input yet
        assert (await http.get("/")).json()["protocol"] == "tasks"


# --- ports, files, logs, the background fleet --------------------------------------------------------------------


def test_a_taken_port_moves_to_a_free_one():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        [(sock, wanted)] = bind_ports("127.0.0.1", port, 1)
        with sock:
            assert wanted == port and sock.getsockname()[1] not in (0, port)


def test_loopback_detection():
    assert all(map(is_loopback, ["127.0.0.1", "localhost", "::1", "127.1.2.3"]))
    assert not any(map(is_loopback, ["0.0.0.0", "192.168.1.4", "example.com", "::"]))


def test_the_agents_file_is_written_atomically_and_reads_back(tmp_path):
    from switchboard.demo.fleet import RunningAgent

    path = tmp_path / "deep" / "agents.yaml"
    agents = [
        RunningAgent(a.name, f"http://127.0.0.1:{1000 + i}/", a.protocol, a.description, a.api_key_env, a.bearer_env)
        for i, a in enumerate(AGENTS)
    ]
    write_agents_file(path, agents)
    write_agents_file(path, agents[:2])  # rewritten, never appended
    assert [p.name for p in path.parent.iterdir()] == ["agents.yaml"]  # no temp file left behind
    assert [a.name for a in load_agents(path, env={}).agents] == ["echo", "writer"]


def test_server_logs_become_one_line_per_problem():
    lines: list[str] = []
    handler = _OneLineLog(lines.append)
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        error = exc
    logger = logging.getLogger("test.demo")
    for message in ("Producer failed", "Consumer failed"):
        handler.handle(logger.makeRecord("a2a", logging.ERROR, "f", 1, message, (), (RuntimeError, error, None)))
    handler.handle(logger.makeRecord("a2a", logging.ERROR, "f", 1, "Request Error: 'boom'", (), None))
    handler.handle(logger.makeRecord("a2a", logging.WARNING, "f", 1, "events may be lost", (), None))
    handler.handle(logger.makeRecord("a2a", logging.ERROR, "f", 1, "something else", (), None))
    assert lines == ["Producer failed (RuntimeError: boom)", "something else"]


def test_the_background_fleet_serves_and_stops_without_printing(tmp_path, capfd, monkeypatch):
    monkeypatch.delenv("SWITCHBOARD_DEMO_KEY", raising=False)
    monkeypatch.delenv("SWITCHBOARD_DEMO_TOKEN", raising=False)
    handle = start_in_background(first_port=0, agents_file=tmp_path / "agents.yaml")
    try:
        assert handle.running and handle.agents_file == tmp_path / "agents.yaml"
        assert [a.name for a in handle.agents] == [a.name for a in AGENTS]
        card = httpx.get(handle.agent("writer").url + ".well-known/agent-card.json")
        assert card.json()["name"] == "Writer"
        entries = [a.as_entry() for a in handle.agents]
        written = load_agents(handle.agents_file, env={}).agents
        assert [(e.raw, e.skills) for e in entries] == [(e.raw, e.skills) for e in written]  # as the file says
        assert handle.credential_env == {"SWITCHBOARD_DEMO_KEY": "demo-key", "SWITCHBOARD_DEMO_TOKEN": "demo-token"}
    finally:
        handle.stop()
    assert not handle.running
    with pytest.raises(httpx.ConnectError):
        httpx.get(handle.agent("writer").url + ".well-known/agent-card.json")
    assert capfd.readouterr() == ("", "")
