"""What an export holds, whatever its format: the exchanges with agents, each a message sent and the events that
came back with the time each arrived, and how they fold into task views.

Built from a conversation (one exchange per turn), from a run's journal (one per step attempt, and one per
answer to a step's question), or from one `send`. Exchanges that share a `view` number fold into one TaskView,
in order: a run's answers continue their step's view, as the engine's own view does. `replay` does that fold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from ..a2a.model import Message, Role, TaskStatus, TextPart
from ..a2a.recording import Recorded, Recording, now_iso
from ..a2a.turn import TaskView
from ..a2a.wire import v10
from ..a2a.wire.common import Notes, WireFormatError

if TYPE_CHECKING:
    from ..conversation import Conversation, Turn
    from ..workflow.runs import RunRecord

Kind = Literal["conversation", "run", "send"]


@dataclass
class Exchange:
    view: int  # exchanges with one view number fold into one TaskView, in order
    agent: str
    message: Message | None  # what was sent; None when the exchange re-attached to a task already running
    sent_at: str | None
    events: list[Recorded] = field(default_factory=list)
    secret: bool = False  # the message is a credential: its text is never exported
    answers: TaskStatus | None = None  # the interrupted status this message answers (TaskView.answered)
    notices: list[str] = field(default_factory=list)
    error: dict[str, str] | None = None  # code, message, hint
    step: str | None = None
    attempt: int | None = None
    complete: bool = True  # False: chunks past the recording's bound were left out (a snapshot ends the events)


@dataclass
class Transcript:
    kind: Kind
    title: str
    exchanges: list[Exchange] = field(default_factory=list)
    agents: dict[str, str] = field(default_factory=dict)  # name -> URL
    exported_at: str = field(default_factory=now_iso)
    run: dict[str, Any] | None = None  # a run's id, workflow, status, inputs, outputs and steps


def replay(transcript: Transcript) -> dict[int, TaskView]:
    """Fold every exchange's events into its view, in order: the views the exchanges built."""
    views: dict[int, TaskView] = {}
    for exchange in transcript.exchanges:
        view = views.setdefault(exchange.view, TaskView())
        if exchange.answers is not None:
            view.answered = exchange.answers
        for recorded in exchange.events:
            view.apply(recorded.event)
    return views


def _events_of(recording: Recording, view: TaskView) -> tuple[list[Recorded], bool]:
    events = recording.events
    if recording.complete:
        return events, True
    task = view.to_task()  # the chunks left out are in the view: its snapshot brings the artifacts there
    return ([*events, Recorded(now_iso(), task)] if task is not None else events), False


def _error_of(turn: Turn) -> dict[str, str] | None:
    error = turn.error
    if error is None:
        return None
    return {"code": error.code, "message": error.message, **({"hint": error.hint} if error.hint else {})}


def of_conversation(conversation: Conversation, agent: str, url: str = "") -> Transcript:
    """A conversation's turns, one exchange (and one view) each, as the TUI shows them."""
    transcript = Transcript("conversation", f"Conversation with {agent}", agents={agent: url} if url else {})
    for number, turn in enumerate(conversation.turns, start=1):
        transcript.exchanges.append(of_turn(turn, agent, number))
    return transcript


def of_turn(turn: Turn, agent: str, view: int = 1) -> Exchange:
    events, complete = _events_of(turn.recording, turn.view)
    return Exchange(
        view,
        agent,
        turn.message,
        turn.sent_at,
        events,
        secret=turn.secret,
        answers=turn.view.answered,
        notices=[notice.text for notice in turn.notices],
        error=_error_of(turn),
        complete=complete,
    )


def of_send(
    message: Message, sent_at: str, recording: Recording, view: TaskView, agent: str, url: str, notices: list[str]
) -> Transcript:
    """One `send`: its message and what came back."""
    events, complete = _events_of(recording, view)
    exchange = Exchange(1, agent, message, sent_at, events, notices=notices, complete=complete)
    return Transcript("send", f"{agent}: one message", [exchange], agents={agent: url} if url else {})


