"""A sign-in the agent's card asks for (OAuth), put to the person through the host: the OAuth flow runs here (the
token never leaves this process) and calls the Interaction; this one hands the device code or the authorization
link to the tool call that needs it, which asks the host to open it (URL-mode elicitation) or says it in a
progress message. Which call that is travels with the call (a context variable), so concurrent calls on several
agents each get their own."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from ..a2a.auth.oauth.types import DevicePrompt


@dataclass(frozen=True)
class SignInStep:
    """What the person must do: open `url` (and, for a device code, enter `code` there)."""

    url: str
    code: str | None
    message: str


SignInHandler = Callable[[SignInStep | None], None]  # None: the flow ended (signed in, or not)
_current: ContextVar[SignInHandler | None] = ContextVar("switchboard_mcp_sign_in", default=None)


class SignInRelay:
    """The OAuth flows' Interaction for the bridge: never a browser on this machine (the host's user may be
    elsewhere); the step goes to the call in progress."""

    open_browser = False

    @staticmethod
    def handling(handler: SignInHandler | None) -> object:
        """Route this call's sign-in steps to `handler` (returns the token to pass to `release`)."""
        return _current.set(handler)

    @staticmethod
    def release(token: object) -> None:
        _current.reset(token)  # type: ignore[arg-type]

    def device_code(self, prompt: DevicePrompt) -> None:
        url = prompt.verification_uri_complete or prompt.verification_uri
        self._hand_on(
            SignInStep(
                url=url,
                code=prompt.user_code,
                message=f"Sign in to continue: open {prompt.verification_uri} and enter the code {prompt.user_code} "
                f"(within {prompt.expires_in // 60 or 1} min).",
            )
        )

    def authorization_url(self, url: str) -> None:
        self._hand_on(SignInStep(url=url, code=None, message=f"Sign in to continue: open {url}"))

    def warn(self, text: str) -> None:
        pass  # the token store's warnings (no keyring): nothing the host's user can act on

    def done(self) -> None:
        self._hand_on(None)

    def _hand_on(self, step: SignInStep | None) -> None:
        handler = _current.get()
        if handler is not None:
            handler(step)
