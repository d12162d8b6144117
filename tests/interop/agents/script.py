"""What the reference agent does, as SDK-neutral steps.

Both reference servers (a2a-sdk 1.3 and 0.3.26) replay these steps through their own SDK types, so the two
behave identically. Stdlib only: this module is imported under both venvs.

The first word of the user's text picks the flow (see SKILL_DESCRIPTION); a follow-up on a task waiting for
input or auth continues that task's flow instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass

STEP_PAUSE = 0.05  # between greet/auth steps: streaming is real, tests stay fast
TICK_PAUSE = 0.1
SLOW_LIMIT = 30.0
BIG_CHUNKS = 8  # the 'big' flow's artifact: this many chunks of BIG_CHUNK_SIZE characters, then it ticks
BIG_CHUNK_SIZE = 64 * 1024

# Neutral state names (the v0.3 spellings); each server maps them onto its SDK's enum.
WORKING, INPUT_REQUIRED, AUTH_REQUIRED = "working", "input-required", "auth-required"
COMPLETED, FAILED, REJECTED, CANCELED = "completed", "failed", "rejected", "canceled"
CANCEL_TEXT = "canceled by request"
AUTH_PROMPT = "Send your access code to continue"

AGENT_NAME = "Switchboard Reference Agent"
AGENT_DESCRIPTION = "Deterministic A2A agent the switchboard interop tests run against."
SKILL_ID, SKILL_NAME = "greet", "Greeter"
SKILL_EXAMPLES = ["hi", "quick hello", "slow job", "fail please", "parts please"]
SKILL_TAGS = ["test", "multi-turn", "streaming"]
SKILL_DESCRIPTION = (
    "The first word decides: 'quick' replies with a message (no task); 'fail' fails; 'reject' is rejected; "
    "'crash' raises in the executor; 'slow' ticks every 0.1 s for 30 s (cancel or resubscribe it); "
    "'big' streams a 512 KB artifact in 8 chunks, then ticks like 'slow'; "
    "'parts' returns data and file parts; 'auth' needs 'code <anything>' (auth-required); anything else asks "
    "for a name (input-required) and streams a greeting artifact in 3 chunks."
)
SECRET_SKILL = {"id": "secret", "name": "Extended-only skill", "description": "Only in the extended card."}


@dataclass(frozen=True)
class TextPart:
    text: str


@dataclass(frozen=True)
class DataPart:
    value: object


@dataclass(frozen=True)
class FilePart:
    name: str | None
    media_type: str | None
    raw: bytes | None = None  # inline content, decoded
    url: str | None = None


Part = TextPart | DataPart | FilePart


@dataclass(frozen=True)
class Incoming:
    """The user's message, plus the state of the task it continues (None: no task yet)."""

    parts: tuple[Part, ...]
    task_state: str | None = None

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.parts if isinstance(p, TextPart)).strip()


# --- steps -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """A direct Message answer; no task is created."""

    parts: tuple[Part, ...]


@dataclass(frozen=True)
class NewTask:
    """Publish the Task snapshot (state submitted) for the incoming message."""


@dataclass(frozen=True)
class Status:
    state: str
    text: str


@dataclass(frozen=True)
class ArtifactChunk:
    artifact_id: str
    name: str
    parts: tuple[Part, ...]
    append: bool = False
    last_chunk: bool = False


@dataclass(frozen=True)
class Pause:
    seconds: float


@dataclass(frozen=True)
class Crash:
    message: str


Step = Reply | NewTask | Status | ArtifactChunk | Pause | Crash
Emit = Callable[[Reply | NewTask | Status | ArtifactChunk], Awaitable[None]]


def plan(incoming: Incoming) -> Iterator[Step]:
    """The steps answering one incoming message."""
    flow = _choose_flow(incoming)
    if flow is _quick:  # a direct reply: no task, so no artifacts either
        yield from _quick(incoming)
        return
    if incoming.task_state is None:
        yield NewTask()
    if received := _received_summary(incoming.parts):
        # Lets client tests check that --data / --file reached the agent.
        yield ArtifactChunk("received-artifact", "received", (DataPart(received),), last_chunk=True)
    yield from flow(incoming)


async def perform(steps: Iterator[Step], emit: Emit, canceled: Callable[[], bool]) -> None:
    """Run steps, handing the publishable ones to the server's `emit`; stop as soon as the task is canceled."""
    for step in steps:
        if canceled():
            return
        if isinstance(step, Pause):
            await asyncio.sleep(step.seconds)
        elif isinstance(step, Crash):
            raise RuntimeError(step.message)
        else:
            await emit(step)


# --- flows ---------------------------------------------------------------------------------------------------


def _choose_flow(incoming: Incoming) -> Callable[[Incoming], Iterator[Step]]:
    # A follow-up answers the question the task is waiting on, whatever its first word.
    if incoming.task_state == INPUT_REQUIRED:
        return _greet_answer
    if incoming.task_state == AUTH_REQUIRED:
        return _auth_answer
    words = incoming.text.split(maxsplit=1)
    first = words[0].lower() if words else ""
    return _FLOWS.get(first, _greet)


