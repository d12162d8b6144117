"""What a gRPC call's answer becomes in switchboard's terms: a failed call's status as the error the other bindings
give, a message as the ProtoJSON they carry, the metadata and status as the tap records them.

Errors: the v1.0 SDKs put a google.rpc.Status with an ErrorInfo (the A2A reason) in the trailers; the v0.3 ones
write `TaskNotFoundError: message` in the status details; else the gRPC status code names it.

This module imports grpc, as grpc.py does: only that module imports it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import grpc
import grpc.aio
from google.protobuf import json_format, text_format
from google.protobuf.message import Message as ProtoMessage
from google.rpc import error_details_pb2, status_pb2

from ..errors import (
    A2A_ERROR_NAMES,
    AuthFailedError,
    InvalidResponseError,
    ProtocolError,
    SwitchboardError,
    TimedOutError,
    UnavailableError,
    rest_error_from,
)
from ..tap import Tap

_ = error_details_pb2  # imported for its types: an ErrorInfo inside a Status is read into JSON by name

TASK_OPS = frozenset({"get", "cancel", "subscribe", "push_set", "push_list"})  # a NOT_FOUND there is the task
# gRPC refuses messages past 4 MB unless told otherwise; an artifact chunk or a whole task can be larger.
MAX_MESSAGE = 256 * 2**20
STATUS_DETAILS = "grpc-status-details-bin"
_V03_ALIASES = {"AuthenticatedExtendedCardNotConfiguredError": -32007}
_NAMED_CODES = {name: code for code, name in A2A_ERROR_NAMES.items()} | _V03_ALIASES


# --- errors ----------------------------------------------------------------------------------------------


def call_failure(
    op: str, exc: grpc.aio.AioRpcError, *, where: str, url: str, details: str, withheld: bool
) -> SwitchboardError:
    """The failure of a call to `where` (its target and service), `details` its status details redacted;
    `withheld`: the credentials were not sent (the card points its gRPC interface at another host)."""
    code = exc.code()
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return TimedOutError(
            f"{where} did not answer in time", hint="The agent may be overloaded; retry, or raise --timeout."
        )
    if code == grpc.StatusCode.UNAVAILABLE:
        return UnavailableError(
            f"cannot reach the gRPC interface {where}: {details or 'unavailable'}",
            hint="Check that the agent is running and its card's gRPC address (HOST:PORT) is right; "
            "or choose another binding with --binding.",
            url=url,
        )
    if code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
        error = AuthFailedError(
            f"{where} refused the request ({code.name})" + (f": {details}" if details else ""),
            hint="The agent wants credentials: name the variable holding them with --api-key-env or "
            "--bearer-env (`switchboard card get` shows the agent's security schemes).",
            url=url,
        )
        if withheld:
            error.hint = (
                "Credentials were not sent because the card points its gRPC interface at another host than its "
                "own. If you trust it, allow it with --trust-interface-origin."
            )
        return error
    found = _status_error(exc, details, url) or _named_error(details, url)
    if found is not None:
        return found
    if code == grpc.StatusCode.NOT_FOUND and op in TASK_OPS:
        return ProtocolError(-32001, details, url=url)
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return ProtocolError(-32601, details or f"{op} is not implemented by the agent", url=url)
    if code == grpc.StatusCode.UNKNOWN:  # what a gRPC server says when its handler raised
        return ProtocolError(-32603, details, url=url)
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        return ProtocolError(-32602, details, url=url)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return InvalidResponseError(
            f"{where} answered with a message past {MAX_MESSAGE // 2**20} MB: {details}",
            hint="The answer is too large to read over gRPC; try another binding with --binding.",
            url=url,
        )
    return InvalidResponseError(
        f"{where} answered gRPC {code.name}" + (f": {details}" if details else ""),
        hint="Run with --verbose to see the exchange; check the agent's logs.",
        url=url,
    )


def _status_error(exc: grpc.aio.AioRpcError, details: str, url: str) -> ProtocolError | None:
    """The A2A error of a google.rpc.Status in the trailers (v1.0): read as the HTTP+JSON binding's body."""
    body = rich_status(exc.trailing_metadata())
    if body is None:
        return None
    body["message"] = details
    found = rest_error_from({"error": body}, None, url)
    if found is not None:
        found.message = details or found.code
        found.args = (found.message,)
    return found


