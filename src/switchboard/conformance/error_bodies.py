"""The body of every error an interface answered during the probe, judged one by one (v1.0 only: v0.3 has no
ErrorInfo and no AIP-193 bodies). Two requirements:

- the error's shape: over JSON-RPC an `error` object with an integer `code` and a string `message` (§9.5); over
  HTTP+JSON a google.rpc.Status (AIP-193) as JSON: an `error` object whose `code` is the HTTP status, with a string
  `status` and `message` (§11.6);
- the ErrorInfo of an A2A error (TaskNotFoundError and the rest of §5.4's table): a `google.rpc.ErrorInfo` in
  `error.data` (JSON-RPC) or `error.details` (HTTP+JSON), in the domain `a2a-protocol.org`, whose `reason` names
  the error that was answered (`TASK_NOT_FOUND` for -32001 ...; over HTTP+JSON, one of the table's reasons).

Pure functions over the text the tap kept (already bounded by it); what an agent wrote is quoted short."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .streams import Finding
from .wire_log import Exchange

if TYPE_CHECKING:
    from .interface_probe import Probe

ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
A2A_DOMAIN = "a2a-protocol.org"
# The A2A errors (§5.4): their JSON-RPC code and the ErrorInfo reason that names each.
REASONS = {
    -32001: "TASK_NOT_FOUND",
    -32002: "TASK_NOT_CANCELABLE",
    -32003: "PUSH_NOTIFICATION_NOT_SUPPORTED",
    -32004: "UNSUPPORTED_OPERATION",
    -32005: "CONTENT_TYPE_NOT_SUPPORTED",
    -32006: "INVALID_AGENT_RESPONSE",
    -32007: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    -32008: "EXTENSION_SUPPORT_REQUIRED",
    -32009: "VERSION_NOT_SUPPORTED",
}
# The HTTP statuses §5.4 maps A2A errors to: an HTTP+JSON error with one of them answers an A2A condition (the
# probe's requests are well-formed), so it carries an ErrorInfo.
A2A_HTTP_STATUSES = frozenset({400, 404, 409, 415, 502})
EXCHANGES_JUDGED = 200  # a probe makes a few dozen; the bound keeps a report short whatever an agent does


@dataclass
class ErrorSeen:
    """One error an agent answered: what was sent, the error's code as the wire gave it, and the findings."""

    sent: str
    code: str  # "-32001", "HTTP 404"
    body: Finding  # the error's shape
    info: Finding | None  # its ErrorInfo; None: no A2A error, nothing to carry


def sent_as(exchange: Exchange) -> str:
    """The request as the wire named it: the JSON-RPC method, or the HTTP method and path."""
    if exchange.rpc:
        return exchange.rpc[:60]
    return f"{exchange.method} {urlsplit(exchange.url).path[-80:]}"


def errors_in(exchanges: list[Exchange], binding: str) -> list[ErrorSeen]:
    """Every error among `exchanges` (a JSON-RPC error, in a body or an SSE frame; an HTTP+JSON answer of status
    400 or more), each judged."""
    seen: list[ErrorSeen] = []
    for exchange in exchanges[:EXCHANGES_JUDGED]:
        if exchange.grpc or exchange.truncated:
            continue
        if binding == "JSONRPC":
            texts = [exchange.body] + [data for data, cut in exchange.frames if not cut]
            for text in texts:
                judged = judge_jsonrpc_error(text)
                if judged is not None:
                    seen.append(ErrorSeen(sent_as(exchange), judged[0], judged[1], judged[2]))
        elif exchange.status is not None and exchange.status >= 400:
            code, body, info = judge_rest_error(exchange.body, exchange.status, exchange.content_type)
            seen.append(ErrorSeen(sent_as(exchange), code, body, info))
    return seen


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def judge_jsonrpc_error(text: str) -> tuple[str, Finding, Finding | None] | None:
    """A JSON-RPC answer's error (None when it is no error): its shape, and its ErrorInfo if it is an A2A error."""
    value = _load(text) if text.lstrip().startswith("{") else None
    if not isinstance(value, dict) or "error" not in value:
        return None
    error = value["error"]
    if not isinstance(error, dict):
        return "?", Finding("error body", False, f"`error` is a {type(error).__name__}, not an object"), None
    code, message = error.get("code"), error.get("message")
    shown = str(code) if type(code) is int else _brief(code)
    problems = []
    if type(code) is not int:
        problems.append(f"code {_brief(code)} is not an integer")
    if not isinstance(message, str):
        problems.append(f"message {_brief(message)} is not a string")
    body = Finding("error body", not problems, "; ".join(problems) or "code and message")
    expected = REASONS.get(code) if type(code) is int else None
    info = judge_info(error.get("data"), "error.data", expected) if expected else None
    return shown, body, info


