"""A deliberately broken A2A agent (JSON-RPC 1.0) for the conformance check's failures: faults no reference server
makes on demand. One server, one agent per mode: the default at `/`, each other mode at `/MODE/` (its card at
`/MODE/.well-known/agent-card.json`). Its cards are sound; its answers are not.

default: a stream begins with a status update, not the Task (§3.1.2); GetTask of an unknown id answers
  InternalError, not TaskNotFoundError (§3.1.3), whatever its A2A-Version (99.0, 1.1, 1.0.3: §3.6.2, §3.6), and an
  empty one is served as 1.0 (§3.6.2); CancelTask of an unknown id, of its completed task, of a task it canceled
  answers with a task (§3.1.5); the extended card is served although the card does not declare one (§3.3.4); push
  configs are refused with MethodNotFound, not PushNotificationNotSupportedError (§3.3.4); a message or a
  subscription naming an unknown task is served, and a message to the ended task (§3.4.2, §3.1.6, §3.1.1); its A2A
  errors carry no ErrorInfo (§9.5).
Every other mode answers all of that right (and follows the official TCK's scripts for a task that waits for input:
broken_scripts.py), and breaks one thing:
  json-stream: a stream answered `application/json`, one JSON-RPC result (§9.4.2);
  pondering: a stream carrying the state TASK_STATE_PONDERING (§4.1.3);
  backwards: a stream whose task goes on after it completed (§3.1.2);
  other-task: a stream carrying events for another task (§3.1.2);
  garbled: a stream with eleven frames that are not JSON among good ones (§9.4.2);
  cancel-input-required: a cancel answered with the task still input-required (§3.1.5);
  push-internal: push configs refused with InternalError (§3.3.4);
  no-error-info: A2A errors without a google.rpc.ErrorInfo in error.data (§9.5);
  local-time: status timestamps with a +02:00 offset, not UTC (§5.6.1);
  history-ignored: GetTask's historyLength ignored, all three messages of history answered (§3.2.4);
  subscription-closes: a subscription to a task waiting for input closes after the Task, before the task ends
    (the cancel ends it) (§3.1.6);
  error-info-once: only TaskNotFoundError carries its ErrorInfo; the other A2A errors (TaskNotCancelable,
    UnsupportedOperation, PushNotificationNotSupported, VersionNotSupported) carry none (§9.5);
  wrong-reason: each A2A error's ErrorInfo names google.rpc.Code's name (NOT_FOUND ...), not the A2A reason
    (TASK_NOT_FOUND ...) (§9.5, §5.4);
  artifact-no-id: its artifacts (streamed, in the task, and the one the TCK's `tck-artifact-text` script asks for)
    carry no artifactId (§4.1.7);
  chunk-after-last: a stream appends a chunk to an artifact after its lastChunk (§4.2.2, a SHOULD: a warning);
  artifact-lost: the task GetTask answers once the stream ended holds none of the artifact it streamed (§3.1.3);
  first-stream-only: of the subscriptions open on a task waiting for input, only the first is sent its end (the
    cancel); one opened beside it is sent the Task and closed (§3.5.2);
  push-payload: declares push notifications and keeps push configs right, but POSTs a task's change as a bare
    TaskStatusUpdateEvent, not a StreamResponse (§4.3.3; broken_push.py);
  push-unsigned: the same, pushing a StreamResponse but without the config's token (a SHOULD: a warning);
  push-no-auth: the same, pushing a StreamResponse with the token but without the Authorization the config's
    `authentication` names (§4.3.3);
  push-silent (PROBE_ONLY_MODES: not in the TCK cross-check): the same, but never POSTs at all (§4.3.3: at least
    once).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager, suppress
from functools import partial

import broken_push
import broken_scripts
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MODES = (
    "json-stream",
    "pondering",
    "backwards",
    "other-task",
    "garbled",
    "cancel-input-required",
    "push-internal",
    "no-error-info",
    "local-time",
    "history-ignored",
    "subscription-closes",
    "error-info-once",
    "wrong-reason",
    "artifact-no-id",
    "chunk-after-last",
    "artifact-lost",
    "first-stream-only",
    "push-payload",
    "push-unsigned",
    "push-no-auth",
)
# Modes only our probe is run against, with a short push_wait: the TCK's three delivery tests would each wait their
# 15 s for a push that never comes (45 s), so `push-silent` stays out of the cross-check's MODES.
PROBE_ONLY_MODES = ("push-silent",)
ARTIFACT_MODES = ("artifact-no-id", "chunk-after-last", "artifact-lost")  # their streams carry an artifact
ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
REASONS = {-32001: "TASK_NOT_FOUND", -32002: "TASK_NOT_CANCELABLE", -32003: "PUSH_NOTIFICATION_NOT_SUPPORTED",
           -32004: "UNSUPPORTED_OPERATION", -32009: "VERSION_NOT_SUPPORTED"}  # fmt: skip
# google.rpc.Code's names for the same errors: not A2A's reasons (the mode `wrong-reason` sends them)
GOOGLE_CODES = {-32001: "NOT_FOUND", -32002: "FAILED_PRECONDITION", -32003: "UNIMPLEMENTED", -32004: "UNIMPLEMENTED",
                -32009: "INVALID_ARGUMENT"}  # fmt: skip
COMPLETED, WORKING, INPUT = "TASK_STATE_COMPLETED", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"


_canceled: set[str] = set()  # the modes whose task-1 a cancel ended (a second cancel is TaskNotCancelableError)
_ended: dict[str, asyncio.Event] = {}  # first-stream-only: set when a cancel ends its task-1
_watching: dict[str, int] = {}  # first-stream-only: the subscriptions to its task-1 open now


def task(state: str, task_id: str = "task-1", *, stamp: str = "2026-11-27T10:00:00Z", history: int = 0) -> dict:
    said = [
        {"messageId": f"m{n}", "role": "ROLE_USER" if n % 2 == 0 else "ROLE_AGENT", "parts": [{"text": f"turn {n}"}]}
        for n in range(history)
    ]
    return {"id": task_id, "contextId": "ctx-1", "status": {"state": state, "timestamp": stamp}, "history": said}


def artifact(mode: str) -> dict:
    """The artifact an artifact mode's task holds (without its artifactId in `artifact-no-id`)."""
    found = {"artifactId": "report-1", "name": "report", "parts": [{"text": "Generated text content"}]}
    return {k: v for k, v in found.items() if k != "artifactId" or mode != "artifact-no-id"}


