"""Where a card's gRPC interface is reached: the channel's HOST:PORT, whether over TLS, and whether the card's
credentials may go there.

No scheme in the URL: TLS when the card came over https, plaintext when it came over http; a card from a file: TLS
unless the host is a loopback one. This module does not import grpc.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ..auth.credentials import is_loopback
from ..errors import UsageError


def grpc_target(url: str) -> tuple[str, bool | None]:
    """`host:port` for the channel from an interface URL, and whether its scheme asks for TLS (None: it does not
    say). Cards write no scheme; some write grpc://, grpcs://, http:// or https://, and a trailing slash."""
    scheme, sep, rest = url.strip().partition("://")
    tls = None
    if not sep:
        rest = url.strip()
    else:
        tls = {"grpcs": True, "https": True, "grpc": False, "http": False}.get(scheme.lower())
        if tls is None:
            raise UsageError(
                f"the gRPC interface {url} has the scheme {scheme}://, which is not one gRPC is reached by",
                hint="A gRPC interface is HOST:PORT; ask the agent's operator to fix the card.",
            )
    target = rest.split("/", 1)[0]
    try:
        host = urlsplit("//" + target).hostname
        urlsplit("//" + target).port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        host = None
    if not host:
        raise UsageError(
            f"the gRPC interface {url} is not HOST:PORT",
            hint="Ask the agent's operator to fix the card, or choose another binding with --binding.",
        )
    return target, tls


def same_host(card_url: str, target: str) -> bool:
    """A gRPC server listens on a port of its own beside the HTTP server that serves the card, so for gRPC the
    card's host, not its origin, is where the agent's credentials may go."""
    if not card_url.startswith("http"):
        return True  # a card from a file names no origin of its own
    return (urlsplit(card_url).hostname or "").lower() == (urlsplit("//" + target).hostname or "").lower()


def channel_target(url: str, card_url: str) -> tuple[str, bool]:
    """The channel's `host:port` for the interface URL `url` of the card fetched from `card_url`, and whether it
    takes TLS: as the URL's scheme says, else as the card came (https), else (a card from a file) off loopback."""
    target, tls = grpc_target(url)
    host = urlsplit("//" + target).hostname or ""
    if tls is None:
        tls = card_url.startswith("https:") or (not card_url.startswith("http") and not is_loopback(host))
    return target, tls
