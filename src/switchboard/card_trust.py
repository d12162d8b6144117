"""Which keys to check an agent's card signatures with, and the check itself, for the CLI, the TUI and the
agents table alike.

Keys named for the agent (its `cardKeys:` in the agents file, or --card-key) pin it: only they count. Otherwise
the settings' `card_keys` are trusted for every agent, and a signature's `jku` is fetched (https or the card's
own origin only)."""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from .a2a.auth.trust.card_keys import CardKey, load_key_files
from .a2a.auth.trust.card_signature import CardTrust, verify_card
from .a2a.model import AgentCard
from .a2a.tap import Tap
from .agents import AgentEntry


def keys_for(entry: AgentEntry | None, flag_keys: Sequence[str] = ()) -> tuple[list[CardKey], bool]:
    """The keys to verify with and whether they pin the agent. An unreadable key file is a UsageError."""
    if flag_keys:
        return load_key_files(flag_keys), True
    if entry is not None and entry.card_keys:
        return load_key_files(entry.card_keys), True
    from .config import load_settings

    settings, _ = load_settings()
    return load_key_files(settings.card_keys), False


async def check_card(
    card: AgentCard,
    card_url: str,
    entry: AgentEntry | None,
    *,
    http: httpx.AsyncClient | None,
    tap: Tap | None = None,
    flag_keys: Sequence[str] = (),
) -> CardTrust:
    """The card's signature outcome; an unsigned card is answered without reading any key file."""
    if not card.raw.get("signatures"):
        return CardTrust("unsigned")
    keys, pinned = keys_for(entry, flag_keys)
    return await verify_card(card.raw, card_url, keys, pinned=pinned, http=http, tap=tap)
