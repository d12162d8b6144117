"""Start-up: `switchboard --help`, `switchboard card get URL` and the TUI's time to its first full screen,
beside the closest peer TUI, a2a-handler 0.4.0 from PyPI, pointed at the same demo `echo` agent.

The peer is installed by this script into bench/.cache/venv-handler (created when missing). The echo agent
runs in a child process (`switchboard demo --port 0`). Every command runs as a fresh process, ours and the
peer's alternately, after one unmeasured warm-up each (bytecode caches); each figure is the median.
The floor of the CLI rows is the interpreter itself (`python -c pass`).

Time to first full screen: each TUI runs in a real pty (120x40, TERM=xterm-256color) whose output feeds
a terminal emulator (pyte), which also answers the terminal's queries; the clock stops at the first
screen that shows the agent connected, with its key bar:
  ours:  the Agents table with the echo row showing protocol "1.0" (the card was fetched), and the footer;
  peer:  `handler tui --url URL` with "● Connected" and "Echo" in its server panel, and its footer.
Both screens need one agent-card fetch from the same agent, and both are what a person waits for before
they can type to it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import resource
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

from common import CACHE, ROOT, Row, env_with_src, run_standalone
from fanout import start_echo

PEER_PIN = "a2a-handler==0.4.0"
PEER_VENV = CACHE / "venv-handler"
COLS, ROWS = 120, 40
HELP_GOAL_MS = 150.0
SCREEN_TIMEOUT = 30.0


def peer_bin() -> Path:
    """The peer's `handler` command, installed into its own venv when missing."""
    handler = PEER_VENV / "bin" / "handler"
    if handler.exists():
        return handler
    print(f"installing {PEER_PIN} into {PEER_VENV} ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(PEER_VENV)], check=True)
    subprocess.run([str(PEER_VENV / "bin" / "pip"), "install", "-q", PEER_PIN], check=True)
    return handler


def ours_bin() -> Path:
    """The `switchboard` console script of this checkout's venv (what a person types)."""
    script = Path(sys.executable).parent / "switchboard"
    return script if script.exists() else ROOT / ".venv" / "bin" / "switchboard"


CPU: dict[str, list[float]] = {}  # command line -> CPU seconds (user + system) of each measured run


def wall(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to exit of one command (it must succeed); its CPU time goes to CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU.setdefault(" ".join(cmd), []).append(cpu)
    return elapsed


def first_screen(cmd: list[str], env: dict[str, str], ready: Callable[[list[str]], bool]) -> float:
    """Seconds from spawn until the emulated terminal shows a screen that `ready` accepts."""
    import pyte

    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: size the terminal, then become the TUI
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        os.execve(cmd[0], cmd, env)
    screen.write_process_input = lambda data: os.write(fd, data.encode())  # answers device queries
    try:
        while True:
            elapsed = time.perf_counter() - started
            if elapsed > SCREEN_TIMEOUT:
                tail = "\n".join(screen.display)
                raise RuntimeError(f"{cmd[0]} showed no ready screen in {SCREEN_TIMEOUT:g} s; last screen:\n{tail}")
            readable, _, _ = select.select([fd], [], [], 0.02)
            if not readable:
                continue
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                data = b""
            if not data:
                raise RuntimeError(f"{cmd[0]} exited before its first screen")
            stream.feed(data)
            if ready(screen.display):
                return time.perf_counter() - started
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def ours_ready(lines: list[str]) -> bool:
    text = "\n".join(lines)
    return bool(re.search(r"\becho\s+1\.0\s", text)) and "^q Quit" in text


def peer_ready(lines: list[str]) -> bool:
    text = "\n".join(lines)
    return bool(re.search(r"● Connected\s+Echo", text)) and "Ctrl+Q Quit" in text


def cpu_ms(cmd: list[str]) -> str:
    """Median CPU time of the measured runs of `cmd` (the warm-up run excluded)."""
    return f"{1000 * statistics.median(CPU[' '.join(cmd)][1:]):.0f}"


def median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def spread(samples: list[float]) -> str:
    return ", ".join(f"{1000 * s:.0f}" for s in samples)


def main(quick: bool = False) -> list[Row]:
    cli_runs = 5 if quick else 15
    tui_runs = 3 if quick else 7
    work = CACHE / "startup"
    work.mkdir(parents=True, exist_ok=True)
    handler, switchboard = str(peer_bin()), str(ours_bin())
    # Each tool with its own empty home, so no saved state of a person's changes what is measured.
    ours_env = env_with_src() | {"SWITCHBOARD_HOME": str(work / "home-ours"), "TERM": "xterm-256color"}
    peer_home = work / "home-peer"
    peer_env = dict(os.environ) | {
        "HOME": str(peer_home),
        "XDG_CONFIG_HOME": str(peer_home / ".config"),
        "XDG_DATA_HOME": str(peer_home / ".local" / "share"),
        "TERM": "xterm-256color",
    }
    for env in (ours_env, peer_env):
        env["COLORTERM"] = "truecolor"
    proc, url = start_echo(work)
    agents_file = work / "echo-agents.yaml"
    agents_file.write_text(f"agents:\n  - name: echo\n    url: {url}\n")
    try:
        pairs = {
            "--help": ([switchboard, "--help"], [handler, "--help"]),
            "card get": ([switchboard, "card", "get", url], [handler, "card", "get", "--url", url]),
        }
        floor_cmd = [sys.executable, "-c", "pass"]
        times: dict[str, tuple[list[float], list[float]]] = {}
        for name, (ours_cmd, peer_cmd) in pairs.items():
            wall(ours_cmd, ours_env), wall(peer_cmd, peer_env)  # warm-up
            ours, peer = [], []
            for _ in range(cli_runs):
                ours.append(wall(ours_cmd, ours_env))
                peer.append(wall(peer_cmd, peer_env))
            times[name] = ours, peer
        wall(floor_cmd, ours_env)
        floor = [wall(floor_cmd, ours_env) for _ in range(cli_runs)]

        ours_tui = [switchboard, "--agents", str(agents_file)]
        peer_tui = [handler, "tui", "--url", url]
        first_screen(ours_tui, ours_env, ours_ready), first_screen(peer_tui, peer_env, peer_ready)  # warm-up
        ours_screen, peer_screen = [], []
        for _ in range(tui_runs):
            ours_screen.append(first_screen(ours_tui, ours_env, ours_ready))
            peer_screen.append(first_screen(peer_tui, peer_env, peer_ready))
    finally:
        proc.terminate()
        proc.wait(timeout=15)

    floor_ms = median_ms(floor)
    rows = []
    for name, (ours, peer) in times.items():
        ours_ms = median_ms(ours)
        goal = f"< {HELP_GOAL_MS:.0f} ms" if name == "--help" else "faster than peer"
        met = ours_ms < HELP_GOAL_MS if name == "--help" else ours_ms < median_ms(peer)
        rows.append(
            Row(
                f"startup {name}",
                "ms",
                ours_ms,
                peer=median_ms(peer),
                peer_name="handler",
                floor=floor_ms,
                floor_name="python -c pass",
                higher_is_better=False,
                goal=goal,
                met=met,
                notes=[
                    f"{cli_runs} runs each, ms: ours {spread(ours)}; peer {spread(peer)}",
                    f"CPU time (user+sys), median ms: ours {cpu_ms(pairs[name][0])}, peer {cpu_ms(pairs[name][1])}",
                ],
            )
        )
    rows[0].notes.append(f"floor runs, ms: {spread(floor)}; CPU median {cpu_ms(floor_cmd)} ms")
    ours_ms, peer_ms = median_ms(ours_screen), median_ms(peer_screen)
    rows.append(
        Row(
            "startup TUI first screen",
            "ms",
            ours_ms,
            peer=peer_ms,
            peer_name="handler tui",
            higher_is_better=False,
            goal="faster than peer",
            met=ours_ms < peer_ms,
            notes=[
                f"pty {COLS}x{ROWS} + pyte, until the echo agent shows connected; {tui_runs} runs each, ms: "
                f"ours {spread(ours_screen)}; peer {spread(peer_screen)}"
            ],
        )
    )
    return rows


if __name__ == "__main__":
    run_standalone(main, "startup")