def _named_error(details: str, url: str) -> ProtocolError | None:
    """`TaskNotFoundError: message`, the v0.3 SDKs' way of naming the error."""
    name, sep, message = details.partition(": ")
    if sep and name in _NAMED_CODES:
        return ProtocolError(_NAMED_CODES[name], message, url=url)
    return None


def unparsable(method: str, url: str) -> InvalidResponseError:
    return InvalidResponseError(
        f"the agent's answer to {method} is not the protobuf message the protocol names",
        hint="Run with --verbose to see the exchange; check that the card's gRPC address is the agent's.",
        url=url,
    )


def rich_status(trailers: Any) -> dict[str, Any] | None:
    """The google.rpc.Status a v1.0 server puts in the trailers, as JSON (its ErrorInfo names the A2A error)."""
    for key, value in trailers or ():
        if key == STATUS_DETAILS and isinstance(value, bytes):
            status = status_pb2.Status()
            try:
                status.ParseFromString(value)
                return json_format.MessageToDict(status)
            except Exception:  # a status that cannot be read: the code and details still say something
                return None
    return None


# --- messages --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Skimmed:
    """A task answer past the bound: the ProtoJSON of its ids and status, and the size of the whole."""

    head: dict[str, Any]
    size: int


def skim(answer: ProtoMessage, bound: int) -> tuple[Skimmed, ProtoMessage] | None:
    """A task answer past `bound` bytes: the Skimmed of its ids and status, and the message read for it (for the
    tap); None for one within the bound."""
    size = answer.ByteSize()
    if size <= bound:
        return None
    head = type(answer)()
    head.CopyFrom(answer)
    head.ClearField("artifacts")
    head.ClearField("history")
    return Skimmed(proto_dict(head), size), head


def proto_dict(message: ProtoMessage) -> dict[str, Any]:
    """A proto message as the ProtoJSON object the HTTP bindings carry (camelCase names, enums by name).

    The binary format carries values ProtoJSON has no words for (NaN or Infinity in a Struct, a timestamp past year
    9999): a message holding one is an InvalidResponseError, the agent's mistake said as such."""
    try:
        return json_format.MessageToDict(message)
    except (json_format.Error, ValueError, TypeError) as exc:
        raise InvalidResponseError(
            f"the agent sent a {message.DESCRIPTOR.name} that has no JSON form ({str(exc)[:200]})",
            hint="The agent's answer holds a value the protocol's JSON cannot carry; run with --verbose to see it.",
        ) from None


def proto_json(message: ProtoMessage) -> str:
    """The message for the tap: its ProtoJSON, or the protobuf text format when it has none."""
    try:
        return json.dumps(proto_dict(message), separators=(",", ":"))
    except InvalidResponseError:
        return text_format.MessageToString(message, as_one_line=True)


# --- the tap: a gRPC call's metadata and status in the tap's shapes (see tap.py) -------------------------


def metadata_pairs(metadata: Any, skip: str = "") -> list[tuple[str, str]]:
    """Metadata as (key, value) text pairs; a binary value (a `-bin` key) is shown by its size."""
    out = []
    for key, value in metadata or ():
        if key != skip:
            out.append((key, f"<{len(value)} bytes>" if isinstance(value, bytes) else str(value)))
    return out


def tap_failure(tap: Tap, exchange: int, exc: grpc.aio.AioRpcError) -> None:
    """A call that ended with an error status: its trailers, or (no connection) an error like HTTP's."""
    code, details = exc.code(), exc.details() or ""
    if code == grpc.StatusCode.UNAVAILABLE:
        tap.error(exchange, f"gRPC {code.name}: {details}")
    else:
        body = f"{code.name}: {details}"
        status = rich_status(exc.trailing_metadata())
        if status is not None:
            body += "\n" + json.dumps(status, separators=(",", ":"))
        tap.trailers(exchange, code.value[0], metadata_pairs(exc.trailing_metadata(), skip=STATUS_DETAILS), body)
    tap.done(exchange)


def tap_end(tap: Tap, exchange: int, trailers: Any) -> None:
    """A call that ended OK: its trailers."""
    tap.trailers(exchange, grpc.StatusCode.OK.value[0], metadata_pairs(trailers), "OK")
    tap.done(exchange)
