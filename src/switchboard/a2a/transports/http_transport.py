"""HttpTransport: what the A2A bindings over HTTP share, whatever their envelope.

Credentials are planned from the card's security schemes and sent only to the origin the card came from (an
interface on another origin gets none unless `trust_interface_origin` is set); every request goes through the tap
(redacted) and the bounded retries of http.py; v1.0 requests carry `A2A-Version: 1.0`. The answer to a cancel is
read with bounded memory; streams are read frame by frame from SSE, and a streaming call answered with plain
JSON (an error, or a single result) is read as such. A binding says how an operation becomes a request
(`_open`), how an answer becomes a result or an error (`_answer`), and how an SSE frame becomes an event
(`_frame`): jsonrpc.py and rest.py.
"""

from __future__ import annotations

import codecs
import json
from abc import abstractmethod
from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar, TypeVar, cast

import httpx
from httpx_sse import EventSource

from ..auth.credentials import AuthPlan, Credentials, plan_auth, wants_basic
from ..bounded_read import answer_text, read_tapped
from ..call_context import CallContext
from ..cards import BINDING_NAMES, Endpoint, choose_endpoint, parse_card
from ..errors import AuthFailedError, InvalidResponseError, ProtocolError, SwitchboardError, UsageError, for_operation
from ..http import (
    DEFAULT_RETRY,
    RetryPolicy,
    basic_challenge,
    header_pairs,
    http_status_error,
    new_http_client,
    refused_hint,
)
from ..model import AgentCard, Message, StreamEvent, Task, TaskPage, TaskState
from ..origin import origin_of
from ..redact import Redactor
from ..tap import Tap
from ..wire import v10
from ..wire.codec import Codec
from ..wire.common import Notes, WireFormatError
from .base import StreamBrokenError, Transport
from .push_configs import PushConfigs

CORRELATION_HEADER = "X-Correlation-Id"
# Operations that change nothing at the agent, so a failed attempt may always be repeated (see http.py).
SAFE_OPS = frozenset({"get", "subscribe", "list", "extended_card", "push_get", "push_list"})
# An agent answers CancelTask with the whole task, every artifact chunk included, and serializes all of it before
# the first byte: 139 MB, 27 s, after an 8 s stream of 64 KB chunks. So the cancel waits longer than other calls:
# five minutes covers a task that streamed for minutes, while the keys keep working (the TUI waits in a worker);
# an agent silent for longer is stuck. httpx applies it to each read, so a body that keeps coming is not cut.
CANCEL_TIMEOUT = httpx.Timeout(300.0, connect=10.0)
# Bytes of the answer to a cancel held whole; past this only its ids and status are read (see cancel_task).
CANCEL_ANSWER_BOUND = 8 * 2**20
# The C scanner behind json.loads; see loads_frame. (typeshed leaves scan_once out: JSONDecoder sets it in __init__.)
_scan_json: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]

# Characters one SSE frame may hold: a status update or an artifact chunk is kilobytes; a frame past this (or a
# line that never ends) is refused before it is held, not buffered for as long as the agent keeps sending.
MAX_FRAME = 16 * 2**20

T = TypeVar("T")


class _CappedFrames:
    """The response as EventSource reads it (its headers and its text), counting the characters read since the last
    event: past MAX_FRAME, an InvalidResponseError. The caller sets `pending` to 0 at each event."""

    def __init__(self, response: httpx.Response, url: str) -> None:
        self.response = response
        self.headers = response.headers
        self.url = url
        self.pending = 0

    async def aiter_text(self) -> AsyncIterator[str]:
        # An event stream is UTF-8 whatever charset its Content-Type names (HTML's SSE, "always decoded as UTF-8");
        # httpx's decoder for a named UTF-16 raises on a body without a byte order mark.
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        async for chunk in self.response.aiter_bytes():
            text = decoder.decode(chunk)
            self.pending += len(text)
            if self.pending > MAX_FRAME:
                raise InvalidResponseError(
                    f"the stream from {self.url} sent a frame of more than {MAX_FRAME // 2**20} M characters; "
                    "it was not read",
                    hint="The agent's stream is malformed (a line that never ends?); run with --verbose to see it.",
                    url=self.url,
                )
            if text:
                yield text
        if tail := decoder.decode(b"", final=True):
            yield tail


def loads_frame(data: str) -> Any:
    """json.loads(data) for an SSE frame's data, through the scanner json.loads itself ends in, without the steps
    around it (three calls and two regular expressions: a fifth of a frame's cost beyond httpx-sse). Data that
    does not start and end with its JSON value is left to json.loads, which reads it or raises its error."""
    try:
        value, end = _scan_json(data, 0)
    except (StopIteration, ValueError):
        return json.loads(data)
    return value if end == len(data) else json.loads(data)


