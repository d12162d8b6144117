"""When a streamed turn is over: judged at the stream's end, by the spec, never by one stack's order of events.

The real stacks (tests/interop) cover what they do on demand; these play what other servers are allowed to do:
open a follow-up with the task as it stood, close early, keep a stream open after the turn ended, move a
follow-up to a new task.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from test_stream_faults import BASE, CTX, TASK, Agent, card, chunk, frame, rpc_result, sse, status
from transcripts import ROOT

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import Message, Role, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v03, v10

FAST = FollowPolicy(poll_interval=0.01, backoff=0.001, max_backoff=0.01, close_grace=0.05)
QUESTION = TaskStatus(
    state=TaskState.INPUT_REQUIRED,
    message=Message(message_id="q-1", role=Role.AGENT, parts=[TextPart(text="What is your name?")]),
    timestamp="2026-11-21T14:41:11.042Z",
)


def snapshot(status: TaskStatus, task_id: str = TASK) -> Task:
    """The task as a follow-up's stream may open with it: still asking, the answer last in its history."""
    answer = Message(message_id="u-2", role=Role.USER, parts=[TextPart(text="Grace")], task_id=task_id)
    return Task(id=task_id, context_id=CTX, status=status, history=[answer])


def update(state: TaskState, text: str | None = None, task_id: str = TASK) -> StatusUpdate:
    return StatusUpdate(task_id=task_id, context_id=CTX, status=status(state, text))


class HangingStream(httpx.AsyncByteStream):
    """Yields its chunks, then keeps the connection open until the reader lets go."""

    def __init__(self, chunks: list[bytes]):
        self.chunks = chunks

    async def __aiter__(self):
        for c in self.chunks:
            yield c
        await asyncio.Event().wait()


def hanging(chunks: list[bytes]) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=HangingStream(chunks))


async def follow_up(agent: Agent, policy: FollowPolicy = FAST, *, agent_card=None, streaming=None, blocking=True):
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(agent_card or card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    view, notices = TaskView(), []
    message = new_message("Grace", task_id=TASK, context_id=CTX)
    async for event in follow_turn(client, message, policy=policy, view=view, streaming=streaming, blocking=blocking):
        if isinstance(event, Notice):
            notices.append(event)
    await http.aclose()
    return view, notices


async def test_a_follow_up_stream_that_opens_with_the_question_still_asked_is_read_to_its_end():
    # What @a2a-js/sdk does: the task as it stood, then the work, then the end, then it closes.
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(snapshot(QUESTION)),
                frame(update(TaskState.WORKING, "got it: Grace")),
                frame(chunk("Hello, ", False)),
                frame(chunk("Grace", True)),
                frame(chunk("! Nice to meet you.", True, last=True)),
                frame(update(TaskState.COMPLETED)),
            ]
        )
    )
    view, notices = await follow_up(agent)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["a1"].text == "Hello, Grace! Nice to meet you."
    assert agent.calls == ["SendStreamingMessage"]
    assert notices == []
    # The question reported again is not news: the turn's timeline starts with the work on the answer.
    assert [s.state for s in view.timeline] == [TaskState.WORKING, TaskState.COMPLETED]


def test_the_question_reported_again_changes_neither_the_status_nor_the_timeline():
    view = TaskView(answered=QUESTION)
    view.apply(snapshot(QUESTION))
    assert view.status is None and view.timeline == [] and not view.turn_over
    assert [m.message_id for m in view.history] == ["u-2"] and view.task_id == TASK
    view.apply(update(TaskState.WORKING))
    assert [s.state for s in view.timeline] == [TaskState.WORKING]


async def test_a_follow_up_stream_that_closes_after_the_old_question_is_reconciled_not_taken_as_the_answer():
    agent = Agent(
        SendStreamingMessage=sse([frame(snapshot(QUESTION))]),
        GetTask=rpc_result(v10.encode_task(Task(id=TASK, context_id=CTX, status=status(TaskState.COMPLETED)))),
    )
    view, notices = await follow_up(agent)
    assert view.state is TaskState.COMPLETED
    assert agent.calls == ["SendStreamingMessage", "GetTask"]
    assert any("closed before the turn ended" in n.text for n in notices)


