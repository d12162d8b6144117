"""An origin, compared exactly: credentials go only to the agent's own origin, and an issuer's secrets only to it."""

from __future__ import annotations

from urllib.parse import urlsplit


def origin_of(url: str) -> str:
    """scheme://host:port with the default port made explicit, for exact origin comparison."""
    parts = urlsplit(url)
    scheme = (parts.scheme or "http").lower()
    port = parts.port or (443 if scheme == "https" else 80)
    host = (parts.hostname or "").lower()
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"
