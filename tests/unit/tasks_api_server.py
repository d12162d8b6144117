"""A reference server for the REST task API (switchboard.a2a.tasks_api), in memory, on 127.0.0.1.

The task's input picks its script; each GET advances the script one step, so tests see the same
sequence every time without sleeping on the server side:
  hello    running, in_progress, then completed with output "Hello back"
  ask      working, then input_required "What is your name?"; after input NAME: succeeded {"greeting": "Hi NAME"}
  boom     running, then failed with error "exploded"
  forever  running for ever
  weird    an unknown status "Frobnicating", then DONE with output "ok"
  instant  done with output "at once" already in the POST answer's status (the output only via GET)
  html     GET answers an HTML page; shape: GET answers a JSON array; nostatus: GET has no status
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

TOKEN = "secret-token-1"
ASK_CONTEXT = "conversation-1"

Step = tuple[str, dict[str, Any]]
SCRIPTS: dict[str, list[Step]] = {
    "hello": [("running", {}), ("in_progress", {}), ("completed", {"output": "Hello back"})],
    "ask": [("working", {}), ("input_required", {"question": "What is your name?"})],
    "boom": [("running", {}), ("failed", {"error": "exploded"})],
    "forever": [("running", {})],
    "weird": [("Frobnicating", {}), ("DONE", {"output": "ok"})],
    "instant": [("done", {"output": "at once"})],
}
# Scripts whose POST answer already carries their first state, like a server that works synchronously.
SYNCHRONOUS = {"instant"}


@dataclass
class ServerTask:
    id: str
    input: str
    steps: list[Step]
    status: str = "queued"
    fields: dict[str, Any] = field(default_factory=dict)
    polls: int = 0

    def advance(self) -> None:
        if self.steps:
            self.status, self.fields = self.steps[min(self.polls, len(self.steps) - 1)]
        self.polls += 1

    def document(self) -> dict[str, Any]:
        doc = {"id": self.id, "status": self.status, **self.fields}
        if self.input == "ask":
            doc["context_id"] = ASK_CONTEXT
        return doc


@dataclass(frozen=True)
class SeenRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class TasksApiServer:
    """The app plus what it saw; `start()` serves it on an ephemeral port in a background thread."""

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.tasks: dict[str, ServerTask] = {}
        self.seen: list[SeenRequest] = []
        self._ids = itertools.count(1)
        self.app = Starlette(
            routes=[
                Route("/tasks", self.create, methods=["POST"]),
                Route("/tasks/{task_id}", self.read, methods=["GET"]),
                Route("/tasks/{task_id}/input", self.give_input, methods=["POST"]),
            ]
        )
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    async def _admit(self, request: Request) -> tuple[Any, Response | None]:
        """Record the request; the body (or None) and a 401 response when the token is wrong."""
        raw = await request.body()
        body = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode(errors="replace")
        self.seen.append(SeenRequest(request.method, request.url.path, dict(request.headers), body))
        if request.headers.get("authorization") != f"Bearer {self.token}":
            # Echoes what it got, as careless servers do, so tests can check the client redacts it.
            received = request.headers.get("authorization")
            return body, JSONResponse({"error": "unauthorized", "received": received}, status_code=401)
        return body, None

    async def create(self, request: Request) -> Response:
        body, denied = await self._admit(request)
        if denied:
            return denied
        text = body.get("input", "") if isinstance(body, dict) else ""
        task = ServerTask(id=f"task-{next(self._ids)}", input=text, steps=list(SCRIPTS.get(text, [])))
        if text in SYNCHRONOUS:
            task.advance()
        self.tasks[task.id] = task
        answer = {"id": task.id, "status": task.status}
        if text == "ask":
            answer["context_id"] = ASK_CONTEXT
        # Thin on purpose: the protocol promises only id and status here.
        return JSONResponse(answer, status_code=201)

    async def read(self, request: Request) -> Response:
        _, denied = await self._admit(request)
        if denied:
            return denied
        task = self.tasks.get(request.path_params["task_id"])
        if task is None:
            return JSONResponse({"error": "no such task"}, status_code=404)
        if task.input == "html":
            return HTMLResponse("<html><body>Service Unavailable</body></html>")
        if task.input == "shape":
            return JSONResponse(["not", "a", "task"])
        if task.input == "nostatus":
            return JSONResponse({"id": task.id})
        task.advance()
        return JSONResponse(task.document())

    async def give_input(self, request: Request) -> Response:
        body, denied = await self._admit(request)
        if denied:
            return denied
        task = self.tasks.get(request.path_params["task_id"])
        if task is None:
            return JSONResponse({"error": "no such task"}, status_code=404)
        if task.status != "input_required":
            return JSONResponse({"error": f"task is {task.status}"}, status_code=409)
        name = body.get("input", "") if isinstance(body, dict) else ""
        task.status, task.fields, task.polls = "working", {}, 0
        task.steps = [("succeeded", {"output": {"greeting": f"Hi {name}"}})]
        return JSONResponse({"id": task.id, "status": task.status}, status_code=202)

    def start(self) -> str:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the tasks API reference server did not start")
            time.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
