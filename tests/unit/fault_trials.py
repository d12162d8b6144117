"""Randomized wire-fault trials against the real demo writer, through the fault proxy.

One trial: a seeded RNG draws a fault plan (which requests, how many times, where in the stream), then
either a conversation turn (the Conversation class the TUI uses) or a one-step workflow run talks to the
writer through the proxy. The outcome is checked against the agent itself, read directly (not through the
proxy): the final state is the agent's, the artifact text is exactly the document the writer composed,
the message reached the agent once, the person was told what happened (a Notice, a note, a StepNotice),
and a secret header configured for the agent shows nowhere (notices, notes, errors, wire tap, journal).

tests/unit/test_fault_proxy.py runs a few fixed seeds; bench/faults/wire_faults.py runs many.
"""

from __future__ import annotations

import asyncio
import json
import random
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from fault_proxy import Exchange, Fault, FaultProxy, Plan

from switchboard.a2a.client import connect
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.follow import FollowPolicy
from switchboard.a2a.model import TaskState
from switchboard.a2a.tap import Tap
from switchboard.agents import AgentEntry, AgentsFile
from switchboard.conversation import Conversation
from switchboard.demo.writer import ARTIFACT_ID, compose
from switchboard.link import open_link
from switchboard.workflow.engine import start_run
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.runs import read_records

TRANSIENT = ("cut", "stall", "status", "reset", "truncate")
SENDS = ("SendStreamingMessage", "SendMessage")
STREAMS = ("SendStreamingMessage", "SubscribeToTask")
CARD = "/.well-known/agent-card.json"
PACE_MS = 4  # ~100 chunks: a stream lasts about half a second, long enough to be cut anywhere
# Small timeouts so a stall is noticed at once; the retry policy of the client is the shipped default.
POLICY = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.5, stall_timeout=0.5)
SECRET_HEADER = "X-Trial-Secret"


@dataclass
class Outcome:
    fault: str
    flow: str
    seed: int
    plan: str
    fired: int = 0  # faults that really happened
    recovered: bool = False  # final state and artifact text exact, one invocation
    lost: bool = False  # the final state is wrong or the artifact text is not exact
    invocations: int = 0  # times the message reached the agent
    seen: bool = True  # the person was told (only judged when a fault fired)
    leaked: bool = False
    error: str = ""
    notices: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.recovered and not self.lost and self.seen and not self.leaked and self.invocations == 1


class Drawn:
    """A plan drawn from the RNG: a fault for the first `times` requests that `match`."""

    def __init__(self, match: tuple[str, ...], faults: list[Fault], extra: Plan | None = None) -> None:
        self.match, self.faults, self.extra = match, list(faults), extra

    def __call__(self, exchange: Exchange) -> Fault | None:
        if (exchange.rpc or exchange.path) in self.match and self.faults:
            return self.faults.pop(0)
        return self.extra(exchange) if self.extra else None

    def __repr__(self) -> str:
        return f"{'/'.join(self.match)}: {self.faults}"


def draw(fault: str, rng: random.Random) -> tuple[Drawn, bool]:
    """The plan for one trial, and whether the turn streams (a blocking send is drawn for some 502/503s)."""
    if fault == "cut":
        faults = [
            Fault("cut", after=rng.randint(0, 24000), abrupt=rng.random() < 0.5) for _ in range(rng.randint(1, 3))
        ]
        return Drawn(STREAMS, faults), True
    if fault == "stall":
        return Drawn(STREAMS, [Fault("stall", after=rng.randint(0, 24000)) for _ in range(rng.randint(1, 2))]), True
    if fault == "truncate":
        one = Fault("truncate", after=rng.randint(0, 80), abrupt=rng.random() < 0.5, cut_at=rng.uniform(0.02, 0.98))
        return Drawn(STREAMS, [one]), True
    if fault == "reset":
        where = rng.choice(["request", "head", "body"])
        return Drawn((CARD,), [Fault("reset", where=where) for _ in range(rng.randint(1, 3))]), rng.random() < 0.75
    if fault == "status":
        status = [Fault("status", status=rng.choice([502, 503])) for _ in range(rng.randint(1, 3))]
        target = rng.choice(["card", "send", "get"])
        if target == "card":
            return Drawn((CARD,), status), rng.random() < 0.75
        if target == "send":
            return Drawn(SENDS, status), rng.random() < 0.75
        # a get-task happens after a cut stream: cut the first one somewhere, then answer the gets 502/503
        cut = Drawn(("SendStreamingMessage",), [Fault("cut", after=rng.randint(0, 24000))])
        return Drawn(("GetTask",), status, extra=cut), True
    raise ValueError(fault)


def _secret(seed: int) -> str:
    return f"trial-secret-{seed:06d}-{random.Random(seed).getrandbits(64):016x}"


def _entry(url: str, secret: str) -> AgentEntry:
    raw = {"name": "writer", "url": url, "headers": {SECRET_HEADER: "${TRIAL_SECRET}"}}
    return AgentEntry("writer", url, headers={SECRET_HEADER: secret}, interpolated=[secret], raw=raw)


