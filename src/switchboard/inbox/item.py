"""One thing waiting for a person: who asks, what, since when, and where it lives (and so how it is answered)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from ..a2a.model import Part, TextPart
from ..safe_text import strip_controls

Kind = Literal["task", "run", "temporal"]
KIND_LETTER: dict[str, str] = {"task": "t", "run": "r", "temporal": "w"}
FIRST_LINE_MAX = 200  # characters of a question shown on its row


def item_id(kind: Kind, *where: str) -> str:
    """A short id the person can type (`switchboard answer ID ...`): the kind's letter and a digest of where the
    item lives, the same in every process that finds it (the TUI, `switchboard inbox`)."""
    digest = hashlib.sha256("\x00".join([kind, *where]).encode("utf-8", "surrogatepass")).hexdigest()
    return KIND_LETTER[kind] + digest[:7]


def first_line(text: str, limit: int = FIRST_LINE_MAX) -> str:
    """The question's first line with words in it, control characters stripped, at most `limit` characters."""
    for line in strip_controls(text).splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


def waited(since: float | None, now: float) -> str:
    """How long an item has waited, as a person says it: 40s, 12m, 3h, 2d ("" when not known)."""
    if since is None:
        return ""
    seconds = max(0, int(now - since))
    for size, unit in ((86_400, "d"), (3_600, "h"), (60, "m")):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


@dataclass(frozen=True)
class InboxItem:
    """A question waiting for an answer. `where` says where it lives for the person; the addressing fields say it
    for the code that answers (a task: agent and task ids; a run: run id and step; on Temporal: the question's id
    too). `note` says what is odd about it (the agent no longer knows the task); `stale` items can only be
    dismissed."""

    kind: Kind
    who: str  # "interviewer", or "run interview · step ask"
    question: str  # the question's text, controls stripped
    state: str  # input-required or auth-required
    since: float | None  # epoch seconds it began to wait, when known
    where: str  # "tab 3", "local run 20260315T101500-3f9c2a", "Temporal 127.0.0.1:7233"
    agent: str = ""  # the agent's name (a task's, or the asking step's)
    agent_url: str = ""
    task_id: str = ""
    context_id: str = ""
    run_id: str = ""
    step: str = ""
    ask_id: str = ""  # a Temporal run's question id: the answer goes to this question and no later one
    note: str = ""
    stale: bool = False
    live_elsewhere: bool = False  # a local run another process runs: it can be answered only there
    remembered: bool = False  # a task kept from before, open in no tab: the person may let go of it (dismiss)
    parts: tuple[Part, ...] = field(default=(), compare=False)  # the question as asked (data parts: choices)

    @property
    def key(self) -> tuple[str, ...]:
        """Where it lives: one item per task, or per run and step."""
        if self.kind == "task":
            return (self.kind, self.agent_url.rstrip("/"), self.task_id)
        return (self.kind, self.run_id, self.step)

    @property
    def id(self) -> str:
        return item_id(self.kind, *self.key[1:])

    @property
    def first_line(self) -> str:
        return first_line(self.question) or "(no question text)"

    @property
    def secret(self) -> bool:
        """The answer is a credential (typed masked, never kept)."""
        return self.state == "auth-required"


def sort_oldest_first(items: list[InboxItem]) -> list[InboxItem]:
    """Oldest first; items whose time is not known go last, then by id (a stable order)."""
    return sorted(items, key=lambda item: (item.since is None, item.since or 0.0, item.id))


def question_text(parts: list[Part] | tuple[Part, ...]) -> str:
    """The text of a question's text parts, controls stripped."""
    return strip_controls("".join(part.text for part in parts if isinstance(part, TextPart)))