async def test_the_old_question_read_again_is_still_not_the_answer():
    stale = rpc_result(v10.encode_task(snapshot(QUESTION)))
    done = rpc_result(v10.encode_task(Task(id=TASK, context_id=CTX, status=status(TaskState.COMPLETED))))
    agent = Agent(
        SendStreamingMessage=sse([frame(snapshot(QUESTION))]),
        GetTask=[stale, done],
        SubscribeToTask=sse([frame(snapshot(QUESTION))]),
    )
    view, _ = await follow_up(agent)
    assert view.state is TaskState.COMPLETED
    assert agent.calls == ["SendStreamingMessage", "GetTask", "SubscribeToTask", "GetTask"]


async def test_a_new_question_after_the_answer_ends_the_turn():
    again = TaskStatus(
        state=TaskState.INPUT_REQUIRED, message=QUESTION.message.model_copy(update={"message_id": "q-2"})
    )
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(snapshot(QUESTION)),
                frame(update(TaskState.WORKING)),
                frame(StatusUpdate(task_id=TASK, context_id=CTX, status=again)),
            ]
        )
    )
    view, _ = await follow_up(agent)
    assert view.state is TaskState.INPUT_REQUIRED and view.status.message.message_id == "q-2"
    assert agent.calls == ["SendStreamingMessage"]


async def test_a_state_is_judged_at_the_end_of_the_stream_not_at_the_first_event_that_ends_a_turn():
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(update(TaskState.INPUT_REQUIRED, "replayed")),
                frame(update(TaskState.WORKING)),
                frame(chunk("done", False, last=True)),
                frame(update(TaskState.COMPLETED)),
            ]
        )
    )
    view, notices = await follow_up(agent)
    assert view.state is TaskState.COMPLETED and view.artifacts["a1"].text == "done"
    assert notices == []


async def test_a_stream_kept_open_after_the_turn_ended_ends_after_the_grace_with_a_notice():
    agent = Agent(
        SendStreamingMessage=hanging(
            [frame(update(TaskState.WORKING)), frame(update(TaskState.INPUT_REQUIRED, "and your age?"))]
        )
    )
    view, notices = await asyncio.wait_for(follow_up(agent), 10)
    assert view.state is TaskState.INPUT_REQUIRED and view.status_text == "and your age?"
    assert agent.calls == ["SendStreamingMessage"]
    assert [n.text for n in notices] == [
        "the agent kept the stream open 0.05 s after the task became input-required; taking that as the end of the turn"
    ]


async def test_an_event_within_the_grace_goes_on_with_the_turn():
    class Slow(httpx.AsyncByteStream):
        async def __aiter__(self):
            yield frame(update(TaskState.INPUT_REQUIRED, "replayed"))
            await asyncio.sleep(0.01)
            yield frame(update(TaskState.COMPLETED))

    agent = Agent(
        SendStreamingMessage=httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Slow())
    )
    view, notices = await follow_up(agent, FollowPolicy(poll_interval=0.01, close_grace=5.0))
    assert view.state is TaskState.COMPLETED and notices == []


async def test_a_v03_final_status_update_ends_the_stream_at_once():
    raw = json.loads((ROOT / "v03-jsonrpc-sdk03-native/v03-01-agent-card.json").read_text())
    raw["url"] = BASE
    final = StatusUpdate(task_id=TASK, context_id=CTX, status=status(TaskState.INPUT_REQUIRED, "name?"), final=True)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": v03.encode_event(final)})
    agent = Agent(**{"message/stream": hanging([f"data: {body}\r\n\r\n".encode()])})
    # A grace long enough to fail the wait below: final needs none.
    slow_grace = FollowPolicy(poll_interval=0.01, close_grace=60.0)
    view, notices = await asyncio.wait_for(follow_up(agent, slow_grace, agent_card=parse_card(raw)), 10)
    assert view.state is TaskState.INPUT_REQUIRED and notices == []


