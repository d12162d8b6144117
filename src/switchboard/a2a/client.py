"""A2AClient: one client for v0.3 and v1.0 agents over JSON-RPC, with SSE streams via httpx-sse."""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
from httpx_sse import EventSource

from .auth import AuthPlan, Credentials, Redactor, origin_of, plan_auth
from .bounded_read import read_tapped
from .cards import Endpoint, ResolvedCard, choose_endpoint, fetch_card, parse_card
from .errors import AuthFailedError, InvalidResponseError, SwitchboardError, UsageError, protocol_error_from
from .http import (
    DEFAULT_RETRY,
    RetryPolicy,
    header_pairs,
    http_status_error,
    new_http_client,
    open_response,
    parse_json,
)
from .model import AgentCard, Message, Part, Role, StreamEvent, Task, TaskPage, TaskState, TextPart
from .tap import Tap
from .wire import codec_for
from .wire.common import Notes, WireFormatError

CORRELATION_HEADER = "X-Correlation-Id"
# The C scanner behind json.loads; see _loads.
_scan_json = json.JSONDecoder().scan_once
# Operations that change nothing at the agent, so a failed attempt may always be repeated (see http.py).
SAFE_OPS = frozenset({"get", "subscribe", "list", "extended_card"})
# An agent answers CancelTask with the whole task, every artifact chunk included, and serializes all of it before
# the first byte: 139 MB, 27 s, after an 8 s stream of 64 KB chunks. So the cancel waits longer than other calls:
# five minutes covers a task that streamed for minutes, while the keys keep working (the TUI waits in a worker);
# an agent silent for longer is stuck. httpx applies it to each read, so a body that keeps coming is not cut.
CANCEL_TIMEOUT = httpx.Timeout(300.0, connect=10.0)
# Bytes of the answer to a cancel held whole; past this only its ids and status are read (see cancel_task).
CANCEL_ANSWER_BOUND = 8 * 2**20


def _loads(data: str) -> Any:
    """json.loads(data) for an SSE frame's data, through the scanner json.loads itself ends in, without the steps
    around it (three calls and two regular expressions: a fifth of a frame's cost beyond httpx-sse). Data that
    does not start and end with its JSON value is left to json.loads, which reads it or raises its error."""
    try:
        value, end = _scan_json(data, 0)
    except (StopIteration, ValueError):
        return json.loads(data)
    return value if end == len(data) else json.loads(data)


