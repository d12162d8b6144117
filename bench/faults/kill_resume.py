"""kill -9 of a real `switchboard run` at random points, then `--resume`, many trials.

    .venv/bin/python bench/faults/kill_resume.py [--quick] [--seed N] [--trials N]

Each trial starts `switchboard run` on a workflow with fan-out and slow steps against the demo fleet
(official a2a-sdk servers), SIGKILLs it after a random delay, then resumes it, and may kill the resumed
process too (up to three kills), until a resume runs to the end. Afterwards every delegate is counted where
it runs: the tasks each agent holds whose first message carries the step's correlation id (ListTasks).
Tally: trials, completed, double-invoked (a delegate with more than one task), missing (a completed step
with no task), unreadable journals (the journal or `runs show` cannot be read), torn lines (a partial last
record left by a kill, skipped by the reader). tests/workflow/test_workflow_kill_resume.py holds the
deterministic version.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from common import ROOT, Row, env_with_src, run_standalone  # noqa: E402

from switchboard.a2a.client import connect  # noqa: E402
from switchboard.demo.base import DemoSettings  # noqa: E402
from switchboard.demo.fleet import BackgroundFleet, start_in_background  # noqa: E402
from switchboard.workflow.runs import read_records  # noqa: E402

TRIALS = 30
FIRST_KILL_WITHIN = 6.0  # seconds; an undisturbed run takes about 7 s at these settings
MAX_KILLS = 3
SETTINGS = DemoSettings(writer_pace_ms=15, research_seconds=3.0, quick_research_seconds=1.0)
# Fan-out (four steps at once), slow steps (research ~3 s, a streamed draft ~2 s), a chain, and a fan-in.
WORKFLOW = """\
name: kill-trial
agents: [researcher, writer]
steps:
  - {name: research, agent: researcher, task: "the history of radio"}
  - {name: draft, agent: writer, task: "radio waves pace 15"}
  - {name: hello, agent: writer, task: "hello pace 1"}
  - {name: quick, agent: researcher, task: "quick: tides"}
  - {name: second, agent: researcher, dependsOn: [hello], task: "quick: more on {{steps.hello.task_id}}"}
  - name: combine
    agent: writer
    dependsOn: [research, draft, quick, second]
    task: "{{steps.research.state}} {{steps.draft.state}} {{steps.second.state}} pace 5"
