"""The one place serve reaches into the a2a-sdk's private parts: opening a turn on a task without a message.

A run resumed from its journal (the server was stopped or killed mid-run) must publish its events on its task
again, so that subscribers, GetTask and the task store see it go on. The SDK opens a task's turn (its event
queue, the executor's call) only for a caller's request: its DefaultRequestHandler keeps the turns in an
ActiveTaskRegistry (`handler._active_task_registry`) that no public method reaches, and that a2a-sdk 1.3 exports
from no public module. Sending a message of our own through the public on_message_send would write a message
nobody sent into the task's history, and subscribing (on_subscribe_to_task) never calls the executor.

So the private parts are used here and only here, and tests/serve/test_sdk_turns.py checks each one exists
with the signature used: an SDK that drops or reshapes them fails that test by name, not a resume in the field.
"""

from __future__ import annotations

from typing import Any

from a2a.server.agent_execution import RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import DefaultRequestHandler

REGISTRY = "_active_task_registry"  # DefaultRequestHandler's attribute (a2a-sdk 1.3: DefaultRequestHandlerV2)


def active_tasks(handler: DefaultRequestHandler) -> Any:
    """The handler's ActiveTaskRegistry; a clear error when the SDK no longer has one."""
    registry = getattr(handler, REGISTRY, None)
    if registry is None:
        raise RuntimeError(
            f"this a2a-sdk's request handler has no {REGISTRY}: switchboard serve cannot re-attach resumed runs "
            "(install the a2a-sdk version pyproject.toml names)"
        )
    return registry


async def open_turn(handler: DefaultRequestHandler, task_id: str, context_id: str, context: ServerCallContext) -> None:
    """Open a turn on `task_id` as a request would, without a message: the executor is called with `context`."""
    active = await active_tasks(handler).get_or_create(task_id, call_context=context, context_id=context_id)
    await active.enqueue_request(RequestContext(call_context=context, task_id=task_id, context_id=context_id))
