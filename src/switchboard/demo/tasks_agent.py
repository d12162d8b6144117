"""tasks: the simple REST task API (not A2A), in memory, with a task that needs input.

The contract is the one switchboard.a2a.tasks_api documents: POST /tasks, GET /tasks/{id},
POST /tasks/{id}/input, bearer auth. States advance with time, read when the task is fetched, so nothing
runs in the background:
  "book a table ..."   queued, running, then input_required (the time); after the answer, completed (text)
  "weather in CITY"    queued, running, then completed with a JSON object as output
  anything else        queued, running, then completed with a text that lists what to try
"""

from __future__ import annotations

import hmac
import itertools
import re
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .base import DemoAgent, DemoSettings, ServedApp
from .defaults import TOKEN_ENV

DESCRIPTION = "Not A2A: the simple REST task API (POST /tasks, poll GET /tasks/{id}), with a booking that asks."
QUEUED_FOR = 0.3  # seconds in each state before the next; short, but long enough to see a poll or two
WORK_FOR = 1.2
ASK_TIME = "What time should I book the table for? (e.g. 8pm)"
ASK_TIME_AGAIN = "I still need a time for the booking, e.g. 8pm."
KEEP_TASKS = 500
SKILLS = (
    {
        "id": "book",
        "name": "Book a table",
        "description": "Asks what time (input-required), then confirms the booking.",
        "examples": ["book a table for two", "book a table"],
    },
    {
        "id": "weather",
        "name": "Weather",
        "description": "Answers with a (made-up) forecast as a JSON object.",
        "examples": ["weather in Lisbon"],
    },
)
_PEOPLE = re.compile(r"\bfor\s+(\w+)")
_CITY = re.compile(r"\bweather\s+(?:in|for|at)\s+(.+)", re.IGNORECASE)


@dataclass
class RestTask:
    id: str
    context_id: str
    input: str
    since: float  # when the current phase began
    answer: str | None = None
    question: str = ASK_TIME

    @property
    def wants_time(self) -> bool:
        return "book" in self.input.lower() or "table" in self.input.lower()

    def document(self, now: float) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "context_id": self.context_id}
        elapsed = now - self.since
        if self.answer is None and elapsed < QUEUED_FOR:
            return {**doc, "status": "queued"}
        if elapsed < QUEUED_FOR + WORK_FOR:
            return {**doc, "status": "running"}
        if self.wants_time and not self.answer:
            return {**doc, "status": "input_required", "question": self.question}
        return {**doc, "status": "completed", "output": self.output()}

    def output(self) -> str | dict[str, Any]:
        if self.wants_time:
            people = match.group(1) if (match := _PEOPLE.search(self.input)) else "two"
            code = f"DEMO-{self.id[-4:].upper()}"
            return f"Table for {people} booked at {self.answer}. Confirmation code {code}."
        if match := _CITY.search(self.input):
            city = match.group(1).strip(" .?!").title()
            return {"city": city, "forecast": "sunny spells", "high_c": 21, "low_c": 12, "made_up": True}
        return f"I did '{self.input}'. Try 'book a table' (it asks for a time) or 'weather in Lisbon' (data)."


class TasksAgent:
    def __init__(self, token: str) -> None:
        self.token = token.encode()
        self.tasks: OrderedDict[str, RestTask] = OrderedDict()
        self._ids = itertools.count(1)

    def _authorized(self, request: Request) -> bool:
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), self.token)

    async def _body(self, request: Request) -> dict[str, Any] | None:
        try:
            body = await request.json()
        except ValueError:
            return None
        return body if isinstance(body, dict) and isinstance(body.get("input"), str) else None

    def _refuse(self, request: Request) -> Response | None:
        if not self._authorized(request):
            return JSONResponse({"error": "missing or wrong bearer token"}, status_code=401)
        return None

    async def create(self, request: Request) -> Response:
        if refused := self._refuse(request):
            return refused
        body = await self._body(request)
        if body is None:
            return JSONResponse({"error": 'the body must be {"input": "..."}'}, status_code=400)
        number = next(self._ids)
        task = RestTask(f"task-{number:04d}", f"ctx-{number:04d}", body["input"].strip(), time.monotonic())
        self.tasks[task.id] = task
        while len(self.tasks) > KEEP_TASKS:
            self.tasks.popitem(last=False)
        return JSONResponse(task.document(time.monotonic()), status_code=201)

    async def get(self, request: Request) -> Response:
        if refused := self._refuse(request):
            return refused
        task = self.tasks.get(request.path_params["task_id"])
        if task is None:
            return JSONResponse({"error": "no such task"}, status_code=404)
        return JSONResponse(task.document(time.monotonic()))

    async def give_input(self, request: Request) -> Response:
        if refused := self._refuse(request):
            return refused
        task = self.tasks.get(request.path_params["task_id"])
        if task is None:
            return JSONResponse({"error": "no such task"}, status_code=404)
        now = time.monotonic()
        if task.document(now)["status"] != "input_required":
            return JSONResponse({"error": "the task is not waiting for input"}, status_code=409)
        body = await self._body(request)
        if body is None:
            return JSONResponse({"error": 'the body must be {"input": "..."}'}, status_code=400)
        task.answer = body["input"].strip() or None
        task.question = ASK_TIME_AGAIN
        task.since = now - QUEUED_FOR  # straight to running: the answer is being worked on
        return JSONResponse(task.document(now))

    async def index(self, request: Request) -> Response:
        return JSONResponse(
            {
                "protocol": "tasks",
                "about": DESCRIPTION,
                "endpoints": ["POST /tasks", "GET /tasks/{id}", "POST /tasks/{id}/input"],
                "auth": f"Authorization: Bearer <the value of {TOKEN_ENV}>",
                "skills": list(SKILLS),
            }
        )


def build(url: str, settings: DemoSettings) -> ServedApp:
    agent = TasksAgent(settings.token)
    routes = [
        Route("/", agent.index, methods=["GET"]),
        Route("/tasks", agent.create, methods=["POST"]),
        Route("/tasks/{task_id}", agent.get, methods=["GET"]),
        Route("/tasks/{task_id}/input", agent.give_input, methods=["POST"]),
    ]
    return ServedApp(Starlette(routes=routes))


AGENT = DemoAgent("tasks", DESCRIPTION, build, protocol="tasks", bearer_env=TOKEN_ENV, skills=SKILLS)
