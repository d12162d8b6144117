"""Many runs: `switchboard runs list` and the Workflows tab's first paint at 10,000 journals, before and after
the run index.

python bench/runs_index.py [--quick] [--runs N] [--before REV]

Makes N journals (default 10,000; --quick 2,000) shaped like a run of examples/workflows/briefing.yaml (four
steps, about 130 records, 55 KB: the writer's ~100 streamed chunks are most of it), with a mix of endings
(completed, failed, awaiting input, interrupted), under bench/.cache/runs-N/ (kept between runs). Then times,
in fresh processes, this checkout's `runs list --limit 20` (the index warm), the same filtered, the index
rebuilt from nothing, and the tab (F3 pressed in a headless app until the first run row is on screen; its
floor is the same tab over no runs at all),
each beside the same in the code before the index (`git archive REV src`, default the commit this branch
started from): the ratio is before / after.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from io import BytesIO
from pathlib import Path

from common import CACHE, ROOT, Row, run_standalone

BEFORE = "0972609"  # the last commit whose `runs list` read every journal whole
GOAL = 0.3  # seconds


def _line(record: dict) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _stamp(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch * 1000) % 1000:03d}Z"


def journal_bytes(run_id: str, started: float, ending: str) -> bytes:
    """One briefing-shaped journal: research, convert and draft at once, then combine."""
    at = iter(started + i * 0.04 for i in range(1000))
    steps = [
        {"name": "research", "type": "a2a", "agent": "researcher", "dependsOn": []},
        {"name": "convert", "type": "a2a", "agent": "legacy", "dependsOn": []},
        {"name": "draft", "type": "a2a", "agent": "writer", "dependsOn": []},
        {"name": "combine", "type": "a2a", "agent": "echo", "dependsOn": ["research", "convert", "draft"]},
    ]
    out = [
        _line(
            {
                "type": "RunStarted",
                "at": _stamp(next(at)),
                "runId": run_id,
                "workflow": "briefing",
                "file": str(ROOT / "examples" / "workflows" / "briefing.yaml"),
                "digest": "0" * 64,
                "inputs": {"topic": "solar sails", "distance": "10 km"},
                "pid": 4242,
                "steps": steps,
            }
        )
    ]
    tasks = {s["name"]: str(uuid.uuid4()) for s in steps}
    contexts = {s["name"]: str(uuid.uuid4()) for s in steps}

    def requested(name: str, text: str) -> None:
        out.append(
            _line(
                {
                    "type": "StepRequested",
                    "at": _stamp(next(at)),
                    "step": name,
                    "attempt": 1,
                    "agent": next(s["agent"] for s in steps if s["name"] == name),
                    "correlationId": f"{run_id}:delegate:{name}",
                    "messageId": str(uuid.uuid4()),
                    "input": text,
                }
            )
        )

    def event(name: str, body: dict) -> None:
        out.append(_line({"type": "StepEvent", "at": _stamp(next(at)), "step": name, "event": body}))

    def status(name: str, state: str, text: str) -> None:
        message = {
            "messageId": str(uuid.uuid4()),
            "contextId": contexts[name],
            "taskId": tasks[name],
            "role": "ROLE_AGENT",
            "parts": [{"text": text}],
        }
        update = {"taskId": tasks[name], "contextId": contexts[name], "status": {"state": state, "message": message}}
        event(name, {"statusUpdate": update})

    def completed(name: str, output: str) -> None:
        out.append(
            _line(
                {
                    "type": "StepCompleted",
                    "at": _stamp(next(at)),
                    "step": name,
                    "taskId": tasks[name],
                    "contextId": contexts[name],
                    "state": "completed",
                    "output": output,
                }
            )
        )

    for name, text in (("research", "quick: solar sails"), ("convert", "10 km to mi"), ("draft", "solar sails pace 5")):
        requested(name, text)
    status("convert", "TASK_STATE_COMPLETED", "10 km = 6.21371 mi")
    completed("convert", "10 km = 6.21371 mi")
    status("draft", "TASK_STATE_WORKING", "outlining: solar sails")
    chunk = "Solar sails ride the pressure of sunlight: a thin reflective film, kilometres wide, pushed by photons. "
    chunk *= 2
    for n in range(100):
        update = {
            "taskId": tasks["draft"],
            "contextId": contexts["draft"],
            "artifact": {"artifactId": "draft", "name": "draft.md", "parts": [{"text": f"{n}. {chunk}\n"}]},
            "append": n > 0,
            "lastChunk": n == 99,
        }
        event("draft", {"artifactUpdate": update})
    status("draft", "TASK_STATE_COMPLETED", "done")
    completed("draft", "# Solar sails\n\n" + chunk * 4)
    for second in range(1, 6):
        status("research", "TASK_STATE_WORKING", f"reading source {second} of 5")
    if ending == "interrupted":
        return b"".join(out)
    if ending == "failed":
        out.append(
            _line(
                {
                    "type": "StepFailed",
                    "at": _stamp(next(at)),
                    "step": "research",
                    "code": "EXPECT_FAILED",
                    "error": "the output does not contain 'sources'",
                    "taskId": tasks["research"],
                    "retrying": False,
                }
            )
        )
        skipped = {"type": "StepSkipped", "at": _stamp(next(at)), "step": "combine", "reason": "research failed"}
        out.append(_line(skipped))
        out.append(_line({"type": "RunFailed", "at": _stamp(next(at)), "status": "failed", "outputs": {}}))
        return b"".join(out)
    status("research", "TASK_STATE_COMPLETED", "Research on solar sails: 4 sources found, report attached.")
    completed("research", "Research on solar sails: 4 sources found, report attached.")
    requested("combine", "Briefing on solar sails.")
    if ending == "awaiting_input":
        status("combine", "TASK_STATE_INPUT_REQUIRED", "Which audience?")
        question = {
            "type": "AwaitingInput",
            "at": _stamp(next(at)),
            "step": "combine",
            "state": "input-required",
            "question": [{"text": "Which audience?"}],
            "taskId": tasks["combine"],
            "contextId": contexts["combine"],
            "correlationId": f"{run_id}:delegate:combine",
        }
        out.append(_line(question))
        ended = {"type": "RunAwaitingInput", "at": _stamp(next(at)), "status": "awaiting_input", "outputs": {}}
        out.append(_line({**ended, "waiting": ["combine"]}))
        return b"".join(out)
    status("combine", "TASK_STATE_COMPLETED", "echo: Briefing on solar sails.")
    completed("combine", "echo: Briefing on solar sails.")
    end = {"type": "RunCompleted", "at": _stamp(next(at)), "status": "completed"}
    out.append(_line({**end, "outputs": {"brief": "echo: Briefing on solar sails."}}))
    return b"".join(out)


def make_journals(directory: Path, count: int) -> Path:
    """`count` journals in `directory` (made once: kept when the count is already there)."""
    if directory.is_dir() and len(list(directory.glob("*.jsonl"))) == count:
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    start = time.time() - count * 60
    endings = ["completed"] * 85 + ["failed"] * 7 + ["awaiting_input"] * 5 + ["interrupted"] * 3
    for n in range(count):
        started = start + n * 60
        run_id = time.strftime("%Y%m%dT%H%M%S", time.gmtime(started)) + f"-{n:06x}"
        (directory / f"{run_id}.jsonl").write_bytes(journal_bytes(run_id, started, endings[n % len(endings)]))
    return directory


def before_src(rev: str) -> Path:
    """The src/ tree of `rev`, unpacked once under bench/.cache."""
    target = CACHE / f"src-{rev}"
    if not (target / "switchboard").is_dir():
        archive = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, capture_output=True, check=True).stdout
        shutil.rmtree(target, ignore_errors=True)
        with tempfile.TemporaryDirectory() as tmp, tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
            shutil.move(str(Path(tmp) / "src"), target)
        shutil.copytree(ROOT / "themes", target / "switchboard" / "themes")  # package data, as a wheel has it
    return target


def _env(home: Path, src: Path) -> dict[str, str]:
    env = dict(os.environ, SWITCHBOARD_HOME=str(home), PYTHONPATH=str(src), TEXTUAL_ANIMATIONS="none")
    env.pop("SWITCHBOARD_DATA", None)
    return env


def time_cli(home: Path, src: Path, *argv: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "switchboard", *argv], env=_env(home, src), capture_output=True, text=True, timeout=600
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"switchboard {' '.join(argv)} failed: {done.stderr}")
    return took, done.stdout


TAB_PROBE = """
import asyncio, json, sys, time
from pathlib import Path
from switchboard.tui.app import SwitchboardApp

