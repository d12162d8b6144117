"""Questions on the 2026-07-28 protocol, which has no requests from server to client: the tool's result is an
InputRequiredResult holding the form, and the client calls the same tool again with the person's answer and the
state we gave it. The state names the task (or run) the answer continues; it comes back from the client, so it is
signed with this process's key and read only when the signature holds."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types as types

from ..a2a.errors import UsageError

ANSWER_KEY = "answer"
_KEY = secrets.token_bytes(32)  # a restart forgets it: an answer to an earlier server's question is refused


@dataclass(frozen=True)
class Waiting:
    """What a returned question continues: a task of an agent, or a workflow run."""

    kind: Literal["task", "run"]
    tool: str
    agent: str
    task_id: str


class AskByRoundTrip(Exception):
    """Raised by the work at a question it cannot ask over this connection but may hand back to be asked."""

    def __init__(
        self, message: str, schema: dict[str, Any], kind: Literal["task", "run"], agent: str, task_id: str
    ) -> None:
        super().__init__(message)
        self.message, self.schema, self.kind, self.agent, self.task_id = message, schema, kind, agent, task_id


def input_required(ask: AskByRoundTrip, tool: str) -> types.InputRequiredResult:
    """The question as the result of `tool`'s call; the client calls `tool` again with the answer."""
    form = types.ElicitRequest(params=types.ElicitRequestFormParams(message=ask.message, requested_schema=ask.schema))
    state = _sign(Waiting(ask.kind, tool, ask.agent, ask.task_id))
    return types.InputRequiredResult(input_requests={ANSWER_KEY: form}, request_state=state)


def _sign(waiting: Waiting) -> str:
    body = json.dumps([waiting.kind, waiting.tool, waiting.agent, waiting.task_id]).encode()
    mac = hmac.new(_KEY, body, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(body).decode() + "." + base64.urlsafe_b64encode(mac).decode()


def read_state(state: str, tool: str) -> Waiting:
    """The Waiting a state names, if we signed it for this tool; a UsageError otherwise."""
    refused = UsageError(
        "this answer does not go with a question of this server (it may have restarted)",
        hint="Answer with continue_task (or continue_run) and the task's or run's id.",
    )
    body_text, _, mac_text = state.partition(".")
    try:
        body = base64.urlsafe_b64decode(body_text.encode())
        mac = base64.urlsafe_b64decode(mac_text.encode())
    except (ValueError, UnicodeError):
        raise refused from None
    if not hmac.compare_digest(mac, hmac.new(_KEY, body, hashlib.sha256).digest()):
        raise refused
    kind, signed_tool, agent, task_id = json.loads(body)
    if signed_tool != tool:
        raise refused
    return Waiting(kind, signed_tool, agent, task_id)


def answer_of(responses: dict[str, Any] | None) -> types.ElicitResult:
    """The person's response to our one question (a missing one counts as dismissed)."""
    found = (responses or {}).get(ANSWER_KEY)
    return found if isinstance(found, types.ElicitResult) else types.ElicitResult(action="cancel")
