"""A connection to one agent, whichever protocol it speaks (A2A JSON-RPC or the REST task API).

Callers send a message and get the events of the turn; they never need to know which client is behind it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx

from .a2a.auth import DEFAULT_API_KEY_ENV, DEFAULT_BEARER_ENV, Credentials, credentials_from_env
from .a2a.cancel import CancelOutcome, cancel_and_confirm
from .a2a.cards import ResolvedCard, fetch_card
from .a2a.client import connect, transport_for
from .a2a.errors import UsageError
from .a2a.follow import FollowPolicy, TurnEvent, find_task_for_message, follow_turn
from .a2a.model import AgentCard, Message, Task, TextPart
from .a2a.tap import Tap
from .a2a.tasks_api import TasksApiClient
from .a2a.transports.base import Transport
from .a2a.wire.common import Notes
from .agents import AgentEntry


def entry_credentials(entry: AgentEntry | None) -> Credentials:
    """Credentials named by the agents file, else the A2ACLI_* variables; an unset named variable raises."""
    return credentials_from_env(
        bearer_env=entry.bearer_env if entry else None, api_key_env=entry.api_key_env if entry else None
    )


def known_secrets(entry: AgentEntry | None) -> list[str]:
    """Every secret an agent's configuration leads to: credential values and ${VAR} header values.

    They go to the redactor before the first request, since even a card may quote them back. Never raises.
    """
    names = [entry.api_key_env, entry.bearer_env] if entry else []
    names += [DEFAULT_API_KEY_ENV, DEFAULT_BEARER_ENV]
    return [os.environ[n] for n in names if n and os.environ.get(n)] + (list(entry.interpolated) if entry else [])


@dataclass
class AgentLink:
    name: str
    transport: Transport | None = None
    tasks: TasksApiClient | None = None
    streaming: bool | None = None  # A2A: None streams when the card offers it; False polls

    @property
    def card(self) -> AgentCard | None:
        return self.transport.card if self.transport else None

    @property
    def notes(self) -> Notes:
        """What the transport noted about the agent: card lint, decoding oddities, retries outside a turn."""
        return self.transport.notes if self.transport else self.tasks.notes

    @property
    def protocol_label(self) -> str:
        if self.transport is None:
            return "tasks API"
        return "1.0" if self.transport.endpoint.version == "1.0" else "0.3 legacy"

    @property
    def takes_files(self) -> bool:
        return self.transport is not None

    def follow(self, message: Message, policy: FollowPolicy | None = None) -> AsyncIterator[TurnEvent]:
        """Send `message` and yield the turn's events until it ends."""
        if self.transport is not None:
            return follow_turn(self.transport, message, streaming=self.streaming, policy=policy)
        if any(not isinstance(p, TextPart) for p in message.parts):
            raise UsageError(f"{self.name} speaks the REST task API, which takes text only")
        text = "".join(p.text for p in message.parts if isinstance(p, TextPart))
        return self.tasks.run_turn(text, task_id=message.task_id, context_id=message.context_id)

    def resume(self, task_id: str, policy: FollowPolicy | None = None) -> AsyncIterator[TurnEvent]:
        """Re-attach to a task that is still running."""
        if self.transport is not None:
            return follow_turn(self.transport, task_id=task_id, streaming=self.streaming, policy=policy)
        return self.tasks.follow(task_id)

    async def get_task(self, task_id: str) -> Task:
        """The task as the agent has it now."""
        if self.transport is not None:
            return await self.transport.get_task(task_id)
        return await self.tasks.get_task(task_id)

    async def find_task(self, message_id: str) -> str | None:
        """The task the agent made for a message whose answer never arrived (None when it cannot tell)."""
        if self.transport is None:
            return None
        return await find_task_for_message(self.transport, message_id)

    async def cancel(self, task_id: str, *, confirm_within: float | None = None) -> CancelOutcome:
        """Cancel the task, confirmed by the state the agent then reports (see a2a/cancel.py)."""
        if self.transport is None:
            raise UsageError("the REST task API has no cancel", hint="Let the task finish or leave it.")
        return await cancel_and_confirm(self.transport, task_id, confirm_within=confirm_within)

    async def aclose(self) -> None:
        if self.transport is not None:
            await self.transport.aclose()
        if self.tasks is not None:
            await self.tasks.aclose()


class CardCache:
    """Agent cards fetched once and shared by every link that asks for the same agent while the cache lives.

    A workflow run keeps one, so two hundred steps on one agent read its card once, not two hundred times.
    Concurrent askers share one fetch; a failed fetch is not kept, so the next asker tries again.
    """

    def __init__(self) -> None:
        self._fetches: dict[tuple[str, tuple[tuple[str, str], ...]], asyncio.Task[ResolvedCard]] = {}

    async def get(self, entry: AgentEntry, http: httpx.AsyncClient, tap: Tap | None) -> ResolvedCard:
        key = (entry.url, tuple(sorted((entry.headers or {}).items())))
        fetch = self._fetches.get(key)
        if fetch is None or (fetch.done() and (fetch.cancelled() or fetch.exception() is not None)):
            fetch = asyncio.ensure_future(fetch_card(entry.url, http, tap=tap, headers=entry.headers or None))
            self._fetches[key] = fetch
        return await asyncio.shield(fetch)  # one asker canceled does not cancel the fetch the others wait for


async def open_link(
    entry: AgentEntry,
    *,
    http: httpx.AsyncClient,
    tap: Tap | None = None,
    credentials: Credentials | None = None,
    on_note=None,
    correlation_id: str | None = None,
    streaming: bool | None = None,
    cards: CardCache | None = None,
) -> AgentLink:
    """Connect to an agent of the agents file: fetch its card (A2A) or just point at it (tasks API).

    `correlation_id` goes on every request (X-Correlation-Id) and in message metadata; `streaming` False
    makes an A2A link poll even when the card offers streaming; `cards` reuses a card fetched before.
    """
    credentials = credentials if credentials is not None else entry_credentials(entry)
    if tap:
        tap.redactor.add(*entry.interpolated)
    if entry.protocol == "tasks":
        client = TasksApiClient(
            entry.url,
            agent_id=entry.name,
            http=http,
            credentials=credentials,
            tap=tap,
            on_note=on_note,
            correlation_id=correlation_id,
        )
        return AgentLink(entry.name, tasks=client)
    options = dict(
        http=http,
        tap=tap,
        credentials=credentials,
        extra_headers=entry.headers or None,
        on_note=on_note,
        correlation_id=correlation_id,
        trust_interface_origin=entry.trust_interface_origin,
    )
    if cards is not None:
        transport = transport_for(await cards.get(entry, http, tap), **options)
    else:
        transport = await connect(entry.url, card_headers=entry.headers or None, **options)
    return AgentLink(entry.name, transport=transport, streaming=streaming)
