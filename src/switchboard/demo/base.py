"""What every demo agent declares, and the settings the fleet hands to each of them."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .card_signing import new_key
from .defaults import API_KEY_ENV, DEFAULT_API_KEY, DEFAULT_TOKEN, DEFAULT_WRITER_PACE_MS, TOKEN_ENV

PROVIDER = "a2a-switchboard demo"

ASGIApp = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class DemoSettings:
    """Knobs shared by the agents. Secrets default from the environment, as the printed commands expect."""

    writer_pace_ms: int = DEFAULT_WRITER_PACE_MS
    api_key: str = field(default_factory=lambda: os.environ.get(API_KEY_ENV) or DEFAULT_API_KEY)
    token: str = field(default_factory=lambda: os.environ.get(TOKEN_ENV) or DEFAULT_TOKEN)
    research_seconds: float = 30.0
    quick_research_seconds: float = 5.0
    card_key: Any = field(default_factory=lambda: new_key(), repr=False)  # signs notary's card
    issuer: str | None = None  # the demo identity provider, when it runs (sso's card names it)


@dataclass
class ServedApp:
    """An agent's ASGI app, and what to close when the fleet stops (the SDK handlers' running tasks)."""

    app: ASGIApp
    closers: list[Callable[[], Awaitable[Any]]] = field(default_factory=list)


@dataclass(frozen=True)
class DemoAgent:
    """One agent of the fleet: its name in the agents file, a one-line description, and how to build it.

    `build(base_url, settings)` gets the agent's own base URL (with a trailing slash), so its card can
    point at where it is really served.
    """

    name: str
    description: str
    build: Callable[[str, DemoSettings], ServedApp]
    protocol: Literal["a2a", "tasks"] = "a2a"
    api_key_env: str | None = None  # the agents file names the variable, never the value
    bearer_env: str | None = None
    skills: tuple[dict[str, Any], ...] = ()  # for agents without a card (the REST task API)
    signed: bool = False  # its card is signed with the demo key: the agents file names the key in cardKeys
    oauth: dict[str, Any] | None = None  # its agents-file `oauth:` block; served only while the identity provider is
