"""Scale out: 1,000 runs of "one echo step, then a step waiting for input" on a Temporal dev server with two
workers, beside the same 1,000 on the local runner.

python bench/temporal_scale.py [--quick] [--runs N]

Measured, for each runner: the time to start every run, the time until every run waits for its answer,
`switchboard runs list --status awaiting-input --limit 50` (a fresh process: goal under 1 s), and the time
to answer every question (the interviewer asks two) until every run completed. Also the dev server's
start-up and the per-step overhead of a Temporal run (a one-echo-step run, start to result, minus the same
step run locally). The demo fleet runs in its own process; the Temporal runs' client is this process.
Local runs are driven the way `switchboard run` drives them (start_run, then resume_run with the answers).

The floor (temporal_floor.py): a bare temporalio workflow running one no-op activity, on two workers of its own
on the same dev server. Goals: the per-step overhead within 1.5x the bare workflow's round trip (one-step runs
alternate, ours and the bare one); every run waiting within 2x the local runner; starting every run within 1.5x
of starting as many bare workflows, with as many starts in flight (START_AT_ONCE): bounded by the server, not by
our client. `--quick` runs 200 (`--runs N`: N); `make bench` runs 1,000.
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

from common import CACHE, Row, env_with_src, run_standalone
from temporal_floor import WORKFLOW as FLOOR_WORKFLOW

HERE = Path(__file__).resolve().parent
FLOOR_QUEUE = "bench-floor"
SINGLES = 7  # one-step runs timed, each runner (after one warm-up)
START_AT_ONCE = 200  # runs being started at the same time, ours and the floor's
GOAL_STEP = 1.5  # the Temporal runner's per-step overhead within this factor of the bare activity round trip
GOAL_WAITING = 2.0  # every run waiting within this factor of the local runner's time
GOAL_START = 1.5  # starting every run within this factor of starting as many bare workflows (server-bound)

KEY = "m8Yk1wJ2q9nC4vT7xZ0aB3dE6fH9jK2mN5pQ8sU1wX4="
WAIT = """\
version: 1
name: echo-then-ask
inputs:
  n: {required: true}
agents: [echo, interviewer]
steps:
  - name: hello
    agent: echo
    task: "hello {{inputs.n}}"
  - name: ask
    agent: interviewer
    dependsOn: [hello]
    task: "interview {{inputs.n}}"
outputs:
  summary: "{{steps.ask.output}}"
"""
ONE = """\
version: 1
name: one-echo
agents: [echo]
steps:
  - name: hello
    agent: echo
    task: hello
outputs:
  said: "{{steps.hello.output}}"