async def test_a_follow_up_answered_under_a_new_task_is_followed_and_said():
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(Task(id="task-2", context_id=CTX, status=status(TaskState.SUBMITTED))),
                frame(update(TaskState.COMPLETED, "done", task_id="task-2")),
            ]
        )
    )
    view, notices = await follow_up(agent)
    assert view.task_id == "task-2" and view.state is TaskState.COMPLETED
    moved = [n for n in notices if n.kind == "new-task"]
    assert len(moved) == 1 and "task-2" in moved[0].text and TASK in moved[0].text


async def test_a_blocking_follow_up_answered_under_a_new_task_is_said_too():
    done = Task(id="task-2", context_id=CTX, status=status(TaskState.COMPLETED, "done"))
    agent = Agent(SendMessage=rpc_result(v10.encode_send_result(done)))
    view, notices = await follow_up(agent, streaming=False)
    assert view.task_id == "task-2"
    assert [n.kind for n in notices] == ["new-task"]


# --- cancel: confirmed by the state the agent reports ---------------------------------------------------


def cancel_agent(*states: TaskState) -> Agent:
    """CancelTask answers the task as it stood (working); GetTask then reports `states` in turn."""
    answers = [rpc_result(v10.encode_task(Task(id=TASK, context_id=CTX, status=status(s)))) for s in states]
    working = rpc_result(v10.encode_task(Task(id=TASK, context_id=CTX, status=status(TaskState.WORKING))))
    return Agent(CancelTask=working, GetTask=answers)


async def cancel(agent: Agent, confirm_within: float):
    from switchboard.a2a.cancel import cancel_and_confirm

    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    try:
        return await cancel_and_confirm(client, TASK, confirm_within=confirm_within)
    finally:
        await http.aclose()


async def test_a_cancel_answered_before_it_took_effect_is_confirmed_by_reading_the_task():
    agent = cancel_agent(TaskState.WORKING, TaskState.CANCELED)
    outcome = await cancel(agent, confirm_within=5.0)
    assert outcome.confirmed and outcome.task.status.state is TaskState.CANCELED
    assert agent.calls == ["CancelTask", "GetTask", "GetTask"]


async def test_a_cancel_the_agent_never_confirms_says_so_after_the_bound():
    agent = cancel_agent(TaskState.WORKING)
    outcome = await cancel(agent, confirm_within=0.3)
    assert not outcome.confirmed and outcome.task.status.state is TaskState.WORKING
    assert outcome.pending == f"the agent has not confirmed the cancel: task {TASK} is still working"
    assert agent.calls[0] == "CancelTask" and 1 <= agent.calls.count("GetTask") <= 4


async def test_a_conversation_keeps_its_view_until_the_cancel_is_confirmed(monkeypatch):
    from switchboard.a2a import cancel as cancel_module
    from switchboard.conversation import Conversation, Turn
    from switchboard.link import AgentLink

    monkeypatch.setattr(cancel_module, "CONFIRM_WITHIN", 0.2)
    agent = cancel_agent(TaskState.WORKING)
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    conversation = Conversation(AgentLink("a", transport=client))
    turn = Turn(new_message("slow"), running=False)
    turn.view.apply(Task(id=TASK, context_id=CTX, status=status(TaskState.WORKING, "at work")))
    conversation.turns.append(turn)
    before = list(turn.view.timeline)
    outcome = await conversation.cancel()
    await http.aclose()
    assert outcome is not None and not outcome.confirmed
    assert turn.view.timeline == before  # no blank "working" line from the answer


# --- the question: wherever the agent put it -------------------------------------------------------------


def asking_in_history() -> Task:
    """An input-required task whose question is only the newest agent message of its history."""
    hi = Message(message_id="u-1", role=Role.USER, parts=[TextPart(text="hi")])
    asked = Message(message_id="a-1", role=Role.AGENT, parts=[TextPart(text="What is your name?")])
    return Task(id=TASK, context_id=CTX, status=TaskStatus(state=TaskState.INPUT_REQUIRED), history=[hi, asked])


def test_a_question_only_in_the_history_is_the_question():
    from switchboard.a2a.turn import task_question

    task = asking_in_history()
    assert [p.text for p in task_question(task)] == ["What is your name?"]
    assert [p.text for p in TaskView().apply(task).question] == ["What is your name?"]


