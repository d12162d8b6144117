"""The a2a-sdk private parts serve relies on (serve/sdk_turns.py) are still there, with the signatures used.

A resumed run re-attaches its task through them; an SDK upgrade that drops or reshapes them must fail here, by
name, rather than leave resumed runs silent at their callers.
"""

from __future__ import annotations

import asyncio
import inspect

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import a2a_pb2 as pb

from switchboard.serve.sdk_turns import REGISTRY, active_tasks, open_turn


class Recorder(AgentExecutor):
    def __init__(self) -> None:
        self.called = asyncio.Event()
        self.context: RequestContext | None = None

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        self.context = context
        self.called.set()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def handler_for(executor: AgentExecutor, store: InMemoryTaskStore | None = None) -> DefaultRequestHandler:
    card = pb.AgentCard(
        name="fence",
        description="checks the SDK's private parts",
        version="1",
        supported_interfaces=[pb.AgentInterface(url="http://127.0.0.1/", protocol_binding="JSONRPC")],
        capabilities=pb.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="s", name="s", description="s", tags=["t"])],
    )
    return DefaultRequestHandler(agent_executor=executor, task_store=store or InMemoryTaskStore(), agent_card=card)


def test_the_handler_still_keeps_its_turns_in_a_registry_of_this_shape() -> None:
    registry = getattr(handler_for(Recorder()), REGISTRY, None)
    assert registry is not None, f"a2a-sdk's DefaultRequestHandler has no {REGISTRY} any more: see serve/sdk_turns.py"
    parameters = inspect.signature(registry.get_or_create).parameters
    assert {"task_id", "call_context", "context_id"} <= set(parameters), parameters


async def test_open_turn_calls_the_executor_without_a_message() -> None:
    executor, store = Recorder(), InMemoryTaskStore()
    handler = handler_for(executor, store)
    context = ServerCallContext(state={"mark": True})
    # As at a restart: the task is back in the store (from the journal) before its turn opens.
    working = pb.TaskStatus(state=pb.TaskState.TASK_STATE_WORKING)
    await store.save(pb.Task(id="task-1", context_id="context-1", status=working), ServerCallContext())
    try:
        await open_turn(handler, "task-1", "context-1", context)
        await asyncio.wait_for(executor.called.wait(), 10)
    finally:
        await handler.aclose()
    assert executor.context is not None
    assert (executor.context.task_id, executor.context.context_id) == ("task-1", "context-1")
    assert executor.context.message is None
    assert executor.context.call_context is not None and executor.context.call_context.state.get("mark") is True


def test_a_handler_without_the_registry_is_a_clear_error() -> None:
    class Bare:
        pass

    try:
        active_tasks(Bare())  # type: ignore[arg-type]
    except RuntimeError as exc:
        assert REGISTRY in str(exc)
    else:
        raise AssertionError("no error")
