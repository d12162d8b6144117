"""Serve: a one-step workflow over the demo `echo` agent, served by `switchboard serve`, called by 200 callers at
once, beside its floor (the same 200 calls to the SDK server alone, answering from memory after one httpx call
to echo: bench/serve_floor.py) and 200 callers calling `echo` directly; and the memory a run in flight costs.

Every server runs in a child process (`switchboard demo --port 0`, `switchboard serve --port 0`, the floor). Each
caller sends one blocking SendMessage (raw httpx, one pooled client with room for every caller) and times its own
answer: for the served workflow that is a whole run (journal, the delegate's call to echo, the outputs), for the
floor the SDK's request and one call to echo, for the direct one echo's reply. Rounds go served, floor, direct in
turn; p50 and p95 are per round, medians over rounds. The goal's measure is the server's CPU per call: the CPU
time (user + sys, every thread, from /proc) the serving process spent on a round, over its 200 calls; served
against the floor, as the median of each round's own ratio. The floor is what a served call cannot avoid: an SDK
server request of its own and a client request to the delegate (the direct call is less work than that).

Memory: a fresh server, warmed up with a few runs (not hundreds, whose freed memory the next runs would reuse),
then 200 runs parked at a question (a step on the demo
`interviewer`, which asks and waits): the server's RSS growth over 200 is the RSS per run in flight.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
from common import CACHE, Row, env_with_src, run_standalone
from fanout import start_echo

CALLERS = 200
GOAL_CPU = 1.5  # serve's CPU per call within this factor of the floor's (issue 33)
HEADERS = {"Content-Type": "application/json", "Accept": "application/json", "A2A-Version": "1.0"}


def write_workflows(work: Path, agents_file: Path) -> tuple[Path, Path]:
    import yaml

    entries = {e["name"]: e["url"] for e in yaml.safe_load(agents_file.read_text())["agents"]}
    one = work / "one-echo.yaml"
    one.write_text(
        "version: 1\nname: one-echo\ninputs:\n  text: {required: true}\n"
        f"agents:\n  - name: echo\n    url: {entries['echo']}\n    streaming: false\n"
        'steps:\n  - name: echo\n    agent: echo\n    task: "{{inputs.text}}"\n'
        'outputs:\n  echoed: "{{steps.echo.output}}"\n'
    )
    parked = work / "parked.yaml"
    parked.write_text(
        "version: 1\nname: parked\n"
        f"agents:\n  - name: interviewer\n    url: {entries['interviewer']}\n"
        "steps:\n  - name: ask\n    agent: interviewer\n    task: interview me\n"
    )
    return one, parked


def start_serve(work: Path, *files: Path, home: str = "serve-home") -> tuple[subprocess.Popen, dict[str, str]]:
    """`switchboard serve FILES` in a home of its own, emptied first: a server restores the runs its journals
    hold, and the runs of earlier benches would be loaded at start-up and counted in its memory."""
    shutil.rmtree(work / home, ignore_errors=True)
    env = env_with_src() | {"SWITCHBOARD_HOME": str(work / home)}
    argv = [sys.executable, "-m", "switchboard", "serve", *map(str, files), "--port", "0", "--max-runs", "1000"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    assert proc.stdout is not None
    urls: dict[str, str] = {}
    for line in proc.stdout:
        bits = line.split()
        if len(bits) == 2 and bits[1].startswith("http://"):
            urls[bits[0]] = bits[1]
        if line.startswith("Serving until"):
            return proc, urls
    raise RuntimeError(f"switchboard serve did not start (exit {proc.wait()})")


def body(text: str, *, data: dict | None = None) -> bytes:
    part = {"data": data} if data is not None else {"text": text}
    message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [part]}
    request = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}}
    return json.dumps(request).encode()


def cpu_of(pid: int) -> float:
    """CPU seconds (user + sys, every thread) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_floor(delegate: str, *flags: str) -> tuple[subprocess.Popen, str]:
    """bench/serve_floor.py over `delegate`: the SDK server alone, one httpx call to the delegate per request."""
    argv = [sys.executable, str(Path(__file__).with_name("serve_floor.py")), delegate, *flags]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env_with_src(), text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY "):
        raise RuntimeError(f"the serve floor did not start (said {line!r}, exit {proc.wait()})")
    return proc, line.split()[1]


async def burst(url: str, *, served: bool, callers: int = CALLERS, task: bool | None = None) -> list[float]:
    """Every caller's seconds, all sent at once; each answer checked (a completed task where `task`, which is
    `served` unless given; else a direct message)."""
    limits = httpx.Limits(max_connections=callers + 10, max_keepalive_connections=callers + 10)
    task = served if task is None else task

    async def one(http: httpx.AsyncClient, i: int) -> float:
        payload = body(f"caller {i}", data={"text": f"caller {i}"} if served else None)
        started = time.perf_counter()
        try:
            response = await http.post(url, content=payload, headers=HEADERS)
        except httpx.TransportError as exc:
            raise RuntimeError(f"caller {i} of {url}: {exc!r}") from exc
        elapsed = time.perf_counter() - started
        result = response.json().get("result", {})
        if task:
            ok = result.get("task", {}).get("status", {}).get("state") == "TASK_STATE_COMPLETED"
        else:
            ok = "message" in result
        if not ok:
            raise RuntimeError(f"caller {i}: {response.status_code} {response.text[:300]}")
        return elapsed

    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        await http.get(url + ".well-known/agent-card.json")  # one connection up; the rest open in the burst
        return await asyncio.gather(*(one(http, i) for i in range(callers)))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def park(url: str, count: int) -> None:
    limits = httpx.Limits(max_connections=count + 10)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:

        async def one() -> None:
            response = await http.post(url, content=body("hello"), headers=HEADERS)
            state = response.json()["result"]["task"]["status"]["state"]
            if state != "TASK_STATE_INPUT_REQUIRED":
                raise RuntimeError(f"a parked run ended {state}")

        await asyncio.gather(*(one() for _ in range(count)))


