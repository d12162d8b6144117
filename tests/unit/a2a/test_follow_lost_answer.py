"""A person's answer whose connection breaks before the agent says anything: sent again once when the agent shows it
never got it, followed (never sent again) when it did.

The agent closing a kept-alive connection just as the answer goes out on it (its keep-alive timeout met a few
seconds after the question, as a person answers) was seen to fail a workflow step on a loaded machine. The agent is
the demo fleet's interviewer (an a2a-sdk server); the fault proxy in front of it resets the connection of the answer,
before it reaches the agent ("request") or after the agent took it ("head")."""

from __future__ import annotations

import pytest
from fault_proxy import Exchange, Fault, FaultProxy

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import Task, TaskState, TextPart
from switchboard.a2a.turn import TaskView
from switchboard.demo.interviewer import QUESTION_NAME

SENDS = ("SendStreamingMessage", "SendMessage")
POLICY = FollowPolicy(backoff=0.02, max_backoff=0.1, poll_interval=0.1)


def interviewer_port(fleet) -> int:
    return int(fleet.agent("interviewer").url.rstrip("/").rsplit(":", 1)[1])


class ResetTheAnswer:
    """Armed: the next send has its connection reset at `where`."""

    def __init__(self, where: str) -> None:
        self.where, self.armed = where, False

    def __call__(self, exchange: Exchange) -> Fault | None:
        if self.armed and exchange.rpc in SENDS:
            self.armed = False
            return Fault("reset", where=self.where)
        return None


async def answered(fleet, where: str, streaming: bool) -> tuple[list, list[Exchange], Task]:
    """Start an interview, answer its first question through a reset at `where`: the answer turn's events, the
    sends the agent received for it, and the task as the agent keeps it."""
    plan = ResetTheAnswer(where)
    async with FaultProxy(interviewer_port(fleet), plan) as proxy:
        async with await connect(proxy.url) as client:
            view = TaskView()
            async for event in follow_turn(client, new_message("interview me"), streaming=streaming, policy=POLICY):
                if not isinstance(event, Notice):
                    view.apply(event)
            assert view.state is TaskState.INPUT_REQUIRED and QUESTION_NAME in (view.status_text or ""), view
            before = len(proxy.log)
            plan.armed = True
            answer = new_message("Ada", task_id=view.task_id, context_id=view.context_id)
            events = [e async for e in follow_turn(client, answer, streaming=streaming, policy=POLICY)]
            task = await client.get_task(view.task_id or "")
        sends = [e for e in proxy.log[before:] if e.rpc in SENDS]
    assert proxy.fired("reset") == sends[:1], proxy.log
    return events, [e for e in sends if e.forwarded], task


def answers_of(task: Task) -> list[str]:
    return [
        p.text for m in task.history or [] if m.role == "user" for p in m.parts if isinstance(p, TextPart)
    ]  # fmt: skip


def ended_at_the_second_question(events: list) -> None:
    view = TaskView()
    for event in events:
        if not isinstance(event, Notice):
            view.apply(event)
    assert view.state is TaskState.INPUT_REQUIRED and "Nice to meet you, Ada" in (view.status_text or ""), events


@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "send"])
async def test_an_answer_the_agent_never_got_is_sent_again_once(fleet, streaming):
    events, reached, task = await answered(fleet, "request", streaming)
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("never got the message" in n and "sending it again" in n for n in notices), notices
    assert len(reached) == 1, "the second send is the one that reached the agent"
    assert answers_of(task) == ["interview me", "Ada"], "the agent has the answer once"
    ended_at_the_second_question(events)


@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "send"])
async def test_an_answer_the_agent_got_is_followed_not_sent_again(fleet, streaming):
    events, reached, task = await answered(fleet, "head", streaming)
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("the answer reached task" in n for n in notices), notices
    assert not any("never got the message" in n for n in notices), notices
    assert len(reached) == 1, "sent once"
    assert answers_of(task) == ["interview me", "Ada"]
    ended_at_the_second_question(events)
