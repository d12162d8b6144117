"""Load: many conversations plus a running workflow in one TUI session, for minutes.

One SwitchboardApp (headless, Textual's run_test) on the demo fleet, which runs in a child process so the
numbers are the TUI's own. Each round opens N conversation tabs at once — echo, writer, researcher and
interviewer in turn — sends each a message, answers the interviewer's two questions through its prompt pane,
cancels every other researcher, waits until every task has reached the state expected of it, and closes the
tabs. Meanwhile the briefing workflow (examples/workflows/briefing.yaml) runs in its own tab, again and again.

Measured: RSS every few seconds (flat = the growth from the end of the first round to the end stays under
RSS_GROWTH_BOUND_MB), event-loop lag p95 from a 10 ms timer in the app's loop, a key press per round handled
(f3 then f1 switch tabs), and the tally of tasks: final as expected, wrong final state, or not final.

    python bench/faults/load.py [--quick] [--seconds S] [--conversations N] [--default-gc]

The app's collector is tuned as the real start tunes it; --default-gc leaves Python's defaults (as tests do).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import ROOT, Row, env_with_src, run_standalone

DEFAULT_SECONDS = 180.0
QUICK_SECONDS = 30.0
DEFAULT_CONVERSATIONS = 50
RSS_EVERY = 2.0  # seconds between RSS samples
RSS_GROWTH_BOUND_MB = 40.0  # flat: end-of-run RSS minus end-of-first-round RSS stays under this
LAG_TICK = 0.010
ROUND_LIMIT = 300.0  # a round whose tasks are not all final by then is reported, not waited for
KINDS = ("echo", "writer", "researcher", "interviewer")
BRIEFING = ROOT / "examples" / "workflows" / "briefing.yaml"
ANSWERS = ("Ada", "test my own agent")

# The fleet in its own process: started with short research times, stopped when its stdin closes.
FLEET = r"""
import json, sys
from pathlib import Path
from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import start_in_background
settings = DemoSettings(writer_pace_ms=20, research_seconds=30.0, quick_research_seconds=3.0)
fleet = start_in_background(first_port=0, settings=settings, agents_file=Path(sys.argv[1]))
print(json.dumps(fleet.credential_env), flush=True)
sys.stdin.read()
fleet.stop()
"""


@dataclass
class Tally:
    rounds: int = 0
    tasks: int = 0  # conversations whose turn was sent
    final_as_expected: int = 0
    wrong_state: list[str] = field(default_factory=list)  # final, but not the state expected
    not_final: list[str] = field(default_factory=list)  # lost: never reached a final state
    canceled: int = 0  # researchers canceled on purpose, and seen canceled
    answered: int = 0  # interviewer questions answered in the prompt pane
    runs_started: int = 0
    runs_completed: int = 0
    runs_other: list[str] = field(default_factory=list)
    keys_pressed: int = 0
    keys_handled: int = 0
    keys_missed: list[str] = field(default_factory=list)  # the key, and the tab shown instead
    rss: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, MB)
    warm_rss: float | None = None  # at the end of the first round
    round_rss: list[float] = field(default_factory=list)  # MB at the end of each round, its tabs closed
    round_objects: list[int] = field(default_factory=list)  # objects the collector tracks then, after a collection
    lags_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def lost(self) -> int:
        return len(self.not_final)

    @property
    def rss_growth(self) -> float | None:
        if self.warm_rss is None or not self.rss:
            return None
        return self.rss[-1][1] - self.warm_rss

    @property
    def lag_p95(self) -> float | None:
        if len(self.lags_ms) < 20:
            return None
        return statistics.quantiles(self.lags_ms, n=20)[18]

    def summary(self) -> str:
        growth = self.rss_growth
        return "\n".join(
            [
                f"rounds {self.rounds} in {self.seconds:.0f} s; tasks {self.tasks}: final as expected "
                f"{self.final_as_expected}, wrong state {len(self.wrong_state)}, not final (lost) {self.lost}",
                f"researchers canceled {self.canceled}; interviewer answers {self.answered}",
                f"workflow runs started {self.runs_started}, completed {self.runs_completed}, "
                f"other {len(self.runs_other)} {self.runs_other[:3]}",
                f"key presses handled {self.keys_handled}/{self.keys_pressed} {self.keys_missed[:3]}",
                f"RSS first {self.rss[0][1]:.1f} MB, after round 1 {self.warm_rss or 0:.1f} MB, last "
                f"{self.rss[-1][1]:.1f} MB, max {max(r for _, r in self.rss):.1f} MB; growth after warm-up "
                f"{growth if growth is not None else float('nan'):.1f} MB (bound {RSS_GROWTH_BOUND_MB:.0f} MB)"
                if self.rss
                else "RSS: no samples",
                f"RSS at each round's end (MB): {' '.join(f'{mb:.0f}' for mb in self.round_rss)}",
                f"tracked objects at each round's end (thousands): "
                f"{' '.join(f'{n / 1000:.0f}' for n in self.round_objects)}",
                f"event-loop lag p95 {self.lag_p95 or float('nan'):.1f} ms, max "
                f"{max(self.lags_ms, default=float('nan')):.1f} ms over {len(self.lags_ms)} ticks",
                *(f"  wrong: {w}" for w in self.wrong_state[:10]),
                *(f"  lost: {n}" for n in self.not_final[:10]),
            ]
        )


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Fleet:
    """The demo fleet in a child process; its agents file and the credentials its agents expect."""

    def __init__(self, folder: Path) -> None:
        self.agents_file = folder / "agents.yaml"
        self.process = subprocess.Popen(
            [sys.executable, "-c", FLEET, str(self.agents_file)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env_with_src(),
        )
        line = self.process.stdout.readline()
        if not line:
            self.stop()
            raise RuntimeError("the demo fleet did not start")
        self.credential_env: dict[str, str] = json.loads(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Job:
    """One conversation of a round, and what its task should end as."""

    kind: str
    index: int
    view: object
    pane_id: str
    text: str
    cancel: bool = False
    answers: int = 0
    cancel_sent: bool = False
    answered_at: int = 0  # the number of turns when the last answer went


def expected_of(kind: str, cancel: bool) -> str:
    if kind == "echo":
        return "reply"
    return "canceled" if cancel else "completed"


def outcome(job: Job) -> str | None:
    """'reply' / a final state name when the job's turn is over, else None."""
    view = job.view
    conversation = view.conversation
    if conversation is None or not conversation.turns:
        return None
    if conversation.last.error is not None and not view.running:  # the turn ended in an error: said at once
        error = conversation.last.error
        return f"error {error.code}: {error.message}"
    last = conversation.last.view
    if job.kind == "echo":
        return "reply" if last.reply is not None and not view.running else None
    if last.state is not None and last.state.is_terminal and not view.running:
        return last.state.value
    return None