def _quick(incoming: Incoming) -> Iterator[Step]:
    # No task means no artifact, so what arrived rides along as a data part of the reply.
    received = _received_summary(incoming.parts)
    extra = (DataPart(received),) if received else ()
    yield Reply((TextPart(f"quick reply to: {incoming.text}"), *extra))


def _greet(incoming: Incoming) -> Iterator[Step]:
    yield Status(WORKING, "thinking")
    yield Pause(STEP_PAUSE)
    yield Status(WORKING, "checking what I need")
    yield Pause(STEP_PAUSE)
    yield Status(INPUT_REQUIRED, "What name should I greet?")


def _greet_answer(incoming: Incoming) -> Iterator[Step]:
    name = incoming.text
    yield Status(WORKING, f"got it: {name}")
    chunks = ("Hello, ", name, "! Nice to meet you.")
    for i, chunk in enumerate(chunks):
        yield Pause(STEP_PAUSE)
        last = i == len(chunks) - 1
        yield ArtifactChunk("greeting-artifact", "greeting", (TextPart(chunk),), append=i > 0, last_chunk=last)
    yield Pause(STEP_PAUSE)
    yield Status(COMPLETED, "done")


def _auth(incoming: Incoming) -> Iterator[Step]:
    yield Status(WORKING, "checking access")
    yield Pause(STEP_PAUSE)
    yield Status(AUTH_REQUIRED, AUTH_PROMPT)


def _auth_answer(incoming: Incoming) -> Iterator[Step]:
    if not incoming.text.lower().startswith("code "):
        yield Status(AUTH_REQUIRED, AUTH_PROMPT)
        return
    yield Status(WORKING, "access granted")
    yield Pause(STEP_PAUSE)
    yield Status(COMPLETED, "authorized")


def _fail(incoming: Incoming) -> Iterator[Step]:
    yield Status(WORKING, "about to fail")
    yield Pause(STEP_PAUSE)
    yield Status(FAILED, "failed on purpose")


def _reject(incoming: Incoming) -> Iterator[Step]:
    yield Status(REJECTED, "rejected on purpose")


def _crash(incoming: Incoming) -> Iterator[Step]:
    yield Status(WORKING, "about to crash")
    yield Pause(STEP_PAUSE)
    yield Crash("executor crashed on purpose")


def _slow(incoming: Incoming) -> Iterator[Step]:
    for tick in range(1, round(SLOW_LIMIT / TICK_PAUSE) + 1):
        yield Status(WORKING, f"tick {tick}")
        yield Pause(TICK_PAUSE)
    yield ArtifactChunk("slow-result-artifact", "slow-result", (TextPart("slow job done"),), last_chunk=True)
    yield Status(COMPLETED, "done")


def big_chunk(i: int) -> str:
    """Chunk `i` of the 'big' flow's artifact: numbered lines, with escapes on the wire (quotes, newlines)."""
    line = f'{i:04d} "a big artifact" goes on\n'
    return (line * (BIG_CHUNK_SIZE // len(line) + 1))[:BIG_CHUNK_SIZE]


def _big(incoming: Incoming) -> Iterator[Step]:
    yield Status(WORKING, "writing a big artifact")
    for i in range(BIG_CHUNKS):
        chunk = (TextPart(big_chunk(i)),)
        yield ArtifactChunk("big-artifact", "big", chunk, append=i > 0, last_chunk=False)
    yield from _slow(incoming)


def _parts(incoming: Incoming) -> Iterator[Step]:
    extras = (
        DataPart({"name": "Ada", "length": 3}),
        FilePart("hello.txt", "text/plain", raw=b"hello bytes\n"),
        FilePart("hello.png", "image/png", url="https://example.com/hello.png"),
    )
    yield ArtifactChunk("extras-artifact", "extras", extras, last_chunk=True)
    yield Status(COMPLETED, "done")


_FLOWS = {
    "quick": _quick,
    "fail": _fail,
    "reject": _reject,
    "crash": _crash,
    "slow": _slow,
    "big": _big,
    "parts": _parts,
    "auth": _auth,
}


def _received_summary(parts: tuple[Part, ...]) -> dict | None:
    """What arrived, when the message carried more than text (None otherwise)."""
    if all(isinstance(p, TextPart) for p in parts):
        return None
    kinds = ["text" if isinstance(p, TextPart) else "data" if isinstance(p, DataPart) else "file" for p in parts]
    files = [
        {
            "name": p.name,
            "mediaType": p.media_type,
            "size": None if p.raw is None else len(p.raw),
            "url": p.url,
        }
        for p in parts
        if isinstance(p, FilePart)
    ]
    return {"kinds": kinds, "data": [p.value for p in parts if isinstance(p, DataPart)], "files": files}
