"""`switchboard` in a real pseudo-terminal: it opens the TUI (on the demo fleet when asked), and quits cleanly."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from switchboard.cli import build_parser, parse
from switchboard.tui.run import prepare

REPO = Path(__file__).resolve().parents[2]


def read_until(fd: int, wanted: list[bytes], seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(w in seen for w in wanted):
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def test_switchboard_opens_the_tui_on_the_demo_fleet_in_a_terminal_and_quits(tmp_path):
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src"), "TERM": "xterm-256color"}
    env.update(COLUMNS="120", LINES="36")
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "--demo"], stdin=child, stdout=child, stderr=child, env=env
    )
    os.close(child)
    try:
        screen = read_until(main, [b"writer", b"interviewer", b"gatekeeper"], 60)
        assert b"writer" in screen and b"gatekeeper" in screen, screen[-2000:]
        assert b"Traceback" not in screen
        # ctrl+q is also XON to a terminal not yet in raw mode: let the app settle, and ask again if needed.
        read_until(main, [b"\x00never"], 1.0)
        for _ in range(5):
            os.write(main, b"\x11")
            try:
                assert process.wait(timeout=6) == 0
                break
            except subprocess.TimeoutExpired:
                read_until(main, [b"\x00never"], 0.5)
        assert process.poll() == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)


def test_the_agents_flag_reaches_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    agents = tmp_path / "mine.yaml"
    agents.write_text("agents:\n  - name: mine\n    url: http://127.0.0.1:9/\n")
    app, fleet = prepare(parse(build_parser(), ["--agents", str(agents)]))
    assert fleet is None  # there are agents: no demo unless asked
    assert app.agents_path == agents and [a.name for a in app.agents()] == ["mine"]


@pytest.mark.parametrize("argv", [["--demo"], []])
def test_the_demo_fleet_joins_when_asked_or_when_there_are_no_agents(tmp_path, monkeypatch, argv):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app, fleet = prepare(parse(build_parser(), argv))
    try:
        names = [a.name for a in app.agents()]
        assert {"writer", "interviewer", "gatekeeper", "legacy", "tasks"} <= set(names)
        assert not app.registry.agents  # nothing of the fleet is written to the person's agents file
    finally:
        fleet.stop()
