"""gatekeeper: an API key on every JSON-RPC call, then `auth-required` mid-task for a one-time passcode.

Without the X-API-Key header every call is refused with HTTP 401; the card stays public so a client can
learn the security scheme. The passcode is told in the status message, because this is a demo.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from typing import Any

from .base import ASGIApp, DemoAgent, DemoSettings, ServedApp
from .defaults import API_KEY_ENV
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "Needs an API key for every call, then asks for a one-time passcode mid-task (auth-required)."
API_KEY_HEADER = "X-API-Key"
PASSCODE = "sesame"
ASK_PASSCODE = f"The vault needs a one-time passcode. Reply in this task with it — in this demo it is '{PASSCODE}'."
WRONG_PASSCODE = f"That passcode is wrong, the vault stays shut. Try again — in this demo it is '{PASSCODE}'."


class ApiKeyGate:
    """ASGI wrapper: HTTP 401 for every request without the right API key, except GETs of the public card."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.api_key = api_key.encode()

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable[..., Awaitable[None]]) -> None:
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": f"missing or wrong API key: send it in the {API_KEY_HEADER} header"}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 401, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: dict[str, Any]) -> bool:
        if scope["method"] == "GET" and scope["path"].startswith("/.well-known/"):
            return True
        wanted = API_KEY_HEADER.lower().encode()
        return any(name == wanted and hmac.compare_digest(value, self.api_key) for name, value in scope["headers"])


def is_passcode(answer: str) -> bool:
    return answer.strip().strip("'\"").strip().lower() == PASSCODE


class GatekeeperExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        if turn.state != State.TASK_STATE_AUTH_REQUIRED:
            await turn.working("checking your request")
            await turn.pause(0.3)
            await turn.working("the vault asks for a second factor")
            await turn.pause(0.3)
            await turn.need_auth(ASK_PASSCODE)
            return
        if not is_passcode(turn.text):
            await turn.need_auth(WRONG_PASSCODE)
            return
        await turn.working("passcode accepted, opening the vault")
        await turn.pause(0.3)
        note = "The vault is open. Inside: one A2A task that went working, auth-required, working, completed."
        await turn.artifact([text(note)], artifact_id="vault", name="vault contents")
        await turn.complete("access granted")


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Gatekeeper",
        # The card names where the key comes from, never the key: cards are public and get cached.
        description=DESCRIPTION + f" The key goes in the {API_KEY_HEADER} header; it is the value of "
        f"{API_KEY_ENV} when the demo started, and `switchboard demo` prints it.",
        url=url,
        api_key_header=API_KEY_HEADER,
        skills=[
            skill(
                "vault",
                "Open the vault",
                "Ask for anything, with the API key set. The task goes working, then auth-required asking for a "
                f"one-time passcode; reply in the same task with '{PASSCODE}' and it completes. A wrong passcode "
                "keeps it waiting.",
                ["open the vault", "show me the secret plans"],
                ["auth", "api-key", "auth-required"],
            )
        ],
    )
    served = a2a_app(card, GatekeeperExecutor())
    served.app = ApiKeyGate(served.app, settings.api_key)
    return served


AGENT = DemoAgent("gatekeeper", DESCRIPTION, build, api_key_env=API_KEY_ENV)