async def main():
    app = SwitchboardApp(Path(sys.argv[1]) / "agents.yaml", steady=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        started = time.perf_counter()
        await pilot.press("f3")
        shown = time.perf_counter() - started
        table = app.screen.query_one("#runs-table")
        def empty_shown():
            return sys.argv[2] == "empty" and "no runs" in str(app.screen.query_one("#runs-note").render())

        while table.row_count == 0 and not empty_shown():
            await asyncio.sleep(0.002)
        await pilot.pause()
        painted = time.perf_counter() - started
        print(json.dumps({"shown": shown, "painted": painted, "rows": table.row_count}))

asyncio.run(main())
"""


def time_tab(home: Path, src: Path, *, rows: bool = True) -> dict:
    """F3 to the first run row on screen (rows=False: to the tab with its empty runs table, the floor)."""
    done = subprocess.run(
        [sys.executable, "-c", TAB_PROBE, str(home), "rows" if rows else "empty"],
        env=_env(home, src),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the tab probe failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _median(values: list[float]) -> float:
    return statistics.median(values)


def main(quick: bool = False, runs: int | None = None, before: str = BEFORE) -> list[Row]:
    count = runs or (2000 if quick else 10_000)
    rounds, before_rounds = (3, 1) if quick else (5, 2)
    home = CACHE / f"runs-home-{count}"
    journals = make_journals(home / "data" / "runs", count)
    index = journals / "index.sqlite3"
    ours, old = ROOT / "src", before_src(before)
    size = sum(p.stat().st_size for p in journals.glob("*.jsonl")) / count / 1024

    # The index from nothing (what the first list after an upgrade pays, once).
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    rebuild, _ = time_cli(home, ours, "runs", "list", "--limit", "20")
    floor = _median([time_cli(home, ours, "--help")[0] for _ in range(rounds)])

    after, after_filtered, before_list = [], [], []
    for _ in range(rounds):
        after.append(time_cli(home, ours, "runs", "list", "--limit", "20")[0])
        after_filtered.append(time_cli(home, ours, "runs", "list", "--limit", "20", "--status", "awaiting-input")[0])
    _, listed = time_cli(home, ours, "runs", "list", "--waiting", "-o", "json")
    waiting = json.loads(listed)["total"]
    for _ in range(before_rounds):
        before_list.append(time_cli(home, old, "runs", "list", "--limit", "20")[0])

    # One journal grows (a run going on): the next list folds only its new lines.
    newest = max(journals.glob("*.jsonl"))
    saved = newest.read_bytes()
    grew = []
    try:
        for n in range(rounds):
            with open(newest, "ab") as handle:
                handle.write(_line({"type": "RunResumed", "at": _stamp(time.time()), "pid": n}))
            grew.append(time_cli(home, ours, "runs", "list", "--limit", "20")[0])
    finally:
        newest.write_bytes(saved)
        time_cli(home, ours, "runs", "list", "--limit", "1")

    empty = CACHE / "runs-home-0"
    (empty / "data" / "runs").mkdir(parents=True, exist_ok=True)
    tab_after = [time_tab(home, ours) for _ in range(rounds)]
    tab_empty = [time_tab(empty, ours, rows=False) for _ in range(rounds)]
    tab_before = [time_tab(home, old) for _ in range(before_rounds)]

    label = f"{count:,} runs"
    goal = f"< {GOAL} s"
    rows = [
        Row(
            f"runs list --limit 20, {label}",
            "seconds",
            _median(after),
            _median(before_list),
            floor,
            peer_name=f"before ({before})",
            floor_name="--help",
            higher_is_better=False,
            goal=goal,
            met=_median(after) < GOAL,
            notes=[
                f"journals of {size:.0f} KB each; after {[round(x, 3) for x in after]}, "
                f"before {[round(x, 2) for x in before_list]}",
                f"index built from nothing on the first list: {rebuild:.2f} s (once)",
            ],
        ),
        Row(
            f"runs list --status awaiting-input, {label}",
            "seconds",
            _median(after_filtered),
            _median(before_list),
            floor,
            peer_name="before (no filter)",
            floor_name="--help",
            higher_is_better=False,
            goal=goal,
            met=_median(after_filtered) < GOAL,
            notes=[f"{waiting} runs wait for input; samples {[round(x, 3) for x in after_filtered]}"],
        ),
        Row(
            f"runs list, one journal grew, {label}",
            "seconds",
            _median(grew),
            _median(before_list),
            floor,
            peer_name=f"before ({before})",
            floor_name="--help",
            higher_is_better=False,
            goal=goal,
            met=_median(grew) < GOAL,
            notes=[f"samples {[round(x, 3) for x in grew]}"],
        ),
        Row(
            f"Workflows tab first rows, {label}",
            "seconds",
            _median([t["painted"] for t in tab_after]),
            _median([t["painted"] for t in tab_before]),
            _median([t["painted"] for t in tab_empty]),
            peer_name=f"before ({before})",
            floor_name="no runs",
            higher_is_better=False,
            goal=goal,
            met=_median([t["painted"] for t in tab_after]) < GOAL,
            notes=[
                "F3 pressed in a headless app (Pilot) until the first run row is on screen; "
                f"after {[round(t['painted'], 3) for t in tab_after]}, "
                f"before {[round(t['painted'], 2) for t in tab_before]}",
                f"the tab itself shown (the key handled) after {[round(t['shown'], 3) for t in tab_after]} s, "
                f"before {[round(t['shown'], 2) for t in tab_before]} s; rows held: "
                f"{tab_after[0]['rows']} after, {tab_before[0]['rows']} before",
            ],
        ),
    ]
    return rows


if __name__ == "__main__":
    args = sys.argv[1:]
    count = int(args[args.index("--runs") + 1]) if "--runs" in args else None
    rev = args[args.index("--before") + 1] if "--before" in args else BEFORE

    def run(quick: bool = False) -> list[Row]:
        return main(quick, count, rev)

    run_standalone(run, "runs_index")