def test_an_agent_message_from_before_the_callers_last_message_is_not_the_question():
    from switchboard.a2a.turn import task_question

    task = asking_in_history()
    task.history.append(Message(message_id="u-2", role=Role.USER, parts=[TextPart(text="Grace")]))
    assert task_question(task) == []


def test_a_blocking_send_prints_a_question_found_in_the_history(capsys):
    from switchboard.cli.output import Out
    from switchboard.cli.render import render_task

    render_task(Out(), asking_in_history())
    out = capsys.readouterr().out
    assert "State: input-required" in out and "What is your name?" in out


async def test_auth_required_ends_the_turn_at_once_though_the_agent_keeps_the_stream_open():
    # The spec has the agent keep the stream open at auth-required (a credential may come out of band).
    agent = Agent(SendStreamingMessage=hanging([frame(update(TaskState.AUTH_REQUIRED, "your code?"))]))
    view, notices = await asyncio.wait_for(follow_up(agent, FollowPolicy(close_grace=60.0)), 10)
    assert view.state is TaskState.AUTH_REQUIRED and notices == []


async def test_a_non_blocking_follow_up_answered_with_the_question_still_asked_is_polled_to_its_end():
    # `send --timeout` sends without blocking: the agent may answer with the task as it stood.
    stale = rpc_result(v10.encode_send_result(snapshot(QUESTION)))
    done = rpc_result(v10.encode_task(Task(id=TASK, context_id=CTX, status=status(TaskState.COMPLETED))))
    agent = Agent(SendMessage=stale, GetTask=[rpc_result(v10.encode_task(snapshot(QUESTION))), done])
    view, _ = await follow_up(agent, streaming=False, blocking=False)
    assert view.state is TaskState.COMPLETED
    assert agent.calls == ["SendMessage", "GetTask", "GetTask"]


# --- a task that never ends: followed to a bound, not for ever ------------------------------------------


async def test_a_task_left_working_is_given_up_on_after_the_idle_limit_across_reattachments():
    from switchboard.a2a.errors import TimedOutError

    working = Task(id=TASK, context_id=CTX, status=status(TaskState.WORKING, "at it"))
    agent = Agent(
        SendStreamingMessage=hanging([frame(working)]),
        GetTask=rpc_result(v10.encode_task(working)),
        SubscribeToTask=[hanging([frame(working)]) for _ in range(50)],  # a fresh stream each time
    )
    policy = FollowPolicy(stall_timeout=0.05, backoff=0.001, max_backoff=0.01, poll_interval=0.02, idle_limit=0.5)
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    notices = []
    with pytest.raises(TimedOutError) as caught:
        async with asyncio.timeout(30):
            async for event in follow_turn(client, new_message("go"), policy=policy):
                if isinstance(event, Notice):
                    notices.append(event.text)
    await http.aclose()
    assert caught.value.exit_code == 5
    assert f"task {TASK} has not changed for 0.5 s (still working)" == caught.value.message
    assert "GetTask" in agent.calls and "SubscribeToTask" in agent.calls


async def test_a_polled_task_left_working_is_given_up_on_too():
    from switchboard.a2a.errors import TimedOutError

    working = Task(id=TASK, context_id=CTX, status=status(TaskState.WORKING))
    agent = Agent(SendMessage=rpc_result(v10.encode_send_result(working)), GetTask=rpc_result(v10.encode_task(working)))
    with pytest.raises(TimedOutError):
        await asyncio.wait_for(follow_up(agent, FollowPolicy(poll_interval=0.02, idle_limit=0.2), streaming=False), 30)


async def test_the_command_line_prints_a_state_read_again_once(capsys):
    from types import SimpleNamespace

    from switchboard.cli.following import consume_turn
    from switchboard.cli.output import Out

    working = Task(id=TASK, context_id=CTX, status=status(TaskState.WORKING, "at it"))

    async def events(view):
        for event in (working, working, working, update(TaskState.COMPLETED, "done")):
            view.apply(event)
            yield event

    view = TaskView()
    await consume_turn(events(view), view, SimpleNamespace(output="text"), Out(), live=True)
    out = capsys.readouterr().out
    assert out.count("State: working") == 1 and out.count("State: completed") == 1
