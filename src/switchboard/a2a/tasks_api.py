"""TasksApiClient: the simple REST task API, a second protocol mapped onto the same model and events
(transports/tasks_api.py makes it one more Transport, so callers reach it through a link like any agent).

Protocol (version 1). `{base}` is the agent's base URL, without a trailing slash. All bodies are JSON
(`Content-Type: application/json`); every request carries `Accept: application/json`.

Requests
  POST {base}/tasks
      body     {"agent_id": str, "correlation_id": str | null, "input": str}
      answer   201 (or 200) with a task document, at least {"id": str, "status": str}
  GET {base}/tasks/{id}
      answer   200 with a task document:
               {"id": str, "status": str, "output"?: str | object | array, "question"?: str,
                "error"?: str, "context_id"?: str}
  POST {base}/tasks/{id}/input
      body     {"input": str, "correlation_id": str | null}
      answer   200 or 202 with a task document, at least {"id", "status"}. It answers a task waiting in
               input-required; the status it reports is the one after taking the input (usually working),
               never the input-required state of the question just answered.

  `{id}` is percent-encoded in the path. Unknown fields are ignored.

Task document fields
  status      the state, read tolerantly: case-insensitive, with `-`, `_` and space equivalent.
                queued, pending, submitted, created         -> submitted
                running, in_progress, working, processing   -> working
                input_required, needs_input, waiting_for_input -> input-required
                auth_required                               -> auth-required
                completed, succeeded, success, done         -> completed
                failed, error                               -> failed
                canceled, cancelled                         -> canceled
                rejected                                    -> rejected
              Anything else reads as `unknown` (with a warning) and polling goes on.
  output      the result: a string (text) or a JSON object/array (structured data).
  question    what the agent asks while the status is input-required (or auth-required).
  error       the failure text while the status is failed (also shown for rejected and canceled).
  context_id  groups related tasks. Send it in every document, POST answers included; when a document
              has none, the last one named for the task (else the task id) stands in for it.

Auth and tracing
  `Authorization: Bearer <token>` on every request when a bearer token is configured; 401 or 403 means
  the token is missing or wrong. `X-Correlation-Id: <id>` on every request when a correlation id is set
  (it is also sent in the POST bodies as `correlation_id`).

Errors
  404 on {base}/tasks/{id}... means no such task (TaskNotFoundError); 409 on .../input means the task is
  not waiting for input (UnsupportedOperationError). Any other status outside the ones listed above, a body
  that is not JSON, or a JSON value of the wrong shape (not an object, no id, no status) is an invalid
  response.

Turns and polling
  A turn starts with POST /tasks (or POST .../input) and ends at completed, failed, canceled, rejected,
  input-required or auth-required. The client GETs the task every `poll_interval` seconds (default 1.0)
  until then; after `poll_timeout` seconds (default 300) it gives up with a timeout error. The task may
  still be running on the server; GET it later.

Mapping onto the model (switchboard.a2a.model)
  - The first event of a turn is a `Task` snapshot: the POST answer, or a fresh GET when the POST answer
    already ends the turn (so the snapshot carries the output).
  - When `output` appears or changes: an `ArtifactUpdate` for artifact "output" (name "output"; one
    TextPart for a string, one DataPart otherwise; append false, lastChunk true), always yielded before
    the status update of the same poll.
  - When the state (or its question/error text) changes: a `StatusUpdate`; its status message (agent
    role, one TextPart) holds `question` or `error` when present.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from .auth.credentials import Credentials
from .bounded_read import answer_text
from .errors import InvalidResponseError, ProtocolError, TimedOutError
from .http import http_status_error, new_http_client, parse_json, tapped_request
from .model import (
    Artifact,
    ArtifactUpdate,
    DataPart,
    Message,
    Part,
    Role,
    StatusUpdate,
    StreamEvent,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from .redact import Redactor
from .tap import Tap
from .wire.common import Notes, WireFormatError, brief, obj, opt_str, req_str, shallow

CORRELATION_HEADER = "X-Correlation-Id"
OUTPUT_ARTIFACT_ID = "output"

_STATES: dict[str, TaskState] = {
    **dict.fromkeys(("queued", "pending", "submitted", "created"), TaskState.SUBMITTED),
    **dict.fromkeys(("running", "in_progress", "working", "processing"), TaskState.WORKING),
    **dict.fromkeys(("input_required", "needs_input", "waiting_for_input"), TaskState.INPUT_REQUIRED),
    "auth_required": TaskState.AUTH_REQUIRED,
    **dict.fromkeys(("completed", "succeeded", "success", "done"), TaskState.COMPLETED),
    **dict.fromkeys(("failed", "error"), TaskState.FAILED),
    **dict.fromkeys(("canceled", "cancelled"), TaskState.CANCELED),
    "rejected": TaskState.REJECTED,
}
_QUESTION_STATES = frozenset({TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED})
_ERROR_STATES = frozenset({TaskState.FAILED, TaskState.REJECTED, TaskState.CANCELED})
_NO_OUTPUT = object()  # `output` absent, distinct from any JSON value


def read_state(raw: str) -> TaskState | None:
    """A status string as a TaskState, or None when it names no known state."""
    key = raw.strip().lower().replace("-", "_").replace(" ", "_")
    return _STATES.get(key)


@dataclass(frozen=True)
class _Snapshot:
    """One task document as read, before it becomes model objects; polling diffs these."""

    id: str
    context_id: str
    state: TaskState
    text: str | None  # the question or error that goes with the state
    output: Any = _NO_OUTPUT

    def status(self) -> TaskStatus:
        if self.text is None:
            return TaskStatus(state=self.state)
        # Derived from content, so re-reading the same question does not add a second history entry.
        digest = hashlib.sha256(f"{self.state}\0{self.text}".encode()).hexdigest()[:16]
        message = Message(
            message_id=f"{self.id}-{self.state.value}-{digest}",
            role=Role.AGENT,
            parts=[TextPart(text=self.text)],
            task_id=self.id,
            context_id=self.context_id,
        )
        return TaskStatus(state=self.state, message=message)

    def artifact(self) -> Artifact | None:
        if self.output is _NO_OUTPUT:
            return None
        part: Part = TextPart(text=self.output) if isinstance(self.output, str) else DataPart(data=self.output)
        return Artifact(artifact_id=OUTPUT_ARTIFACT_ID, name=OUTPUT_ARTIFACT_ID, parts=[part])

    def task(self) -> Task:
        artifact = self.artifact()
        return Task(
            id=self.id,
            context_id=self.context_id,
            status=self.status(),
            artifacts=[artifact] if artifact else None,
        )

    def changes_since(self, before: _Snapshot) -> list[StreamEvent]:
        """The events that turn `before` into this snapshot: output first, then the status."""
        events: list[StreamEvent] = []
        artifact = self.artifact()
        if artifact is not None and (before.output is _NO_OUTPUT or before.output != self.output):
            events.append(
                ArtifactUpdate(
                    task_id=self.id, context_id=self.context_id, artifact=artifact, append=False, last_chunk=True
                )
            )
        if (self.state, self.text) != (before.state, before.text):
            events.append(StatusUpdate(task_id=self.id, context_id=self.context_id, status=self.status()))
        return events


class TasksApiClient:
    """Talks to one agent over the REST task API; yields the same events as the A2A transports so callers need not care.

    The bearer token goes only to `base_url` (every request is under it) and is redacted from the tap.
    """

    def __init__(
        self,
        base_url: str,
        *,
        agent_id: str,
        http: httpx.AsyncClient | None = None,
        credentials: Credentials | None = None,
        tap: Tap | None = None,
        correlation_id: str | None = None,
        poll_interval: float = 1.0,
        poll_timeout: float = 300.0,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.agent_id = agent_id
        self._owns_http = http is None
        self.http = http or new_http_client()
        self.tap = tap
        self.correlation_id = correlation_id
        self.poll_interval = poll_interval
        self.poll_timeout = poll_timeout
        self.notes = Notes()
        self._on_note = on_note
        self._noted: set[str] = set()
        self._contexts: dict[str, str] = {}  # task id -> the context id its server last named
        credentials = credentials or Credentials()
        # Error messages quote response bodies, and a server may echo the token back: redact those too.
        self._redactor = tap.redactor if tap else Redactor()
        self._redactor.add(*credentials.secrets)
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if credentials.bearer:
            self._headers["Authorization"] = f"Bearer {credentials.bearer}"
        elif credentials.api_key:
            self.note("the API key is not sent: the REST task API authenticates with a bearer token only")
        if correlation_id:
            self._headers[CORRELATION_HEADER] = correlation_id

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    async def __aenter__(self) -> TasksApiClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def note(self, text: str) -> None:
        # Polling re-reads the same document many times; one warning per oddity is enough.
        if text in self._noted:
            return
        self._noted.add(text)
        self.notes.add(text)
        if self._on_note:
            self._on_note(text)

    # --- operations ------------------------------------------------------------------------------------

    async def submit(self, text: str) -> Task:
        """POST /tasks: start a task with `text` as its input."""
        return (await self._submit(text)).task()

    async def answer(self, task_id: str, text: str) -> Task:
        """POST /tasks/{id}/input: answer a task waiting in input-required."""
        return (await self._answer(task_id, text)).task()

    async def get_task(self, task_id: str) -> Task:
        """GET /tasks/{id}: the task as it is now, with its output and question or error."""
        return (await self._get(task_id)).task()

    def follow(self, task_id: str) -> AsyncIterator[StreamEvent]:
        """Poll an existing task until its turn ends: a Task snapshot, then each change."""
        return self._follow(task_id)

    def run_turn(
        self, text: str, *, task_id: str | None = None, context_id: str | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Send `text` (a new task, or the answer to `task_id`) and yield events until the turn ends.

        `context_id` is the context the caller knows `task_id` to be in: the thin answer to POST .../input
        names none, and a fresh client would otherwise put the task in a context of its own id.
        """
        if task_id is not None and context_id:
            self._contexts.setdefault(task_id, context_id)
        return self._run_turn(text, task_id)

    # --- turns -----------------------------------------------------------------------------------------

    async def _follow(self, task_id: str) -> AsyncIterator[StreamEvent]:
        first = await self._get(task_id)
        yield first.task()
        async for event in self._poll(first):
            yield event

    async def _run_turn(self, text: str, task_id: str | None) -> AsyncIterator[StreamEvent]:
        first = await (self._submit(text) if task_id is None else self._answer(task_id, text))
        if first.state.ends_turn:
            # The POST answer is thin; a turn-ending snapshot must carry the output and question.
            first = await self._get(first.id)
        yield first.task()
        async for event in self._poll(first):
            yield event

    async def _poll(self, current: _Snapshot) -> AsyncIterator[StreamEvent]:
        deadline = time.monotonic() + self.poll_timeout
        while not current.state.ends_turn:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                url = self._task_url(current.id)
                raise TimedOutError(
                    f"task {current.id} at {url} did not end its turn within {self.poll_timeout:g} s "
                    f"(last status: {current.state.value})",
                    hint="The task may still be running: read it later with get-task, or allow more time "
                    "(poll_timeout).",
                    url=url,
                )
            await asyncio.sleep(min(self.poll_interval, remaining))
            latest = await self._get(current.id)
            for event in latest.changes_since(current):
                yield event
            current = latest

    # --- requests --------------------------------------------------------------------------------------

    def _task_url(self, task_id: str) -> str:
        # An id read from JSON may hold a lone surrogate, which UTF-8 cannot encode strictly.
        return f"{self.base_url}/tasks/{quote(task_id, safe='', errors='surrogatepass')}"

    async def _submit(self, text: str) -> _Snapshot:
        body = {"agent_id": self.agent_id, "correlation_id": self.correlation_id, "input": text}
        return await self._exchange("POST", f"{self.base_url}/tasks", body, ok=(200, 201))

    async def _answer(self, task_id: str, text: str) -> _Snapshot:
        url = self._task_url(task_id) + "/input"
        body = {"input": text, "correlation_id": self.correlation_id}
        return await self._exchange("POST", url, body, ok=(200, 202), task_id=task_id)

    async def _get(self, task_id: str) -> _Snapshot:
        return await self._exchange("GET", self._task_url(task_id), None, ok=(200,), task_id=task_id)

    async def _exchange(
        self, method: str, url: str, body: dict[str, Any] | None, *, ok: tuple[int, ...], task_id: str | None = None
    ) -> _Snapshot:
        content = json.dumps(body, separators=(",", ":")).encode() if body is not None else None
        headers = (
            self._headers if content is not None else {k: v for k, v in self._headers.items() if k != "Content-Type"}
        )
        response = await tapped_request(self.http, method, url, tap=self.tap, headers=headers, content=content)
        status = response.status_code
        if status not in ok:
            if task_id is not None and status in (404, 409):
                raise self._task_error(url, task_id, status, self._redactor.text(answer_text(response)))
            raise http_status_error(url, status, self._redactor.text(answer_text(response)))
        payload = parse_json(url, answer_text(response), response.headers.get("content-type"))
        notes = Notes()
        try:
            snapshot = self._read(payload, notes)
        except WireFormatError as exc:
            raise InvalidResponseError(
                f"the task from {url}: {exc.message}",
                hint="The server does not follow the REST task API; run with --verbose to see the exchange.",
                url=url,
            ) from None
        finally:
            for text in notes:
                self.note(f"{url}: {text}")
        if task_id is not None and snapshot.id != task_id:
            self.note(f"{url} answered for task {snapshot.id}, not {task_id}")
        return snapshot

    @staticmethod
    def _task_error(url: str, task_id: str, status: int, body: str) -> ProtocolError:
        """404 and 409 under a task's URL, under their A2A names, with hints that fit this protocol."""
        snippet = body.strip().replace("\n", " ")[:200]
        detail = f" ({snippet})" if snippet else ""
        if status == 404:
            return ProtocolError(
                -32001,
                f"{url}: no task {task_id}{detail}",
                url=url,
                hint="Check the task id; the agent may have forgotten finished tasks.",
            )
        return ProtocolError(
            -32004,
            f"{url}: task {task_id} is not waiting for input{detail}",
            url=url,
            hint="Only a task in input-required takes an answer; send a new message to start a new task.",
        )

    def _read(self, payload: Any, notes: Notes) -> _Snapshot:
        """One task document -> _Snapshot. Missing id or status is fatal; other oddities become notes."""
        doc = obj(payload, "the task document", notes)
        task_id = req_str(doc, "id", "task", notes)
        raw_status = doc.get("status")
        if not isinstance(raw_status, str) or not raw_status.strip():
            raise WireFormatError(f"task {task_id} has no status string (got {brief(raw_status)})")
        state = read_state(raw_status)
        if state is None:
            notes.add(f"task {task_id} has an unknown status {raw_status[:40]!r}; read as unknown")
            state = TaskState.UNKNOWN
        context_id = opt_str(doc, "context_id", "task", notes)
        if context_id:
            self._contexts[task_id] = context_id
        else:
            # A thin answer (POST .../input) must not move the task to another context mid-conversation.
            context_id = self._contexts.get(task_id, task_id)
        text = None
        if state in _QUESTION_STATES:
            text = opt_str(doc, "question", "task", notes)
        elif state in _ERROR_STATES:
            text = opt_str(doc, "error", "task", notes)
        output = doc.get("output")
        if output is None:
            output = _NO_OUTPUT
        elif not isinstance(output, str | dict | list):
            notes.add(f"task {task_id}.output should be a string, object or array; kept as data")
        else:  # JSON nested deeper than anything that shows or writes it again can follow is cut, with a note
            output = shallow(output, f"task {task_id}.output", notes)
        return _Snapshot(task_id, context_id, state, text, output)
