"""OAuth failures in words a person can act on: an issuer that cannot be reached, a grant it refused. All are
AuthFailedError (exit 4) with a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....safe_text import strip_controls
from ...errors import AuthFailedError

if TYPE_CHECKING:
    from .client import OAuthClient


def unreachable(what: str, url: str, exc: BaseException) -> AuthFailedError:
    """A token or discovery request that got no usable answer (exit 4, like every auth failure)."""
    reason = strip_controls(str(exc) or type(exc).__name__)[:200]
    return AuthFailedError(
        f"cannot reach the issuer for the {what} at {url}: {reason}",
        hint="Check that the identity provider is up and that the agent's card names it right.",
        url=url,
    )


def grant_failed(exc: Any, client: OAuthClient, flow: str, url: str) -> AuthFailedError:
    """The issuer refused a grant: the reason in plain words, and what to do."""
    error, said = exc.error, strip_controls(exc.description or "")[:200]
    detail = f" ({said})" if said else ""
    secret = f"the secret in {client.client_secret_env}" if client.client_secret_env else "the client secret"
    messages = {
        "invalid_client": (
            f"the issuer refused the client {client.client_id!r}: wrong client id or secret{detail}",
            f"Check the client id and {secret}.",
        ),
        "unauthorized_client": (
            f"the client {client.client_id!r} may not use the {flow} flow at this issuer{detail}",
            "Choose another flow (oauth.flow in the agents file, or --oauth-flow), or ask the issuer's admin.",
        ),
        "access_denied": (
            f"the sign-in was refused (consent denied){detail}",
            "Run the command again and approve the request at the issuer.",
        ),
        "expired_token": (
            f"the device code expired before the sign-in finished{detail}",
            "Run the command again and enter the code sooner.",
        ),
        "invalid_grant": (
            f"the issuer refused the grant: the code or refresh token is invalid or expired{detail}",
            "Sign in again: switchboard auth login AGENT.",
        ),
        "invalid_scope": (
            f"the issuer refused the scopes asked for{detail}",
            "Check the scopes (oauth.scopes in the agents file); the card's requirement names them.",
        ),
        "invalid_target": (
            f"the issuer refused the resource (RFC 8707) asked for{detail}",
            "Set oauth.resource in the agents file to the value the issuer expects, or false to send none.",
        ),
    }
    text, hint = messages.get(
        error, (f"the issuer answered {error}{detail}", "Run with --verbose, and check the client settings.")
    )
    return AuthFailedError(f"{flow} sign-in for client {client.client_id!r} failed: {text}", hint=hint, url=url)