def chunk(mode: str, text: str, *, append: bool = False, last: bool = False) -> dict:
    found = {**artifact(mode), "parts": [{"text": text}]}
    flags = {"append": True} if append else {}
    flags |= {"lastChunk": True} if last else {}
    return {"artifactUpdate": {"taskId": "task-1", "contextId": "ctx-1", "artifact": found, **flags}}


def update(state: str, task_id: str = "task-1") -> dict:
    return {"statusUpdate": {"taskId": task_id, "contextId": "ctx-1", "status": {"state": state}}}


def card(url: str, mode: str | None = None) -> dict:
    return {
        "name": "Broken Agent",
        "description": "Answers A2A requests wrongly, on purpose.",
        "version": "1.0.0",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": True, "pushNotifications": mode in broken_push.MODES},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"], "examples": ["hi"]}],
    }


def _sse(rid: object, *results: dict | str) -> Response:
    frames = [r if isinstance(r, str) else json.dumps({"jsonrpc": "2.0", "id": rid, "result": r}) for r in results]
    return Response("".join(f"data: {f}\n\n" for f in frames), media_type="text/event-stream")


def _stream(mode: str, rid: object) -> Response:
    first = {"task": task(WORKING)}
    if mode == "default":
        return _sse(rid, update(COMPLETED))
    if mode == "json-stream":
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "result": {"task": task(COMPLETED)}})
    if mode == "pondering":
        return _sse(rid, first, update("TASK_STATE_PONDERING"), update(COMPLETED))
    if mode == "backwards":
        return _sse(rid, first, update(COMPLETED), update(WORKING))
    if mode == "other-task":
        return _sse(rid, first, update(WORKING, "task-2"), update(COMPLETED))
    if mode == "garbled":
        return _sse(rid, first, *(["{not json at all"] * 11), update(COMPLETED))
    if mode == "chunk-after-last":  # a chunk appended after the artifact's last one
        chunks = [chunk(mode, "Generated ", last=True), chunk(mode, "text content", append=True)]
        return _sse(rid, first, *chunks, update(COMPLETED))
    if mode in ARTIFACT_MODES:
        chunks = [chunk(mode, "Generated "), chunk(mode, "text content", append=True, last=True)]
        return _sse(rid, first, *chunks, update(COMPLETED))
    return _sse(rid, first, update(COMPLETED))


