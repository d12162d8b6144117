"""Stable error codes.

Two vocabularies meet here. Protocol errors keep their A2A names (`TaskNotFoundError`, ...). Failures that
happen before or outside a request carry a CLI-local code from the A2A CLI spec (`A2ACLI_ERR_*`), which
maps onto the workflow engine's codes (`A2A_CREDENTIALS_MISSING`, ...) through `workflow_code`.
Every error carries the sentence a person needs: what happened, and a hint saying what to do.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported on the way to --help (tests/unit/test_lazy_imports.py)
if TYPE_CHECKING:
    from typing import Any

# JSON-RPC code -> A2A error name (SPEC-NOTES §8). -32007 has a v0.3 and a v1.0 name; v1.0's is used.
A2A_ERROR_NAMES: dict[int, str] = {
    -32700: "JSONParseError",
    -32600: "InvalidRequestError",
    -32601: "MethodNotFoundError",
    -32602: "InvalidParamsError",
    -32603: "InternalError",
    -32001: "TaskNotFoundError",
    -32002: "TaskNotCancelableError",
    -32003: "PushNotificationNotSupportedError",
    -32004: "UnsupportedOperationError",
    -32005: "ContentTypeNotSupportedError",
    -32006: "InvalidAgentResponseError",
    -32007: "ExtendedAgentCardNotConfiguredError",
    -32008: "ExtensionSupportRequiredError",
    -32009: "VersionNotSupportedError",
}

# ErrorInfo.reason (v1.0 `data`) -> name, for servers that send a neighbouring code.
_REASON_NAMES = {
    "TASK_NOT_FOUND": "TaskNotFoundError",
    "TASK_NOT_CANCELABLE": "TaskNotCancelableError",
    "UNSUPPORTED_OPERATION": "UnsupportedOperationError",
    "VERSION_NOT_SUPPORTED": "VersionNotSupportedError",
}

_PROTOCOL_HINTS = {
    "TaskNotFoundError": "Check the task id (agents may forget finished tasks); for a v1.0 agent "
    "`switchboard task list AGENT` shows the tasks it knows.",
    "TaskNotCancelableError": "The task already finished; `switchboard task get AGENT TASK_ID` shows its state.",
    "UnsupportedOperationError": "The agent does not allow this operation here.",
    "VersionNotSupportedError": "The agent does not speak this protocol version; try --a2a-version 0.3 or 1.0.",
    "MethodNotFoundError": "The agent does not implement this operation for its protocol version.",
    "InvalidParamsError": "The agent rejected the request parameters; run with --verbose to see the exchange.",
    "ExtensionSupportRequiredError": "The agent requires an extension this request did not activate: see the "
    "extensions its card marks required (`switchboard card get AGENT`), and activate each with --extension URI "
    "(or extensions: [URI] for the agent in the agents file).",
}


class SwitchboardError(Exception):
    """Base of every failure the tool reports. `code` is stable; `message` and `hint` are for people."""

    code = "A2ACLI_ERR_INTERNAL"
    workflow_code = "A2A_PROVIDER_ERROR"
    exit_code = 1
    # The task the agent had made when this happened (a wait that timed out, a stream that broke): reported
    # with the error, since the task goes on at the agent and can be picked up by its id.
    task_id: str | None = None
    context_id: str | None = None

    def __init__(self, message: str, *, hint: str | None = None, url: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.url = url

    @property
    def a2a_code(self) -> int | None:
        return None

    def envelope(self) -> dict[str, Any]:
        """The A2A CLI error envelope (a2a-cli SPEC Appendix B)."""
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "a2aCode": self.a2a_code,
        }
        if self.task_id:
            error["taskId"] = self.task_id
            error["contextId"] = self.context_id
        return {"error": error}


class UsageError(SwitchboardError):
    code = "A2ACLI_ERR_USAGE"
    workflow_code = "A2A_CONFIG_INVALID"
    exit_code = 2


class CardNotFoundError(SwitchboardError):
    code = "A2ACLI_ERR_CARD_NOT_FOUND"
    exit_code = 3


class CardInvalidError(SwitchboardError):
    code = "A2ACLI_ERR_CARD_INVALID"


class UnreachableError(SwitchboardError):
    code = "A2ACLI_ERR_UNREACHABLE"
    exit_code = 3


class UnavailableError(UnreachableError):
    """The request never reached the agent: no connection could be made, or a gateway answered for it."""


class CredentialsMissingError(SwitchboardError):
    code = "A2ACLI_ERR_CREDENTIALS_MISSING"
    workflow_code = "A2A_CREDENTIALS_MISSING"
    exit_code = 4


class AuthFailedError(SwitchboardError):
    code = "A2ACLI_ERR_AUTH_FAILED"
    workflow_code = "A2A_AUTH_REQUIRED"
    exit_code = 4
    wanted_scopes: tuple[str, ...] = ()  # a 403 insufficient_scope: the scopes the agent named


class TimedOutError(SwitchboardError):
    code = "A2ACLI_ERR_TIMEOUT"
    workflow_code = "TIMEOUT"
    exit_code = 5


class ProtocolUnsupportedError(SwitchboardError):
    """The agent offers no interface this tool speaks (e.g. only gRPC).

    Not an internal error: the tool works, the agent is there, and nothing in the A2A CLI spec's registry names
    this, so it has a code of our own (the spec wants vendor codes outside the A2ACLI_ERR_ namespace)."""

    code = "SWITCHBOARD_ERR_PROTOCOL_UNSUPPORTED"
    workflow_code = "DELEGATE_PROTOCOL_UNSUPPORTED"


class CardUnverifiedError(SwitchboardError):
    """A verified card signature was required (--require-signature) and the card has none that verifies.

    An authentication failure (exit 4) of the agent to us; no A2A CLI code names it, so the code is our own."""

    code = "SWITCHBOARD_ERR_CARD_UNVERIFIED"
    workflow_code = "A2A_AUTH_REQUIRED"
    exit_code = 4


class VersionNotOfferedError(UsageError):
    """The protocol version asked for by name (--a2a-version) is not one the agent offers: what was typed."""


class InvalidResponseError(SwitchboardError):
    """The agent answered with something that is not the protocol (bad JSON, wrong shape, HTTP 5xx)."""

    code = "InvalidAgentResponseError"

    @property
    def a2a_code(self) -> int | None:
        return -32006


class ProtocolError(SwitchboardError):
    """A JSON-RPC error the agent returned, under its A2A name."""

    operation: str | None = None  # what was asked ("send", "list", ...), when known: hints depend on it

    def __init__(
        self, rpc_code: int, message: str, *, data: Any = None, url: str | None = None, hint: str | None = None
    ) -> None:
        self.rpc_code = rpc_code
        self.data = data
        self.code = _name_for(rpc_code, data)
        super().__init__(message or self.code, hint=hint or _PROTOCOL_HINTS.get(self.code), url=url)

    @property
    def a2a_code(self) -> int | None:
        return self.rpc_code


def _name_for(rpc_code: int, data: Any) -> str:
    if isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and _named(item.get("reason"), _REASON_NAMES):
                return _REASON_NAMES[item["reason"]]
    return A2A_ERROR_NAMES.get(rpc_code, f"JSONRPCError({rpc_code})")


def _named(value: Any, table: dict[Any, Any]) -> bool:
    """Whether an agent's value is a key of `table`: a list or an object (unhashable) never is."""
    return isinstance(value, str | int) and value in table


