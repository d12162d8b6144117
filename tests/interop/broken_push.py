"""The spec-breaking agent's push notifications, in its modes `push-payload`, `push-unsigned`, `push-no-auth` and
`push-silent` (the only ones whose cards declare them):
push configs created, read, listed and deleted as the spec says, for its task-1 and for the TCK's scripted tasks
(also when a SendMessage carries one inline, as the TCK's delivery tests send it); and a change of such a task (the
probe's cancel, the TCK's scripted completion) POSTed to each config's URL with its authentication, but: in
`push-payload`, as a bare TaskStatusUpdateEvent, not the StreamResponse that wraps it (§4.3.3); in `push-unsigned`,
without the config's token (X-A2A-Notification-Token); in `push-no-auth`, without the Authorization the config's
`authentication` names (§4.3.3, PUSH-DELIVER-001); in `push-silent`, never (§4.3.3: at least once)."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx

MODES = ("push-payload", "push-unsigned", "push-no-auth", "push-silent")
_configs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}  # (mode, task id) -> config id -> the config
_sending: set[asyncio.Task[None]] = set()  # POSTs under way (kept, so none is collected before it ends)


def keep(mode: str, task_id: str, config: Any) -> dict[str, Any]:
    """Store a config of `task_id` (given an id when it has none); the config as the agent answers it."""
    found = {k: v for k, v in (config if isinstance(config, dict) else {}).items() if k != "taskId"}
    found.setdefault("id", f"config-{uuid.uuid4().hex[:8]}")
    _configs.setdefault((mode, task_id), {})[str(found["id"])] = found
    return {"taskId": task_id, **found}


def answer(mode: str, method: str, params: dict[str, Any], known: bool) -> tuple[int, str] | dict[str, Any] | None:
    """The answer to a push-config call about a task the agent knows (`known`): a result, an error (code, message),
    or None for a call that is no push-config call."""
    if "PushNotificationConfig" not in method:
        return None
    task_id = str(params.get("taskId", ""))
    if not known:
        return -32001, "no such task"
    held = _configs.get((mode, task_id), {})
    if method.startswith("Create"):
        return keep(mode, task_id, params)
    if method.startswith("Get"):
        found = held.get(str(params.get("id")))
        return {"taskId": task_id, **found} if found else (-32001, "no such push config")
    if method.startswith("List"):
        return {"configs": [{"taskId": task_id, **c} for c in held.values()]}
    if method.startswith("Delete"):
        held.pop(str(params.get("id")), None)
        return {}
    return -32601, f"no method {method}"


def push(mode: str, task_id: str, state: str) -> None:
    """POST the task's new state to each of its configs, in the background (the answer does not wait for it); in
    `push-silent`, to none: the configs were taken, the push never comes."""
    if mode == "push-silent":
        return
    for config in list(_configs.get((mode, task_id), {}).values()):
        sending = asyncio.get_running_loop().create_task(_post(mode, config, task_id, state))
        _sending.add(sending)
        sending.add_done_callback(_sending.discard)


async def _post(mode: str, config: dict[str, Any], task_id: str, state: str) -> None:
    headers = {"Content-Type": "application/json"}
    if isinstance(config.get("token"), str) and mode != "push-unsigned":
        headers["X-A2A-Notification-Token"] = config["token"]
    auth = config.get("authentication")
    if isinstance(auth, dict) and auth.get("credentials") and mode != "push-no-auth":
        headers["Authorization"] = f"{auth.get('scheme', 'Bearer')} {auth['credentials']}"
    event = {"taskId": task_id, "contextId": "ctx-1", "status": {"state": state}}
    body = event if mode == "push-payload" else {"statusUpdate": event}  # push-payload: the event, unwrapped
    try:
        async with httpx.AsyncClient(timeout=5.0) as http:
            await http.post(str(config.get("url")), content=json.dumps(body), headers=headers)
    except httpx.HTTPError:
        pass  # an unreachable webhook (the probe's `.invalid` one): nothing to do