def where_it_stands(job: Job) -> str:
    """What a job that never ended shows: enough to tell a lost event from a lost answer."""
    view = job.view
    conversation = view.conversation
    if conversation is None:
        return "never connected"
    if not conversation.turns:
        return "connected, nothing sent"
    last = conversation.last.view
    state = last.state.value if last.state is not None else "no state"
    asking = bool(view.query("PromptPane Input"))
    return (
        f"{len(conversation.turns)} turns, last {state}, running={view.running}, waiting={view.waiting}, "
        f"prompt pane {'up' if asking else 'absent'}, {job.answers} answers (last at turn {job.answered_at})"
    )


async def open_job(screen, status, kind: str, index: int, cancel: bool) -> Job:

    view = await screen.open_conversation(status)
    text = {
        "echo": f"hello {index}",
        "writer": f"load test {index} pace 20",
        # One to cancel takes its full research time (30 s: a cancel that works ends it at once), so even a loaded
        # machine's slow ticks send the cancel before it could complete.
        "researcher": f"load topic {index}" if cancel else f"quick: load topic {index}",
        "interviewer": "interview me",
    }[kind]
    return Job(kind, index, view, view.parent.id, text, cancel)


async def tick(app, job: Job, tally: Tally) -> None:
    """Move one job along: send once connected, answer a waiting interviewer, cancel a running researcher."""
    from textual.widgets import Input

    from switchboard.a2a.model import TaskState, TextPart

    view = job.view
    if view.conversation is None:
        return
    if not view.conversation.turns:
        view.send([TextPart(text=job.text)])
        tally.tasks += 1
        return
    last = view.conversation.last.view
    if job.kind == "interviewer" and view.waiting is TaskState.INPUT_REQUIRED and not view.running:
        fields = view.query("PromptPane Input")
        asked = len(view.conversation.turns)  # one answer per question: a question ends a turn
        if fields and asked > job.answered_at:
            field = fields.last(Input)
            field.value = ANSWERS[min(job.answers, len(ANSWERS) - 1)]
            job.answers += 1
            job.answered_at = asked
            tally.answered += 1
            await field.action_submit()  # as the enter key does: the pane answers, the view sends
    running = last.state is not None and not last.state.is_terminal
    if job.cancel and not job.cancel_sent and len(last.timeline) >= 2 and running:
        job.cancel_sent = True
        await view.action_cancel_task()


