"""Start-up: `switchboard --help`, `switchboard card get URL` and the TUI's time to its first full screen,
beside the closest peer TUI, a2a-handler 0.4.0 from PyPI, pointed at the same demo `echo` agent.

The peer is installed by this script into bench/.cache/venv-handler (created when missing). The echo agent
runs in a child process (`switchboard demo --port 0`). Every command runs as a fresh process, ours, the
peer's and the floor's in turn, after one unmeasured warm-up each (bytecode caches); each figure is the median
of the CPU time (user + sys) of the measured process, which the machine's load does not inflate as it does
wall time (in the notes). Floors, and the goal of each row (ours' CPU within a factor of the floor's):
  --help            `python -c pass` (the interpreter itself), goal 3x;
  card get          httpx GET + json.loads of the same card in a fresh process, goal 1.3x;
  TUI first screen  bench/minimal_tui.py: a minimal Textual app with our first screen's widgets that shows the
                    card's one row, timed by the same terminal harness, goal 1.5x.

Time to first full screen: each TUI runs in a real pty (120x40, TERM=xterm-256color) whose output feeds
a terminal emulator (pyte), which also answers the terminal's queries; the clock stops at the first
screen that shows the agent connected, with its key bar:
  ours:  the Agents table with the echo row showing protocol "1.0" (the card was fetched), and the footer;
  peer:  `handler tui --url URL` with "● Connected" and "Echo" in its server panel, and its footer;
  floor: the minimal app's echo row with protocol "1.0", and its footer.
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

from common import CACHE, ROOT, Row, bytecode_env, env_with_src, run_standalone
from fanout import start_echo

PEER_PIN = "a2a-handler==0.4.0"
PEER_VENV = CACHE / "venv-handler"
COLS, ROWS = 120, 40
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


CARD_FLOOR = (  # httpx GET + json.loads of the same card; httpx's own CLI deferred as ours defers it (cli/__init__)
    "import json, sys, types\n"
    "sys.modules['httpx._main'] = types.ModuleType('httpx._main')\n"
    "import httpx\n"
    "json.loads(httpx.get(sys.argv[1] + '.well-known/agent-card.json').raise_for_status().content)\n"
)
GOALS = {"--help": 3.0, "card get": 1.3, "TUI first screen": 1.5}  # ours' CPU within this factor of the floor's


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to exit of one command (it must succeed), and the CPU seconds (user + sys) it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_of(pid: int) -> float:
    """CPU seconds (user + sys, every thread) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_screen(cmd: list[str], env: dict[str, str], ready: Callable[[list[str]], bool]) -> tuple[float, float]:
    """Seconds from spawn until the emulated terminal shows a screen that `ready` accepts, and the CPU seconds
    the TUI's process had used by then."""
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
                return time.perf_counter() - started, cpu_of(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def ours_ready(lines: list[str]) -> bool:
    text = "\n".join(lines)
    return bool(re.search(r"\becho\s+1\.0\s", text)) and "^q Quit" in text


def floor_ready(lines: list[str]) -> bool:
    text = "\n".join(lines)
    return bool(re.search(r"\becho\s+1\.0\s", text)) and "^q Quit" in text


def peer_ready(lines: list[str]) -> bool:
    text = "\n".join(lines)
    return bool(re.search(r"● Connected\s+Echo", text)) and "Ctrl+Q Quit" in text


def ms(samples: list[float]) -> str:
    return ", ".join(f"{1000 * s:.0f}" for s in samples)


def median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def paired(ours: list[float], floor: list[float]) -> float:
    """The median of each round's own ratio ours / floor (rounds alternate, so a busy moment hits both)."""
    return statistics.median(o / f for o, f in zip(ours, floor, strict=True))


def main(quick: bool = False) -> list[Row]:
    cli_runs = 5 if quick else 15
    tui_runs = 3 if quick else 7
    work = CACHE / "startup"
    work.mkdir(parents=True, exist_ok=True)
    handler, switchboard = str(peer_bin()), str(ours_bin())
    # Each tool with its own empty home, so no saved state of a person's changes what is measured.
    ours_env = env_with_src() | {"SWITCHBOARD_HOME": str(work / "home-ours"), "TERM": "xterm-256color"}
    peer_home = work / "home-peer"
    peer_env = bytecode_env(dict(os.environ)) | {
        "HOME": str(peer_home),
        "XDG_CONFIG_HOME": str(peer_home / ".config"),
        "XDG_DATA_HOME": str(peer_home / ".local" / "share"),
        "TERM": "xterm-256color",
    }
    floor_env = bytecode_env(dict(os.environ)) | {"TERM": "xterm-256color"}
    for env in (ours_env, peer_env, floor_env):
        env["COLORTERM"] = "truecolor"
    proc, url = start_echo(work)
    agents_file = work / "echo-agents.yaml"
    agents_file.write_text(f"agents:\n  - name: echo\n    url: {url}\n")
    python = sys.executable
    # name -> (ours, peer, floor): each a command line and its environment
    cli = {
        "--help": (
            ([switchboard, "--help"], ours_env),
            ([handler, "--help"], peer_env),
            ([python, "-c", "pass"], floor_env),
        ),
        "card get": (
            ([switchboard, "card", "get", url], ours_env),
            ([handler, "card", "get", "--url", url], peer_env),
            ([python, "-c", CARD_FLOOR, url], floor_env),
        ),
    }
    tui = (
        ([switchboard, "--agents", str(agents_file)], ours_env, ours_ready),
        ([handler, "tui", "--url", url], peer_env, peer_ready),
        ([python, str(Path(__file__).with_name("minimal_tui.py")), url], floor_env, floor_ready),
    )
    # name -> [ours, peer, floor] -> [(wall, cpu) of each run]
    samples: dict[str, list[list[tuple[float, float]]]] = {}
    try:
        for name, trio in cli.items():
            for cmd, env in trio:
                run_once(cmd, env)  # warm-up: bytecode caches
            samples[name] = [[], [], []]
            for _ in range(cli_runs):  # ours, peer, floor, ours, peer, floor ...
                for i, (cmd, env) in enumerate(trio):
                    samples[name][i].append(run_once(cmd, env))
        for cmd, env, ready in tui:
            first_screen(cmd, env, ready)
        samples["TUI first screen"] = [[], [], []]
        for _ in range(tui_runs):
            for i, (cmd, env, ready) in enumerate(tui):
                samples["TUI first screen"][i].append(first_screen(cmd, env, ready))
    finally:
        proc.terminate()
        proc.wait(timeout=15)

    floor_names = {"--help": "python -c pass", "card get": "httpx GET+json", "TUI first screen": "minimal Textual"}
    what = {
        "--help": "a fresh process each",
        "card get": "a fresh process each, the card of the same echo agent",
        "TUI first screen": f"pty {COLS}x{ROWS} + pyte, until the echo row shows protocol 1.0 and the key bar",
    }
    rows = []
    for name, (ours, peer, floor) in samples.items():
        ours_cpu, peer_cpu, floor_cpu = ([c for _, c in runs] for runs in (ours, peer, floor))
        ours_wall, peer_wall, floor_wall = ([w for w, _ in runs] for runs in (ours, peer, floor))
        goal = GOALS[name]
        ratio = paired(ours_cpu, floor_cpu)
        rows.append(
            Row(
                f"startup {name}",
                "CPU ms",
                median_ms(ours_cpu),
                peer=median_ms(peer_cpu),
                peer_name="handler",
                floor=median_ms(floor_cpu),
                floor_name=floor_names[name],
                higher_is_better=False,
                goal=f"<= {goal:g}x floor",
                met=ratio <= goal,
                notes=[
                    f"{what[name]}; {len(ours)} rounds of ours, peer, floor in turn; CPU (user+sys) ms: "
                    f"ours {ms(ours_cpu)}; peer {ms(peer_cpu)}; floor {ms(floor_cpu)}",
                    f"ours / floor per round, median: {ratio:.2f}x (the goal's measure)",
                    f"wall ms, medians: ours {median_ms(ours_wall):.0f}, peer {median_ms(peer_wall):.0f}, "
                    f"floor {median_ms(floor_wall):.0f}; ours {ms(ours_wall)}",
                ],
            )
        )
    return rows


if __name__ == "__main__":
    run_standalone(main, "startup")
