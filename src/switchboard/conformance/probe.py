"""`switchboard conformance AGENT`: probe an agent with the scenarios a client relies on, over every binding and
protocol version its card offers that switchboard speaks, and judge each finding against a requirement of the A2A
specification in the version the interface speaks (requirements.py): a MUST broken is a fail, a SHOULD a warning.

A probe sends a short text message (the agent does whatever it does with it), then reads, lists, re-subscribes to
and cancels the task that came of it, asks for a task that does not exist, and checks that what the card declares
(streaming, push notifications, the extended card) is answered as declared. What went over the wire is read from
the tap (wire_log.py): the transports read leniently, the probe does not. Nothing here prints: the command renders
the Report.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx

from ..a2a.auth.credentials import Credentials
from ..a2a.cards import BINDING_NAMES, HTTP_JSON, ResolvedCard, fetch_card, lint_card, spoken_bindings, wire_version
from ..a2a.client import CardTransport, new_message, transport_for
from ..a2a.errors import AuthFailedError, CredentialsMissingError, ProtocolError, SwitchboardError
from ..a2a.model import AgentCard, Message, StreamEvent, Task, TaskState
from ..a2a.tap import Tap
from ..a2a.wire import v10
from . import artifacts, deeper, error_bodies, push_delivery, subscriptions
from .report import Check, Outcome, Report
from .requirements import requirement
from .streams import judge_stream, summary
from .wire_log import WireLog

PROBE_TEXT = "hello from switchboard conformance"
STREAM_EVENT_LIMIT = 10_000  # events read from one probe stream before it is let go
TASK_NOT_FOUND, TASK_NOT_CANCELABLE, UNSUPPORTED, NOT_CONFIGURED = -32001, -32002, -32004, -32007
VERSION_NOT_SUPPORTED = -32009
UNSPOKEN_VERSION = "99.0"  # a protocol version no agent speaks
# A stream is judged three ways, each its own scenario (--against compares scenario by scenario).
_STREAM_SCENARIOS = {
    "stream: jsonrpc sse": "stream: wire",
    "stream: rest sse": "stream: wire",
    "state values": "stream: states",
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
    tap = tap or Tap()
    wire = WireLog(tap)
    resolved = await fetch_card(ref, http, tap=tap, headers=headers)
    card = resolved.card
    report = Report(ref, card.name, resolved.card_url)
    checks = report.checks
    card_version = "0.3" if card.shape == "legacy" else "1.0"
    said = f"a {card.shape} card, {len(card.interfaces)} interface(s)"
    checks.append(Check("card", "", "pass", said, requirement("card", card_version), "GET agent card", "HTTP 200"))
    if card.shape == "v1.0":
        checks += deeper.card_caching(wire, resolved.card_url)
    lint = requirement("card lint", card_version)
    checks += [Check("card lint", "", "warn", w, lint) for w in [*resolved.notes, *lint_card(card, resolved.card_url)]]
    spoken, unspoken = offered_interfaces(resolved)
    for label in unspoken:
        checks.append(Check("interfaces", label, "skip", "switchboard does not speak this interface"))
    if not spoken:
        said = "the card offers no interface over JSON-RPC or HTTP+JSON"
        checks.append(Check("interfaces", "", "fail", said, requirement("interfaces", card_version)))
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
            said = f"not probed: {exc.message}; give them (--api-key-env, --bearer-env) to probe this interface"
            checks.append(Check("interfaces", label, "skip", said, binding=binding, version=version))
            continue
        await Probe(transport, label, resolved, op_timeout, checks, wire).run()
    return report


class Probe:
    """The scenarios over one interface, in order; each adds its checks."""

    def __init__(
        self,
        transport: CardTransport,
        label: str,
        resolved: ResolvedCard,
        timeout: float,
        checks: list[Check],
        wire: WireLog,
    ) -> None:
        self.t = transport
        self.label = label
        self.card = resolved.card
        self.timeout = timeout
        self.checks = checks
        self.wire = wire
        self.version = transport.endpoint.version
        self.binding = transport.endpoint.binding.upper()
        self.task: Task | None = None  # the task the probe message started, as last seen
        self.start = wire.mark()  # the exchanges from here on are this interface's
        self.asked_as_03: set[int] = set()  # exchanges sent with an empty A2A-Version: answered as 0.3
        self.push_delivery: push_delivery.Delivery | None = None  # the webhook deeper.push_config registered

    # --- findings -------------------------------------------------------------------------------------

    def sent(self, op: str) -> str:
        """The operation as this interface's wire names it: a JSON-RPC method, an HTTP route, a gRPC method; `*`
        for a finding read off every answer of the interface."""
        if op == "*":
            return "every call above"
        if self.binding == HTTP_JSON:
            from ..a2a.transports.rest import ROUTES

            route = ROUTES.get(self.version, {}).get(op)
            return f"{route[0]} {route[1]}" if route else op
        methods = getattr(getattr(self.t, "codec", None), "METHODS", None) or v10.METHODS
        return str(methods.get(op, op))

    def add(self, scenario: str, outcome: Outcome, detail: str, *, op: str = "", answered: str = "") -> None:
        """A finding that is no judgment against a requirement: a skip, or what the probe could not reach."""
        self.checks.append(
            Check(scenario, self.label, outcome, detail, None, self.sent(op) if op else "", answered,
                  self.binding, self.version)
        )  # fmt: skip

    def judge(self, key: str, ok: bool, detail: str, *, op: str, answered: str = "", scenario: str = "") -> None:
        """A finding against the requirement `key` names: passed, or broken (a fail for a MUST, a warning for a
        SHOULD, in the specification of the version this interface speaks)."""
        req = requirement(key, self.version)
        outcome: Outcome = "pass" if ok else ("fail" if req.level == "MUST" else "warn")
        self.checks.append(
            Check(scenario or key, self.label, outcome, detail, req, self.sent(op), answered, self.binding,
                  self.version)
        )  # fmt: skip

    async def run(self) -> None:
        for scenario, op, step in (
            ("send", "send", self.send),
            ("stream", "stream", self.stream),
            ("get", "get", self.get),
            ("push config", "push_set", lambda: deeper.push_config(self)),  # while the probe's task goes on
            ("list", "list", self.list),
            ("subscribe", "subscribe", self.subscribe),
            ("history length", "get", lambda: deeper.history_length(self)),
            ("cancel", "cancel", self.cancel),
            ("push delivery", "push_set", lambda: push_delivery.judge(self)),  # what the cancel pushed
            ("cancel: again", "cancel", lambda: deeper.cancel_again(self)),
            ("ended task: send", "send", lambda: deeper.send_to_ended_task(self)),
            ("unknown task: get", "get", self.unknown_get),
            ("unknown task: cancel", "cancel", self.unknown_cancel),
            ("unknown task: send", "send", lambda: deeper.unknown_send(self)),
            ("unknown task: subscribe", "subscribe", lambda: deeper.unknown_subscribe(self)),
            ("extended card", "extended_card", self.extended_card),
            ("version", "get", self.version_header),
            ("version: minor", "get", lambda: self.version_header("version: minor", "1.1")),
            ("version: patch", "get", lambda: self.version_header("version: patch", "1.0.3")),
            ("version: empty", "list", lambda: deeper.empty_version(self)),
        ):
            await self._guarded(scenario, op, step)
        error_bodies.judge_errors(self)
        deeper.timestamps(self)

    async def _guarded(self, scenario: str, op: str, step: Callable[[], Awaitable[None]]) -> None:
        """Run a scenario; what it did not expect breaks the scenario's requirement and says what came back."""
        try:
            async with asyncio.timeout(self.timeout):
                await step()
        except TimeoutError:
            self.judge(scenario, False, f"no answer within {self.timeout:g} s", op=op, answered="nothing")
        except (CredentialsMissingError, AuthFailedError) as exc:
            said = f"not judged: {exc.message} (give the agent's credentials to check this)"
            self.add(scenario, "skip", said, op=op, answered=exc.code)
        except ProtocolError as exc:
            answered = f"error {exc.rpc_code} {exc.code}"
            self.judge(scenario, False, f"answered {answered}: {exc.message}", op=op, answered=answered)
        except SwitchboardError as exc:
            self.judge(scenario, False, f"{exc.code}: {exc.message}", op=op, answered=exc.code)

    # --- the scenarios --------------------------------------------------------------------------------

    async def send(self) -> None:
        # Not blocking (returnImmediately): an agent that works for minutes answers at once with the task, which
        # the scenarios after this one read, re-attach to and cancel while it runs.
        result = await self.t.send(new_message(PROBE_TEXT), blocking=False)
        if isinstance(result, Message):
            self.judge("send", True, "a direct message (no task)", op="send", answered="a Message")
            return
        self.task = result
        answered = f"a Task, {result.status.state.value}"
        if not result.id or not result.context_id:
            self.judge("task fields", False, "the task came back without an id or a contextId", op="send",
                       answered=answered, scenario="send")  # fmt: skip
            return
        self.judge("send", True, answered, op="send", answered=answered)

    async def stream(self) -> None:
        declared = bool(self.card.capabilities.streaming)
        events: list[StreamEvent] = []
        going = False  # the stream was still open when the probe let go of it
        mark = self.wire.mark()
        try:
            async with asyncio.timeout(self.timeout / 2):
                async for event in _bounded(self.t.stream(new_message(PROBE_TEXT))):
                    events.append(event)
        except TimeoutError:
            if not events:
                raise
            going = True
        except ProtocolError as exc:
            if not declared:
                ok = exc.rpc_code == UNSUPPORTED
                said = "UnsupportedOperationError, as the card declares no streaming" if ok else (
                    f"the card declares no streaming; answered {exc.code}, not UnsupportedOperationError"
                )  # fmt: skip
                answered = f"error {exc.rpc_code} {exc.code}"
                self.judge("stream: undeclared", ok, said, op="stream", answered=answered, scenario="stream")
                return
            raise
        if not declared:
            said = "streams although the card does not declare capabilities.streaming (UnsupportedOperationError)"
            self.judge("stream: undeclared", False, said, op="stream", answered=summary(events), scenario="stream")
            return
        exchange = next(iter(self.wire.since(mark)), None)
        findings = judge_stream(exchange, events, self.version, self.binding, going=going)
        seen = summary(events)
        for f in findings:
            scenario = _STREAM_SCENARIOS.get(f.key, "stream")
            self.judge(f.key, f.ok, f.detail, op="stream", answered=f.answered or seen, scenario=scenario)
        await artifacts.judge_stream_artifacts(self, exchange, events)
        first = events[0] if events else None
        if going and isinstance(first, Task):
            await self._let_go(first.id)

    async def _let_go(self, task_id: str) -> None:
        """Cancel a probe's task that still runs: the probe is done with it."""
        try:
            await self.t.cancel_task(task_id)
        except SwitchboardError:
            pass

    async def get(self) -> None:
        if self.task is None:
            self.add("get", "skip", "the agent answered with a message: no task to read", op="get")
            return
        got = await self.t.get_task(self.task.id)
        answered = f"a Task, {got.status.state.value}"
        if got.id != self.task.id:
            self.judge("get", False, f"asked for task {self.task.id}, got {got.id}", op="get", answered=answered)
            return
        self.task = got
        self.judge("get", True, f"the task, {got.status.state.value}", op="get", answered=answered)

    async def list(self) -> None:
        if not getattr(self.t, "lists_tasks", False):
            self.add("list", "skip", "ListTasks is not part of this protocol version")
            return
        # An absent nextPageToken is the empty string in ProtoJSON (defaults are left out): the last page.
        page = await self.t.list_tasks(page_size=50)
        answered = f"{len(page.tasks)} task(s)"
        if self.task is not None and self.task.id not in {t.id for t in page.tasks} and not page.next_page_token:
            self.judge("list", False, f"{answered}, without the one just sent", op="list", answered=answered)
        else:
            self.judge("list", True, answered, op="list", answered=answered)

    async def subscribe(self) -> None:
        if self.task is None:
            self.add("subscribe", "skip", "the agent answered with a message: no task to subscribe to", op="subscribe")
            return
        terminal = self.task.status.state.is_terminal
        # v1.0 says what re-attaching answers (§3.1.6); v0.3's tasks/resubscribe left the first event and the
        # error for a task with nothing running open, and its servers differ there (SHOULD-level in the table).
        legacy = self.version == "0.3"
        state = self.task.status.state.value
        try:
            first = None
            async for event in self.t.subscribe(self.task.id):
                first = event
                break
        except ProtocolError as exc:
            answered = f"error {exc.rpc_code} {exc.code}"
            if exc.rpc_code == UNSUPPORTED and (terminal or not self.card.capabilities.streaming):
                why = "the task has ended" if terminal else "the card declares no streaming"
                self.judge("subscribe: ended task", True, f"UnsupportedOperationError: {why}", op="subscribe",
                           answered=answered, scenario="subscribe")  # fmt: skip
            elif legacy and terminal:
                said = f"{exc.code} for an ended task (v0.3 names no error for it)"
                self.judge("subscribe", True, said, op="subscribe", answered=answered)
            elif legacy and exc.rpc_code == TASK_NOT_FOUND:
                said = f"TaskNotFoundError for a task that is {state}: nothing runs to re-attach to"
                self.judge("subscribe", False, said, op="subscribe", answered=answered)
            else:
                raise
            return
        except SwitchboardError as exc:
            if not legacy:
                raise
            said = f"for a task that is {state}, the stream broke before an event: {exc.message}"
            self.judge("subscribe", False, said, op="subscribe", answered=exc.code)
            return
        answered = f"a {type(first).__name__} first" if first is not None else "no event"
        if terminal:
            said = f"re-attached to an ended task ({state}); UnsupportedOperationError is expected"
            self.judge("subscribe: ended task", False, said, op="subscribe", answered=answered, scenario="subscribe")
        elif isinstance(first, Task):
            self.judge("subscribe", True, f"the Task first, {first.status.state.value}", op="subscribe",
                       answered=answered)  # fmt: skip
        elif legacy and first is not None:
            said = f"a {type(first).__name__} first (v0.3 does not ask for the Task first)"
            self.judge("subscribe", True, said, op="subscribe", answered=answered)
        else:
            what = type(first).__name__ if first is not None else "nothing"
            said = f"the stream began with {what}; it MUST begin with the Task"
            self.judge("subscribe", False, said, op="subscribe", answered=answered)

    async def cancel(self) -> None:
        if self.task is None:
            self.add("cancel", "skip", "the agent answered with a message: no task to cancel", op="cancel")
            return
        terminal = self.task.status.state.is_terminal
        before = self.task.status.state.value
        # A subscription open across the cancel MUST show the task's end and close (§3.1.6).
        watch = (
            await subscriptions.open_watches(self, self.task.id)
            if self.card.capabilities.streaming and not terminal
            else None
        )
        try:
            answered_task = await self.t.cancel_task(self.task.id)
        except ProtocolError as exc:
            if watch:
                await subscriptions.judge_watches(self, watch, canceled=False)
            answered = f"error {exc.rpc_code} {exc.code}"
            if exc.rpc_code == TASK_NOT_CANCELABLE:
                said = f"TaskNotCancelableError (the task was {before})"
                # Fine for an ended task; for one still going, the agent may refuse (a cancel is a request).
                self.judge("cancel: ended task" if terminal else "cancel", True, said, op="cancel",
                           answered=answered, scenario="cancel")  # fmt: skip
                return
            raise
        except BaseException:
            if watch:
                await subscriptions.close_watches(watch)
            raise
        state = answered_task.status.state
        if state.is_terminal and answered_task.id == self.task.id:
            self.task = answered_task  # an ended task: what "ended task: send" writes to
        if watch:
            await subscriptions.judge_watches(self, watch, canceled=state is TaskState.CANCELED)
        answered = f"a Task, {state.value}"
        if terminal:  # even "canceled": a task that had ended cannot be canceled (§3.1.5)
            said = f"an ended task ({before}) answered with a task ({state.value}), not TaskNotCancelableError"
            self.judge("cancel: ended task", False, said, op="cancel", answered=answered, scenario="cancel")
        elif state is TaskState.CANCELED:
            self.judge("cancel", True, f"the task, {state.value}", op="cancel", answered=answered)
        else:
            said = f"answered with the task still {state.value}: a cancel returns the task's updated state, canceled"
            self.judge("cancel", False, said, op="cancel", answered=answered)

    async def unknown_get(self) -> None:
        await self._unknown("unknown task: get", "get", self.t.get_task)

    async def unknown_cancel(self) -> None:
        await self._unknown("unknown task: cancel", "cancel", self.t.cancel_task)

    async def _unknown(self, scenario: str, op: str, call: Callable[[str], Awaitable[Any]]) -> None:
        bogus = f"switchboard-conformance-{uuid.uuid4()}"
        try:
            await call(bogus)
        except ProtocolError as exc:
            answered = f"error {exc.rpc_code} {exc.code}"
            ok = exc.rpc_code == TASK_NOT_FOUND
            said = "TaskNotFoundError" if ok else f"answered {answered}, not TaskNotFoundError (-32001)"
            self.judge(scenario, ok, said, op=op, answered=answered)
            return
        said = f"answered with a task for {bogus}, an id it never gave"
        self.judge(scenario, False, said, op=op, answered="a Task")

    async def extended_card(self) -> None:
        declared = bool(self.card.capabilities.extended_card)
        # At v1.0 only capabilities.extendedAgentCard declares it (§3.3.4); the v0.3 flag a merged card may carry
        # is what a client falls back to, not what a v1.0 caller is told.
        legacy_only = declared and self.version == "1.0" and self.card.shape == "v1.0" and not _v10_extended(self.card)
        declared = declared and not legacy_only
        try:
            extended = await self.t.extended_card()
        except ProtocolError as exc:
            answered = f"error {exc.rpc_code} {exc.code}"
            if declared and exc.rpc_code == NOT_CONFIGURED:
                said = f"{exc.code}: declared, not configured"
                self.judge("extended card", True, said, op="extended_card", answered=answered)
            elif not declared:
                ok = exc.rpc_code == UNSUPPORTED
                said = "UnsupportedOperationError, as the card declares none" if ok else (
                    f"not declared; answered {exc.code}, not UnsupportedOperationError (-32004)"
                )  # fmt: skip
                self.judge("extended card", ok, said, op="extended_card", answered=answered)
            else:
                raise
            return
        answered = f"a card, {len(extended.skills)} skill(s)"
        if legacy_only:
            said = (
                "served, but the card declares it only in v0.3's supportsAuthenticatedExtendedCard, not in "
                "capabilities.extendedAgentCard (UnsupportedOperationError is expected at v1.0 without it)"
            )
            self.judge("extended card", False, said, op="extended_card", answered=answered)
        elif not declared:
            said = "served although the card does not declare one (UnsupportedOperationError is expected)"
            self.judge("extended card", False, said, op="extended_card", answered=answered)
        else:
            self.judge("extended card", True, f"{extended.name}, {answered}", op="extended_card", answered=answered)

    async def version_header(self, scenario: str = "version", asked: str = UNSPOKEN_VERSION) -> None:
        """A request whose A2A-Version the interface does not speak (another major, or another minor: `asked`):
        VersionNotSupportedError; one naming a patch of its version (`version: patch`) is served as that version
        (the versions match on Major.Minor, §3.6.2). The request is GetTask of an id the agent never gave: served,
        it is TaskNotFoundError."""
        headers = getattr(self.t, "_headers", None)  # the header every request of the transport carries
        if self.version != "1.0":
            self.add(scenario, "skip", "v0.3 has no A2A-Version negotiation")
            return
        if headers is None:
            self.add(scenario, "skip", "not probed over this binding (its version travels in gRPC metadata)")
            return
        served = scenario == "version: patch"
        want = "served as 1.0 (TaskNotFoundError)" if served else "VersionNotSupportedError"
        headers["A2A-Version"] = asked
        try:
            await self.t.get_task(f"switchboard-conformance-{uuid.uuid4()}")
        except ProtocolError as exc:
            answered = f"error {exc.rpc_code} {exc.code}"
            ok = exc.rpc_code == (TASK_NOT_FOUND if served else VERSION_NOT_SUPPORTED)
            said = f"A2A-Version {asked}: " + (want if ok else f"answered {exc.code}, not {want}")
            self.judge(scenario, ok, said, op="get", answered=answered)
            return
        finally:
            headers["A2A-Version"] = "1.0"
        said = f"A2A-Version {asked} answered with a task for an id it never gave"
        self.judge(scenario, False, said, op="get", answered="a Task")


def _v10_extended(card: AgentCard) -> bool:
    """The card as served declares the extended card the v1.0 way: capabilities.extendedAgentCard true."""
    capabilities = card.raw.get("capabilities")
    return isinstance(capabilities, dict) and capabilities.get("extendedAgentCard") is True


async def _bounded(events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
    count = 0
    async for event in events:
        yield event
        count += 1
        if count >= STREAM_EVENT_LIMIT:
            break