async def press_and_check(pilot, tally: Tally) -> None:
    """A key press the UI must handle while loaded: f3 shows the Workflows tab, f1 the Agents tab."""
    async with _TABS:
        await _press_and_check(pilot, tally)


async def _press_and_check(pilot, tally: Tally) -> None:
    from textual.widgets import TabbedContent

    tabs = pilot.app.screen.query_one(TabbedContent)
    for key, pane in (("f3", "workflows-tab"), ("f1", "agents-tab")):
        tally.keys_pressed += 1
        await pilot.press(key)
        for _ in range(200):
            if tabs.active == pane:
                tally.keys_handled += 1
                break
            await pilot.pause(0.05)
        else:
            tally.keys_missed.append(f"{key}: {tabs.active} shown, focus on {pilot.app.focused!r}")


class AppCrashed(RuntimeError):
    """The app stopped on an exception of its own; the message holds its whole traceback."""


def check_alive(app) -> None:
    """Raise AppCrashed when the app has died: nothing it shows can be trusted after that."""
    crash = app._exception
    if crash is not None:
        raise AppCrashed("the app crashed:\n" + "".join(traceback.format_exception(crash))) from crash


# The rounds and the workflow loop open, close and switch tabs one at a time: a run's tab opening (which shows
# it, as launching a run does) while a key press is checked would count as the key not handled.
_TABS = asyncio.Lock()


async def close_tab(pilot, pane_id: str) -> None:
    """Close a tab whose work is over, by its id: most of them are background tabs, which f4 cannot reach."""
    from textual.widgets import TabbedContent, TabPane

    async with _TABS:
        check_alive(pilot.app)
        tabs = pilot.app.screen.query_one(TabbedContent)
        if not any(pane.id == pane_id for pane in tabs.query(TabPane)):
            raise AssertionError(f"the tab {pane_id} closed by itself")
        await tabs.remove_pane(pane_id)
        await pilot.pause()