async def agent_task(upstream_url: str, task_id: str) -> tuple[TaskState, str]:
    """The task as the agent holds it, read directly: its state and its artifact's text."""
    async with await connect(upstream_url) as client:
        task = await client.get_task(task_id)
    text = "".join(a.text for a in task.artifacts or [] if a.artifact_id == ARTIFACT_ID)
    return task.status.state, text


async def _judge(
    outcome: Outcome, proxy: FaultProxy, upstream_url: str, task_id: str | None, state, text: str, topic: str
) -> None:
    outcome.fired = len(proxy.fired())
    outcome.invocations = len(proxy.forwarded(*SENDS))
    if task_id is None:
        outcome.lost = True
        return
    real_state, real_text = await agent_task(upstream_url, task_id)
    wanted = compose(topic)
    outcome.lost = state != real_state or text != wanted or real_text != wanted
    outcome.recovered = not outcome.lost and real_state == TaskState.COMPLETED
    if outcome.fired:
        outcome.seen = bool(outcome.notices)


def _leaks(secret: str, *texts: str) -> bool:
    return any(secret in t for t in texts)


def _tap_text(tap: Tap) -> str:
    return "\n".join(json.dumps([r.url, r.headers, r.body], default=str) for r in tap.records)


async def conversation_trial(upstream_url: str, fault: str, seed: int) -> Outcome:
    """One turn of a Conversation with the writer through the proxy, under a drawn fault."""
    rng = random.Random(f"{fault}:{seed}")
    plan, streaming = draw(fault, rng)
    outcome = Outcome(fault, "conversation", seed, repr(plan))
    topic = f"tides {fault} {seed}"
    secret = _secret(seed)
    port = int(upstream_url.rstrip("/").rsplit(":", 1)[1])
    started = time.perf_counter()
    tap = Tap()
    async with FaultProxy(port, plan) as proxy, httpx.AsyncClient() as http:
        entry = _entry(proxy.url, secret)
        conversation = None
        try:
            link = await open_link(entry, http=http, tap=tap, streaming=streaming)
            outcome.notices += list(link.notes)
            conversation = Conversation(link, tap=tap, policy=POLICY)
            async for _ in conversation.send(f"{topic} pace {PACE_MS}"):
                pass
            await link.aclose()
        except SwitchboardError as exc:
            outcome.error = f"{exc.code}: {exc.message}"
        turn = conversation.last if conversation else None
        if turn:
            outcome.notices += [n.text for n in turn.notices]
            outcome.notices += [n for n in conversation.link.notes if n not in outcome.notices]
        view = turn.view if turn else None
        artifact = view.artifacts.get(ARTIFACT_ID) if view else None
        await _judge(
            outcome,
            proxy,
            upstream_url,
            view.task_id if view else None,
            view.state if view else None,
            artifact.text if artifact else "",
            topic,
        )
    outcome.leaked = _leaks(secret, *outcome.notices, outcome.error, _tap_text(tap))
    outcome.seconds = time.perf_counter() - started
    return outcome


WORKFLOW = """
name: fault-trial
agents: [{{name: writer, streaming: {streaming}}}]
steps:
  - {{name: draft, agent: writer, task: "{task}"}}
"""


async def workflow_trial(upstream_url: str, fault: str, seed: int, directory: Path) -> Outcome:
    """A one-step workflow (an A2A step on the writer) run through the proxy, under a drawn fault."""
    rng = random.Random(f"{fault}:{seed}")
    plan, streaming = draw(fault, rng)
    outcome = Outcome(fault, "workflow", seed, repr(plan))
    topic = f"tides {fault} {seed}"
    secret = _secret(seed)
    port = int(upstream_url.rstrip("/").rsplit(":", 1)[1])
    started = time.perf_counter()
    directory.mkdir(parents=True, exist_ok=True)
    tap = Tap()
    async with FaultProxy(port, plan) as proxy, httpx.AsyncClient() as http:
        registry = AgentsFile(None, [_entry(proxy.url, secret)], [])
        path = directory / f"trial-{fault}-{seed}.yaml"
        text = WORKFLOW.format(task=f"{topic} pace {PACE_MS}", streaming="auto" if streaming else "false")
        path.write_text(textwrap.dedent(text).lstrip())
        workflow = load_workflow(path, registry, env={})
        run = start_run(workflow, {}, http=http, tap=tap, journal_dir=directory, policy=POLICY)
        status = await run.wait()
        journal = directory / f"{run.run_id}.jsonl"
        records, problems = read_records(journal)
        outcome.notices = [r["text"] for r in records if r["type"] == "StepNotice"]
        state = run.steps["draft"]
        if status != "completed":
            failed = [r for r in records if r["type"] == "StepFailed"]
            outcome.error = json.dumps(failed[-1] if failed else status)
        if problems:
            outcome.error += f" journal problems: {problems}"
        await _judge(outcome, proxy, upstream_url, state.task_id, state.view.state, state.output, topic)
        if status != "completed" or problems:
            outcome.recovered = False
        journal_text = journal.read_text()
    outcome.leaked = _leaks(secret, *outcome.notices, outcome.error, journal_text, _tap_text(tap))
    outcome.seconds = time.perf_counter() - started
    return outcome


