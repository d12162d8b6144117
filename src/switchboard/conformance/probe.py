"""`switchboard conformance AGENT`: probe an agent with the scenarios a client relies on, over every binding and
protocol version its card offers that switchboard speaks, and say per scenario whether it passes, warns or fails,
naming the section of the A2A specification (v1.0) a failure breaks.

A probe sends a short text message (the agent does whatever it does with it), then reads, lists, re-subscribes to
and cancels the task that came of it, asks for a task that does not exist, and checks that what the card declares
(streaming, the extended card) is answered as declared. Nothing here prints: the command renders the Report.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx

from ..a2a.auth.credentials import Credentials
from ..a2a.cards import BINDING_NAMES, ResolvedCard, fetch_card, lint_card, spoken_bindings, wire_version
from ..a2a.client import CardTransport, new_message, transport_for
from ..a2a.errors import AuthFailedError, CredentialsMissingError, ProtocolError, SwitchboardError
from ..a2a.model import Message, StatusUpdate, StreamEvent, Task, TaskState
from ..a2a.tap import Tap

Outcome = Literal["pass", "warn", "fail", "skip"]
PROBE_TEXT = "hello from switchboard conformance"
STREAM_EVENT_LIMIT = 10_000  # events read from one probe stream before it is let go

# Scenario -> the section of the A2A v1.0 specification it checks (a2aproject/A2A docs/specification.md).
SECTIONS = {
    "card": "A2A §8.2 Discovery Mechanisms",
    "card lint": "A2A §4.4.1 AgentCard",
    "interfaces": "A2A §8.3.1 Supported Interfaces Declaration",
    "send": "A2A §3.1.1 Send Message",
    "stream": "A2A §3.1.2 Send Streaming Message",
    "get": "A2A §3.1.3 Get Task",
    "list": "A2A §3.1.4 List Tasks",
    "subscribe": "A2A §3.1.6 Subscribe to Task",
    "cancel": "A2A §3.1.5 Cancel Task",
    "unknown task: get": "A2A §3.1.3 Get Task (TaskNotFoundError)",
    "unknown task: cancel": "A2A §3.1.5 Cancel Task (TaskNotFoundError)",
    "extended card": "A2A §3.1.11 Get Extended Agent Card, §3.3.4 Capability Validation",
    "version": "A2A §3.6.2 Versioning: Server Responsibilities",
    "push config": "A2A §3.1.7 Create Push Notification Config, §3.3.4 Capability Validation",
}
TASK_NOT_FOUND, TASK_NOT_CANCELABLE, UNSUPPORTED, NOT_CONFIGURED = -32001, -32002, -32004, -32007
VERSION_NOT_SUPPORTED = -32009
PUSH_NOT_SUPPORTED = -32003
PUSH_URL = "https://push.invalid/switchboard-conformance"  # `.invalid` never resolves (RFC 2606)
UNSPOKEN_VERSION = "99.0"  # a protocol version no agent speaks


@dataclass
class Check:
    scenario: str
    interface: str  # "JSON-RPC 1.0", "HTTP+JSON 0.3"; "" for the card
    outcome: Outcome
    detail: str

    @property
    def section(self) -> str:
        return SECTIONS.get(self.scenario, "")

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "interface": self.interface or None,
            "result": self.outcome,
            "detail": self.detail,
            "section": self.section,
        }


@dataclass
class Report:
    agent: str
    name: str = ""
    card_url: str = ""
    checks: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(c.outcome == "fail" for c in self.checks)

    def counts(self) -> dict[str, int]:
        return {o: sum(1 for c in self.checks if c.outcome == o) for o in ("pass", "warn", "fail", "skip")}

    def as_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "name": self.name,
            "cardUrl": self.card_url,
            "result": "fail" if self.failed else "pass",
            "summary": self.counts(),
            "checks": [c.as_json() for c in self.checks],
        }


def offered_interfaces(resolved: ResolvedCard) -> tuple[list[tuple[str, str]], list[str]]:
    """The (binding, version) pairs the card offers that switchboard speaks, in the card's order, and the
    interfaces it offers that switchboard does not speak (as labels)."""
    card = resolved.card
    spoken: list[tuple[str, str]] = []
    unspoken: list[str] = []
    for iface in card.interfaces:
        binding = iface.binding.upper()
        version = "0.3" if card.shape == "legacy" else wire_version(iface.protocol_version)
        if binding in spoken_bindings() and version is not None:
            if (binding, version) not in spoken:
                spoken.append((binding, version))
        else:
            unspoken.append(f"{iface.binding} {iface.protocol_version}")
    return spoken, unspoken


async def probe(
    ref: str,
    *,
    http: httpx.AsyncClient,
    credentials: Credentials | None = None,
    headers: dict[str, str] | None = None,
    tap: Tap | None = None,
    op_timeout: float = 20.0,
) -> Report:
    """The conformance report of the agent at `ref`. A card that cannot be read raises (unreachable, not found)."""
    resolved = await fetch_card(ref, http, tap=tap, headers=headers)
    card = resolved.card
    report = Report(ref, card.name, resolved.card_url)
    checks = report.checks
    checks.append(Check("card", "", "pass", f"a {card.shape} card, {len(card.interfaces)} interface(s)"))
    checks += [Check("card lint", "", "warn", w) for w in [*resolved.notes, *lint_card(card, resolved.card_url)]]
    spoken, unspoken = offered_interfaces(resolved)
    for label in unspoken:
        checks.append(Check("interfaces", label, "skip", "switchboard does not speak this interface"))
    if not spoken:
        checks.append(Check("interfaces", "", "fail", "the card offers no interface over JSON-RPC or HTTP+JSON"))
        return report
    for binding, version in spoken:
        label = f"{BINDING_NAMES[binding]} {version}"
        try:
            transport = transport_for(
                resolved,
                prefer_version=version,
                binding=binding,
                http=http,
                tap=tap,
                credentials=credentials,
                extra_headers=headers or None,
                retry=None,
            )
        except CredentialsMissingError as exc:
            said = f"{exc.message}; give them (--api-key-env, --bearer-env) to probe this interface"
            checks.append(Check("interfaces", label, "warn", said))
            continue
        await _Probe(transport, label, resolved, op_timeout, checks).run()
    return report


class _Probe:
    """The scenarios over one interface, in order; each adds its checks."""

    def __init__(
        self, transport: CardTransport, label: str, resolved: ResolvedCard, timeout: float, checks: list[Check]
    ) -> None:
        self.t = transport
        self.label = label
        self.card = resolved.card
        self.timeout = timeout
        self.checks = checks
        self.task: Task | None = None  # the task the probe message started, as last seen

    def add(self, scenario: str, outcome: Outcome, detail: str) -> None:
        self.checks.append(Check(scenario, self.label, outcome, detail))

    async def run(self) -> None:
        for scenario, step in (
            ("send", self.send),
            ("stream", self.stream),
            ("get", self.get),
            ("push config", self.push_config),  # while the probe's task goes on
            ("list", self.list),
            ("subscribe", self.subscribe),
            ("cancel", self.cancel),
            ("unknown task: get", self.unknown_get),
            ("unknown task: cancel", self.unknown_cancel),
            ("extended card", self.extended_card),
            ("version", self.version),
        ):
            await self._guarded(scenario, step)

    async def _guarded(self, scenario: str, step: Callable[[], Awaitable[None]]) -> None:
        """Run a scenario; what it did not expect is a failure that says what came back."""
        try:
            async with asyncio.timeout(self.timeout):
                await step()
        except TimeoutError:
            self.add(scenario, "fail", f"no answer within {self.timeout:g} s")
        except (CredentialsMissingError, AuthFailedError) as exc:
            self.add(scenario, "warn", f"{exc.message} (give the agent's credentials to check this)")
        except ProtocolError as exc:
            self.add(scenario, "fail", f"answered {exc.code} ({exc.rpc_code}): {exc.message}")
        except SwitchboardError as exc:
            self.add(scenario, "fail", f"{exc.code}: {exc.message}")

    # --- the scenarios --------------------------------------------------------------------------------

    async def send(self) -> None:
        # Not blocking (returnImmediately): an agent that works for minutes answers at once with the task, which
        # the scenarios after this one read, re-attach to and cancel while it runs.
        result = await self.t.send(new_message(PROBE_TEXT), blocking=False)
        if isinstance(result, Message):
            self.add("send", "pass", "a direct message (no task)")
            return
        self.task = result
        if not result.id or not result.context_id:
            self.add("send", "fail", "the task came back without an id or a contextId")
            return
        self.add("send", "pass", f"a task, {result.status.state.value}")

    async def stream(self) -> None:
        declared = bool(self.card.capabilities.streaming)
        events: list[StreamEvent] = []
        going = False  # the stream was still open when the probe let go of it
        try:
            async with asyncio.timeout(self.timeout / 2):
                async for event in _bounded(self.t.stream(new_message(PROBE_TEXT))):
                    events.append(event)
        except TimeoutError:
            if not events:
                raise
            going = True
        except ProtocolError as exc:
            if not declared and exc.rpc_code == UNSUPPORTED:
                self.add("stream", "pass", "UnsupportedOperationError, as the card declares no streaming")
                return
            raise
        if not declared:
            self.add("stream", "warn", "streams although the card does not declare capabilities.streaming")
            return
        if not events:
            self.add("stream", "fail", "the stream closed without an event")
            return
        first = events[0]
        if isinstance(first, Message):
            if len(events) > 1:
                self.add("stream", "fail", f"a message stream MUST hold one Message; this one held {len(events)}")
            else:
                self.add("stream", "pass", "one direct message")
            return
        if not isinstance(first, Task):
            self.add("stream", "fail", f"the stream began with a {type(first).__name__}, not the Task or a Message")
            return
        state = _last_state(events)
        if going:
            await self._let_go(first.id)
            still = state.value if state else "without a state"
            said = f"{len(events)} event(s) in {self.timeout / 2:g} s, the Task first, still {still}"
            self.add("stream", "pass", said + " (let go, and canceled)")
            return
        ended = state is not None and (state.is_terminal or state.is_interrupted)
        outcome: Outcome = "pass" if ended else "warn"
        said = f"{len(events)} event(s), the Task first, ending {state.value if state else 'with no state'}"
        self.add("stream", outcome, said if ended else said + ": closed before the task ended or asked")

    async def _let_go(self, task_id: str) -> None:
        """Cancel a probe's task that still runs: the probe is done with it."""
        try:
            await self.t.cancel_task(task_id)
        except SwitchboardError:
            pass

    async def get(self) -> None:
        if self.task is None:
            self.add("get", "skip", "the agent answered with a message: no task to read")
            return
        got = await self.t.get_task(self.task.id)
        if got.id != self.task.id:
            self.add("get", "fail", f"asked for task {self.task.id}, got {got.id}")
            return
        self.task = got
        self.add("get", "pass", f"the task, {got.status.state.value}")

    async def list(self) -> None:
        if not getattr(self.t, "lists_tasks", False):
            self.add("list", "skip", "ListTasks is not part of this protocol version")
            return
        # An absent nextPageToken is the empty string in ProtoJSON (defaults are left out): the last page.
        page = await self.t.list_tasks(page_size=50)
        if self.task is not None and self.task.id not in {t.id for t in page.tasks} and not page.next_page_token:
            self.add("list", "warn", f"{len(page.tasks)} task(s), without the one just sent")
        else:
            self.add("list", "pass", f"{len(page.tasks)} task(s)")

    async def subscribe(self) -> None:
        if self.task is None:
            self.add("subscribe", "skip", "the agent answered with a message: no task to subscribe to")
            return
        terminal = self.task.status.state.is_terminal
        # v1.0 says what re-attaching answers (§3.1.6); v0.3's tasks/resubscribe left the first event and the
        # error for a task with nothing running open, and its servers differ there.
        legacy = self.t.endpoint.version == "0.3"
        try:
            first = None
            async for event in self.t.subscribe(self.task.id):
                first = event
                break
        except ProtocolError as exc:
            if exc.rpc_code == UNSUPPORTED and (terminal or not self.card.capabilities.streaming):
                why = "the task has ended" if terminal else "the card declares no streaming"
                self.add("subscribe", "pass", f"UnsupportedOperationError: {why}")
            elif legacy and terminal:
                self.add("subscribe", "pass", f"{exc.code} for an ended task (v0.3 names no error for it)")
            elif legacy and exc.rpc_code == TASK_NOT_FOUND:
                state = self.task.status.state.value
                said = f"TaskNotFoundError for a task that is {state}: nothing runs to re-attach to"
                self.add("subscribe", "warn", said)
            else:
                raise
            return
        except SwitchboardError as exc:
            if not legacy:
                raise
            state = self.task.status.state.value
            said = f"for a task that is {state}, the stream broke before an event: {exc.message}"
            self.add("subscribe", "warn", said)
            return
        if terminal:
            said = "re-attached to an ended task; UnsupportedOperationError is expected"
            self.add("subscribe", "warn" if legacy else "fail", said)
        elif isinstance(first, Task):
            self.add("subscribe", "pass", f"the Task first, {first.status.state.value}")
        elif legacy and first is not None:
            self.add("subscribe", "pass", f"a {type(first).__name__} first (v0.3 does not ask for the Task first)")
        else:
            what = type(first).__name__ if first is not None else "nothing"
            self.add("subscribe", "fail", f"the stream began with {what}; it MUST begin with the Task")

    async def cancel(self) -> None:
        if self.task is None:
            self.add("cancel", "skip", "the agent answered with a message: no task to cancel")
            return
        terminal = self.task.status.state.is_terminal
        try:
            answered = await self.t.cancel_task(self.task.id)
        except ProtocolError as exc:
            if exc.rpc_code == TASK_NOT_CANCELABLE:
                state = self.task.status.state.value
                self.add("cancel", "pass", f"TaskNotCancelableError (the task was {state})")
                return
            raise
        state = answered.status.state
        if terminal and state is not TaskState.CANCELED:
            said = f"an ended task answered with a task ({state.value}), not TaskNotCancelableError"
            self.add("cancel", "warn", said)
        elif state is TaskState.CANCELED or not terminal:
            self.add("cancel", "pass", f"the task, {state.value}")

    async def unknown_get(self) -> None:
        await self._unknown("unknown task: get", self.t.get_task)

    async def unknown_cancel(self) -> None:
        await self._unknown("unknown task: cancel", self.t.cancel_task)

    async def _unknown(self, scenario: str, call: Callable[[str], Awaitable[Task]]) -> None:
        bogus = f"switchboard-conformance-{uuid.uuid4()}"
        try:
            await call(bogus)
        except ProtocolError as exc:
            if exc.rpc_code == TASK_NOT_FOUND:
                self.add(scenario, "pass", "TaskNotFoundError")
            else:
                self.add(scenario, "fail", f"answered {exc.code} ({exc.rpc_code}), not TaskNotFoundError (-32001)")
            return
        self.add(scenario, "fail", f"answered with a task for {bogus}, an id it never gave")

    async def extended_card(self) -> None:
        declared = bool(self.card.capabilities.extended_card)
        try:
            extended = await self.t.extended_card()
        except ProtocolError as exc:
            if not declared and exc.rpc_code in (UNSUPPORTED, NOT_CONFIGURED):
                self.add("extended card", "pass", f"{exc.code}, as the card declares none")
                return
            if not declared:
                self.add("extended card", "warn", f"not declared; answered {exc.code}, not UnsupportedOperationError")
                return
            raise
        if not declared:
            self.add("extended card", "warn", "answers although the card does not declare an extended card")
        else:
            self.add("extended card", "pass", f"{extended.name}, {len(extended.skills)} skill(s)")

    async def version(self) -> None:
        """A request that asks for a protocol version the interface does not speak: VersionNotSupportedError."""
        headers = getattr(self.t, "_headers", None)  # the header every request of the transport carries
        if self.t.endpoint.version != "1.0":
            self.add("version", "skip", "v0.3 has no A2A-Version negotiation")
            return
        if headers is None:
            self.add("version", "skip", "not probed over this binding (its version travels in gRPC metadata)")
            return
        headers["A2A-Version"] = UNSPOKEN_VERSION
        try:
            await self.t.get_task(f"switchboard-conformance-{uuid.uuid4()}")
        except ProtocolError as exc:
            if exc.rpc_code == VERSION_NOT_SUPPORTED:
                self.add("version", "pass", f"A2A-Version {UNSPOKEN_VERSION}: VersionNotSupportedError")
            else:
                said = f"A2A-Version {UNSPOKEN_VERSION} answered {exc.code} ({exc.rpc_code})"
                self.add("version", "fail", said + ", not VersionNotSupportedError")
            return
        finally:
            headers["A2A-Version"] = "1.0"
        self.add("version", "fail", f"A2A-Version {UNSPOKEN_VERSION} was served as if it were spoken")

    async def push_config(self) -> None:
        """Create, read, list and delete a push config on the probe's task (while it is still going): an agent
        that declares push notifications does all four; one that does not refuses (PushNotificationNotSupported).
        The config points at an address no agent can reach (`.invalid`): nothing is ever delivered."""
        declared = bool(self.card.capabilities.push_notifications)
        if self.t.endpoint.version != "1.0" and not self.t.PUSH_AT_03:
            self.add("push config", "skip", "switchboard speaks push configs at 0.3 over JSON-RPC only")
            return
        if self.task is None or self.task.status.state.is_terminal:
            self.add("push config", "skip", "the probe's task ended before a push config could be set on it")
            return
        task_id, config_id = self.task.id, f"switchboard-conformance-{uuid.uuid4().hex[:8]}"
        try:
            await self.t.create_push_config(task_id, PUSH_URL, token=uuid.uuid4().hex, config_id=config_id)
        except ProtocolError as exc:
            if not declared and exc.rpc_code in (PUSH_NOT_SUPPORTED, UNSUPPORTED):
                self.add("push config", "pass", f"not declared, and refused ({exc.code})")
            elif not declared:  # refused, as it should be, but under another error than the spec's
                detail = (
                    f"not declared, and refused, but as {exc.code} ({exc.rpc_code}), not PushNotificationNotSupported"
                )
                self.add("push config", "warn", detail)
            else:
                said = "declared, yet" if declared else "not declared;"
                self.add("push config", "fail", f"{said} create answered {exc.code} ({exc.rpc_code}): {exc.message}")
            return
        got = await self.t.get_push_config(task_id, config_id)
        listed = {c.get("id") for c in await self.t.list_push_configs(task_id)}
        await self.t.delete_push_config(task_id, config_id)
        after = {c.get("id") for c in await self.t.list_push_configs(task_id)}
        problems = []
        if got.get("url") != PUSH_URL:
            problems.append(f"get gave the url {got.get('url')!r}")
        if config_id not in listed:
            problems.append("list left the config out")
        if config_id in after:
            problems.append("the config was still listed after delete")
        if problems:
            self.add("push config", "fail", "; ".join(problems))
        elif not declared:
            self.add("push config", "warn", "push configs work, but the card does not declare push notifications")
        else:
            self.add("push config", "pass", "create, get, list, delete")


async def _bounded(events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
    count = 0
    async for event in events:
        yield event
        count += 1
        if count >= STREAM_EVENT_LIMIT:
            break


def _last_state(events: list[StreamEvent]) -> TaskState | None:
    for event in reversed(events):
        if isinstance(event, Task | StatusUpdate):
            return event.status.state
    return None