"""
# Every delegate here makes a task (echo answers with a bare message, which the agent cannot list).
DELEGATES = {
    "research": "researcher",
    "draft": "writer",
    "hello": "writer",
    "quick": "researcher",
    "second": "researcher",
    "combine": "writer",
}


@dataclass
class Trial:
    seed: int
    kills: list[float] = field(default_factory=list)  # seconds after each start at which it was killed
    points: list[str] = field(default_factory=list)  # the journal's last record at each kill
    before_journal: int = 0  # kills that came before the run's journal existed (the run starts anew)
    completed: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    torn: int = 0
    unreadable: bool = False
    problem: str = ""
    seconds: float = 0.0

    @property
    def double(self) -> bool:
        return any(n > 1 for n in self.counts.values())

    @property
    def missing(self) -> bool:
        return self.completed and any(n == 0 for n in self.counts.values())


def _arg(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def _env(home: Path) -> dict[str, str]:
    env = env_with_src()
    env["SWITCHBOARD_HOME"] = str(home)
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD"):
        env.pop(name, None)
    return env


def _cli(agents_file: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "switchboard", "--agents", str(agents_file), *args]


def _journals(home: Path) -> list[Path]:
    directory = home / "data" / "runs"
    return sorted(directory.glob("*.jsonl")) if directory.is_dir() else []


def _start(home: Path, agents_file: Path, args: list[str], log: Path) -> subprocess.Popen:
    with log.open("ab") as sink:
        return subprocess.Popen(
            _cli(agents_file, *args),
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=sink,
            env=_env(home),
            cwd=ROOT,
        )


def _kill_after(process: subprocess.Popen, delay: float) -> bool:
    """SIGKILL the process after `delay` s; False when it ended by itself first."""
    try:
        process.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        pass
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    return True


async def _count(url: str, correlation_id: str) -> int:
    async with await connect(url) as client:
        found, token = 0, None
        while True:
            page = await client.list_tasks(page_size=100, page_token=token, history_length=100)
            for task in page.tasks:
                if correlation_id in {(m.metadata or {}).get("correlationId") for m in task.history or []}:
                    found += 1
            token = page.next_page_token
            if not token:
                return found


def _trial(seed: int, fleet: BackgroundFleet, agents_file: Path, workflow: Path, root: Path) -> Trial:
    rng = random.Random(seed)
    trial = Trial(seed)
    home = root / f"home-{seed}"
    log = root / f"log-{seed}.txt"
    started = time.perf_counter()
    run_id: str | None = None
    process = _start(home, agents_file, ["run", str(workflow)], log)
    delay = rng.uniform(0.05, FIRST_KILL_WITHIN)
    try:
        while True:
            killed = len(trial.kills) < MAX_KILLS and _kill_after(process, delay)
            if not killed:
                rc = process.wait(timeout=180)
                break
            trial.kills.append(round(delay, 2))
            journals = _journals(home)
            if not journals:  # killed before the run began: nothing was invoked, start it anew
                trial.before_journal += 1
                process = _start(home, agents_file, ["run", str(workflow)], log)
                delay = rng.uniform(0.05, FIRST_KILL_WITHIN)
                continue
            run_id = journals[0].stem
            records, skipped = read_records(journals[0])
            trial.torn += skipped
            last = records[-1] if records else {"type": "(empty)"}
            trial.points.append(f"{last['type']}({last['step']})" if last.get("step") else last["type"])
            if last["type"] == "RunCompleted":  # killed on its way out: nothing left to resume
                rc = 0
                break
            process = _start(home, agents_file, ["run", "--resume", run_id], log)
            # Kill the resumed process too, sometimes; the last one is always let run to the end.
            delay = rng.uniform(0.05, 4.0) if rng.random() < 0.4 else 3600.0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    journals = _journals(home)
    if not journals:
        trial.problem = f"no journal; exit {rc}"
        return trial
    run_id = journals[0].stem
    try:
        records, skipped = read_records(journals[0])
        shown = subprocess.run(
            _cli(agents_file, "runs", "show", run_id, "-o", "json"),
            capture_output=True,
            text=True,
            env=_env(home),
            cwd=ROOT,
            timeout=60,
        )
        state = json.loads(shown.stdout)["run"]["status"] if shown.returncode == 0 else None
    except (OSError, ValueError, KeyError) as exc:
        trial.unreadable = True
        trial.problem = f"journal unreadable: {exc}"
        return trial
    trial.torn += skipped
    completed_steps = {r["step"] for r in records if r["type"] == "StepCompleted"}
    trial.completed = rc == 0 and state == "completed" and completed_steps == set(DELEGATES)
    if not trial.completed:
        trial.problem = f"exit {rc}, state {state}, completed {sorted(completed_steps)}; see {log}"
    for step, agent in DELEGATES.items():
        url = fleet.agent(agent).url
        trial.counts[step] = asyncio.run(_count(url, f"{run_id}:delegate:{step}"))
    trial.seconds = time.perf_counter() - started
    return trial


def main(quick: bool = False) -> list[Row]:
    trials = _arg("--trials", 3 if quick else TRIALS)
    base_seed = _arg("--seed", int(time.time()) % 1_000_000)
    with tempfile.TemporaryDirectory(prefix="kill-resume-") as tmp:
        root = Path(tmp)
        agents_file = root / "agents.yaml"
        fleet = start_in_background(first_port=0, settings=SETTINGS, agents_file=agents_file)
        try:
            workflow = root / "kill-trial.yaml"
            workflow.write_text(WORKFLOW)
            results: list[Trial] = []
            seed = base_seed
            # Trials until `trials` of them were really killed (a run may finish before its kill comes).
            while sum(1 for t in results if t.kills) < trials and len(results) < 2 * trials:
                trial = _trial(seed, fleet, agents_file, workflow, root)
                seed += 1
                results.append(trial)
                print(
                    f"  trial {len(results)} seed {trial.seed}: kills at {trial.kills} s after {trial.points}, "
                    f"completed {trial.completed}, invocations {trial.counts}, torn {trial.torn}"
                    + (f", {trial.problem}" if trial.problem else ""),
                    file=sys.stderr,
                    flush=True,
                )
        finally:
            fleet.stop()
    unkilled = [t for t in results if not t.kills]
    results = [t for t in results if t.kills]
    tally = {
        "trials": len(results),
        "runs not killed (not counted)": len(unkilled),
        "kills": sum(len(t.kills) for t in results),
        "killed twice or more": sum(1 for t in results if len(t.kills) >= 2),
        "kills before the journal": sum(t.before_journal for t in results),
        "completed": sum(1 for t in results if t.completed),
        "double-invoked": sum(1 for t in results if t.double),
        "missing": sum(1 for t in results if t.missing),
        "unreadable journals": sum(1 for t in results if t.unreadable),
        "torn lines skipped": sum(t.torn for t in results),
    }
    print(f"\nkill -9 / --resume tally (base seed {base_seed}):")
    for name, value in tally.items():
        print(f"  {name:26} {value}")
    print()
    ok = tally["completed"] == len(results) and not (
        tally["double-invoked"] or tally["missing"] or tally["unreadable journals"]
    )
    return [
        Row(
            "kill -9 then --resume",
            "% runs completed, each delegate once",
            100.0 * sum(1 for t in results if t.completed and not t.double and not t.missing) / max(1, len(results)),
            goal="100%, 0 double, 0 unreadable",
            met=ok,
            notes=[", ".join(f"{k} {v}" for k, v in tally.items())],
        )
    ]


if __name__ == "__main__":
    run_standalone(main, "kill_resume")