def rss_per_run(work: Path, one: Path, parked: Path) -> tuple[float, int, int]:
    """KB of server RSS per run parked at a question; the RSS before and after."""
    proc, urls = start_serve(work, one, parked, home="serve-home-memory")
    try:
        # Warm-up: imports, connections, both workflows a few times. Not a burst of hundreds: the memory freed
        # after it would be reused by the parked runs, and they would seem to cost nothing.
        asyncio.run(burst(urls["one-echo"], served=True, callers=5))
        asyncio.run(park(urls["parked"], 5))
        time.sleep(0.5)
        before = rss_kb(proc.pid)
        asyncio.run(park(urls["parked"], CALLERS))
        time.sleep(0.5)
        after = rss_kb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return (after - before) / CALLERS, before, after


def timed_burst(pid: int, url: str, *, served: bool, task: bool | None = None) -> tuple[list[float], float]:
    """One burst: every caller's seconds, and the CPU seconds the serving process `pid` spent per call."""
    before = cpu_of(pid)
    seconds = asyncio.run(burst(url, served=served, task=task))
    return seconds, (cpu_of(pid) - before) / CALLERS


def main(quick: bool = False) -> list[Row]:
    rounds = 3 if quick else 7
    work = CACHE / "serve"
    work.mkdir(parents=True, exist_ok=True)
    demo, direct_url = start_echo(work)
    try:
        one, parked = write_workflows(work, work / "agents.yaml")
        proc, urls = start_serve(work, one)
        floor_proc, floor_url = start_floor(direct_url)
        six_proc, six_url = start_floor(direct_url, "--six")  # the floor publishing a served run's six events
        try:
            served_url = urls["one-echo"]
            # name -> (url, pid of the serving process, served, answer is a task)
            kinds = {
                "served": (served_url, proc.pid, True, True),
                "floor": (floor_url, floor_proc.pid, False, True),
                "floor6": (six_url, six_proc.pid, False, True),
                "direct": (direct_url, demo.pid, False, False),
            }
            for url, pid, served, task in kinds.values():  # warm-up
                timed_burst(pid, url, served=served, task=task)
            seconds: dict[str, list[list[float]]] = {k: [] for k in kinds}
            cpu: dict[str, list[float]] = {k: [] for k in kinds}
            for _ in range(rounds):
                for name, (url, pid, served, task) in kinds.items():
                    took, per_call = timed_burst(pid, url, served=served, task=task)
                    seconds[name].append(took)
                    cpu[name].append(per_call)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            for floor in (floor_proc, six_proc):
                floor.stdin.close()
                floor.wait(timeout=30)
        per_run, before, after = rss_per_run(work, one, parked)
    finally:
        demo.terminate()
        demo.wait(timeout=15)
    cpu_ms = {k: [1000 * c for c in v] for k, v in cpu.items()}
    paired = statistics.median(s / f for s, f in zip(cpu["served"], cpu["floor"], strict=True))
    rows = [
        Row(
            "serve CPU per call",
            "CPU ms",
            statistics.median(cpu_ms["served"]),
            floor=statistics.median(cpu_ms["floor"]),
            floor_name="SDK server + 1 httpx call",
            higher_is_better=False,
            goal=f"<= {GOAL_CPU:g}x floor",
            met=paired <= GOAL_CPU,
            notes=[
                f"{rounds} rounds of {CALLERS} concurrent calls; the serving process's CPU (user+sys) per call, ms: "
                + "; ".join(f"{k} {', '.join(f'{x:.1f}' for x in v)}" for k, v in cpu_ms.items()),
                f"served / floor per round, median: {paired:.2f}x (the goal's measure)",
                "floor6: the floor publishing the six events a served one-step run publishes (task, three working "
                "statuses, the artifact, completed) through the same SDK machinery, without the run: "
                f"{statistics.median(cpu_ms['floor6']):.1f} ms",
            ],
        )
    ]
    for name, q in (("p50", 0.50), ("p95", 0.95)):
        per_round = {k: [quantile(r, q) * 1000 for r in v] for k, v in seconds.items()}
        ours_ms, floor_ms = statistics.median(per_round["served"]), statistics.median(per_round["floor"])
        rows.append(
            Row(
                f"serve {CALLERS} callers {name}",
                "ms",
                ours_ms,
                floor=floor_ms,
                floor_name="SDK server + 1 httpx call",
                higher_is_better=False,
                notes=[
                    f"{rounds} rounds of {CALLERS} concurrent blocking SendMessage; {name} (ms) "
                    + "; ".join(f"{k} {', '.join(f'{x:.0f}' for x in v)}" for k, v in per_round.items()),
                    f"direct to echo, median {statistics.median(per_round['direct']):.0f} ms",
                ],
            )
        )
    rows.append(
        Row(
            "serve RSS per run in flight",
            "KB",
            per_run,
            higher_is_better=False,
            notes=[f"{CALLERS} runs parked at a question: server RSS {before / 1024:.1f} -> {after / 1024:.1f} MB"],
        )
    )
    return rows


if __name__ == "__main__":
    run_standalone(main, "serve")
