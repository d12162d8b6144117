"""One workflow served as an A2A agent: the SDK's DefaultRequestHandler and task store around an executor
whose task is a workflow run.

The served task's id is the run's id, so `switchboard runs show ID` and the TUI find a caller's run. A
message to a new task starts a run (or is rejected: inputs missing or unknown, or the server at --max-runs);
a message to a task that waits answers its question; CancelTask cancels the run and every delegate.

Durability is the journal's: the task store is the SDK's in-memory one, filled at start-up from the journals
of the runs this workflow served, and every run that was in flight when the server stopped (or was killed)
goes on from its journal (see snapshot.py and `restore`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
from a2a.server.agent_execution import AgentExecutor, RequestContext, SimpleRequestContextBuilder
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.id_generator import IDGenerator, IDGeneratorContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict

from ..a2a.errors import SwitchboardError
from ..link import CardCache
from ..safe_text import strip_controls
from ..workflow.engine import new_run_id, resume_run, start_run
from ..workflow.index import default_dir
from ..workflow.runs import fold, read_records
from ..workflow.spec import Workflow
from ..workflow.summary import is_running
from .card import build_card
from .inputs import read_inputs
from .sdk_turns import open_turn
from .served_run import ServedRun
from .snapshot import ORIGIN, context_of, is_served, oldest_question, task_from_record
from .translate import Translator, data_part, text_part

log = logging.getLogger("switchboard.serve")
CORRELATION_HEADER = "x-correlation-id"
MAX_CORRELATION = 200
CARD_TTL = 300.0  # seconds a delegate's card is reused by the runs of a server before it is read again
_INTERNAL = "switchboard.serve.internal"  # a call context the server made itself (re-attaching a resumed run)


@dataclass
class RunSlots:
    """How many runs may be in flight at once, over every served workflow (--max-runs)."""

    limit: int
    used: int = 0

    def take(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def force(self) -> None:
        """A run resumed at start-up is taken whatever the limit: it was admitted before."""
        self.used += 1

    def release(self) -> None:
        self.used = max(0, self.used - 1)


class SharedCards:
    """One card cache for every run of the server, renewed now and then so a changed card is read again."""

    def __init__(self, ttl: float = CARD_TTL) -> None:
        self.ttl = ttl
        self._cache = CardCache()
        self._since = time.monotonic()

    def get(self) -> CardCache:
        if time.monotonic() - self._since > self.ttl:
            self._cache, self._since = CardCache(), time.monotonic()
        return self._cache


class HttpClients(Protocol):
    def next(self) -> httpx.AsyncClient: ...


@dataclass
class ServeOptions:
    http: HttpClients  # a client for each run, in turn
    slots: RunSlots
    journal_dir: Path = field(default_factory=default_dir)
    api_key: bool = False  # the card declares the API key scheme (the guard checks it)
    say: Callable[[str], None] = lambda line: None  # one line per run started, resumed or ended (stderr)
    cards: SharedCards = field(default_factory=lambda: SharedCards())


class RunIds(IDGenerator):
    """New task ids are new run ids, never one a journal already has."""

    def __init__(self, journal_dir: Path) -> None:
        self.journal_dir = journal_dir
        self._given: set[str] = set()

    def generate(self, context: IDGeneratorContext) -> str:
        while True:
            run_id = new_run_id()
            if run_id not in self._given and not (self.journal_dir / f"{run_id}.jsonl").exists():
                self._given.add(run_id)
                return run_id


def correlation_of(context: RequestContext) -> str | None:
    """The caller's trace id: X-Correlation-Id, else metadata.correlationId; printable ASCII, bounded."""
    headers = context.call_context.state.get("headers") or {} if context.call_context else {}
    value: Any = headers.get(CORRELATION_HEADER)
    message = context.message
    if not value and message is not None and "correlationId" in message.metadata:
        value = message.metadata["correlationId"]
    if not isinstance(value, str):
        return None
    cleaned = "".join(ch for ch in value if " " < ch < "\x7f")[:MAX_CORRELATION]
    return cleaned or None


