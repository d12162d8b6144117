"""`demo --replay FILE`: a recorded transcript (a JSON export, `send --record FILE.json`) served as live A2A agents.

Each agent named in the recording becomes an agent on the SDK server classes whose executor answers a message with
the next recorded exchange: the same events, chunk for chunk, in the same order, optionally at their recorded pace.
A message that starts a task plays the next unplayed first exchange of a task (the one whose text matches, else the
next in order); a message to a task that waits plays the next exchange of that task (the recorded answer's). Ids are
the live ones: the server's task and context ids replace the recorded ones in every event, so clients can follow, get
and cancel.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict, ParseDict, ParseError
from google.protobuf.timestamp_pb2 import Timestamp

from ..a2a.model import Artifact, ArtifactUpdate, FilePart, Message, StatusUpdate, StreamEvent, Task, TextPart
from ..a2a.recording import Recorded
from ..a2a.wire import v10
from ..export.transcript import Exchange, Transcript
from .base import DemoAgent, DemoSettings, ServedApp
from .replay_numbers import RecordedNumbers, recorded_numbers
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

MAX_PAUSE = 60.0  # seconds: a recording's longest gap is played at most this long (a stalled agent, a coffee break)
_NAME = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class _Script:
    """One agent's recorded exchanges as tasks (each a first exchange and the answers that continued it), and what
    has been played."""

    tasks: list[list[Exchange]] = field(default_factory=list)  # in the order their first exchange was recorded
    started: set[int] = field(default_factory=set)
    played: dict[int, int] = field(default_factory=dict)  # task -> exchanges of it played
    live: dict[str, int] = field(default_factory=dict)  # live task id -> the recorded task it plays

    def first(self, said: str) -> int | None:
        """The task a new one plays: the first unplayed one whose message says `said`, else the next unplayed."""
        fresh = [n for n in range(len(self.tasks)) if n not in self.started]
        for number in fresh:
            if _text_of(self.tasks[number][0].message) == said:
                return number
        return fresh[0] if fresh else None

    def next_of(self, number: int) -> Exchange | None:
        done = self.played.get(number, 0)
        exchanges = self.tasks[number]
        if done >= len(exchanges):
            return None
        self.played[number] = done + 1
        return exchanges[done]


def _text_of(message: Message | None) -> str:
    if message is None:
        return ""
    return " ".join(p.text for p in message.parts if isinstance(p, TextPart)).strip()


def agent_names(transcript: Transcript) -> list[str]:
    """The agents the recording talked to, in order, as names an agents file takes."""
    names: list[str] = []
    for exchange in transcript.exchanges:
        name = served_name(exchange.agent)
        if name not in names:
            names.append(name)
    return names


def served_name(recorded: str) -> str:
    """A recorded agent (a name, or the URL `send` was given) as an agents-file name."""
    if "://" in recorded:
        recorded = recorded.split("://", 1)[1]
    name = _NAME.sub("-", recorded).strip("-")
    return name if name[:1].isalpha() else f"agent-{name}" if name else "agent"


def scripts_of(transcript: Transcript) -> dict[str, _Script]:
    """Per agent, its recorded tasks: an exchange that answers a task (its message names the task, or it shares
    the task's view, as a run's answers do) continues that task; any other starts one."""
    scripts: dict[str, _Script] = {}
    by_task: dict[tuple[str, str], int] = {}  # (agent, recorded task id) -> task number
    by_view: dict[tuple[str, int], int] = {}
    for exchange in transcript.exchanges:
        if exchange.message is None:  # a re-attach to a running task: nothing was sent, nothing to answer
            continue
        name = served_name(exchange.agent)
        script = scripts.setdefault(name, _Script())
        asked = exchange.message.task_id
        number = by_task.get((name, asked)) if asked else None
        if number is None and asked:
            number = by_view.get((name, exchange.view))
        if number is None:
            number = len(script.tasks)
            script.tasks.append([])
        script.tasks[number].append(exchange)
        by_view[(name, exchange.view)] = number
        for recorded in exchange.events:
            task_id = getattr(recorded.event, "task_id", None) or getattr(recorded.event, "id", None)
            if task_id:
                by_task[(name, task_id)] = number
    return scripts


def first_messages(transcript: Transcript) -> dict[str, str]:
    """Per agent, the text of the first message the recording sent it (what to send the replay first)."""
    return {name: _text_of(script.tasks[0][0].message) for name, script in scripts_of(transcript).items()}


def pauses(exchange: Exchange) -> list[float]:
    """Seconds to wait before each recorded event: the gaps between their arrival times (from the send)."""
    previous = _instant(exchange.sent_at)
    out = []
    for recorded in exchange.events:
        at = _instant(recorded.at)
        gap = (at - previous) if at is not None and previous is not None else 0.0
        out.append(min(max(gap, 0.0), MAX_PAUSE))
        previous = at if at is not None else previous
    return out


def _instant(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def live_event(
    recorded: Recorded, task_id: str, context_id: str, sent: tuple[str, pb.Message] | None = None
) -> pb.Task | pb.Message | pb.TaskStatusUpdateEvent | pb.TaskArtifactUpdateEvent:
    """A recorded event as the SDK's protobuf object, with the live task and context ids in place of the recorded,
    and the live message in a task's history where the recorded one was (`sent`: its recorded id, the live one).
    A status time is served as protobuf reads one (servable_time)."""
    encoded = v10.encode_event(recorded.event)
    status = (encoded.get("task") or encoded.get("statusUpdate") or {}).get("status")
    if status and "timestamp" in status:
        stamp = servable_time(status["timestamp"])
        if stamp is None:
            del status["timestamp"]
        else:
            status["timestamp"] = stamp
    response = ParseDict(encoded, pb.StreamResponse(), ignore_unknown_fields=True)
    event = getattr(response, response.WhichOneof("payload"))
    if isinstance(event, pb.Task):
        event.id, event.context_id = task_id, context_id
        for message in event.history:
            if sent is not None and message.message_id == sent[0]:
                message.CopyFrom(sent[1])
            _relabel(message, task_id, context_id)
        _relabel(event.status.message, task_id, context_id)
    elif isinstance(event, pb.Message):
        _relabel(event, task_id, context_id)
    else:  # a status or artifact update
        event.task_id, event.context_id = task_id, context_id
        if isinstance(event, pb.TaskStatusUpdateEvent):
            _relabel(event.status.message, task_id, context_id)
    return event


def servable_time(stamp: Any) -> str | None:
    """A recorded status time as protobuf's Timestamp reads it (RFC 3339 with a zone): as recorded when it is one;
    a time without a zone (`2026-11-27T05:06:22.393536`, as some servers send) as UTC; None for what is no time."""
    if not isinstance(stamp, str):
        return None
    try:
        Timestamp().FromJsonString(stamp)
        return stamp
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00").replace("z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        iso = moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        Timestamp().FromJsonString(iso)
    except (ValueError, OverflowError):
        return None
    return iso


def base64_bytes(text: str) -> bytes | None:
    """The bytes `text` holds in base64 (standard or URL-safe, padded or not), or None when it is not base64: what
    protobuf would read from it then is not what was recorded."""
    padded = text + "=" * (-len(text) % 4)
    try:
        return base64.b64decode(padded.translate(_URL_SAFE), validate=True)
    except (ValueError, binascii.Error):
        return None


_URL_SAFE = str.maketrans("-_", "+/")


def _raw_files(event: StreamEvent) -> list[str]:
    """The inline bytes (base64) of every file part an event holds: its messages' and its artifacts'."""
    messages: list[Message | None] = []
    artifacts: list[Artifact] = []
    if isinstance(event, Task):
        messages += [event.status.message, *(event.history or [])]
        artifacts += event.artifacts or []
    elif isinstance(event, Message):
        messages.append(event)
    elif isinstance(event, StatusUpdate):
        messages.append(event.status.message)
    elif isinstance(event, ArtifactUpdate):
        artifacts.append(event.artifact)
    parts = [p for m in messages if m is not None for p in m.parts] + [p for a in artifacts for p in a.parts]
    return [p.raw for p in parts if isinstance(p, FilePart) and p.raw is not None]


class UnplayableError(ValueError):
    """A recorded event the replay agents' SDK server cannot serve."""