def _timeline_of(record: RunRecord) -> dict[str, list[dict[str, Any]]]:
    """Per step, its spans (attempts, waits for a person) with ISO times: what the export's timeline draws."""
    from ..workflow.picture import timeline

    def iso(at: float | None) -> str | None:
        if at is None:
            return None
        return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")

    bars = timeline(record.records, record.steps)
    return {
        name: [{"kind": s.kind, "start": iso(s.start), "end": iso(s.end), "attempt": s.attempt} for s in bar.spans]
        for name, bar in bars.items()
    }


def of_run(record: RunRecord, agent_urls: dict[str, str] | None = None) -> Transcript:
    """A run as its journal tells it: per step, an exchange per message sent (the task, then each answer)."""
    run = {
        "runId": record.run_id,
        "workflow": record.workflow,
        "file": record.path,
        "status": record.status,
        "inputs": dict(record.inputs),
        "outputs": dict(record.outputs),
        "steps": {
            name: {
                "type": step.type,
                "agent": step.agent,
                "status": step.status,
                "dependsOn": list(step.depends_on),
                **({"output": step.output} if step.output else {}),
                **({"error": {"code": step.error_code, "message": step.error}} if step.error else {}),
                **({"skipped": step.skipped_reason} if step.skipped_reason else {}),
            }
            for name, step in record.steps.items()
        },
    }
    run["timeline"] = _timeline_of(record)
    transcript = Transcript("run", f"Run {record.run_id} of {record.workflow}", run=run)
    agents = {name: step.agent for name, step in record.steps.items() if step.agent}
    transcript.agents = {a: (agent_urls or {}).get(a, "") for a in dict.fromkeys(agents.values())}
    views = 0
    current: dict[str, Exchange] = {}  # step -> the exchange its events go to
    answers: dict[str, int] = {}

    def open_exchange(step: str, message: Message | None, at: str | None, *, same_view: bool, **extra) -> Exchange:
        nonlocal views
        previous = current.get(step)
        if not (same_view and previous is not None):
            views += 1
        view = previous.view if same_view and previous is not None else views
        attempt = extra.pop("attempt", previous.attempt if previous else None)
        exchange = Exchange(view, agents.get(step, ""), message, at, step=step, attempt=attempt, **extra)
        transcript.exchanges.append(exchange)
        current[step] = exchange
        return exchange

    notes = Notes()
    for item in record.records:
        kind, step, at = item.get("type"), item.get("step"), item.get("at")
        if not isinstance(step, str):
            continue
        if kind == "StepRequested":
            message = Message(
                message_id=str(item.get("messageId") or f"{record.run_id}:{step}:{item.get('attempt', 1)}"),
                role=Role.USER,
                parts=[TextPart(text=str(item.get("input", "")))],
                context_id=item.get("contextId"),
            )
            open_exchange(step, message, at, same_view=False, attempt=int(item.get("attempt", 1)))
        elif kind == "StepTaskMoved":
            open_exchange(step, None, at, same_view=False)
        elif kind == "InputSubmitted":
            answers[step] = answers.get(step, 0) + 1
            secret = bool(item.get("secret"))
            message = Message(
                # The journal keeps the answer, not its message id: a stand-in id that says what it is.
                message_id=f"{record.run_id}:{step}:answer-{answers[step]}",
                role=Role.USER,
                parts=[TextPart(text="" if secret else str(item.get("answer", "")))],
                task_id=item.get("taskId"),
            )
            open_exchange(step, message, at, same_view=True, secret=secret)
        elif kind == "StepEvent":
            exchange = current.get(step) or open_exchange(step, None, at, same_view=False)
            try:
                exchange.events.append(Recorded(str(at or ""), v10.decode_event(item.get("event"), notes)))
            except (WireFormatError, ValueError, TypeError):
                exchange.notices.append("an event the journal holds could not be read; left out")
        elif kind == "StepNotice":
            exchange = current.get(step) or open_exchange(step, None, at, same_view=False)
            exchange.notices.append(str(item.get("text", "")))
        elif kind == "StepFailed" and step in current:
            current[step].error = {"code": str(item.get("code", "")), "message": str(item.get("error", ""))}
    return transcript
