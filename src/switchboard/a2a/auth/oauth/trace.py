"""The identity provider's requests on the wire tap, beside the agent's (`--verbose`, the TUI's wire view): OpenID
discovery, metadata, token, device authorization and revocation requests, each with its answer.

Every secret stays out: credential headers by the tap's Redactor (an HTTP Basic client secret included), and in
the bodies, by name, every form field and JSON member that carries a secret, a code or a token (its value becomes
[redacted]) — the ones the Redactor cannot know yet (a code, a fresh token), since the tap sees them first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, quote_plus

import httpx

from ...bounded_read import fill_at_most
from ...redact import REDACTED
from ...tap import Tap

# Form fields and JSON members whose value is a secret (RFC 6749, 7009, 7636, 8628, 8693, 7523; OpenID Connect).
SECRET_NAMES = frozenset(
    {
        "client_secret",
        "client_assertion",
        "assertion",
        "password",
        "code",
        "code_verifier",
        "device_code",
        "user_code",
        "access_token",
        "refresh_token",
        "id_token",
        "token",
        "subject_token",
        "actor_token",
        "issued_token",
    }
)
_MEMBER = re.compile(r'"(' + "|".join(sorted(SECRET_NAMES)) + r')"\s*:\s*"(?:[^"\\]|\\.)*"?')
_EXCHANGE = "switchboard.tap_exchange"  # where a request keeps its exchange number for its answer

Hooks = dict[str, list[Callable[..., Awaitable[None]]]]
# An identity provider's answer is a small JSON document (discovery, a token, a device code): past this it is
# refused, not held, whoever reads it after (authlib reads token answers itself, with no bound of its own).
MAX_ANSWER = 1 << 20


class AnswerTooLarge(ValueError):
    """An identity provider's answer past MAX_ANSWER bytes (a ValueError: every reader takes it as unreadable)."""


async def read_bounded(response: httpx.Response) -> None:
    """Read an answer's body before anyone else does, refusing one past MAX_ANSWER bytes (announced or sent)."""
    if not await fill_at_most(response, MAX_ANSWER):
        await response.aclose()
        raise AnswerTooLarge(f"the answer is over {MAX_ANSWER} bytes")


def tap_hooks(tap: Tap | None) -> Hooks:
    """httpx event hooks for an identity provider's client: each answer read bounded (read_bounded), and each
    request and answer recorded on `tap` when there is one."""
    if tap is None:
        return {"response": [read_bounded]}

    async def on_request(request: httpx.Request) -> None:
        try:
            body = request.content
        except httpx.RequestNotRead:  # a streamed body: none of the identity provider's requests is one
            body = b""
        text = redacted_body(body, request.headers.get("content-type", ""))
        request.extensions[_EXCHANGE] = tap.request(request.method, str(request.url), request.headers.multi_items(),
                                                    text)  # fmt: skip

    async def on_response(response: httpx.Response) -> None:
        exchange = response.request.extensions.get(_EXCHANGE)
        if not isinstance(exchange, int):
            return
        await response.aread()  # read once here; the client reads the same bytes after
        text = redacted_body(response.content, response.headers.get("content-type", ""))
        tap.response(exchange, response.status_code, response.headers.multi_items(), text)
        tap.done(exchange)

    return {"request": [on_request], "response": [read_bounded, on_response]}


def redacted_body(body: bytes, content_type: str) -> str:
    """A request's or answer's body as text, the value of every secret-named form field or JSON member redacted."""
    text = body.decode("utf-8", errors="replace")
    if "x-www-form-urlencoded" in content_type.lower():
        fields = parse_qsl(text, keep_blank_values=True)
        return "&".join(f"{k}={REDACTED if k in SECRET_NAMES else quote_plus(v)}" for k, v in fields)
    try:
        return json.dumps(_without_secrets(json.loads(text)), ensure_ascii=False)
    except (ValueError, RecursionError):
        # Not JSON (or nested past reading): a secret-named member is still cut out where it is written as one.
        return _MEMBER.sub(lambda m: f'"{m.group(1)}": "{REDACTED}"', text)


def _without_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: REDACTED if k in SECRET_NAMES else _without_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_secrets(v) for v in value]
    return value