class HttpTransport(PushConfigs, Transport):
    """One A2A interface over HTTP: the card's choice of interface (or `endpoint`), its wire version's codec."""

    BINDING: ClassVar[str]
    CONTENT_TYPE: ClassVar[str] = "application/json"
    ACCEPT_JSON: ClassVar[str] = "application/json, application/a2a+json"

    def __init__(
        self,
        card: AgentCard,
        *,
        card_url: str,
        endpoint: Endpoint | None = None,
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
        super().__init__(on_note=on_note)
        self.card = card
        self.card_url = card_url
        self.endpoint: Endpoint = endpoint or choose_endpoint(card, prefer_version, binding=self.BINDING)
        self.url = self.endpoint.url
        self.codec: Codec = self._codec()
        self.streams = bool(card.capabilities.streaming)
        self._owns_http = http is None
        self.http = http or new_http_client()
        self.tap = tap
        self.correlation_id = correlation_id
        self.retry = retry
        credentials = credentials or Credentials()
        # One redactor for the tap and for error messages, which may quote what the agent echoed back.
        self.redactor = tap.redactor if tap else Redactor()
        self.redactor.add(*credentials.secrets)
        self.basic = wants_basic(card, credentials)  # a refusal's hint names the Basic flags
        self.auth: AuthPlan = plan_auth(card, credentials, url=self.endpoint.url, redactor=self.redactor, tap=tap)
        self._headers = {"Content-Type": self.CONTENT_TYPE, **(extra_headers or {})}
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

    @property
    def version(self) -> str:
        return self.endpoint.version

    @property
    def label(self) -> str:
        return self.endpoint.label

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    # --- what a binding supplies -----------------------------------------------------------------------

    @abstractmethod
    def _codec(self) -> Codec:
        """The module that encodes params and decodes results for this binding at `self.endpoint.version`."""

    @abstractmethod
    async def _open(
        self,
        op: str,
        params: dict[str, Any],
        accept: str,
        *,
        stream: bool,
        timeout: httpx.Timeout | float | None = None,
        context: CallContext | None = None,
    ) -> tuple[httpx.Response, int, str]:
        """Send the request for `op`, retried as far as `op` is safe to repeat, recorded on the tap (with `stream`
        the body is left to the caller, see open_response): the response, its tap exchange, and the URL asked
        (without query, so no credential in it) for messages. Its retries go to the call's `context`."""

    @abstractmethod
    def _answer(self, op: str, url: str, status: int, text: str) -> Any:
        """A whole answer to `op`: the result it carries, or the error it reports, raised."""

    @abstractmethod
    def _frame(self, event_name: str, data: str) -> StreamEvent | None:
        """One SSE frame -> one event. Garbage is a note (None), an error frame raises."""

    def _tenant(self) -> str | None:
        """The tenant as a parameter of the request body (JSON-RPC); a path segment elsewhere (None here)."""
        return None

    # --- helpers ---------------------------------------------------------------------------------------

    def _status_error(self, url: str, status: int, body: str) -> SwitchboardError:
        error = http_status_error(url, status, self.redactor.text(body), basic=self.basic)
        if self.withheld and isinstance(error, AuthFailedError):
            error.hint = (
                "Credentials were not sent because the card points its interface at another origin than its own. "
                "If you trust that origin, allow it with --trust-interface-origin, or trustInterfaceOrigin: true "
                "for the agent in the agents file."
            )
        return error

    async def _read_answer(self, op: str, url: str, response: httpx.Response, text: str) -> Any:
        """`_answer`, with a refusal explained from its WWW-Authenticate challenge (scope, error, servers), and a
        protocol error given the hint that fits `op`."""
        try:
            return self._answer(op, url, response.status_code, text)
        except AuthFailedError as error:
            if not self.withheld:
                from ..auth.challenge import explain

                challenge = response.headers.get("www-authenticate")
                if basic_challenge(challenge):
                    error.hint = refused_hint(True)
                await explain(error, response.status_code, challenge, url, self.http, self.auth.oauth is not None)
            raise
        except ProtocolError as exc:
            raise for_operation(exc, op) from None  # its hint fits what was tried

    def _request_headers(self, accept: str) -> dict[str, str]:
        return {**self._headers, **self.auth.request_headers(), "Accept": accept}

    def _with_trace(self, message: Message) -> Message:
        if not self.correlation_id:
            return message
        metadata = {**(message.metadata or {}), "correlationId": self.correlation_id}
        return message.model_copy(update={"metadata": metadata})

    def _drain_notes(self, notes: Notes) -> None:
        for text in notes:
            self.note(text)

    def _decode(self, decode: Callable[[Any, Notes], T], value: Any, what: str) -> T:
        notes = Notes()
        try:
            return decode(value, notes)
        except WireFormatError as exc:
            raise InvalidResponseError(f"{what} from {self.url}: {exc.message}", url=self.url) from None
        finally:
            self._drain_notes(notes)

    async def _call(self, op: str, params: dict[str, Any], context: CallContext | None = None) -> Any:
        response, _, url = await self._open(op, params, self.ACCEPT_JSON, stream=False, context=context)
        return await self._read_answer(op, url, response, answer_text(response))

    async def _call_bounded(
        self, op: str, params: dict[str, Any], bound: int, *, timeout: httpx.Timeout | float | None = None
    ) -> tuple[Any, int | None]:
        """`_call` holding no more than about `bound` bytes of the answer (see read_bounded): the result, and the
        answer's size when it was past the bound and read with its long strings left out (else None)."""
        response, exchange, url = await self._open(op, params, self.ACCEPT_JSON, stream=True, timeout=timeout)
        answer = await read_tapped(response, bound, url=url, tap=self.tap, exchange=exchange)
        text = answer.content.decode(response.encoding or "utf-8", errors="replace")
        if not 200 <= response.status_code < 300:
            text = text[:4096]
        return await self._read_answer(op, url, response, text), answer.size if answer.skimmed else None

    # --- operations ------------------------------------------------------------------------------------

    def _send_params(
        self, message: Message, blocking: bool, history_length: int | None, metadata: dict[str, Any] | None
    ) -> dict[str, Any]:
        return self.codec.send_params(
            self._with_trace(message),
            blocking=blocking,
            history_length=history_length,
            accepted_output_modes=None,
            metadata=metadata,
            tenant=self._tenant(),
        )

    async def send(
        self,
        message: Message,
        *,
        blocking: bool = True,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        context: CallContext | None = None,
    ) -> Task | Message:
        """SendMessage (message/send). Blocking returns at a terminal or interrupted state."""
        result = await self._call("send", self._send_params(message, blocking, history_length, metadata), context)
        return self._decode(self.codec.decode_send_result, result, "the send result")

    def stream(
        self,
        message: Message,
        *,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        on_open: Callable[[], None] | None = None,
        context: CallContext | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """SendStreamingMessage (message/stream): the events as they arrive."""
        return self._stream("stream", self._send_params(message, True, history_length, metadata), on_open, context)

    def subscribe(
        self, task_id: str, *, on_open: Callable[[], None] | None = None, context: CallContext | None = None
    ) -> AsyncIterator[StreamEvent]:
        """SubscribeToTask (tasks/resubscribe): re-attach to a running task's stream."""
        return self._stream("subscribe", self.codec.id_params(task_id, tenant=self._tenant()), on_open, context)

    async def get_task(
        self, task_id: str, *, history_length: int | None = None, context: CallContext | None = None
    ) -> Task:
        params = self.codec.get_params(task_id, history_length, tenant=self._tenant())
        result = await self._call("get", params, context)
        return self._decode(self.codec.decode_task, result, "the task")

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> Task:
        """CancelTask (tasks/cancel): the task as the agent answers the cancel (see cancel.py for confirming it).

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
        params = self.codec.id_params(task_id, tenant=self._tenant())
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
        context: CallContext | None = None,
    ) -> TaskPage:
        """ListTasks (v1.0 only)."""
        if not self.lists_tasks:
            raise UsageError(
                f"listing tasks is not part of the A2A {self.endpoint.version} {BINDING_NAMES[self.BINDING]} binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        params = v10.list_params(  # listing is 1.0's alone, so its codec's
            context_id=context_id,
            state=state,
            page_size=page_size,
            page_token=page_token,
            history_length=history_length,
            tenant=self._tenant(),
        )
        result = await self._call("list", params, context)
        return self._decode(v10.decode_task_page, result, "the task list")

    async def extended_card(self) -> AgentCard:
        """The authenticated extended card, read through the agent's wire version."""
        tenant = self._tenant() if self.endpoint.version == "1.0" else None
        result = await self._call("extended_card", {"tenant": tenant} if tenant else {})
        notes = Notes()
        card = parse_card(result, notes)
        self._drain_notes(notes)
        return card

    # --- push-notification configs (v1.0) ---------------------------------------------------------------

    async def _push_call(self, op: str, params: dict[str, Any]) -> Any:
        return await self._call(op, params)

    # --- streaming -------------------------------------------------------------------------------------

    async def _stream(
        self,
        op: str,
        params: dict[str, Any],
        on_open: Callable[[], None] | None = None,
        context: CallContext | None = None,
    ) -> AsyncIterator[StreamEvent]:
        tap = self.tap
        response, exchange, url = await self._open(op, params, "text/event-stream", stream=True, context=context)
        if on_open:
            on_open()
        try:
            content_type = response.headers.get("content-type", "")
            if response.status_code != 200 or "text/event-stream" not in content_type:
                # A streaming call answered with plain JSON: an error (or, from some servers, a result).
                await response.aread()
                if tap:
                    tap.response(exchange, response.status_code, header_pairs(response.headers), response.content)
                result = await self._read_answer(op, url, response, answer_text(response))
                yield self._decode(self.codec.decode_event, result, "the stream result")
                return
            if tap:
                tap.response(exchange, response.status_code, header_pairs(response.headers), None)
            try:
                capped = _CappedFrames(response, url)
                async for sse in EventSource(cast(httpx.Response, capped)).aiter_sse():
                    capped.pending = 0
                    if tap:
                        tap.frame(exchange, sse.event, sse.data)
                    try:
                        event = self._frame(sse.event, sse.data)
                    except ProtocolError as exc:
                        raise for_operation(exc, op) from None
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