def protocol_error_from(obj: Any, url: str | None = None) -> ProtocolError:
    """Build a ProtocolError from a JSON-RPC `error` member, tolerating odd shapes."""
    if not isinstance(obj, dict):
        return ProtocolError(-32603, f"agent sent a malformed error: {str(obj)[:200]}", url=url)
    code = obj.get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        code = -32603
    message = obj.get("message")
    return ProtocolError(code, message if isinstance(message, str) else "", data=obj.get("data"), url=url)


# ErrorInfo.reason -> JSON-RPC code: the v1.0 table of A2A errors (spec §5.4), as the HTTP+JSON binding names them.
_REASON_CODES = {
    "INVALID_REQUEST": -32600,
    "METHOD_NOT_FOUND": -32601,
    "INVALID_PARAMS": -32602,
    "INTERNAL_ERROR": -32603,
    "TASK_NOT_FOUND": -32001,
    "TASK_NOT_CANCELABLE": -32002,
    "PUSH_NOTIFICATION_NOT_SUPPORTED": -32003,
    "UNSUPPORTED_OPERATION": -32004,
    "CONTENT_TYPE_NOT_SUPPORTED": -32005,
    "INVALID_AGENT_RESPONSE": -32006,
    "EXTENDED_AGENT_CARD_NOT_CONFIGURED": -32007,
    "EXTENSION_SUPPORT_REQUIRED": -32008,
    "VERSION_NOT_SUPPORTED": -32009,
}
# An HTTP status that is the only name an error has (a2a-sdk 0.3 answers {"message": ...}): that SDK's table.
_STATUS_CODES = {400: -32600, 405: -32601, 409: -32002, 415: -32005, 422: -32602, 500: -32603, 501: -32004}
_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


