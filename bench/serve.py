"""Serve: a one-step workflow over the demo `echo` agent, served by `switchboard serve`, called by 200 callers at
once, beside 200 callers calling `echo` directly; and the memory a run in flight costs the server.

Both servers run in child processes (`switchboard demo --port 0`, `switchboard serve --port 0`). Each caller
sends one blocking SendMessage (raw httpx, one pooled client with room for every caller) and times its own
answer: for the served workflow that is a whole run (journal, the delegate's call to echo, the outputs), for
the direct one echo's reply. Rounds alternate between the two; p50 and p95 are per round, medians over rounds.

Memory: a fresh server, warmed up with a few runs (not hundreds, whose freed memory the next runs would reuse),
then 200 runs parked at a question (a step on the demo
`interviewer`, which asks and waits): the server's RSS growth over 200 is the RSS per run in flight.
"""

from __future__ import annotations

import asyncio
import json
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
GOAL_P50 = 1.5  # served p50 within this factor of direct
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


async def burst(url: str, *, served: bool, callers: int = CALLERS) -> list[float]:
    """Every caller's seconds, all sent at once; each answer checked."""
    limits = httpx.Limits(max_connections=callers + 10, max_keepalive_connections=callers + 10)

    async def one(http: httpx.AsyncClient, i: int) -> float:
        payload = body(f"caller {i}", data={"text": f"caller {i}"} if served else None)
        started = time.perf_counter()
        response = await http.post(url, content=payload, headers=HEADERS)
        elapsed = time.perf_counter() - started
        result = response.json().get("result", {})
        if served:
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


def main(quick: bool = False) -> list[Row]:
    rounds = 3 if quick else 7
    work = CACHE / "serve"
    work.mkdir(parents=True, exist_ok=True)
    demo, direct_url = start_echo(work)
    try:
        one, parked = write_workflows(work, work / "agents.yaml")
        proc, urls = start_serve(work, one)
        try:
            served_url = urls["one-echo"]
            asyncio.run(burst(served_url, served=True))  # warm-up
            asyncio.run(burst(direct_url, served=False))
            served, direct = [], []
            for _ in range(rounds):
                served.append(asyncio.run(burst(served_url, served=True)))
                direct.append(asyncio.run(burst(direct_url, served=False)))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        per_run, before, after = rss_per_run(work, one, parked)
    finally:
        demo.terminate()
        demo.wait(timeout=15)
    rows = []
    for name, q, goal in (("p50", 0.50, GOAL_P50), ("p95", 0.95, None)):
        ours = [quantile(r, q) * 1000 for r in served]
        floor = [quantile(r, q) * 1000 for r in direct]
        ours_ms, floor_ms = statistics.median(ours), statistics.median(floor)
        paired = statistics.median(o / f for o, f in zip(ours, floor, strict=True))
        rows.append(
            Row(
                f"serve {CALLERS} callers {name}",
                "ms",
                ours_ms,
                floor=floor_ms,
                floor_name="direct echo",
                higher_is_better=False,
                goal=f"<= {goal}x direct" if goal else "",
                met=(ours_ms <= goal * floor_ms) if goal else None,
                notes=[
                    f"{rounds} rounds of {CALLERS} concurrent blocking SendMessage; served {name} (ms) "
                    f"{', '.join(f'{x:.0f}' for x in ours)}; direct {', '.join(f'{x:.0f}' for x in floor)}",
                    f"served / direct = {ours_ms / floor_ms:.2f}; median of each round's ratio: {paired:.2f}",
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
