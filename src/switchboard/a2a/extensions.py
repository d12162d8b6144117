"""Extensions a person activates for an agent: their URIs go in a header on every request.

v1.0 reads `A2A-Extensions`, v0.3 `X-A2A-Extensions` (comma-separated URIs); both are sent, since the headers are
fixed before the card says which version is spoken, and a server ignores the one it does not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import UsageError
from .model import AgentCard

EXTENSION_HEADERS = ("A2A-Extensions", "X-A2A-Extensions")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s,]+")


def check_extension_uri(text: str, where: str) -> str:
    """An extension's URI as a person typed it: a URI with a scheme, no spaces or commas (the header's separator)."""
    uri = text.strip()
    if not _URI.fullmatch(uri):
        raise UsageError(
            f"{where}: {text!r} is not an extension URI",
            hint="Give the URI the agent's card lists under its extensions, e.g. https://example.com/ext/trace/v1.",
        )
    return uri


def extension_headers(uris: Iterable[str]) -> dict[str, str]:
    """The headers that activate `uris` (none when there are none), each URI once, in the order given."""
    unique = list(dict.fromkeys(uris))
    return {name: ", ".join(unique) for name in EXTENSION_HEADERS} if unique else {}


def with_extensions(headers: dict[str, str], uris: Iterable[str]) -> dict[str, str]:
    """`headers` with `uris` added to the extensions they already activate (each URI once)."""
    have = [u.strip() for u in headers.get(EXTENSION_HEADERS[0], "").split(",") if u.strip()]
    return {**headers, **extension_headers([*have, *uris])}


def required_not_activated(card: AgentCard | None, activated: Iterable[str]) -> list[str]:
    """The extensions the card marks required that are not among `activated`."""
    if card is None:
        return []
    have = set(activated)
    return [e.uri for e in card.capabilities.extensions or [] if e.required and e.uri not in have]


def extension_marks(uri: str, required: bool | None, activated: Iterable[str]) -> str:
    """What the card view and `card get` say after an extension's URI: "required", and "activated" when this
    agent's requests carry it (the agents file's `extensions:`, --extension), "not activated" for a required one
    they do not. Empty when neither applies."""
    on = uri in set(activated)
    bits = (["required"] if required else []) + (["activated"] if on else ["not activated"] if required else [])
    return f" ({', '.join(bits)})" if bits else ""
