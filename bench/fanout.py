"""Fan-out: a workflow of 200 independent A2A steps against the demo `echo` agent, beside 200 concurrent raw
httpx sends of the same SendMessage requests.

The echo agent runs in a child process (`switchboard demo --port 0`), so the server never shares the measured
process's interpreter. Ours is the workflow engine in this process (`start_run`, as `switchboard run` and the
TUI use it), journal fsyncs and all, from the call to RunFinished. The floor is 200 SendMessage POSTs sent at
once through one httpx.AsyncClient, each answer checked. Rounds alternate; each figure is a median.
The journal's share is the time the event loop spent inside Journal.write (serialise, redact, write,
fsync) over the run's wall time: the loop is blocked while it runs, so that is what it costs the run.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import yaml
from common import CACHE, Row, env_with_src, run_standalone

STEPS = 200
GOAL_FACTOR = 1.3
JOURNAL_GOAL = 0.10  # the journal may take at most this share of the run's wall time


def start_echo(work: Path) -> tuple[subprocess.Popen, str]:
    """The demo fleet in a child process; the echo agent's URL once every agent accepts connections."""
    agents_file = work / "agents.yaml"
    agents_file.unlink(missing_ok=True)
    env = env_with_src() | {"SWITCHBOARD_HOME": str(work / "home")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "demo", "--port", "0", "--agents-out", str(agents_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Serving until"):
            break
    else:
        raise RuntimeError(f"the demo fleet did not start (exit {proc.wait()})")
    entries = yaml.safe_load(agents_file.read_text())["agents"]
    url = next(e["url"] for e in entries if e["name"] == "echo")
    return proc, url


def write_workflow(work: Path, url: str) -> Path:
    """200 independent steps on one agent; maxConcurrency lets all of them run at once. Streaming is off so
    every step sends the same blocking SendMessage the raw floor sends."""
    lines = [
        "version: 1",
        "name: fanout",
        f"maxConcurrency: {STEPS}",
        "agents:",
        "  - name: echo",
        f"    url: {url}",
        "    streaming: false",
        "steps:",
    ]
    for i in range(STEPS):
        lines += [f"  - name: s{i:03d}", "    agent: echo", f'    task: "fan-out {i}"']
    path = work / "fanout.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


class JournalClock:
    """Sums the time spent in Journal.write while installed."""

    def __init__(self) -> None:
        from switchboard.workflow.journal import Journal

        self.journal_class = Journal
        self.original = Journal.write
        self.seconds = 0.0
        self.records = 0

    def __enter__(self) -> JournalClock:
        original = self.original

        def timed(journal, kind, **fields):
            started = time.perf_counter()
            try:
                return original(journal, kind, **fields)
            finally:
                self.seconds += time.perf_counter() - started
                self.records += 1

        self.journal_class.write = timed
        return self

    def __exit__(self, *exc: object) -> None:
        self.journal_class.write = self.original


async def engine_round(workflow_path: Path, journal_dir: Path) -> tuple[float, float, int]:
    """Seconds for one run of the workflow, seconds of it inside the journal, records written."""
    from switchboard.a2a.http import new_http_client
    from switchboard.agents import AgentsFile
    from switchboard.workflow.engine import start_run
    from switchboard.workflow.loader import load_workflow

    workflow = load_workflow(workflow_path, AgentsFile(None, [], []))
    async with new_http_client() as http:
        with JournalClock() as clock:
            started = time.perf_counter()
            run = start_run(workflow, {}, http=http, journal_dir=journal_dir, max_concurrency=STEPS)
            async for _ in run.events():
                pass
            elapsed = time.perf_counter() - started
    if run.status != "completed":
        raise RuntimeError(f"the fan-out run ended {run.status}")
    wrong = [s.name for s in run.steps.values() if not s.output.startswith("echo: fan-out")]
    if wrong:
        raise RuntimeError(f"steps without the echo's answer: {wrong[:5]}")
    return elapsed, clock.seconds, clock.records


def send_body(i: int) -> bytes:
    """The v1.0 SendMessage request our client sends for step i (the codec's own encoding)."""
    import json

    from switchboard.a2a.client import new_message
    from switchboard.a2a.wire import v10

    message = new_message(f"fan-out {i}").model_copy(update={"metadata": {"correlationId": f"raw:{i}"}})
    params = v10.send_params(message, blocking=True, history_length=None, accepted_output_modes=None, metadata=None)
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "SendMessage", "params": params}).encode()


async def raw_round(url: str) -> float:
    """Seconds for 200 concurrent SendMessage POSTs through one client, every answer read and checked."""
    bodies = [send_body(i) for i in range(STEPS)]
    headers = {"Content-Type": "application/json", "Accept": "application/json", "A2A-Version": "1.0"}

    async def one(http: httpx.AsyncClient, body: bytes) -> None:
        response = await http.post(url, content=body, headers=headers)
        reply = response.json()
        if response.status_code != 200 or "message" not in reply.get("result", {}):
            raise RuntimeError(f"raw send failed: {response.status_code} {response.text[:200]}")

    async with httpx.AsyncClient(timeout=30) as http:
        started = time.perf_counter()
        await asyncio.gather(*(one(http, body) for body in bodies))
        return time.perf_counter() - started


def main(quick: bool = False) -> list[Row]:
    rounds = 3 if quick else 7
    work = CACHE / "fanout"
    journal_dir = work / "runs"
    work.mkdir(parents=True, exist_ok=True)
    for old in journal_dir.glob("*.jsonl") if journal_dir.is_dir() else []:
        old.unlink()
    proc, url = start_echo(work)
    try:
        workflow_path = write_workflow(work, url)
        asyncio.run(engine_round(workflow_path, journal_dir))  # warm-up: imports, connections, server caches
        asyncio.run(raw_round(url))
        ours, floor, journal, shares = [], [], [], []
        records = 0
        for _ in range(rounds):
            elapsed, in_journal, records = asyncio.run(engine_round(workflow_path, journal_dir))
            ours.append(elapsed)
            journal.append(in_journal)
            shares.append(in_journal / elapsed)
            floor.append(asyncio.run(raw_round(url)))
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    ours_s, floor_s = statistics.median(ours), statistics.median(floor)
    share = statistics.median(shares)
    paired = statistics.median(o / f for o, f in zip(ours, floor, strict=True))  # each pair shares the load
    fanout = Row(
        f"fanout {STEPS} steps",
        "seconds",
        ours_s,
        floor=floor_s,
        floor_name="raw httpx",
        higher_is_better=False,
        goal=f"<= {GOAL_FACTOR}x raw",
        met=ours_s <= GOAL_FACTOR * floor_s,
        notes=[
            f"workflow engine in-process (start_run to RunFinished), {rounds} rounds, median; "
            f"ours {', '.join(f'{x:.3f}' for x in ours)}; raw {', '.join(f'{x:.3f}' for x in floor)}",
            f"ours / raw = {ours_s / floor_s:.2f} (goal <= {GOAL_FACTOR}); median of each round's ours / raw "
            f"(run back to back, so under the same load): {paired:.2f}",
        ],
    )
    journal_row = Row(
        "fanout journal",
        "% of run",
        100 * share,
        higher_is_better=False,
        goal=f"< {100 * JOURNAL_GOAL:.0f}%",
        met=share < JOURNAL_GOAL,
        notes=[f"{records} records per run, {statistics.median(journal) * 1000:.0f} ms in Journal.write (median)"],
    )
    return [fanout, journal_row]


if __name__ == "__main__":
    run_standalone(main, "fanout")
