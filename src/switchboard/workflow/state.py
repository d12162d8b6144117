"""What a run looks like while it goes: each step's state, the questions steps ask, and the run's events.

Plain dataclasses, shared by the engine (which updates them), the journal (which rebuilds them from its
records) and whoever shows a run (the TUI, the headless command line).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from ..a2a.auth.sign_in_offer import SignInOffer
from ..a2a.follow import TurnEvent
from ..a2a.model import Part, TaskState, text_of
from ..a2a.turn import TaskView

StepStatus = Literal["pending", "running", "waiting", "completed", "failed", "canceled", "skipped"]
RunStatus = Literal["running", "completed", "failed", "canceled", "awaiting_input", "interrupted"]
FINISHED_STEP = frozenset({"completed", "failed", "canceled", "skipped"})


@dataclass(frozen=True)
class SignIn:
    """An auth-required question switchboard can answer itself: the OAuth sign-in it asks for, run on the token
    source of the step's own link (the person is shown what the flow needs); the task is then told so (`answer`)
    and goes on with the new token."""

    offer: SignInOffer
    source: Any  # the step link's OAuth token source

    async def run(self) -> None:
        await self.offer.sign_in(self.source)

    @property
    def answer(self) -> str:
        return self.offer.answer


@dataclass
class AskRequest:
    """A step's agent asks something (input-required) or wants a credential (auth-required).

    The answer continues the same task: `task_id` in `context_id`. An auth-required answer is a secret: it
    is redacted everywhere and never journaled.
    """

    step: str
    state: TaskState
    question: list[Part]
    task_id: str | None
    context_id: str | None
    correlation_id: str
    agent: str = ""
    run_id: str = ""
    sign_in: SignIn | None = field(default=None, compare=False)  # when switchboard can get the credential itself
    # The answer when it is not text: an A2UI form's action event, set by whoever answers (the run view) before the
    # text answer (then a one-line summary of it, for the journal) resolves the ask.
    answer_parts: list[Part] | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        return text_of(self.question)

    @property
    def secret(self) -> bool:
        return self.state == TaskState.AUTH_REQUIRED


@dataclass
class StepState:
    """One step as it stands. `view` is the live A2A task (artifacts grow chunk by chunk)."""

    name: str
    type: str = "a2a"
    status: StepStatus = "pending"
    agent: str | None = None
    depends_on: list[str] = field(default_factory=list)
    started_at: float | None = None  # epoch seconds
    ended_at: float | None = None
    task_id: str | None = None
    context_id: str | None = None
    correlation_id: str | None = None
    view: TaskView = field(default_factory=TaskView)
    output: str = ""
    error_code: str | None = None
    error: str | None = None
    attempt: int = 0
    exit_code: int | None = None  # shell steps
    message_id: str | None = None  # the message that started the current attempt's task
    question: AskRequest | None = None  # while waiting
    skipped_reason: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in FINISHED_STEP

    @property
    def state(self) -> str:
        """What `{{steps.X.state}}` gives: the A2A task state when there is one, else the step's status."""
        if self.type == "a2a" and self.view.state is not None:
            return self.view.state.value
        return self.status

    @property
    def elapsed(self) -> float | None:
        if self.started_at is None:
            return None
        return (self.ended_at or time.time()) - self.started_at


# --- run events: what WorkflowRun.events() yields --------------------------------------------------------


@dataclass(frozen=True)
class RunStarted:
    run_id: str
    workflow: str
    resumed: bool = False


@dataclass(frozen=True)
class StepStarted:
    step: str
    agent: str | None
    attempt: int
    reattached: bool = False  # a resumed run following a task that was already running


@dataclass(frozen=True)
class StepEvent:
    """An A2A event (or a connection Notice) of a step's task, as the protocol core gave it."""

    step: str
    event: TurnEvent


@dataclass(frozen=True)
class StepOutput:
    """Output of a shell step, line by line."""

    step: str
    text: str
    stream: Literal["stdout", "stderr"] = "stdout"


@dataclass(frozen=True)
class StepAwaitingInput:
    request: AskRequest


@dataclass(frozen=True)
class StepInputSubmitted:
    step: str
    secret: bool = False


@dataclass(frozen=True)
class StepCompleted:
    step: str
    output: str


@dataclass(frozen=True)
class StepFailed:
    step: str
    code: str
    error: str
    task_id: str | None = None
    retrying: bool = False  # another attempt follows


@dataclass(frozen=True)
class StepCanceled:
    step: str


@dataclass(frozen=True)
class StepSkipped:
    step: str
    reason: str


@dataclass(frozen=True)
class RunFinished:
    status: RunStatus
    outputs: dict[str, str]


RunEvent = (
    RunStarted
    | StepStarted
    | StepEvent
    | StepOutput
    | StepAwaitingInput
    | StepInputSubmitted
    | StepCompleted
    | StepFailed
    | StepCanceled
    | StepSkipped
    | RunFinished
)