def rest_error_from(
    payload: Any, status: int | None, url: str | None = None, *, route: str | None = None
) -> ProtocolError | None:
    """The A2A error an HTTP+JSON error body names, or None when the body is not an A2A server's.

    Read in this order: a google.rpc.Status whose ErrorInfo has a known `reason` (the spec); a JSON-RPC error object,
    bare or under `error` (the JavaScript SDK's v0.3); else the HTTP status, for a JSON object that names nothing
    (a2a-sdk 0.3). A 404 is the task on a task's route (`route="task"`), the extended card on its own, else the
    route itself. `status` None (an error frame inside a stream) reads the body only.
    """
    if not isinstance(payload, dict):
        return None
    inner = payload.get("error")
    message = ""
    if isinstance(inner, dict):
        text = inner.get("message")
        message = text if isinstance(text, str) else ""
        if status is None and isinstance(inner.get("code"), int) and 400 <= inner["code"] < 600:
            status = inner["code"]  # an error frame in a stream: the Status names the HTTP status it stands for
        details = inner.get("details")
        for item in details if isinstance(details, list) else ():
            if (
                isinstance(item, dict)
                and item.get("@type") == _ERROR_INFO
                and _named(item.get("reason"), _REASON_CODES)
            ):
                return ProtocolError(_REASON_CODES[item["reason"]], message, data=details, url=url)
        if _named(inner.get("code"), A2A_ERROR_NAMES):
            return protocol_error_from(inner, url)
    elif _named(payload.get("code"), A2A_ERROR_NAMES) and not isinstance(payload.get("code"), bool):
        return protocol_error_from(payload, url)
    for key in ("message", "detail", "error"):
        if not message and isinstance(payload.get(key), str):
            message = payload[key]
    code: int | None
    if status == 404:
        code = -32001 if route == "task" else -32007 if route == "extended_card" else -32601
    else:
        code = _STATUS_CODES.get(status) if status is not None else None
    if code is None:
        return None
    return ProtocolError(code, message or f"HTTP {status}", url=url)


# (error, operation) -> the hint that fits what was tried: "not supported" means another thing for each.
_OPERATION_HINTS = {
    ("UnsupportedOperationError", "send"): "A finished task takes no new messages: start a new task "
    "(--context-id keeps the same context).",
    ("UnsupportedOperationError", "stream"): "A finished task takes no new messages: start a new task "
    "(--context-id keeps the same context).",
    ("UnsupportedOperationError", "list"): "This agent does not list its tasks (the operation is optional); "
    "read one task with `switchboard task get AGENT TASK_ID`.",
    ("MethodNotFoundError", "list"): "This agent does not list its tasks (the operation is optional); "
    "read one task with `switchboard task get AGENT TASK_ID`.",
    ("UnsupportedOperationError", "subscribe"): "The task has finished or the agent does not stream it; "
    "`switchboard task get AGENT TASK_ID` shows its state.",
    ("UnsupportedOperationError", "cancel"): "The agent does not cancel this task; "
    "`switchboard task get AGENT TASK_ID` shows its state.",
    ("UnsupportedOperationError", "extended_card"): "The agent offers no extended card here.",
}


def for_operation(error: SwitchboardError, op: str) -> SwitchboardError:
    """`error` with the hint that fits the operation that failed, when the error's own hint is the generic one."""
    if isinstance(error, ProtocolError):
        error.operation = op
        if error.hint == _PROTOCOL_HINTS.get(error.code):
            error.hint = _OPERATION_HINTS.get((error.code, op), error.hint)
    return error