async def one_round(pilot, statuses: dict, conversations: int, tally: Tally, round_no: int) -> None:

    screen = pilot.app.screen
    jobs = []
    researchers = 0
    for i in range(conversations):
        kind = KINDS[i % len(KINDS)]
        cancel = False
        if kind == "researcher":
            cancel = researchers % 2 == 1
            researchers += 1
        jobs.append(await open_job(screen, statuses[kind], kind, round_no * 1000 + i, cancel))
    deadline = time.monotonic() + ROUND_LIMIT
    pending = list(jobs)
    while pending and time.monotonic() < deadline:
        check_alive(pilot.app)
        for job in pending:
            await tick(pilot.app, job, tally)
        pending = [job for job in pending if outcome(job) is None]
        await asyncio.sleep(0.1)
    for job in jobs:
        got, wanted = outcome(job), expected_of(job.kind, job.cancel)
        name = f"round {round_no} {job.kind} #{job.index}"
        if got is None:
            tally.not_final.append(f"{name} ({where_it_stands(job)})")
        elif got != wanted:
            tally.wrong_state.append(f"{name}: {got}, expected {wanted}")
        else:
            tally.final_as_expected += 1
            tally.canceled += got == "canceled"
    await press_and_check(pilot, tally)
    for job in jobs:
        await close_tab(pilot, job.pane_id)
    tally.rounds += 1


async def workflows(pilot, workflow, journal_dir: Path, tally: Tally, stop: asyncio.Event) -> None:
    """The briefing workflow, run in a tab of the same session again and again until `stop`."""

    from switchboard.tui.widgets.run_view import RunView
    from switchboard.workflow.engine import start_run

    screen = pilot.app.screen
    app = pilot.app
    number = 0
    while not stop.is_set():
        number += 1

        def start(ask, number=number):
            inputs = {"topic": f"load run {number}"}
            return start_run(workflow, inputs, ask=ask, http=app.http, tap=app.tap, journal_dir=journal_dir)

        view = RunView(workflow.name, start=start)
        async with _TABS:
            await screen._add_run(view)
        check_alive(app)
        pane_id = view.parent.id
        tally.runs_started += 1
        deadline = time.monotonic() + ROUND_LIMIT
        while view.status in ("starting", "running") and time.monotonic() < deadline:
            check_alive(app)
            await asyncio.sleep(0.2)
        if view.status == "completed":
            tally.runs_completed += 1
        else:
            tally.runs_other.append(f"run {number}: {view.status}")
        await close_tab(pilot, pane_id)


async def sample_lag(tally: Tally, stop: asyncio.Event) -> None:
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        tally.lags_ms.append(max(0.0, (time.perf_counter() - began - LAG_TICK) * 1000))