class WorkflowAgent:
    """A workflow as an A2A agent at `url`: its card, its request handler, the runs it serves."""

    def __init__(self, workflow: Workflow, url: str, options: ServeOptions) -> None:
        self.workflow = workflow
        self.url = url
        self.options = options
        self.file = str(workflow.path.resolve())
        self.card = build_card(workflow, url, api_key=options.api_key)
        self.hosts: dict[str, ServedRun] = {}
        self.store = InMemoryTaskStore()
        self.handler = DefaultRequestHandler(
            agent_executor=WorkflowExecutor(self),
            task_store=self.store,
            agent_card=self.card,
            request_context_builder=SimpleRequestContextBuilder(task_id_generator=RunIds(options.journal_dir)),
        )

    # --- a new task ------------------------------------------------------------------------------------

    async def start(self, context: RequestContext, queue: EventQueue) -> None:
        message = context.message
        assert message is not None and context.task_id and context.context_id
        task_id, context_id = context.task_id, context.context_id
        t = Translator(task_id, context_id)
        inputs, problem = read_inputs(self.workflow, message)
        if problem is not None:
            text = problem.text(self.workflow)
            await self._refuse(queue, message, t, pb.TaskState.TASK_STATE_REJECTED, text, problem.data(self.workflow))
            return
        if not self.options.slots.take():
            limit = self.options.slots.limit
            plural = "s" if limit != 1 else ""
            text = f"the server runs {limit} run{plural} at once (--max-runs), all busy; try again when one ends"
            await self._refuse(queue, message, t, pb.TaskState.TASK_STATE_REJECTED, text, {"code": "SERVE_BUSY"})
            return
        host = ServedRun(task_id, context_id, on_end=self._ended)
        correlation = correlation_of(context)
        origin = {
            "by": ORIGIN,
            "agent": self.url,
            "contextId": context_id,
            "message": MessageToDict(message),
            **({"correlationId": correlation} if correlation else {}),
        }
        try:
            run = start_run(
                self.workflow,
                inputs,
                ask=host.ask,
                http=self.options.http.next(),
                journal_dir=self.options.journal_dir,
                run_id=task_id,
                correlation_id=correlation,
                origin=origin,
                cards=self.options.cards.get(),
                announces_a2ui=False,  # the caller never said it renders A2UI: the steps' agents ask in words
            )
        except SwitchboardError as exc:
            self.options.slots.release()
            text = exc.message + (f" ({exc.hint})" if exc.hint else "")
            await self._refuse(queue, message, t, pb.TaskState.TASK_STATE_FAILED, text, {"code": exc.workflow_code})
            return
        host.bind(run)
        self.hosts[task_id] = host
        trace = f", correlation id {correlation}" if correlation else ""
        self.options.say(f"run {task_id} started ({self.workflow.name}{trace})")
        await queue.enqueue_event(
            pb.Task(
                id=task_id,
                context_id=context_id,
                status=pb.TaskStatus(state=pb.TaskState.TASK_STATE_SUBMITTED),
                history=[message],
            )
        )
        await host.attach(queue)
        await host.wait_turn()

    async def _refuse(
        self,
        queue: EventQueue,
        message: pb.Message,
        t: Translator,
        state: pb.TaskState,
        text: str,
        data: dict[str, Any],
    ) -> None:
        status = pb.TaskStatus(state=state, message=t.message([text_part(text), data_part(data)]))
        status.timestamp.GetCurrentTime()
        await queue.enqueue_event(pb.Task(id=t.task_id, context_id=t.context_id, status=status, history=[message]))

    def _ended(self, host: ServedRun) -> None:
        if self.hosts.pop(host.task_id, None) is not None:
            self.options.slots.release()
            status = host.run.status if host.run else "ended"
            self.options.say(f"run {host.task_id} {status} ({self.workflow.name})")

    # --- a task that goes on -----------------------------------------------------------------------------

    async def go_on(self, context: RequestContext, queue: EventQueue) -> None:
        task_id = context.task_id or ""
        host = self.hosts.get(task_id)
        if host is None:  # its run is not in this server (it could not be resumed): say so, once
            t = Translator(task_id, context.context_id or "")
            text = "this task's run is not running in this server; start a new task"
            await queue.enqueue_event(t.failed("A2A_PROVIDER_ERROR", text, None))
            return
        if context.message is not None:
            await host.answer(context.message)
        await host.attach(queue)
        await host.wait_turn()

    async def cancel(self, context: RequestContext) -> None:
        host = self.hosts.get(context.task_id or "")
        if host is not None:
            await host.cancel()

    # --- start-up and shut-down -------------------------------------------------------------------------

    async def restore(self) -> list[str]:
        """Fill the task store from the journals of the runs this workflow served; resume those in flight.

        Returns the ids of the runs resumed.
        """
        directory = self.options.journal_dir
        resumed: list[str] = []
        if not directory.is_dir():
            return resumed
        for path in sorted(directory.glob("*.jsonl")):
            try:
                records, _ = read_records(path)
            except OSError:
                continue
            record = fold(records, path.stem, journal=path)
            if not is_served(record, self.file, self.workflow.name) or is_running(path):
                continue
            task = task_from_record(record)
            await self.store.save(task, ServerCallContext())
            in_flight = record.status in ("interrupted", "awaiting_input", "running")
            if in_flight and await self._resume(record.run_id, context_of(record), record):
                resumed.append(record.run_id)
        return resumed

    async def _resume(self, run_id: str, context_id: str, record: Any) -> bool:
        host = ServedRun(run_id, context_id, on_end=self._ended)
        for name, step in record.steps.items():
            host.translator.seed(name, step.view)
        question = oldest_question(record)
        if question is not None:
            host.still_asking(question)
        try:
            run = resume_run(
                run_id,
                ask=host.ask,
                http=self.options.http.next(),
                journal_dir=self.options.journal_dir,
                workflow=self.workflow,
                cards=self.options.cards.get(),
                announces_a2ui=False,  # the caller never said it renders A2UI: the steps' agents ask in words
            )
        except SwitchboardError as exc:
            text = strip_controls(exc.message)
            log.warning("run %s cannot go on: %s", run_id, text)
            task = task_from_record(record)
            status = Translator(run_id, context_id).failed("A2A_PROVIDER_ERROR", f"the run cannot go on: {text}", None)
            task.status.CopyFrom(status.status)
            await self.store.save(task, ServerCallContext())
            return False
        self.options.slots.force()
        host.bind(run)
        self.hosts[run_id] = host
        self.options.say(f"run {run_id} resumed from its journal ({self.workflow.name})")
        await attach_resumed(self.handler, run_id, context_id)
        return True

    async def interrupt(self) -> None:
        """The server stops: every run stops where it is (its tasks go on at their agents), to resume next time."""
        for host in list(self.hosts.values()):
            if host.run is not None:
                await host.run.interrupt()
        await self.handler.aclose()


async def attach_resumed(handler: DefaultRequestHandler, task_id: str, context_id: str) -> None:
    """Open a turn on a resumed run's task, as a message would, so its events reach subscribers and the store.

    The SDK opens a task's event queue only for a request; the server opens one itself (no message): see
    sdk_turns.py, the one place that uses the SDK's private parts, and why.
    """
    await open_turn(handler, task_id, context_id, ServerCallContext(state={_INTERNAL: True}))


class WorkflowExecutor(AgentExecutor):
    """The SDK's executor interface over WorkflowAgent: one call per turn of a served task."""

    def __init__(self, agent: WorkflowAgent) -> None:
        self.agent = agent

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        internal = bool(context.call_context and context.call_context.state.get(_INTERNAL))
        if context.message is None and not internal:
            return
        try:
            if context.current_task is None and not internal:
                await self.agent.start(context, event_queue)
            else:
                await self.agent.go_on(context, event_queue)
        except Exception as exc:  # a bug must fail the task with a sentence, never a stack trace to the caller
            log.error("task %s: %s: %s", context.task_id, type(exc).__name__, exc)
            raise RuntimeError("the server failed while serving this task") from None

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await self.agent.cancel(context)