"""


def start_fleet(work: Path) -> tuple[subprocess.Popen, Path]:
    agents_file = work / "agents.yaml"
    agents_file.unlink(missing_ok=True)
    env = env_with_src() | {"SWITCHBOARD_HOME": str(work / "fleet-home")}
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
    return proc, agents_file


def cli_seconds(env: dict[str, str], *argv: str) -> tuple[float, dict]:
    started = time.perf_counter()
    argv = (*argv, "-o", "json")
    done = subprocess.run([sys.executable, "-m", "switchboard", *argv], env=env, capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return took, json.loads(done.stdout)


def floor_seconds(env: dict[str, str], code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - started


async def gather_limited(coros, limit: int = 50):
    gate = asyncio.Semaphore(limit)

    async def one(coro):
        async with gate:
            return await coro

    return await asyncio.gather(*(one(c) for c in coros))


async def until(predicate, every: float = 0.1, timeout: float = 1800) -> float:
    started = time.perf_counter()
    while not await predicate():
        if time.perf_counter() - started > timeout:
            raise TimeoutError
        await asyncio.sleep(every)
    return time.perf_counter() - started


async def history_kinds(client, workflow_id: str) -> dict[str, int]:
    """How many events of each type the history of `workflow_id` holds (EVENT_TYPE_ prefix dropped)."""
    from temporalio.api.enums.v1 import EventType

    history = await client.get_workflow_handle(workflow_id).fetch_history()
    counts: dict[str, int] = {}
    for event in history.events:
        name = EventType.Name(event.event_type).removeprefix("EVENT_TYPE_")
        counts[name] = counts.get(name, 0) + 1
    return counts


async def temporal_side(work: Path, agents_file: Path, count: int, env: dict[str, str]) -> dict:
    from temporalio.client import Client

    from switchboard.agents import load_agents
    from switchboard.workflow.loader import load_workflow
    from switchboard.workflow.temporal import client as runs
    from switchboard.workflow.temporal.dev import start_dev_server

    server = start_dev_server(db_filename=work / "temporal.db")
    startups = [server.started_in]
    workers: list[subprocess.Popen] = []
    try:
        for n in range(2):
            log = open(work / f"worker-{n}.log", "w")  # noqa: SIM115
            argv = [
                sys.executable,
                "-m",
                "switchboard",
                "worker",
                "--temporal",
                server.address,
                "--task-queue",
                "bench",
            ]
            workers.append(subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT))
        for n in range(2):  # the floor's two workers: bare temporalio, the same server, a queue of their own
            log = open(work / f"floor-worker-{n}.log", "w")  # noqa: SIM115
            argv = [sys.executable, str(HERE / "temporal_floor.py"), "worker", server.address, FLOOR_QUEUE]
            workers.append(subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT))
        logs = [work / f"worker-{n}.log" for n in range(2)] + [work / f"floor-worker-{n}.log" for n in range(2)]
        while not all("worker serving" in log.read_text() for log in logs):
            if any(w.poll() is not None for w in workers):
                raise RuntimeError(f"a worker exited: {[log.read_text()[-500:] for log in logs]}")
            time.sleep(0.05)
        client = await runs.connect(server.address, "default")
        bare = await Client.connect(server.address)  # the floor's client: the default converter, no codec
        registry = load_agents(agents_file)
        (work / "wait.yaml").write_text(WAIT)
        (work / "one.yaml").write_text(ONE)
        wait_flow = load_workflow(work / "wait.yaml", registry)
        one_flow = load_workflow(work / "one.yaml", registry)

        async def bare_one(n: int) -> str:
            bare_id = f"bare-{uuid.uuid4()}"
            await bare.execute_workflow(FLOOR_WORKFLOW, n, id=bare_id, task_queue=FLOOR_QUEUE)
            return bare_id

        # Per-step overhead: one echo step, start to result, beside the bare workflow's one no-op activity, in
        # turn, a few times each (after a warm-up of each).
        singles, bare_singles = [], []
        for n in range(SINGLES + 1):
            started = time.perf_counter()
            run_id = await runs.start(client, one_flow, {}, task_queue="bench")
            await client.get_workflow_handle(run_id).result()
            if n:
                singles.append(time.perf_counter() - started)
            started = time.perf_counter()
            bare_id = await bare_one(n)
            if n:
                bare_singles.append(time.perf_counter() - started)
        # Where a step's round trips go: the history of the last one-step run of each, by event type.
        histories = {
            "ours": await history_kinds(client, run_id),
            "bare": await history_kinds(bare, bare_id),
        }

        started = time.perf_counter()
        ids = await gather_limited(
            [runs.start(client, wait_flow, {"n": str(n)}, task_queue="bench") for n in range(count)], START_AT_ONCE
        )
        start_all = time.perf_counter() - started

        async def waiting() -> bool:
            return (await client.count_workflows("SwitchboardState = 'awaiting_input'")).count >= count

        all_waiting = start_all + await until(waiting, 0.2)
        lists = [
            cli_seconds(
                env, "runs", "list", "--status", "awaiting-input", "--limit", "50", "--temporal", server.address
            )
            for _ in range(3)
        ]
        # The list's floor: a fresh interpreter importing the Temporal client, which any list of its runs needs.
        list_floor = [floor_seconds(env, "import temporalio.client") for _ in range(3)]

        async def answer_all(run_id: str) -> None:
            first = await runs.question(client, run_id, "ask", wait=120)
            await runs.answer(client, run_id, "ask", "Ada", first["askId"])
            second = await runs.question(client, run_id, "ask", after=first["askId"], wait=120)
            if second is not None:
                await runs.answer(client, run_id, "ask", "1", second["askId"])

        started = time.perf_counter()
        await gather_limited([answer_all(run_id) for run_id in ids], limit=20)

        async def completed() -> bool:
            query = "SwitchboardState = 'completed' AND SwitchboardWorkflow = 'echo-then-ask'"
            return (await client.count_workflows(query)).count >= count

        answer_all_s = time.perf_counter() - started + await until(completed, 0.2)

        # The floor at scale: `count` bare workflows started at once as ours were, then until all completed.
        started = time.perf_counter()
        handles = await gather_limited(
            [
                bare.start_workflow(FLOOR_WORKFLOW, n, id=f"bare-{uuid.uuid4()}", task_queue=FLOOR_QUEUE)
                for n in range(count)
            ],
            START_AT_ONCE,
        )
        bare_start_all = time.perf_counter() - started
        await asyncio.gather(*(h.result() for h in handles))
        bare_all_done = time.perf_counter() - started
        again = start_dev_server(db_filename=work / "temporal-2.db")
        startups.append(again.started_in)
        again.stop()
        return {
            "startup": startups,
            "single": singles,
            "start_all": start_all,
            "all_waiting": all_waiting,
            "list": [t for t, _ in lists],
            "list_floor": list_floor,
            "listed": lists[0][1]["total"],
            "answer_all": answer_all_s,
            "bare_single": bare_singles,
            "histories": histories,
            "bare_start_all": bare_start_all,
            "bare_all_done": bare_all_done,
        }
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait()
        server.stop()


async def local_side(work: Path, agents_file: Path, count: int, env: dict[str, str]) -> dict:
    from switchboard.a2a.http import new_http_client
    from switchboard.agents import load_agents
    from switchboard.workflow.engine import resume_run, start_run
    from switchboard.workflow.loader import load_workflow

    journals = work / "local-home" / "data" / "runs"
    shutil.rmtree(journals.parent.parent, ignore_errors=True)
    registry = load_agents(agents_file)
    (work / "wait.yaml").write_text(WAIT)
    (work / "one.yaml").write_text(ONE)
    wait_flow = load_workflow(work / "wait.yaml", registry)
    one_flow = load_workflow(work / "one.yaml", registry)
    async with new_http_client() as http:
        singles = []
        for n in range(6):
            started = time.perf_counter()
            run = start_run(one_flow, {}, http=http, journal_dir=journals)
            await run.wait()
            if n:
                singles.append(time.perf_counter() - started)
        started = time.perf_counter()
        live = [start_run(wait_flow, {"n": str(n)}, http=http, journal_dir=journals) for n in range(count)]
        start_all = time.perf_counter() - started
        statuses = await asyncio.gather(*(run.wait() for run in live))
        all_waiting = time.perf_counter() - started
        assert set(statuses) == {"awaiting_input"}, set(statuses)
        local_env = env | {"SWITCHBOARD_HOME": str(work / "local-home")}
        lists = [
            cli_seconds(local_env, "runs", "list", "--status", "awaiting-input", "--limit", "50") for _ in range(3)
        ]
        started = time.perf_counter()

        async def answer(run_id: str) -> str:
            run = resume_run(run_id, http=http, journal_dir=journals, answers={"ask": ["Ada", "1"]}, workflow=wait_flow)
            return await run.wait()

        done = await gather_limited([answer(run.run_id) for run in live])
        assert set(done) == {"completed"}, set(done)
        return {
            "single": singles,
            "start_all": start_all,
            "all_waiting": all_waiting,
            "list": [t for t, _ in lists],
            "listed": lists[0][1]["total"],
            "answer_all": time.perf_counter() - started,
        }


def main(quick: bool = False, runs: int | None = None) -> list[Row]:
    count = runs or (200 if quick else 1000)
    work = CACHE / "temporal-scale"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    os.environ["SWITCHBOARD_TEMPORAL_KEY"] = os.environ.get("SWITCHBOARD_TEMPORAL_KEY", KEY)
    fleet, agents_file = start_fleet(work)
    env = env_with_src() | {
        "SWITCHBOARD_HOME": str(work / "home"),
        "SWITCHBOARD_TEMPORAL_KEY": os.environ["SWITCHBOARD_TEMPORAL_KEY"],
    }
    try:
        remote = asyncio.run(temporal_side(work, agents_file, count, env))
        local = asyncio.run(local_side(work, agents_file, count, env))
    finally:
        fleet.terminate()
        fleet.wait()
    med = statistics.median
    label = f"{count:,} runs"
    (work / "result.json").write_text(json.dumps({"temporal": remote, "local": local}, indent=2))
    # Per-step overhead of the Temporal runner: its one-step run beyond the same step run locally, against the bare
    # workflow's whole round trip (one workflow task, one activity, the next workflow task). Singles alternate.
    overheads = [t - med(local["single"]) for t in remote["single"]]
    overhead_ratio = med(o / b for o, b in zip(overheads, remote["bare_single"], strict=True))
    start_ratio = remote["start_all"] / remote["bare_start_all"]
    waiting_ratio = remote["all_waiting"] / local["all_waiting"]
    return [
        Row(
            f"start {label}",
            "seconds",
            remote["start_all"],
            local["start_all"],
            floor=remote["bare_start_all"],
            peer_name="local",
            floor_name="bare temporalio starts",
            higher_is_better=False,
            goal=f"<= {GOAL_START:g}x floor",
            met=start_ratio <= GOAL_START,
            notes=[
                f"{START_AT_ONCE} starts in flight at a time, ours and the floor's, through one client each; "
                f"ours / floor {start_ratio:.2f}x: bounded by the server when near 1"
            ],
        ),
        Row(
            f"all {label} waiting",
            "seconds",
            remote["all_waiting"],
            local["all_waiting"],
            floor=remote["bare_all_done"],
            peer_name="local",
            floor_name="bare 1-activity runs done",
            higher_is_better=False,
            goal=f"<= {GOAL_WAITING:g}x local",
            met=waiting_ratio <= GOAL_WAITING,
            notes=[
                f"ours (echo, then the interviewer's question) / local {waiting_ratio:.2f}x; the floor: {count:,} bare "
                f"workflows of one no-op activity each, started at once, until every one completed"
            ],
        ),
        Row(
            f"runs list waiting, {label}",
            "seconds",
            med(remote["list"]),
            med(local["list"]),
            floor=med(remote["list_floor"]),
            peer_name="local",
            floor_name="import temporalio.client",
            higher_is_better=False,
            goal="< 1 s",
            met=med(remote["list"]) < 1.0,
            notes=[
                f"temporal {[round(x, 3) for x in remote['list']]} ({remote['listed']} waiting); "
                f"local {[round(x, 3) for x in local['list']]}"
            ],
        ),
        Row(
            f"answer all {label}",
            "seconds",
            remote["answer_all"],
            local["answer_all"],
            peer_name="local",
            higher_is_better=False,
        ),
        Row(
            "one-step run, start to result",
            "ms",
            med(remote["single"]) * 1000,
            med(local["single"]) * 1000,
            floor=med(remote["bare_single"]) * 1000,
            peer_name="local",
            floor_name="bare workflow, 1 no-op activity",
            higher_is_better=False,
            notes=[
                "runs, ms: temporal "
                + ", ".join(f"{1000 * x:.0f}" for x in remote["single"])
                + "; bare "
                + ", ".join(f"{1000 * x:.0f}" for x in remote["bare_single"])
                + "; local "
                + ", ".join(f"{1000 * x:.0f}" for x in local["single"]),
            ],
        ),
        Row(
            "Temporal per-step overhead",
            "ms",
            med(overheads) * 1000,
            floor=med(remote["bare_single"]) * 1000,
            floor_name="bare activity round trip",
            higher_is_better=False,
            goal=f"<= {GOAL_STEP:g}x floor",
            met=overhead_ratio <= GOAL_STEP,
            notes=[
                f"a one-step Temporal run minus the same step run locally ({med(local['single']) * 1000:.0f} ms), "
                f"against the bare workflow's whole run; per run in turn, median {overhead_ratio:.2f}x",
                *(
                    f"history of a one-step run, {who}: {sum(kinds.values())} events: "
                    + ", ".join(f"{k.lower()} {v}" for k, v in sorted(kinds.items()))
                    for who, kinds in remote["histories"].items()
                ),
            ],
        ),
        Row(
            "dev server start-up",
            "seconds",
            med(remote["startup"]),
            notes=[f"samples {[round(x, 3) for x in remote['startup']]}"],
        ),
    ]


if __name__ == "__main__":
    args = sys.argv[1:]
    count = int(args[args.index("--runs") + 1]) if "--runs" in args else None
    run_standalone(lambda quick=False: main(quick, count), "temporal_scale")