def check_playable(transcript: Transcript) -> None:
    """Every recorded event converted as a replay agent serves it (to the SDK's protobuf and back to JSON), so a
    recording that loads never fails mid-replay; UnplayableError naming the first event that cannot be served."""
    for number, exchange in enumerate(transcript.exchanges):
        for index, recorded in enumerate(exchange.events):
            if not all(base64_bytes(raw) is not None for raw in _raw_files(recorded.event)):
                raise UnplayableError(
                    f"exchanges[{number}].events[{index}] holds a file whose raw bytes are not base64"
                )
            try:
                MessageToDict(live_event(recorded, "task", "context"))
            except (ParseError, ValueError, TypeError, OverflowError, RecursionError) as exc:
                reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
                raise UnplayableError(
                    f"exchanges[{number}].events[{index}] cannot be served again ({reason})"
                ) from None


def _relabel(message: pb.Message, task_id: str, context_id: str) -> None:
    if message.task_id:
        message.task_id = task_id
    if message.context_id:
        message.context_id = context_id


class ReplayExecutor(DemoExecutor):
    def __init__(self, name: str, script: _Script, paced: bool) -> None:
        super().__init__()
        self.name = name
        self.script = script
        self.paced = paced
        self._lock = asyncio.Lock()  # two messages at once must not take the same exchange

    async def run(self, turn: Turn) -> None:
        async with self._lock:
            exchange = self._pick(turn)
        if exchange is None:
            said = f"replay: the recording holds nothing more for {self.name} to answer this with"
            if turn.state is None:
                await turn.reply(text(said))
            else:  # a task may not be answered with a bare message
                await turn.fail(said)
            return
        waits = pauses(exchange) if self.paced else [0.0] * len(exchange.events)
        incoming = turn.context.message
        sent = (exchange.message.message_id, incoming) if exchange.message and incoming else None
        for recorded, wait in zip(exchange.events, waits, strict=True):
            if wait:
                await turn.pause(wait)
            turn.check()
            event = live_event(recorded, turn.task_id, turn.context_id, sent)
            if isinstance(event, pb.Message) and isinstance(recorded.event, Message) and not recorded.event.task_id:
                event.ClearField("task_id")  # a direct reply belongs to no task
            await turn.queue.enqueue_event(event)

    def _pick(self, turn: Turn) -> Exchange | None:
        script = self.script
        if turn.state is not None:
            number = script.live.get(turn.task_id)
            return script.next_of(number) if number is not None else None
        number = script.first(turn.text)
        if number is None:
            return None
        script.started.add(number)
        script.live[turn.task_id] = number
        return script.next_of(number)


def replay_agents(transcript: Transcript, source: Path, *, paced: bool) -> tuple[DemoAgent, ...]:
    """One demo agent per agent the recording talked to, each answering from its part of the recording."""
    scripts = scripts_of(transcript)
    agents = []
    for name in agent_names(transcript):
        script = scripts.get(name)
        if script is None:
            continue
        description = f"Replays {name}'s {len(script.tasks)} recorded task(s) from {source.name}."
        agents.append(DemoAgent(name, description, _builder(name, script, description, paced)))
    return tuple(agents)


def _builder(name: str, script: _Script, description: str, paced: bool):
    examples = [_text_of(task[0].message) for task in script.tasks][:5]

    def build(url: str, settings: DemoSettings) -> ServedApp:
        card = agent_card(
            name=name,
            description=description,
            url=url,
            output_modes=("text/plain", "text/markdown", "application/json"),
            skills=[skill("replay", "Replay", description, [e for e in examples if e], ["replay", "recording"])],
        )
        served = a2a_app(card, ReplayExecutor(name, script, paced))
        events = [v10.encode_event(r.event) for task in script.tasks for e in task for r in e.events]
        return ServedApp(RecordedNumbers(served.app, recorded_numbers(events)), served.closers)

    return build
