"""One interface's probe: the scenarios over one binding and version, in order, each adding its findings; how a
finding is recorded (judged against a requirement, or not judged: a skip) and what it says was sent. The scenarios
themselves live by what they probe: the probe's task (task_scenarios.py), its streams (stream_scenarios.py), ids
the agent never gave (unknown_tasks.py), the extended card (extended_card.py), the version header
(version_header.py), and deeper.py, push_delivery.py, error_bodies.py."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ..a2a.cards import HTTP_JSON, ResolvedCard
from ..a2a.client import CardTransport
from ..a2a.errors import AuthFailedError, CredentialsMissingError, ProtocolError, SwitchboardError
from ..a2a.model import Task
from ..a2a.wire import v10
from . import deeper, error_bodies, extended_card, push_delivery, stream_scenarios, task_scenarios, unknown_tasks
from . import version_header as version
from .report import Check, Outcome
from .requirements import requirement
from .wire_log import WireLog


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
        *,
        push_wait: float = push_delivery.DELIVERY_BOUND,
    ) -> None:
        self.t = transport
        self.label = label
        self.card = resolved.card
        self.timeout = timeout
        self.push_wait = push_wait  # seconds the webhook waits for the cancel's push
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
        """Every scenario over this interface, in order (each later one reads what the earlier left: the task)."""
        for scenario, op, step in (
            ("send", "send", task_scenarios.send),
            ("stream", "stream", stream_scenarios.stream),
            ("get", "get", task_scenarios.get),
            ("push config", "push_set", deeper.push_config),  # while the probe's task goes on
            ("list", "list", task_scenarios.list_tasks),
            ("subscribe", "subscribe", stream_scenarios.subscribe),
            ("history length", "get", deeper.history_length),
            ("cancel", "cancel", task_scenarios.cancel),
            ("push delivery", "push_set", push_delivery.judge),  # what the cancel pushed
            ("cancel: again", "cancel", deeper.cancel_again),
            ("ended task: send", "send", deeper.send_to_ended_task),
            ("unknown task: get", "get", unknown_tasks.unknown_get),
            ("unknown task: cancel", "cancel", unknown_tasks.unknown_cancel),
            ("unknown task: send", "send", deeper.unknown_send),
            ("unknown task: subscribe", "subscribe", deeper.unknown_subscribe),
            ("extended card", "extended_card", extended_card.extended_card),
            ("version", "get", version.unspoken_major),
            ("version: minor", "get", version.unspoken_minor),
            ("version: patch", "get", version.patch),
            ("version: empty", "list", deeper.empty_version),
        ):
            await self._guarded(scenario, op, step)
        error_bodies.judge_errors(self)
        deeper.timestamps(self)

    async def _guarded(self, scenario: str, op: str, step: Callable[[Probe], Awaitable[None]]) -> None:
        """Run a scenario; what it did not expect breaks the scenario's requirement and says what came back."""
        try:
            async with asyncio.timeout(self.timeout):
                await step(self)
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
