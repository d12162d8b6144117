"""Wire faults between the client and a real demo writer (a2a-sdk server), injected by a proxy on 127.0.0.1.

Fixed seeds, a few trials per fault: a cut, stalled or truncated stream, 502/503 answers, a reset card
fetch. Each trial must end at the agent's real final state with the document exactly as the writer
composed it, the message delivered once, the person told, and the configured secret shown nowhere.
Permanent faults fail with a stable code and the URL, within the retry bound. bench/faults/wire_faults.py
runs the same trials with many seeds.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_proxy import Fault, FaultProxy
from fault_trials import (
    CARD,
    POLICY,
    TRANSIENT,
    Outcome,
    conversation_trial,
    permanent_faults,
    permanent_trial,
    refused_trial,
    workflow_permanent_trial,
    workflow_trial,
)

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import Notice, follow_turn
from switchboard.a2a.http import RetryPolicy
from switchboard.a2a.model import TaskState
from switchboard.a2a.turn import TaskView
from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background
from switchboard.demo.writer import ARTIFACT_ID, compose

SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    handle = start_in_background(
        first_port=0,
        settings=DemoSettings(writer_pace_ms=4),
        agents_file=tmp_path_factory.mktemp("fleet") / "agents.yaml",
    )
    yield handle
    handle.stop()


@pytest.fixture
def writer(fleet: BackgroundFleet) -> str:
    return fleet.agent("writer").url


def explain(outcome: Outcome) -> str:
    return (
        f"{outcome.fault} seed {outcome.seed} ({outcome.flow}): plan {outcome.plan}; fired {outcome.fired}, "
        f"invocations {outcome.invocations}, recovered {outcome.recovered}, lost {outcome.lost}, "
        f"seen {outcome.seen}, leaked {outcome.leaked}; error {outcome.error!r}; notices {outcome.notices}"
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fault", TRANSIENT)
async def test_a_conversation_turn_survives_the_fault(writer: str, fault: str, seed: int) -> None:
    outcome = await conversation_trial(writer, fault, seed)
    assert outcome.fired >= 1, explain(outcome)  # these seeds are chosen so the fault really happens
    assert outcome.ok, explain(outcome)


@pytest.mark.parametrize("fault", TRANSIENT)
async def test_a_workflow_step_survives_the_fault(writer: str, fault: str, tmp_path: Path) -> None:
    outcome = await workflow_trial(writer, fault, 1, tmp_path)
    assert outcome.fired >= 1, explain(outcome)
    assert outcome.ok, explain(outcome)


@pytest.mark.parametrize("case", permanent_faults(), ids=lambda c: c.name)
async def test_a_permanent_fault_fails_with_a_stable_code_and_the_url(writer: str, case) -> None:
    ok, what = await permanent_trial(writer, case)
    assert ok, what


async def test_a_workflow_step_under_a_permanent_fault_fails_with_a_stable_code_and_the_url(
    writer: str, tmp_path: Path
) -> None:
    ok, what = await workflow_permanent_trial(writer, tmp_path)
    assert ok, what


async def test_an_agent_that_is_not_there_fails_after_the_retry_bound() -> None:
    ok, what = await refused_trial()
    assert ok, what


async def test_retries_back_off_with_jitter_within_the_bound(writer: str) -> None:
    """Three 503s on the card: three retries, each announced with its wait, each wait within its doubling
    ceiling (half of it fixed, half drawn at random), then the card."""
    port = int(writer.rstrip("/").rsplit(":", 1)[1])
    faults = [Fault("status", status=503) for _ in range(3)]
    policy = RetryPolicy(attempts=4, backoff=0.04, max_backoff=1.0)
    async with FaultProxy(port, lambda e: faults.pop() if e.path == CARD and faults else None) as proxy:
        async with await connect(proxy.url, retry=policy) as client:
            assert client.card.name == "Writer"
        assert len([e for e in proxy.log if e.path == CARD]) == 4
    waits = [re.search(r"retrying in ([0-9.]+) s \(attempt (\d) of 4\)", n) for n in client.notes]
    assert all(waits) and [int(m.group(2)) for m in waits] == [2, 3, 4], client.notes
    for match, ceiling in zip(waits, [0.04, 0.08, 0.16], strict=True):
        assert ceiling / 2 - 0.005 <= float(match.group(1)) <= ceiling + 0.005, client.notes


def test_the_backoff_doubles_up_to_its_ceiling_and_is_jittered() -> None:
    policy = RetryPolicy(attempts=8, backoff=0.25, max_backoff=1.0)
    for retry, ceiling in [(1, 0.25), (2, 0.5), (3, 1.0), (6, 1.0)]:
        delays = {policy.delay(retry) for _ in range(50)}
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(delays) > 1  # jittered, so clients that failed together do not retry together


async def test_a_send_is_not_repeated_when_it_may_have_reached_the_agent(writer: str) -> None:
    """The connection drops after the request went out and before any answer: the task is found by its
    message id on the agent and followed, never sent again."""
    port = int(writer.rstrip("/").rsplit(":", 1)[1])
    faults = [Fault("cut", after=0, abrupt=True)]
    async with FaultProxy(
        port, lambda e: faults.pop() if e.rpc == "SendStreamingMessage" and faults else None
    ) as proxy:
        async with await connect(proxy.url) as client:
            message = new_message("tides once pace 4")
            events = [e async for e in follow_turn(client, message, policy=POLICY)]
        assert len(proxy.forwarded("SendStreamingMessage")) == 1
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("found task" in n and "by the message id" in n for n in notices), notices
    view = TaskView()
    for event in events:
        if not isinstance(event, Notice):
            view.apply(event)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts[ARTIFACT_ID].text == compose("tides once")


async def test_two_turns_at_once_on_one_transport_each_hear_only_their_own_retries(writer: str) -> None:
    """Parallel steps to one agent share its transport. Turn A streams; while it is open, turn B sends (two 502s,
    retried) and ends. B hears its two retries; A hears none of them (retry notices travel with the call that
    retried, a2a/call_context.py, not on the transport)."""
    port = int(writer.rstrip("/").rsplit(":", 1)[1])
    faults = [Fault("status", status=502), Fault("status", status=502)]
    policy = RetryPolicy(attempts=4, backoff=0.02, max_backoff=0.1)
    async with FaultProxy(port, lambda e: faults.pop() if e.rpc == "SendMessage" and faults else None) as proxy:
        async with await connect(proxy.url, retry=policy) as client:
            turn_a = follow_turn(client, new_message("tides pace 4"), streaming=True, policy=POLICY)
            events_a = [await anext(turn_a)]  # A's stream is open, and stays open while B runs

            async def turn_b() -> list:
                message = new_message("harbours")
                return [e async for e in follow_turn(client, message, streaming=False, policy=POLICY)]

            events_b = await asyncio.create_task(turn_b())
            events_a += [e async for e in turn_a]
        assert len(proxy.forwarded("SendMessage")) == 1 and not faults
    heard_a = [e.text for e in events_a if isinstance(e, Notice) and "retrying" in e.text]
    heard_b = [e.text for e in events_b if isinstance(e, Notice) and "retrying" in e.text]
    assert len(heard_b) == 2 and all("answered HTTP 502" in text for text in heard_b), heard_b
    assert heard_a == []
    for events, topic in ((events_a, "tides"), (events_b, "harbours")):
        view = TaskView()
        for event in events:
            if not isinstance(event, Notice):
                view.apply(event)
        assert view.state is TaskState.COMPLETED
        assert view.artifacts[ARTIFACT_ID].text == compose(topic)


async def test_the_command_line_tells_the_person_what_happened_on_stderr(writer: str, tmp_path: Path) -> None:
    """`switchboard send` through the proxy: a 503 on the card, two 502s on the send. The document arrives
    whole on stdout, the message reached the agent once, and every retry is a warning on stderr."""
    port = int(writer.rstrip("/").rsplit(":", 1)[1])
    faults = {
        CARD: [Fault("status", status=503)],
        "SendMessage": [Fault("status", status=502), Fault("status", status=502)],
    }

    def plan(exchange):
        queue = faults.get(exchange.rpc or exchange.path)
        return queue.pop(0) if queue else None

    async with FaultProxy(port, plan) as proxy:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "switchboard",
            "send",
            proxy.url,
            "tides on the command line pace 4",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "SWITCHBOARD_HOME": str(tmp_path)},
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), 120)
        assert len(proxy.forwarded("SendMessage")) == 1
    out, err = stdout.decode(), stderr.decode()
    assert process.returncode == 0, err
    assert "State: completed" in out
    assert compose("tides on the command line") in out
    assert "agent-card.json answered HTTP 503; retrying in" in err
    assert "answered HTTP 502; retrying in 0." in err and "(attempt 3 of 4)" in err
