"""Building blocks for the demo's A2A agents, on the official a2a-sdk 1.3 server classes.

An agent is a `DemoExecutor` whose `run(turn)` speaks through a `Turn` (status updates, artifacts, a
direct reply), served by the SDK's DefaultRequestHandler, InMemoryTaskStore and route factories, with
the SDK's v0.3 compat on the same URL so both wire versions work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from a2a.helpers.proto_helpers import new_data_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from .base import PROVIDER, ServedApp

State = pb.TaskState


def _ids(context: RequestContext) -> tuple[str, str]:
    """The task and context ids of a request: the SDK's handler sets both before it calls an executor."""
    if context.task_id is None or context.context_id is None:
        raise RuntimeError("the A2A SDK called the executor without a task id and a context id")
    return context.task_id, context.context_id


Part = pb.Part


def text(value: str, media_type: str | None = None) -> Part:
    return Part(text=value, media_type=media_type or "")


def data(value: Any) -> Part:
    return new_data_part(value, media_type="application/json")


def file_bytes(content: bytes, name: str, media_type: str) -> Part:
    return Part(raw=content, filename=name, media_type=media_type)


def file_url(url: str, name: str, media_type: str) -> Part:
    return Part(url=url, filename=name, media_type=media_type)


class Stop(Exception):
    """The task was canceled while the agent worked: publish nothing more."""


class Turn:
    """One incoming message and the ways to answer it, for `DemoExecutor.run`."""

    def __init__(self, context: RequestContext, queue: EventQueue, canceled: Callable[[], bool]) -> None:
        self.context = context
        self.queue = queue
        self._task_id, self._context_id = _ids(context)
        self.updater = TaskUpdater(queue, self._task_id, self._context_id)
        self._canceled = canceled
        self._opened = context.current_task is not None

    @property
    def task_id(self) -> str:
        return self._task_id

    @property
    def context_id(self) -> str:
        return self._context_id

    @property
    def text(self) -> str:
        """The message's text parts, joined by spaces and stripped."""
        parts = self.context.message.parts if self.context.message else []
        return " ".join(p.text for p in parts if p.HasField("text")).strip()

    @property
    def data(self) -> list[Any]:
        parts = self.context.message.parts if self.context.message else []
        return [MessageToDict(p.data) for p in parts if p.HasField("data")]

    @property
    def state(self) -> int | None:
        """The state of the task this message continues (a pb.TaskState), or None for a new task."""
        task = self.context.current_task
        return task.status.state if task is not None else None

    def check(self) -> None:
        if self._canceled():
            raise Stop

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.check()

    async def reply(self, *parts: Part) -> None:
        """Answer with a direct Message: no task is created."""
        self.check()
        message = self.updater.new_agent_message(list(parts))
        message.ClearField("task_id")  # a direct reply belongs to no task
        await self.queue.enqueue_event(message)

    async def _open(self) -> None:
        # A new task is published as a Task snapshot (submitted) before its first update.
        if not self._opened:
            self._opened = True
            task = pb.Task(
                id=self._task_id,
                context_id=self._context_id,
                status=pb.TaskStatus(state=State.TASK_STATE_SUBMITTED),
                history=[self.context.message] if self.context.message else [],
            )
            await self.queue.enqueue_event(task)

    async def status(self, state: pb.TaskState, message: str, *extra: Part) -> None:
        self.check()
        await self._open()
        await self.updater.update_status(state, message=self.updater.new_agent_message([text(message), *extra]))

    async def working(self, message: str) -> None:
        await self.status(State.TASK_STATE_WORKING, message)

    async def ask(self, question: str, *extra: Part) -> None:
        await self.status(State.TASK_STATE_INPUT_REQUIRED, question, *extra)

    async def need_auth(self, message: str) -> None:
        await self.status(State.TASK_STATE_AUTH_REQUIRED, message)

    async def complete(self, message: str) -> None:
        await self.status(State.TASK_STATE_COMPLETED, message)

    async def fail(self, message: str) -> None:
        await self.status(State.TASK_STATE_FAILED, message)

    async def reject(self, message: str) -> None:
        await self.status(State.TASK_STATE_REJECTED, message)

    async def artifact(
        self,
        parts: Sequence[Part],
        *,
        artifact_id: str,
        name: str,
        append: bool = False,
        last_chunk: bool = True,
    ) -> None:
        self.check()
        await self._open()
        await self.updater.add_artifact(
            list(parts), artifact_id=artifact_id, name=name, append=append or None, last_chunk=last_chunk or None
        )


class DemoExecutor(AgentExecutor):
    """An AgentExecutor whose behaviour is `run(turn)`; cancel publishes `canceled` and stops the run."""

    cancel_text = "canceled by request"

    def __init__(self) -> None:
        self._canceled: set[str] = set()

    async def run(self, turn: Turn) -> None:
        raise NotImplementedError

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        turn = Turn(context, event_queue, lambda: context.task_id in self._canceled)
        try:
            await self.run(turn)
        except Stop:
            pass

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # Flag first: the running turn must not publish another update after CANCELED.
        task_id, context_id = _ids(context)
        self._canceled.add(task_id)
        updater = TaskUpdater(event_queue, task_id, context_id)
        await updater.cancel(updater.new_agent_message([text(self.cancel_text)]))


def skill(skill_id: str, name: str, description: str, examples: Iterable[str], tags: Iterable[str]) -> pb.AgentSkill:
    return pb.AgentSkill(id=skill_id, name=name, description=description, examples=list(examples), tags=list(tags))


def agent_card(
    *,
    name: str,
    description: str,
    url: str,
    skills: Sequence[pb.AgentSkill],
    versions: Sequence[str] = ("1.0", "0.3"),
    api_key_header: str | None = None,
    output_modes: Sequence[str] = ("text/plain",),
) -> pb.AgentCard:
    """A card with one JSON-RPC interface per wire version (1.0 first), all at the agent's base URL."""
    card = pb.AgentCard(
        name=name,
        description=description,
        supported_interfaces=[
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version=v) for v in versions
        ],
        provider=pb.AgentProvider(organization=PROVIDER, url=url),
        version="1.0.0",
        capabilities=pb.AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=["text/plain"],
        default_output_modes=list(output_modes),
        skills=list(skills),
    )
    if api_key_header:
        scheme = pb.APIKeySecurityScheme(location="header", name=api_key_header)
        card.security_schemes["apiKey"].CopyFrom(pb.SecurityScheme(api_key_security_scheme=scheme))
        card.security_requirements.append(pb.SecurityRequirement(schemes={"apiKey": pb.StringList()}))
    return card


def a2a_app(
    card: pb.AgentCard,
    executor: AgentExecutor,
    *,
    extra_routes: Sequence[BaseRoute] = (),
    serve_card: bool = True,
) -> ServedApp:
    """The SDK's card route and JSON-RPC route (v1.0, and v0.3 through the compat adapter) at "/"."""
    handler = DefaultRequestHandler(agent_executor=executor, task_store=InMemoryTaskStore(), agent_card=card)
    routes: list[BaseRoute] = list(create_agent_card_routes(card)) if serve_card else []
    routes += create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True)
    routes += extra_routes
    return ServedApp(Starlette(routes=routes), [handler.aclose])