async def _live(mode: str, rid: object) -> AsyncIterator[str]:
    """A subscription to task-1: the Task, then its end once a cancel ends it; but in first-stream-only, one opened
    while another is open is sent the Task only (its breach)."""
    ended = _ended.setdefault(mode, asyncio.Event())
    first = _watching.get(mode, 0) == 0
    _watching[mode] = _watching.get(mode, 0) + 1
    try:
        yield f"data: {json.dumps({'jsonrpc': '2.0', 'id': rid, 'result': {'task': task(INPUT)}})}\n\n"
        if not first and mode == "first-stream-only":
            return
        with suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), broken_scripts.HOLD)
        if ended.is_set():
            yield f"data: {json.dumps({'jsonrpc': '2.0', 'id': rid, 'result': update('TASK_STATE_CANCELED')})}\n\n"
    finally:
        _watching[mode] -= 1


async def _rpc(request: Request) -> Response:
    mode = request.path_params.get("mode", "default")
    if mode != "default" and mode not in (*MODES, *PROBE_ONLY_MODES):
        return Response(status_code=404)
    call = await request.json()
    method, params, rid = call.get("method"), call.get("params") or {}, call.get("id")

    def result(value: object) -> Response:
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "result": value})

    def error(code: int, message: str) -> Response:
        body: dict = {"code": code, "message": message}
        if mode not in ("default", "no-error-info") and -32099 <= code <= -32001:  # its ErrorInfo (§9.5)
            if mode == "error-info-once" and code != -32001:
                return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": body})  # TaskNotFoundError's only
            reason = (GOOGLE_CODES if mode == "wrong-reason" else REASONS).get(code, "UNKNOWN")
            body["data"] = [{"@type": ERROR_INFO, "reason": reason, "domain": "a2a-protocol.org"}]
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": body})

    if mode != "default" and request.headers.get("a2a-version", "").split(".")[:2] != ["1", "0"]:
        return error(-32009, "version not supported")  # matched on Major.Minor: 1.0.3 is 1.0
    live = ("subscription-closes", "first-stream-only", *broken_push.MODES)  # task-1 waits for input till a cancel
    state = INPUT if mode in ("cancel-input-required", *live) else COMPLETED
    stamp = "2026-11-27T12:00:00+02:00" if mode == "local-time" else "2026-11-27T10:00:00Z"
    if mode != "default":
        if method in ("SendMessage", "SendStreamingMessage") and not isinstance(params.get("message"), dict):
            return error(-32602, "params.message is required")
        scripted = broken_scripts.answer(
            mode, method, params, broken_scripts.Replies(rid, result, error, partial(task, stamp=stamp), artifact(mode))
        )
        if scripted is not None:
            return scripted
    asked = params.get("historyLength", params.get("history_length"))  # ProtoJSON takes the proto name too
    kept = 3 if mode == "history-ignored" or not isinstance(asked, int) else min(3, asked)
    known = params.get("id") == "task-1"
    named = (params.get("message") or {}).get("taskId")
    if mode != "default" and method in ("SendMessage", "SendStreamingMessage") and named is not None:
        # the probe names task-1 once it has ended (its cancel ends it), or a task it never was given
        return error(-32004, "the task has ended") if named == "task-1" else error(-32001, "no such task")
    if method == "SendMessage":
        _canceled.discard(mode)  # a new task-1
        _ended[mode] = asyncio.Event()
        return result({"task": task(state, stamp=stamp)})
    if method == "SendStreamingMessage":
        return _stream(mode, rid)
    if method == "SubscribeToTask":
        if mode == "default":
            return _sse(rid, update(COMPLETED))
        if known and mode in ("first-stream-only", *broken_push.MODES) and mode not in _canceled:
            return StreamingResponse(_live(mode, rid), media_type="text/event-stream")
        if known and state == INPUT:
            return _sse(rid, {"task": task(INPUT)})
        return error(-32004, "the task has ended") if known else error(-32001, "no task")
    if method == "GetTask":
        if known and mode in ARTIFACT_MODES and mode != "artifact-lost":  # `artifact-lost` forgets it
            return result(task(state, stamp=stamp, history=kept) | {"artifacts": [artifact(mode)]})
        if known:
            return result(task(state, stamp=stamp, history=kept))
        return error(-32603, "something went wrong") if mode == "default" else error(-32001, "no such task")
    if method == "CancelTask":
        if mode == "default":
            return result(task("TASK_STATE_CANCELED", params.get("id")))
        if not known:
            return error(-32001, "no such task")
        if mode in live:
            if mode in _canceled:
                return error(-32002, "the task has ended")
            _canceled.add(mode)
            _ended.setdefault(mode, asyncio.Event()).set()
            if mode in broken_push.MODES:
                broken_push.push(mode, "task-1", "TASK_STATE_CANCELED")
            return result(task("TASK_STATE_CANCELED", stamp=stamp))
        return result(task(INPUT)) if state == INPUT else error(-32002, "the task has ended")
    if method == "ListTasks":
        return result({"tasks": [task(state)], "nextPageToken": ""})
    if method == "GetExtendedAgentCard":
        return result(card(str(request.base_url))) if mode == "default" else error(-32004, "no extended card")
    if mode in broken_push.MODES:
        ours = params.get("taskId") == "task-1" or broken_scripts.scripted(params.get("taskId"))
        pushed = broken_push.answer(mode, method, params, ours)
        if isinstance(pushed, tuple):
            return error(*pushed)
        if pushed is not None:
            return result(pushed)
    if "PushNotificationConfig" in method:
        if mode == "push-internal":
            return error(-32603, "internal error")
        return error(-32601, f"no method {method}") if mode == "default" else error(-32003, "no push")
    return error(-32601, f"no method {method}")


def app() -> Starlette:
    async def agent_card(request: Request) -> Response:
        mode = request.path_params.get("mode")
        if mode is not None and mode not in (*MODES, *PROBE_ONLY_MODES):
            return Response(status_code=404)
        served = card(str(request.url).removesuffix(".well-known/agent-card.json"), mode)
        return JSONResponse(served, headers={"Cache-Control": "max-age=60", "ETag": '"broken-1"'})

    return Starlette(
        routes=[
            Route("/.well-known/agent-card.json", agent_card),
            Route("/", _rpc, methods=["POST"]),
            Route("/{mode}/.well-known/agent-card.json", agent_card),
            Route("/{mode}/", _rpc, methods=["POST"]),
        ]
    )


@contextmanager
def broken_agent() -> Iterator[str]:
    """Serve the broken agents on 127.0.0.1 (a free port) on a thread; the base URL (the default mode's agent; a
    mode's is at BASE + MODE + "/")."""
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