def judge_rest_error(
    text: str, status: int, content_type: str = "application/json"
) -> tuple[str, Finding, Finding | None]:
    """An HTTP+JSON error answer: an AIP-193 google.rpc.Status in a JSON media type (application/json, or A2A's own
    application/a2a+json), and its ErrorInfo if its status is an A2A one."""
    code = f"HTTP {status}"
    media = content_type.split(";")[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        said = f"the error came as {_brief(content_type)}, not as JSON"
        info = Finding("error info", False, "no ErrorInfo: " + said) if status in A2A_HTTP_STATUSES else None
        return code, Finding("error body", False, said), info
    value = _load(text)
    error = value.get("error") if isinstance(value, dict) else None
    if not isinstance(error, dict):
        said = "the body is not a google.rpc.Status (an `error` object)"
        info = Finding("error info", False, "no ErrorInfo: " + said) if status in A2A_HTTP_STATUSES else None
        return code, Finding("error body", False, said), info
    problems = []
    if error.get("code") != status or type(error.get("code")) is not int:
        problems.append(f"error.code {_brief(error.get('code'))} is not the HTTP status {status}")
    for name in ("status", "message"):
        if not isinstance(error.get(name), str):
            problems.append(f"error.{name} {_brief(error.get(name))} is not a string")
    body = Finding("error body", not problems, "; ".join(problems) or "a google.rpc.Status")
    info = judge_info(error.get("details"), "error.details", None) if status in A2A_HTTP_STATUSES else None
    return code, body, info


def judge_info(items: Any, where: str, expected: str | None) -> Finding:
    """The ErrorInfo in `items` (error.data or error.details): an array holding one, in the A2A domain, whose reason
    is `expected` (JSON-RPC, where the code names the error) or one of the A2A reasons (HTTP+JSON)."""
    if not isinstance(items, list):
        held = "none" if items is None else f"a {type(items).__name__}, not an array"
        return Finding("error info", False, f"no google.rpc.ErrorInfo in {where} ({held})", f"{where}: {held}")
    info = next((i for i in items if isinstance(i, dict) and i.get("@type") == ERROR_INFO), None)
    if info is None:
        said = f"no google.rpc.ErrorInfo in {where} (an array of {len(items)})"
        return Finding("error info", False, said, f"{where}: {len(items)} item(s), no ErrorInfo")
    reason, domain = info.get("reason"), info.get("domain")
    said = f"ErrorInfo reason {_brief(reason)}, domain {_brief(domain)}"
    if domain != A2A_DOMAIN:
        return Finding("error info", False, f"{said}: the domain must be {A2A_DOMAIN}", f"{where}: ErrorInfo")
    if expected is not None and reason != expected:
        return Finding("error info", False, f"{said}, where {expected} is expected for this error",
                       f"{where}: ErrorInfo")  # fmt: skip
    if reason not in REASONS.values():
        return Finding("error info", False, f"{said}: not one of the A2A errors' reasons (§5.4)", f"{where}: ErrorInfo")
    return Finding("error info", True, said, f"{where}: ErrorInfo")


def _brief(value: Any) -> str:
    """A value an agent sent, shown short: a string quoted and cut, anything else by its type."""
    return repr(value[:60]) if isinstance(value, str) else f"(a {type(value).__name__})"


def judge_errors(p: Probe) -> None:
    """Every error the interface answered during the probe (but the one asked with an empty A2A-Version, which is
    a 0.3 request): its shape, and the ErrorInfo of each A2A error. A finding names the first error that broke a
    requirement (what was sent, what came back), and how many did."""
    if p.version != "1.0" or p.binding not in ("JSONRPC", "HTTP+JSON"):
        p.add("error body", "skip", "v1.0 over JSON-RPC or HTTP+JSON only")
        return
    exchanges = [e for e in p.wire.since(p.start) if e.number not in p.asked_as_03]
    seen = errors_in(exchanges, p.binding)
    jsonrpc = p.binding == "JSONRPC"
    body_key, info_key = ("error body: jsonrpc", "error data") if jsonrpc else ("error body: rest", "error details")
    if not seen:
        p.add("error body", "skip", "the agent answered no error")
        return
    _judge_all(p, body_key, "error body", [(e, e.body) for e in seen], "error(s)")
    infos = [(e, e.info) for e in seen if e.info is not None]
    if infos:
        _judge_all(p, info_key, info_key, infos, "A2A error(s)")  # type: ignore[arg-type]
    else:
        p.add(info_key, "skip", "no A2A error was answered: no ErrorInfo to read")


def _judge_all(p: Probe, key: str, scenario: str, judged: list[tuple[ErrorSeen, Finding]], what: str) -> None:
    broken = [(e, f) for e, f in judged if not f.ok]
    if not broken:
        reasons = sorted({f.detail for _, f in judged})
        said = f"{len(judged)} {what}, each right" + (f" ({'; '.join(reasons)[:200]})" if len(reasons) <= 3 else "")
        first = judged[0][0]
        p.judge(key, True, said, op=first.sent, answered=f"{len(judged)} {what}", scenario=scenario)
        return
    error, finding = broken[0]
    said = f"{error.sent} answered {error.code}: {finding.detail}"
    if len(broken) > 1:
        said += f" (and {len(broken) - 1} more of the {len(judged)} {what})"
    answered = f"error {error.code}" + (f", {finding.answered}" if finding.answered else "")
    p.judge(key, False, said, op=error.sent, answered=answered, scenario=scenario)
