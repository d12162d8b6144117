"""A deliberately broken A2A agent (JSON-RPC 1.0) for the conformance check's failures: faults no reference server
makes on demand. Its card is sound; its answers are not:

- a stream begins with a status update, not the Task (spec §3.1.2);
- GetTask of an unknown id answers InternalError, not TaskNotFoundError (§3.1.3);
- CancelTask of an unknown id answers with a task (§3.1.5);
- the extended card is served although the card does not declare one (§3.3.4).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

TASK = {"id": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def card(url: str) -> dict:
    return {
        "name": "Broken Agent",
        "description": "Answers A2A requests wrongly, on purpose.",
        "version": "1.0.0",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": True, "pushNotifications": False},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"], "examples": ["hi"]}],
    }


def _sse(*events: dict) -> Response:
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
    return Response(body, media_type="text/event-stream")


async def _rpc(request: Request) -> Response:
    call = await request.json()
    method, params, rid = call.get("method"), call.get("params") or {}, call.get("id")

    def result(value: object) -> Response:
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "result": value})

    def error(code: int, message: str) -> Response:
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})

    update = {"taskId": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    if method == "SendMessage":
        return result({"task": TASK})
    if method in ("SendStreamingMessage", "SubscribeToTask"):
        frame = {"jsonrpc": "2.0", "id": rid, "result": {"statusUpdate": update}}
        return _sse(frame)
    if method == "GetTask":
        return result(TASK) if params.get("id") == "task-1" else error(-32603, "something went wrong")
    if method == "CancelTask":
        return result({**TASK, "id": params.get("id"), "status": {"state": "TASK_STATE_CANCELED"}})
    if method == "ListTasks":
        return result({"tasks": [TASK], "nextPageToken": ""})
    if method == "GetExtendedAgentCard":
        return result(card(str(request.base_url)))
    return error(-32601, f"no method {method}")


def app() -> Starlette:
    async def agent_card(request: Request) -> Response:
        return JSONResponse(card(str(request.base_url)))

    return Starlette(routes=[Route("/.well-known/agent-card.json", agent_card), Route("/", _rpc, methods=["POST"])])


@contextmanager
def broken_agent() -> Iterator[str]:
    """Serve the broken agent on 127.0.0.1 (a free port) on a thread; its base URL."""
    server = uvicorn.Server(uvicorn.Config(app(), host="127.0.0.1", port=0, log_config=None, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    started = threading.Event()
    while not server.started and thread.is_alive():
        started.wait(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)