def new_message(
    parts: list[Part] | str,
    *,
    task_id: str | None = None,
    context_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Message:
    """A user message with a fresh messageId."""
    if isinstance(parts, str):
        parts = [TextPart(text=parts)]
    return Message(
        message_id=str(uuid.uuid4()),
        role=Role.USER,
        parts=parts,
        task_id=task_id,
        context_id=context_id,
        metadata=metadata,
    )


class StreamBrokenError(SwitchboardError):
    """The SSE connection failed mid-stream; the follower reconciles with get-task."""

    code = "A2ACLI_ERR_UNREACHABLE"
    exit_code = 3


class A2AClient:
    """Talks to one agent through the interface its card offers.

    Credentials are planned from the card's security schemes and sent only to the origin the card came
    from; an interface on another origin gets none unless `trust_interface_origin` is set.
    """

    def __init__(
        self,
        card: AgentCard,
        *,
        card_url: str,
        http: httpx.AsyncClient | None = None,
        credentials: Credentials | None = None,
        tap: Tap | None = None,
        prefer_version: str | None = None,
        correlation_id: str | None = None,
        extra_headers: dict[str, str] | None = None,
        trust_interface_origin: bool = False,
        on_note: Callable[[str], None] | None = None,
        retry: RetryPolicy | None = DEFAULT_RETRY,
    ) -> None:
        self.card = card
        self.card_url = card_url
        self.endpoint: Endpoint = choose_endpoint(card, prefer_version)
        self.codec = codec_for(self.endpoint.version)
        self._owns_http = http is None
        self.http = http or new_http_client()
        self.tap = tap
        self.correlation_id = correlation_id
        self.notes = Notes()
        self._on_note = on_note
        self.retry = retry
        # Who hears about retries first: a follower turns them into Notices; else they are notes.
        self.retry_sinks: list[Callable[[str], None]] = []
        self._ids = itertools.count(1)
        credentials = credentials or Credentials()
        # One redactor for the tap and for error messages, which may quote what the agent echoed back.
        self.redactor = tap.redactor if tap else Redactor()
        self.redactor.add(*credentials.secrets)
        self.auth: AuthPlan = plan_auth(card, credentials)
        self._headers = {"Content-Type": "application/json", **(extra_headers or {})}
        if self.endpoint.version == "1.0":
            self._headers["A2A-Version"] = "1.0"
        if correlation_id:
            self._headers[CORRELATION_HEADER] = correlation_id
        self.withheld = False  # credentials planned but kept from an interface on another origin
        same_origin = not card_url.startswith("http") or origin_of(self.endpoint.url) == origin_of(card_url)
        if (extra_headers or not self.auth.empty) and not same_origin and not trust_interface_origin:
            # Configured headers may hold ${VAR} secrets too, so they stay home with the credentials.
            self.note(
                f"credentials and configured headers withheld: the card at {origin_of(card_url)} points its "
                f"interface at {origin_of(self.endpoint.url)} (allow it with --trust-interface-origin, or "
                "trustInterfaceOrigin: true for the agent in the agents file)"
            )
            self.withheld = True
            self.auth = AuthPlan()
            for name in extra_headers or {}:
                self._headers.pop(name, None)
        if tap:
            tap.sensitive_headers.update(self.auth.headers)

    @classmethod
    async def connect(
        cls,
        ref: str,
        *,
        http: httpx.AsyncClient | None = None,
        tap: Tap | None = None,
        card_headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> A2AClient:
        """Fetch the card for `ref` (URL, host, card URL or file) and build a client for it."""
        owns = http is None
        http = http or new_http_client()
        try:
            resolved = await fetch_card(
                ref, http, tap=tap, headers=card_headers, retry=kwargs.get("retry", DEFAULT_RETRY)
            )
        except BaseException:
            if owns:
                await http.aclose()
            raise
        client = cls.from_resolved(resolved, http=http, tap=tap, **kwargs)
        client._owns_http = owns
        return client

    @classmethod
    def from_resolved(cls, resolved: ResolvedCard, **kwargs: Any) -> A2AClient:
        client = cls(resolved.card, card_url=resolved.card_url, **kwargs)
        for note in resolved.notes:
            client.note(note)
        return client

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    async def __aenter__(self) -> A2AClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # --- helpers ---------------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.notes.add(text)
        if self._on_note:
            self._on_note(text)

    def retried(self, text: str) -> None:
        """A request failed and is tried again: tell whoever follows the turn, else note it."""
        if self.retry_sinks:
            for sink in self.retry_sinks:
                sink(text)
        else:
            self.note(text)

    def _drain_notes(self, notes: Notes) -> None:
        for text in notes:
            self.note(text)

    def _body(self, op: str, params: dict[str, Any]) -> tuple[int, bytes]:
        method = self.codec.METHODS.get(op)
        if method is None:
            raise UsageError(
                f"{op} is not part of the A2A {self.endpoint.version} JSON-RPC binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        request_id = next(self._ids)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        return request_id, json.dumps(body, separators=(",", ":")).encode()

    def _status_error(self, url: str, status: int, body: str) -> SwitchboardError:
        error = http_status_error(url, status, self.redactor.text(body))
        if self.withheld and isinstance(error, AuthFailedError):
            error.hint = (
                "Credentials were not sent because the card points its interface at another origin than its own. "
                "If you trust that origin, allow it with --trust-interface-origin, or trustInterfaceOrigin: true "
                "for the agent in the agents file."
            )
        return error

    def _request_headers(self, accept: str) -> dict[str, str]:
        return {**self._headers, **self.auth.request_headers(), "Accept": accept}

    def _with_trace(self, message: Message) -> Message:
        if not self.correlation_id:
            return message
        metadata = {**(message.metadata or {}), "correlationId": self.correlation_id}
        return message.model_copy(update={"metadata": metadata})

    def _tenant(self) -> dict[str, str]:
        return {"tenant": self.endpoint.tenant} if self.endpoint.tenant and self.endpoint.version == "1.0" else {}

    def _result(self, payload: Any) -> Any:
        url = self.endpoint.url
        if not isinstance(payload, dict):
            raise InvalidResponseError(
                f"{url} answered with a JSON {type(payload).__name__}, not a JSON-RPC response",
                hint="Check that the card's interface URL is the agent's JSON-RPC endpoint; --verbose shows it.",
                url=url,
            )
        if "error" in payload and payload["error"] is not None:
            raise protocol_error_from(payload["error"], url)
        if "result" not in payload:
            raise InvalidResponseError(
                f"{url} answered without a result or an error", hint="Run with --verbose to see the answer.", url=url
            )
        return payload["result"]

    async def _post(
        self,
        op: str,
        params: dict[str, Any],
        accept: str,
        *,
        stream: bool,
        timeout: httpx.Timeout | float | None = None,
    ) -> tuple[httpx.Response, int]:
        """POST the request for `op` to the agent's endpoint, retried as far as `op` is safe to repeat, recorded on
        the tap (see open_response: with `stream` the body is left to the caller)."""
        _, body = self._body(op, params)
        return await open_response(
            self.http,
            "POST",
            self.endpoint.url,
            tap=self.tap,
            headers=self._request_headers(accept),
            params=self.auth.params or None,
            content=body,
            retry=self.retry,
            safe=op in SAFE_OPS,
            on_retry=self.retried,
            stream=stream,
            timeout=timeout,
        )

    async def _call(self, op: str, params: dict[str, Any]) -> Any:
        url = self.endpoint.url
        response, _ = await self._post(op, params, "application/json", stream=False)
        if response.status_code != 200:
            raise self._status_error(url, response.status_code, response.text)
        return self._result(parse_json(url, response.text))

    async def _call_bounded(
        self, op: str, params: dict[str, Any], bound: int, *, timeout: httpx.Timeout | float | None = None
    ) -> tuple[Any, int | None]:
        """`_call` holding no more than about `bound` bytes of the answer (see read_bounded): the result, and the
        answer's size when it was past the bound and read with its long strings left out (else None)."""
        url = self.endpoint.url
        response, exchange = await self._post(op, params, "application/json", stream=True, timeout=timeout)
        answer = await read_tapped(response, bound, url=url, tap=self.tap, exchange=exchange)
        text = answer.content.decode(response.encoding or "utf-8", errors="replace")
        if response.status_code != 200:
            raise self._status_error(url, response.status_code, text[:4096])
        return self._result(parse_json(url, text)), answer.size if answer.skimmed else None

    def _decode(self, decode: Callable[[Any, Notes], Any], value: Any, what: str) -> Any:
        notes = Notes()
        try:
            return decode(value, notes)
        except WireFormatError as exc:
            raise InvalidResponseError(
                f"{what} from {self.endpoint.url}: {exc.message}", url=self.endpoint.url
            ) from None
        finally:
            self._drain_notes(notes)

    # --- operations ------------------------------------------------------------------------------------

    def _send_params(self, message: Message, blocking: bool, history_length: int | None, metadata) -> dict:
        return self.codec.send_params(
            self._with_trace(message),
            blocking=blocking,
            history_length=history_length,
            accepted_output_modes=None,
            metadata=metadata,
            **self._tenant(),
        )

    async def send(
        self,
        message: Message,
        *,
        blocking: bool = True,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Task | Message:
        """message/send or SendMessage. Blocking returns at a terminal or interrupted state."""
        result = await self._call("send", self._send_params(message, blocking, history_length, metadata))
        return self._decode(self.codec.decode_send_result, result, "the send result")

    def stream(
        self,
        message: Message,
        *,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        on_open: Callable[[], None] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """message/stream or SendStreamingMessage: the events as they arrive.

        `on_open` is called once the agent's answer starts (after any retries of the request)."""
        return self._stream("stream", self._send_params(message, True, history_length, metadata), on_open)

    def subscribe(self, task_id: str, *, on_open: Callable[[], None] | None = None) -> AsyncIterator[StreamEvent]:
        """tasks/resubscribe or SubscribeToTask: re-attach to a running task's stream."""
        return self._stream("subscribe", self.codec.id_params(task_id, **self._tenant()), on_open)

    async def get_task(self, task_id: str, *, history_length: int | None = None) -> Task:
        result = await self._call("get", self.codec.get_params(task_id, history_length, **self._tenant()))
        return self._decode(self.codec.decode_task, result, "the task")

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> Task:
        """tasks/cancel or CancelTask: the task as the agent answers the cancel (see cancel.py for confirming it).

        The agent answers with the whole task. An answer past CANCEL_ANSWER_BOUND bytes is read with bounded
        memory, for the task's ids and status only: the Task returned has no artifacts and no history (applied
        to a TaskView it changes the status and keeps the artifacts the view holds), and a note says so.
        `timeout` (seconds) replaces CANCEL_TIMEOUT.
        """
        return await self._bounded_task(
            "cancel", task_id, "the cancel", "the canceled task", CANCEL_TIMEOUT if timeout is None else timeout
        )

    async def task_status(self, task_id: str) -> Task:
        """get-task read as cancel_task reads its answer: a task past the bound comes without artifacts and
        history. For checking where a task stands when it may hold far more than anyone wants to read."""
        return await self._bounded_task("get", task_id, "get-task", "the task", CANCEL_TIMEOUT)

    async def _bounded_task(self, op: str, task_id: str, asked: str, what: str, timeout: httpx.Timeout | float) -> Task:
        params = self.codec.id_params(task_id, **self._tenant())
        result, skimmed_size = await self._call_bounded(op, params, CANCEL_ANSWER_BOUND, timeout=timeout)
        if skimmed_size is None:
            return self._decode(self.codec.decode_task, result, what)
        if isinstance(result, dict):  # shells whose texts were left out: not to be taken for the task's content
            result = {key: value for key, value in result.items() if key not in ("artifacts", "history")}
        task = self._decode(self.codec.decode_task, result, what)
        self.note(
            f"the agent answered {asked} with the whole task, {skimmed_size / 2**20:.1f} MB: only its ids and "
            "status were read, its artifacts and history were not (what the stream showed is kept)"
        )
        return task

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: TaskState | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        history_length: int | None = None,
    ) -> TaskPage:
        """ListTasks (v1.0 only)."""
        if "list" not in self.codec.METHODS:
            raise UsageError(
                f"listing tasks is not part of the A2A {self.endpoint.version} JSON-RPC binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        params = self.codec.list_params(
            context_id=context_id,
            state=state,
            page_size=page_size,
            page_token=page_token,
            history_length=history_length,
            **self._tenant(),
        )
        result = await self._call("list", params)
        return self._decode(self.codec.decode_task_page, result, "the task list")

    async def extended_card(self) -> AgentCard:
        """The authenticated extended card, read through the agent's wire version."""
        params: dict[str, Any] = self._tenant() if self.endpoint.version == "1.0" else {}
        result = await self._call("extended_card", params)
        notes = Notes()
        card = parse_card(result, notes)
        self._drain_notes(notes)
        return card

    # --- streaming -------------------------------------------------------------------------------------

    async def _stream(
        self, op: str, params: dict[str, Any], on_open: Callable[[], None] | None = None
    ) -> AsyncIterator[StreamEvent]:
        url = self.endpoint.url
        tap = self.tap
        response, exchange = await self._post(op, params, "text/event-stream", stream=True)
        if on_open:
            on_open()
        try:
            content_type = response.headers.get("content-type", "")
            if response.status_code != 200 or "text/event-stream" not in content_type:
                # A streaming call answered with plain JSON: an error (or, from some servers, a result).
                await response.aread()
                if tap:
                    tap.response(exchange, response.status_code, header_pairs(response.headers), response.content)
                if response.status_code != 200:
                    raise self._status_error(url, response.status_code, response.text)
                result = self._result(parse_json(url, response.text))
                yield self._decode(self.codec.decode_event, result, "the stream result")
                return
            if tap:
                tap.response(exchange, response.status_code, header_pairs(response.headers), None)
            try:
                async for sse in EventSource(response).aiter_sse():
                    if tap:
                        tap.frame(exchange, sse.event, sse.data)
                    event = self._frame(sse.event, sse.data)
                    if event is not None:
                        yield event
            except httpx.HTTPError as exc:
                if tap:
                    tap.error(exchange, f"{type(exc).__name__}: {exc}")
                raise StreamBrokenError(f"the stream from {url} broke: {exc or type(exc).__name__}", url=url) from None
        finally:
            await response.aclose()
            if tap:
                tap.done(exchange)

    def _frame(self, event_name: str, data: str) -> StreamEvent | None:
        """One SSE frame -> one event. Garbage is a note, an error frame raises."""
        if not data.strip():
            return None
        try:
            payload = _loads(data)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser can go
            self.note(f"ignored an SSE frame that is not JSON: {data[:80]!r}")
            return None
        if type(payload) is dict and "result" in payload and payload.get("error") is None and event_name != "error":
            result = payload["result"]  # a plain JSON-RPC result, as nearly every frame is
        else:
            if event_name == "error" or (isinstance(payload, dict) and payload.get("error") is not None):
                error = payload.get("error", payload) if isinstance(payload, dict) else payload
                raise protocol_error_from(error, self.endpoint.url)
            try:
                result = self._result(payload)
            except InvalidResponseError as exc:
                self.note(f"ignored an SSE frame: {exc.message}")
                return None
        notes = Notes()
        try:
            return self.codec.decode_event(result, notes)
        except WireFormatError as exc:
            self.note(f"ignored an SSE frame: {exc.message}")
            return None
        finally:
            if notes:
                self._drain_notes(notes)