# --- permanent faults: a stable code and the URL, within the retry bound --------------------------------


@dataclass
class Permanent:
    name: str
    code: str  # the error code the person gets
    plan: Plan
    attempts: int  # requests the proxy should see for the failing call
    counted: tuple[str, ...]  # what the proxy counts as those requests
    streaming: bool = True


def permanent_faults() -> list[Permanent]:
    forever_503 = Fault("status", status=503)
    not_found = Fault("status", status=404)
    return [
        Permanent(
            "card 503 forever",
            "A2ACLI_ERR_UNREACHABLE",
            lambda e: forever_503 if e.path == CARD else None,
            4,
            (CARD,),
        ),
        Permanent(
            "send 503 forever",
            "A2ACLI_ERR_UNREACHABLE",
            lambda e: forever_503 if e.rpc in SENDS else None,
            4,
            SENDS,
        ),
        Permanent(
            "blocking send 502 forever",
            "A2ACLI_ERR_UNREACHABLE",
            lambda e: Fault("status", status=502) if e.rpc in SENDS else None,
            4,
            SENDS,
            streaming=False,
        ),
        Permanent(
            "JSON-RPC endpoint 404",
            "InvalidAgentResponseError",
            lambda e: not_found if e.rpc else None,
            1,
            SENDS,
        ),
    ]


async def permanent_trial(upstream_url: str, case: Permanent) -> tuple[bool, str]:
    """Run one conversation turn under a permanent fault; (as expected, what happened)."""
    port = int(upstream_url.rstrip("/").rsplit(":", 1)[1])
    async with FaultProxy(port, case.plan) as proxy, httpx.AsyncClient() as http:
        entry = AgentEntry("writer", proxy.url)
        try:
            link = await open_link(entry, http=http, streaming=case.streaming)
            conversation = Conversation(link, policy=POLICY)
            async for _ in conversation.send(f"tides permanent pace {PACE_MS}"):
                pass
        except SwitchboardError as exc:
            seen = len([e for e in proxy.log if (e.rpc or e.path) in case.counted])
            reached = len(proxy.forwarded(*SENDS))
            ok = exc.code == case.code and proxy.url.rstrip("/") in exc.message and seen == case.attempts
            ok = ok and reached == 0 and exc.url is not None
            return ok, f"{exc.code}: {exc.message} ({seen} attempts, {reached} reached the agent)"
        return False, "the turn did not fail"


async def refused_trial() -> tuple[bool, str]:
    """An agent that is not there at all (connection refused): a stable code and the URL after the bound."""
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    url = f"http://127.0.0.1:{port}/"
    async with httpx.AsyncClient() as http:
        try:
            await open_link(AgentEntry("gone", url), http=http)
        except SwitchboardError as exc:
            ok = exc.code == "A2ACLI_ERR_UNREACHABLE" and url.rstrip("/") in exc.message and "4 attempts" in exc.message
            return ok, f"{exc.code}: {exc.message}"
    return False, "connected to a closed port"


async def workflow_permanent_trial(upstream_url: str, directory: Path) -> tuple[bool, str]:
    """A workflow step whose agent answers every send with 503: the step fails with a stable code and the
    URL after the retry bound, the agent never got the message, and the journal says so."""
    port = int(upstream_url.rstrip("/").rsplit(":", 1)[1])
    directory.mkdir(parents=True, exist_ok=True)
    plan = permanent_faults()[1].plan  # send 503 forever
    async with FaultProxy(port, plan) as proxy, httpx.AsyncClient() as http:
        registry = AgentsFile(None, [AgentEntry("writer", proxy.url)], [])
        path = directory / "permanent.yaml"
        path.write_text(textwrap.dedent(WORKFLOW.format(task="tides permanent", streaming="auto")).lstrip())
        run = start_run(load_workflow(path, registry, env={}), {}, http=http, journal_dir=directory, policy=POLICY)
        status = await run.wait()
        records, _ = read_records(directory / f"{run.run_id}.jsonl")
        attempts = len([e for e in proxy.log if e.rpc in SENDS])
        reached = len(proxy.forwarded(*SENDS))
    failed = [r for r in records if r["type"] == "StepFailed"]
    if status != "failed" or not failed:
        return False, f"the run ended {status}"
    code, error = failed[-1]["code"], failed[-1]["error"]
    ok = code == "A2A_PROVIDER_ERROR" and proxy.url.rstrip("/") in error and attempts == 4 and reached == 0
    return ok, f"{code}: {error} ({attempts} attempts, {reached} reached the agent)"
