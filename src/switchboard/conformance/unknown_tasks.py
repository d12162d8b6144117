"""GetTask and CancelTask of a task id the agent never gave: TaskNotFoundError (§3.1.3, §3.1.5). (A message and a
subscription naming one are deeper.py's.)"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..a2a.errors import ProtocolError
from .error_codes import TASK_NOT_FOUND

if TYPE_CHECKING:
    from .interface_probe import Probe


async def unknown_get(p: Probe) -> None:
    await _unknown(p, "unknown task: get", "get", p.t.get_task)


async def unknown_cancel(p: Probe) -> None:
    await _unknown(p, "unknown task: cancel", "cancel", p.t.cancel_task)


async def _unknown(p: Probe, scenario: str, op: str, call: Callable[[str], Awaitable[Any]]) -> None:
    bogus = f"switchboard-conformance-{uuid.uuid4()}"
    try:
        await call(bogus)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == TASK_NOT_FOUND
        said = "TaskNotFoundError" if ok else f"answered {answered}, not TaskNotFoundError (-32001)"
        p.judge(scenario, ok, said, op=op, answered=answered)
        return
    said = f"answered with a task for {bogus}, an id it never gave"
    p.judge(scenario, False, said, op=op, answered="a Task")