async def sample_rss(tally: Tally, began: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        tally.rss.append((time.monotonic() - began, rss_mb()))
        try:
            await asyncio.wait_for(stop.wait(), RSS_EVERY)
        except TimeoutError:
            pass


async def run_load(
    agents_file: Path,
    home: Path,
    *,
    seconds: float,
    conversations: int,
    max_rounds: int | None = None,
    tune_gc: bool = False,
) -> Tally:
    """One TUI session under load; rounds repeat until `seconds` have passed (or `max_rounds` are done).
    `tune_gc`: the collector set up as `switchboard` sets it up at start (the bench); a test leaves it alone."""
    from switchboard.tui.app import SwitchboardApp
    from switchboard.workflow.loader import load_workflow

    tally = Tally()
    app = SwitchboardApp(agents_file, steady=True, tune_gc=tune_gc)
    workflow = load_workflow(BRIEFING, app.registry)
    began = time.monotonic()
    try:
        await _session(app, tally, workflow, home, began, seconds, conversations, max_rounds)
    except BaseException:
        if app._exception is not None:  # Textual re-raises it with a traceback cut at the callback's call
            print("the app crashed:", file=sys.stderr)
            traceback.print_exception(app._exception, file=sys.stderr)
        raise
    tally.seconds = time.monotonic() - began
    return tally


async def _session(app, tally: Tally, workflow, home: Path, began: float, seconds, conversations, max_rounds) -> None:
    from textual.widgets import TabbedContent

    stop = asyncio.Event()
    async with app.run_test(size=(120, 40)) as pilot:
        samplers = [
            asyncio.create_task(sample_lag(tally, stop)),
            asyncio.create_task(sample_rss(tally, began, stop)),
        ]
        pane = pilot.app.screen.query_one("AgentsPane")
        for _ in range(600):
            if all(kind in pane.statuses for kind in KINDS):
                break
            await pilot.pause(0.05)
        statuses = {kind: pane.statuses[kind] for kind in KINDS}
        flows = asyncio.create_task(workflows(pilot, workflow, home / "runs", tally, stop))
        round_no = 0
        while True:
            round_no += 1
            await one_round(pilot, statuses, conversations, tally, round_no)
            tally.round_rss.append(rss_mb())
            if round_no == 1:
                tally.warm_rss = tally.round_rss[-1]
            gc.collect()  # what is left when every tab of the round is closed (the app's own collections aside)
            tally.round_objects.append(len(gc.get_objects()))
            if time.monotonic() - began >= seconds or (max_rounds and round_no >= max_rounds):
                break
        stop.set()
        await flows  # the run under way finishes: its tasks too must reach their final state
        await asyncio.gather(*samplers)
        tally.rss.append((time.monotonic() - began, rss_mb()))
        assert pilot.app.screen.query_one(TabbedContent).active  # the session is still whole


def load_session(*, seconds: float, conversations: int, max_rounds: int | None = None, tune_gc: bool = False) -> Tally:
    """Start the fleet, run the session in a temporary SWITCHBOARD_HOME, stop the fleet."""
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        fleet = Fleet(home)
        saved = {name: os.environ.get(name) for name in [*fleet.credential_env, "SWITCHBOARD_HOME"]}
        os.environ.update(fleet.credential_env)
        os.environ["SWITCHBOARD_HOME"] = str(home / "home")
        try:
            return asyncio.run(
                run_load(
                    fleet.agents_file,
                    home,
                    seconds=seconds,
                    conversations=conversations,
                    max_rounds=max_rounds,
                    tune_gc=tune_gc,
                )
            )
        finally:
            fleet.stop()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _arg(name: str, default: float) -> float:
    if name in sys.argv:
        return float(sys.argv[sys.argv.index(name) + 1])
    return default


def main(quick: bool = False) -> list[Row]:
    seconds = _arg("--seconds", QUICK_SECONDS if quick else DEFAULT_SECONDS)
    conversations = int(_arg("--conversations", DEFAULT_CONVERSATIONS))
    tally = load_session(seconds=seconds, conversations=conversations, tune_gc="--default-gc" not in sys.argv)
    print(tally.summary(), file=sys.stderr)
    bench = f"load {conversations} conv + workflow"
    growth = tally.rss_growth
    total = tally.final_as_expected + len(tally.wrong_state) + tally.lost
    return [
        Row(
            bench,
            "MB RSS growth after round 1",
            growth,
            higher_is_better=False,
            goal=f"< {RSS_GROWTH_BOUND_MB:.0f} MB",
            met=growth is not None and growth < RSS_GROWTH_BOUND_MB,
            notes=[tally.summary().replace("\n", "; ")],
        ),
        Row(
            bench, "ms p95 lag", tally.lag_p95, higher_is_better=False, goal="< 100 ms", met=(tally.lag_p95 or 0) < 100
        ),
        Row(
            bench,
            "tasks final as expected",
            float(tally.final_as_expected),
            goal=f"all {total}",
            met=tally.final_as_expected == total and total > 0,
        ),
        Row(bench, "tasks lost (not final)", float(tally.lost), higher_is_better=False, goal="0", met=tally.lost == 0),
        Row(
            bench,
            "workflow runs completed",
            float(tally.runs_completed),
            goal=f"all {tally.runs_started}",
            met=tally.runs_completed == tally.runs_started > 0,
        ),
        Row(
            bench,
            "key presses handled",
            float(tally.keys_handled),
            goal=f"all {tally.keys_pressed}",
            met=tally.keys_handled == tally.keys_pressed > 0,
        ),
    ]


if __name__ == "__main__":
    run_standalone(main, "load")
