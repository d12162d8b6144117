"""A transcript told for people: per exchange, what was sent, the states the task went through (with what the
agent said on the way), its artifacts as they stood at the end of the exchange, the question it stopped on, and
the outcome. The Markdown and HTML exports render this same story, each in its own syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..a2a.model import ArtifactUpdate, Message, Part, Role, Task
from ..a2a.turn import TaskView
from .transcript import Transcript


@dataclass
class StateLine:
    at: str
    state: str
    parts: list[Part] = field(default_factory=list)  # the status message, when it has one


@dataclass
class AgentMessage:
    at: str
    parts: list[Part]


@dataclass
class ArtifactBlock:
    artifact_id: str
    name: str | None
    description: str | None
    parts: list[Part]


Item = StateLine | AgentMessage


@dataclass
class Section:
    number: int
    agent: str
    sent_at: str | None
    sent: list[Part] | None  # None: the exchange re-attached to a running task, nothing was sent
    secret: bool
    answering: bool  # the message answers the question the task stopped on
    step: str | None
    attempt: int | None
    items: list[Item] = field(default_factory=list)
    artifacts: list[ArtifactBlock] = field(default_factory=list)
    asked: tuple[str, list[Part]] | None = None  # the state the task waits in, and its question
    outcome: str = ""
    task_id: str | None = None
    context_id: str | None = None
    notices: list[str] = field(default_factory=list)
    error: dict[str, str] | None = None
    complete: bool = True


@dataclass
class Story:
    title: str
    kind: str
    exported_at: str
    agents: dict[str, str]
    run: dict[str, Any] | None
    sections: list[Section]


def clock(stamp: str | None) -> str:
    """`2026-03-15T10:15:02.123Z` -> `10:15:02`; anything else as it is."""
    if stamp and len(stamp) >= 19 and stamp[10] == "T":
        return stamp[11:19]
    return stamp or ""


def tell(transcript: Transcript) -> Story:
    views: dict[int, TaskView] = {}
    sections = []
    for number, exchange in enumerate(transcript.exchanges, start=1):
        view = views.get(exchange.view)
        waiting_before = view is not None and view.state is not None and view.state.is_interrupted
        view = views.setdefault(exchange.view, TaskView())
        if exchange.answers is not None:
            view.answered = exchange.answers
        message = exchange.message
        section = Section(
            number,
            exchange.agent,
            exchange.sent_at,
            list(message.parts) if message is not None else None,
            exchange.secret,
            exchange.answers is not None or waiting_before or bool(message and message.task_id),
            exchange.step,
            exchange.attempt,
            notices=list(exchange.notices),
            error=exchange.error,
            complete=exchange.complete,
        )
        touched: list[str] = []
        last_state: tuple[str, str] | None = None
        for recorded in exchange.events:
            event = recorded.event
            view.apply(event)
            if type(event) is ArtifactUpdate:
                if event.artifact.artifact_id not in touched:
                    touched.append(event.artifact.artifact_id)
                continue
            if type(event) is Message:
                if event.role is not Role.USER and event.parts:
                    section.items.append(AgentMessage(recorded.at, list(event.parts)))
                continue
            if type(event) is Task:
                touched += [a.artifact_id for a in event.artifacts or [] if a.artifact_id not in touched]
            status = event.status  # a Task or a StatusUpdate by now: the event classes are final
            said = list(status.message.parts) if status.message is not None else []
            key = (status.state.value, status.message.message_id if status.message else "")
            if key != last_state:
                last_state = key
                section.items.append(StateLine(recorded.at, status.state.value, said))
        for artifact_id in touched:
            artifact = view.artifacts.get(artifact_id)
            if artifact is not None:
                section.artifacts.append(
                    ArtifactBlock(artifact_id, artifact.name, artifact.description, list(artifact.to_artifact().parts))
                )
        state = view.state
        if view.reply is not None:
            section.outcome = "replied"
        elif state is not None:
            section.outcome = state.value
        if state is not None and state.is_interrupted and view.reply is None:
            section.asked = (state.value, list(view.question))
            last = section.items[-1] if section.items else None
            if isinstance(last, StateLine) and last.parts == section.asked[1]:
                last.parts = []  # the question is told once, as the question
        section.task_id, section.context_id = view.task_id, view.context_id
        sections.append(section)
    return Story(transcript.title, transcript.kind, transcript.exported_at, transcript.agents, transcript.run, sections)
