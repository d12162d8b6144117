"""The gRPC binding, v1.0 and v0.3, through the official a2a-sdk's generated stubs (the extra a2a-switchboard[grpc]).

A gRPC interface on a card is `{"url": "host:port", "protocolBinding": "GRPC"}`: service `lf.a2a.v1.A2AService` at
1.0, `a2a.v1.A2AService` at 0.3. The requests are the messages the HTTP+JSON binding carries as bodies, so the
codecs of the other bindings write and read them: params -> ProtoJSON -> proto on the way out, proto -> ProtoJSON ->
model on the way back (v10 at 1.0, v03rest at 0.3; the v0.3 service names a task `tasks/{id}`). Every call is on the
tap: the method, the metadata (redacted), each message as JSON, the status (see tap.py for the shapes).

Errors, ProtoJSON and the tap's records of a call are grpc_answers.py's; the channel's address and whether it takes
TLS, grpc_address.py's.

This module imports grpc: only client.transport_for imports it, when a card's gRPC interface is chosen, so the base
install and `switchboard --help` never load it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import grpc
import grpc.aio
import httpx
from a2a.compat.v0_3 import a2a_v0_3_pb2, a2a_v0_3_pb2_grpc
from a2a.types import a2a_pb2, a2a_pb2_grpc
from google.protobuf import json_format
from google.protobuf.message import Message as ProtoMessage

from ..auth.credentials import AuthPlan, Credentials, plan_auth
from ..call_context import CallContext
from ..cards import GRPC, Endpoint, choose_endpoint, parse_card
from ..errors import InvalidResponseError, SwitchboardError, UnavailableError, UsageError, for_operation
from ..http import DEFAULT_RETRY, RetryPolicy
from ..model import AgentCard, Message, StreamEvent, Task, TaskPage, TaskState
from ..redact import Redactor
from ..tap import GRPC as GRPC_METHOD
from ..tap import Tap
from ..wire import v03rest, v10
from ..wire.codec import Codec
from ..wire.common import Notes, WireFormatError
from . import http_transport
from .base import StreamBrokenError, Transport
from .grpc_address import channel_target, same_host
from .grpc_answers import (
    MAX_MESSAGE,
    Skimmed,
    call_failure,
    metadata_pairs,
    proto_dict,
    proto_json,
    skim,
    tap_end,
    tap_failure,
    unparsable,
)
from .grpc_events import plain_event
from .push_configs import PushConfigs

# grpc logs a traceback ("Exception deserializing message!") to stderr for an answer that does not parse, then gives
# the call None: the transport reports that itself, in a sentence (see _unparsable).
logging.getLogger("grpc._common").setLevel(logging.CRITICAL)

# op -> (the stub's method, the request message, streams). Per wire version: the service differs.
_OPS: dict[str, dict[str, tuple[str, type[ProtoMessage], bool]]] = {
    "1.0": {
        "send": ("SendMessage", a2a_pb2.SendMessageRequest, False),
        "stream": ("SendStreamingMessage", a2a_pb2.SendMessageRequest, True),
        "get": ("GetTask", a2a_pb2.GetTaskRequest, False),
        "list": ("ListTasks", a2a_pb2.ListTasksRequest, False),
        "cancel": ("CancelTask", a2a_pb2.CancelTaskRequest, False),
        "subscribe": ("SubscribeToTask", a2a_pb2.SubscribeToTaskRequest, True),
        "extended_card": ("GetExtendedAgentCard", a2a_pb2.GetExtendedAgentCardRequest, False),
        "push_set": ("CreateTaskPushNotificationConfig", a2a_pb2.TaskPushNotificationConfig, False),
        "push_get": ("GetTaskPushNotificationConfig", a2a_pb2.GetTaskPushNotificationConfigRequest, False),
        "push_list": ("ListTaskPushNotificationConfigs", a2a_pb2.ListTaskPushNotificationConfigsRequest, False),
        "push_delete": ("DeleteTaskPushNotificationConfig", a2a_pb2.DeleteTaskPushNotificationConfigRequest, False),
    },
    "0.3": {
        "send": ("SendMessage", a2a_v0_3_pb2.SendMessageRequest, False),
        "stream": ("SendStreamingMessage", a2a_v0_3_pb2.SendMessageRequest, True),
        "get": ("GetTask", a2a_v0_3_pb2.GetTaskRequest, False),
        "cancel": ("CancelTask", a2a_v0_3_pb2.CancelTaskRequest, False),
        "subscribe": ("TaskSubscription", a2a_v0_3_pb2.TaskSubscriptionRequest, True),
        "extended_card": ("GetAgentCard", a2a_v0_3_pb2.GetAgentCardRequest, False),
    },
}
_SERVICES = {"1.0": "lf.a2a.v1.A2AService", "0.3": "a2a.v1.A2AService"}
_STUBS = {"1.0": a2a_pb2_grpc.A2AServiceStub, "0.3": a2a_v0_3_pb2_grpc.A2AServiceStub}
SAFE_OPS = frozenset({"get", "subscribe", "list", "extended_card", "push_get", "push_list"})
UNARY_TIMEOUT = 30.0  # seconds, as the HTTP bindings' read timeout
CANCEL_TIMEOUT = 300.0  # see http_transport.CANCEL_TIMEOUT: the answer is the whole task

T = TypeVar("T")


class GrpcTransport(PushConfigs, Transport):
    """Talks to one agent through a gRPC interface of its card."""

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
        self.endpoint = endpoint or choose_endpoint(card, prefer_version, binding=GRPC)
        self.url = self.endpoint.url
        self.target, self.tls = channel_target(self.endpoint.url, card_url)
        self.streams = bool(card.capabilities.streaming)
        self.lists_tasks = "list" in _OPS[self.endpoint.version]
        self.tap = tap
        self.correlation_id = correlation_id
        self.retry = retry or RetryPolicy(attempts=1)
        # The card was fetched with this client (connect); it is closed with the transport when it is ours.
        self.http = http
        self._owns_http = False
        credentials = credentials or Credentials()
        self.redactor = tap.redactor if tap else Redactor()
        self.redactor.add(*credentials.secrets)
        self.auth: AuthPlan = plan_auth(card, credentials)
        self.withheld = False
        sending = extra_headers or not self.auth.empty
        if sending and not trust_interface_origin and not same_host(card_url, self.target):
            self.note(
                f"credentials and configured headers withheld: the card at {urlsplit(card_url).hostname} points "
                f"its gRPC interface at {self.target} (allow it with --trust-interface-origin, or "
                "trustInterfaceOrigin: true for the agent in the agents file)"
            )
            self.withheld = True
            self.auth = AuthPlan()
            extra_headers = {}
        if self.auth.params:
            self.note("the card asks for the API key in the query string, which gRPC has not: sent as metadata")
        metadata = {**(extra_headers or {}), **self.auth.request_headers(), **self.auth.params}
        if self.endpoint.version == "1.0":
            metadata["A2A-Version"] = "1.0"
        if correlation_id:
            metadata["X-Correlation-Id"] = correlation_id
        # gRPC metadata keys are lower case, values printable ASCII (headers were checked where they entered).
        self.metadata = tuple((name.lower(), value) for name, value in metadata.items())
        if tap:
            tap.sensitive_headers.update(name.lower() for name in self.auth.request_headers())
            tap.sensitive_headers.update(name.lower() for name in self.auth.params)
        self._channel: grpc.aio.Channel | None = None
        self._stub: Any = None

    @property
    def version(self) -> str:
        return self.endpoint.version

    @property
    def label(self) -> str:
        return self.endpoint.label

    def _codec(self) -> Codec:
        return v10 if self.endpoint.version == "1.0" else v03rest

    def _stub_for(self) -> Any:
        # Made on first use, inside the event loop that uses it (a grpc.aio channel belongs to one loop).
        if self._stub is None:
            options = [("grpc.max_receive_message_length", MAX_MESSAGE), ("grpc.max_send_message_length", MAX_MESSAGE)]
            if self.tls:
                self._channel = grpc.aio.secure_channel(self.target, grpc.ssl_channel_credentials(), options=options)
            else:
                self._channel = grpc.aio.insecure_channel(self.target, options=options)
            self._stub = _STUBS[self.endpoint.version](self._channel)  # type: ignore[no-untyped-call]  # generated, untyped
        return self._stub

    async def aclose(self) -> None:
        if self._channel is not None:
            await self._channel.close()
            self._channel = None
            self._stub = None
        if self._owns_http and self.http is not None:
            await self.http.aclose()

    # --- requests ----------------------------------------------------------------------------------------

    def _request(self, op: str, params: dict[str, Any]) -> tuple[str, ProtoMessage, bool]:
        ops = _OPS[self.endpoint.version]
        if op not in ops:
            raise UsageError(
                f"{op} is not part of the A2A {self.endpoint.version} gRPC binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        method, kind, streams = ops[op]
        params = dict(params)
        if self.endpoint.version == "0.3" and "id" in params:
            params["name"] = f"tasks/{params.pop('id')}"  # the v0.3 service names resources
        try:
            request = json_format.ParseDict(params, kind())
        except json_format.ParseError as exc:
            raise UsageError(
                f"the request cannot be written for gRPC: {self.redactor.text(str(exc))}",
                hint="Check the message's parts and metadata (data parts must be JSON objects).",
            ) from None
        return method, request, streams

    def _path(self, method: str) -> str:
        return f"{'grpcs' if self.tls else 'grpc'}://{self.target}/{_SERVICES[self.endpoint.version]}/{method}"

    # --- the tap: a gRPC call in the tap's shapes (see tap.py) --------------------------------------------

    def _tap_request(self, method: str, request: ProtoMessage) -> int | None:
        if self.tap is None:
            return None
        return self.tap.request(GRPC_METHOD, self._path(method), self.metadata, proto_json(request))

    def _tap_failure(self, exchange: int | None, exc: grpc.aio.AioRpcError) -> None:
        if self.tap is not None and exchange is not None:
            tap_failure(self.tap, exchange, exc)

    def _tap_end(self, exchange: int, trailers: Any) -> None:
        if self.tap is not None:
            tap_end(self.tap, exchange, trailers)

    async def _unary(
        self,
        op: str,
        params: dict[str, Any],
        *,
        timeout: float | None = None,
        bound: int | None = None,
        context: CallContext | None = None,
    ) -> dict[str, Any] | Skimmed:
        """The answer to a unary call as ProtoJSON; past `bound` bytes (a task), a Skimmed of its ids and status."""
        method, request, _ = self._request(op, params)
        call_method = getattr(self._stub_for(), method)
        attempt = 1
        while True:
            exchange = self._tap_request(method, request)
            call = call_method(request, metadata=self.metadata, timeout=timeout or UNARY_TIMEOUT)
            try:
                answer = await call
            except grpc.aio.AioRpcError as exc:
                self._tap_failure(exchange, exc)
                if op in SAFE_OPS and exc.code() == grpc.StatusCode.UNAVAILABLE and attempt < self.retry.attempts:
                    delay = self.retry.delay(attempt)
                    self.retried(
                        f"{self.target} is unavailable; retrying in {delay:.2f} s "
                        f"(attempt {attempt + 1} of {self.retry.attempts})",
                        context,
                    )
                    attempt += 1
                    await asyncio.sleep(delay)
                    continue
                raise self._error(op, exc) from None
            if answer is None:  # grpc gives None for bytes that do not parse as the message (and logs it, below)
                if exchange is not None:
                    self._tap_end(exchange, await call.trailing_metadata())
                raise unparsable(method, self.url)
            skimmed = skim(answer, bound) if bound is not None else None
            result, shown = skimmed or (None, answer)
            if self.tap is not None and exchange is not None:
                initial = metadata_pairs(await call.initial_metadata())
                partial = shown is not answer
                self.tap.response(exchange, None, initial, proto_json(shown), partial=partial, method=GRPC_METHOD)
                self._tap_end(exchange, await call.trailing_metadata())
            return result if result is not None else proto_dict(answer)

    # --- errors ------------------------------------------------------------------------------------------

    def _error(self, op: str, exc: grpc.aio.AioRpcError) -> SwitchboardError:
        """The failure of a call, as the other bindings give it: its hint fits what was tried (grpc_answers.py)."""
        where = f"{self.target} ({_SERVICES[self.endpoint.version]})"
        details = self.redactor.text(exc.details() or "")
        failure = call_failure(op, exc, where=where, url=self.url, details=details, withheld=self.withheld)
        return for_operation(failure, op)

    # --- decoding ----------------------------------------------------------------------------------------

    def _drain(self, notes: Notes) -> None:
        for text in notes:
            self.note(text)

    def _decode(self, decode: Callable[[Any, Notes], T], value: Any, what: str) -> T:
        notes = Notes()
        try:
            return decode(value, notes)
        except WireFormatError as exc:
            raise InvalidResponseError(f"{what} from {self.target}: {exc.message}", url=self.url) from None
        finally:
            self._drain(notes)

    def _with_trace(self, message: Message) -> Message:
        if not self.correlation_id:
            return message
        metadata = {**(message.metadata or {}), "correlationId": self.correlation_id}
        return message.model_copy(update={"metadata": metadata})

    def _tenant(self) -> str | None:
        return (self.endpoint.tenant or None) if self.endpoint.version == "1.0" else None

    # --- operations --------------------------------------------------------------------------------------

    def _send_params(
        self, message: Message, blocking: bool, history_length: int | None, metadata: dict[str, Any] | None
    ) -> dict[str, Any]:
        return self._codec().send_params(
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
        """SendMessage. Blocking returns at a terminal or interrupted state."""
        params = self._send_params(message, blocking, history_length, metadata)
        answer = await self._unary("send", params, context=context)
        return self._decode(self._codec().decode_send_result, answer, "the send result")

    def stream(
        self,
        message: Message,
        *,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        on_open: Callable[[], None] | None = None,
        context: CallContext | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """SendStreamingMessage: the events as they arrive."""
        return self._stream("stream", self._send_params(message, True, history_length, metadata), on_open)

    def subscribe(
        self, task_id: str, *, on_open: Callable[[], None] | None = None, context: CallContext | None = None
    ) -> AsyncIterator[StreamEvent]:
        """SubscribeToTask (TaskSubscription at 0.3): re-attach to a running task's events."""
        return self._stream("subscribe", self._codec().id_params(task_id, tenant=self._tenant()), on_open)

    async def get_task(
        self, task_id: str, *, history_length: int | None = None, context: CallContext | None = None
    ) -> Task:
        params = self._codec().get_params(task_id, history_length, tenant=self._tenant())
        answer = await self._unary("get", params, context=context)
        return self._decode(self._codec().decode_task, answer, "the task")

    async def task_status(self, task_id: str) -> Task:
        """get-task read as cancel_task reads its answer: a task past the bound comes without artifacts and history."""
        return await self._bounded_task("get", task_id, "get-task", "the task", CANCEL_TIMEOUT)

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> Task:
        """CancelTask: the task as the agent answers the cancel (see cancel.py for confirming it).

        As over HTTP, an answer past CANCEL_ANSWER_BOUND bytes is read for its ids and status only (gRPC has
        received it whole by then, but it is not turned into JSON and a model, the costly part), and a note says so.
        """
        timeout = CANCEL_TIMEOUT if timeout is None else timeout
        return await self._bounded_task("cancel", task_id, "the cancel", "the canceled task", timeout)

    async def _bounded_task(self, op: str, task_id: str, asked: str, what: str, timeout: float) -> Task:
        bound = http_transport.CANCEL_ANSWER_BOUND  # read now: one bound for every binding
        params = self._codec().id_params(task_id, tenant=self._tenant())
        answer = await self._unary(op, params, timeout=timeout, bound=bound)
        if not isinstance(answer, Skimmed):
            return self._decode(self._codec().decode_task, answer, what)
        task = self._decode(self._codec().decode_task, answer.head, what)
        self.note(
            f"the agent answered {asked} with the whole task, {answer.size / 2**20:.1f} MB: only its ids and "
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
                f"listing tasks is not part of the A2A {self.endpoint.version} gRPC binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        params = v10.list_params(
            context_id=context_id,
            state=state,
            page_size=page_size,
            page_token=page_token,
            history_length=history_length,
            tenant=self._tenant(),
        )
        answer = await self._unary("list", params, context=context)
        return self._decode(v10.decode_task_page, answer, "the task list")

    async def extended_card(self) -> AgentCard:
        """The authenticated extended card (GetExtendedAgentCard; GetAgentCard at 0.3)."""
        tenant = self._tenant()
        answer = await self._unary("extended_card", {"tenant": tenant} if tenant else {})
        notes = Notes()
        card = parse_card(answer, notes)
        self._drain(notes)
        return card

    # --- push-notification configs (v1.0) -----------------------------------------------------------------

    async def _push_call(self, op: str, params: dict[str, Any]) -> Any:
        return await self._unary(op, params)

    # --- streaming ---------------------------------------------------------------------------------------

    async def _stream(
        self, op: str, params: dict[str, Any], on_open: Callable[[], None] | None = None
    ) -> AsyncIterator[StreamEvent]:
        method, request, _ = self._request(op, params)
        call_method = getattr(self._stub_for(), method)
        exchange = self._tap_request(method, request)
        call = call_method(request, metadata=self.metadata, timeout=None)
        received = False
        try:
            try:
                initial = await call.initial_metadata()
            except grpc.aio.AioRpcError as exc:
                self._tap_failure(exchange, exc)
                raise self._error(op, exc) from None
            if on_open:
                on_open()
            if self.tap is not None and exchange is not None:
                self.tap.response(exchange, None, metadata_pairs(initial), None, method=GRPC_METHOD)
            try:
                plain = self.endpoint.version == "1.0"
                async for answer in call:
                    received = True
                    if answer is None:  # bytes that do not parse as a StreamResponse
                        self.note(f"ignored a stream message: {unparsable(method, self.url).message}")
                        continue
                    if self.tap is not None and exchange is not None:
                        self.tap.frame(exchange, "", proto_json(answer), method=GRPC_METHOD)
                    # The plain shapes straight from the proto; the rest through ProtoJSON (see grpc_events.py).
                    event = (plain_event(answer) if plain else None) or self._frame(answer)
                    if event is not None:
                        yield event
            except grpc.aio.AioRpcError as exc:
                self._tap_failure(exchange, exc)
                error = self._error(op, exc)
                # A connection that went away, not an answer: the follower reconciles.
                if received and isinstance(error, UnavailableError | InvalidResponseError):
                    raise StreamBrokenError(
                        f"the stream from {self.target} broke: gRPC {exc.code().name}", url=self.url
                    ) from None
                raise error from None
            if self.tap is not None and exchange is not None:
                self._tap_end(exchange, await call.trailing_metadata())
        finally:
            if not call.done():
                call.cancel()
            if self.tap is not None and exchange is not None:
                self.tap.done(exchange)

    def _frame(self, answer: ProtoMessage) -> StreamEvent | None:
        notes = Notes()
        try:
            return self._codec().decode_event(proto_dict(answer), notes)
        except InvalidResponseError as exc:  # WireFormatError among them
            self.note(f"ignored a stream message: {exc.message}")
            return None
        finally:
            self._drain(notes)
