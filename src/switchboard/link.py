"""A connection to one agent, whatever it speaks: the one thing the CLI, the TUI and the workflow engine talk to.

An AgentLink holds a Transport (a2a/transports/): A2A over JSON-RPC, HTTP+JSON or gRPC, at 1.0 or 0.3, chosen from
the agent's card (or forced with --binding / `binding:`), or the REST task API of the workflow-engine world. Callers
send a message and get the events of the turn, read, list and cancel tasks; they never branch on which transport
is behind it, and only open_link decides which one to build.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, replace
from typing import Any

import httpx

from .a2a.auth.credentials import Credentials, credentials_from_env
from .a2a.call_context import CallContext
from .a2a.cancel import CancelOutcome, cancel_and_confirm
from .a2a.cards import BINDING_FLAGS, ResolvedCard, fetch_card
from .a2a.client import transport_for
from .a2a.extensions import extension_headers, with_extensions
from .a2a.follow import FollowPolicy, TurnEvent, find_task_for_message, follow_turn, poll_task
from .a2a.model import AgentCard, Message, Task, TaskPage, TaskState
from .a2a.origin import origin_of
from .a2a.tap import Tap
from .a2a.transports.base import Transport
from .a2a.transports.tasks_api import TasksApiTransport
from .a2a.turn import TaskView
from .a2a.wire.common import Notes
from .a2ui.negotiation import CAPABILITIES_KEY, client_capabilities, declared_extensions
from .agent_http import agent_http_client
from .agent_http import known_secrets as known_secrets  # its home is agent_http; still importable from here
from .agents import AgentEntry, OAuthSettings
from .demo_credentials import with_demo_defaults


def oauth_client(
    settings: OAuthSettings | None,
    *,
    client_id: str | None = None,
    client_secret_env: str | None = None,
    flow: str | None = None,
    scopes: list[str] | None = None,
    interaction=None,
    remember: bool = False,
):
    """The OAuth client for an agent: its `oauth:` block with the command line's overrides, the secret read from
    the variable named (an unset one raises), remembered tokens read from the token store. None: no client."""
    from dataclasses import replace

    from .a2a.auth.oauth.client import OAuthClient
    from .a2a.auth.oauth.token_store import TokenStore
    from .paths import config_dir

    if settings is None and not client_id:
        return None
    settings = replace(settings) if settings else OAuthSettings(client_id=client_id or "")
    settings.client_id = client_id or settings.client_id
    settings.client_secret_env = client_secret_env or settings.client_secret_env
    settings.flow = flow or settings.flow
    settings.scopes = scopes or settings.scopes
    secret = _client_secret(settings.client_secret_env) if settings.client_secret_env else None
    warn = getattr(interaction, "warn", None)
    return OAuthClient(
        client_id=settings.client_id,
        client_secret=secret,
        client_secret_env=settings.client_secret_env,
        flow=settings.flow,
        resource=settings.resource,
        send_resource=settings.send_resource,
        scopes=tuple(settings.scopes) if settings.scopes is not None else None,
        scheme=settings.scheme,
        issuer=settings.issuer,
        interaction=interaction,
        store=TokenStore(config_dir(), warn),
        remember=remember,
    )


def _client_secret(name: str) -> str:
    from .a2a.errors import CredentialsMissingError
    from .a2a.user_input import check_secret

    value = os.environ.get(name)
    if not value:
        raise CredentialsMissingError(
            f"the environment variable {name} named for the OAuth client secret is not set",
            hint=f"export {name}=... before running, or name another variable (oauth.clientSecretEnv).",
        )
    return check_secret(value, f"the environment variable {name} (OAuth client secret)")


def entry_credentials(entry: AgentEntry | None, interaction=None) -> Credentials:
    """Credentials named by the agents file, else the A2ACLI_* variables; an unset named variable raises (the demo's
    own variables have their default: demo_credentials)."""
    found = credentials_from_env(
        bearer_env=entry.bearer_env if entry else None,
        api_key_env=entry.api_key_env if entry else None,
        env=with_demo_defaults(os.environ),
        basic_user=entry.basic_user if entry else None,
        basic_password_env=entry.basic_env if entry else None,
    )
    client = oauth_client(entry.oauth if entry else None, interaction=interaction)
    return replace(found, client_cert=bool(entry and entry.tls and entry.tls.cert), oauth=client)


@dataclass
class AgentLink:
    name: str
    transport: Transport
    streaming: bool | None = None  # None: stream when the agent does; False: poll
    owned_http: httpx.AsyncClient | None = None  # closed with the link
    # What every message to this agent carries in its metadata when its card declares A2UI and the person renders
    # it: the versions and catalogs switchboard draws (a2ui/negotiation.py). None: no A2UI here.
    a2ui: dict[str, Any] | None = None
    a2ui_extensions: tuple[str, ...] = ()  # the A2UI extension URIs activated on its requests

    @property
    def card(self) -> AgentCard | None:
        """The agent's card (None for the REST task API, which has none)."""
        return self.transport.card

    @property
    def card_url(self) -> str | None:
        return self.transport.card_url

    @property
    def tap(self) -> Tap | None:
        """Where the exchanges are recorded (the wire view, --verbose, --record)."""
        return getattr(self.transport, "tap", None)

    @property
    def notes(self) -> Notes:
        """What the transport noted about the agent: card lint, decoding oddities, retries outside a turn."""
        return self.transport.notes

    @property
    def label(self) -> str:
        """What is spoken: `JSON-RPC 1.0`, `HTTP+JSON 0.3`, `tasks API`."""
        return self.transport.label

    @property
    def protocol_label(self) -> str:
        """As the agents table says it: `1.0`, `0.3 legacy` (JSON-RPC), `HTTP+JSON 1.0`, `tasks API`."""
        endpoint = getattr(self.transport, "endpoint", None)
        return endpoint.short_label if endpoint is not None else self.transport.label

    @property
    def takes_files(self) -> bool:
        return self.transport.takes_files

    def follow(
        self,
        message: Message,
        policy: FollowPolicy | None = None,
        *,
        streaming: bool | None = None,
        blocking: bool = True,
        view: TaskView | None = None,
    ) -> AsyncGenerator[TurnEvent, None]:
        """Send `message` and yield the turn's events until it ends (`streaming` overrides the link's; `blocking`
        False, when polling, has the agent answer at once so the task id is known early: see follow_turn)."""
        streaming = self.streaming if streaming is None else streaming
        return follow_turn(self.transport, message, streaming=streaming, blocking=blocking, policy=policy, view=view)

    def resume(
        self,
        task_id: str,
        policy: FollowPolicy | None = None,
        *,
        streaming: bool | None = None,
        view: TaskView | None = None,
    ) -> AsyncGenerator[TurnEvent, None]:
        """Re-attach to a task that is still running."""
        streaming = self.streaming if streaming is None else streaming
        return follow_turn(self.transport, task_id=task_id, streaming=streaming, policy=policy, view=view)

    async def send(self, message: Message, *, blocking: bool = True) -> Task | Message:
        """One send, not followed: blocking returns at the end of the turn, else as the task starts."""
        return await self.transport.send(message, blocking=blocking)

    async def get_task(
        self, task_id: str, *, history_length: int | None = None, context: CallContext | None = None
    ) -> Task:
        """The task as the agent has it now (`context`: the call's own manner, e.g. BACKGROUND: no sign-in)."""
        return await self.transport.get_task(task_id, history_length=history_length, context=context)

    async def wait(self, task_id: str, policy: FollowPolicy | None = None) -> None:
        """Read the task every poll interval until its turn is over."""
        async for _ in poll_task(self.transport, task_id, policy or FollowPolicy()):
            pass

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: TaskState | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        history_length: int | None = None,
    ) -> TaskPage:
        """One page of the tasks the agent knows (a usage error where its binding has no list)."""
        return await self.transport.list_tasks(
            context_id=context_id,
            state=state,
            page_size=page_size,
            page_token=page_token,
            history_length=history_length,
        )

    async def extended_card(self) -> AgentCard:
        return await self.transport.extended_card()

    # Push-notification configs (protocol 1.0 bindings; a usage error elsewhere): see push/receiver.py for a receiver.
    async def create_push_config(
        self, task_id: str, url: str, *, token: str | None = None, config_id: str | None = None
    ) -> dict[str, Any]:
        return await self.transport.create_push_config(task_id, url, token=token, config_id=config_id)

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        return await self.transport.get_push_config(task_id, config_id)

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        return await self.transport.list_push_configs(task_id)

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        await self.transport.delete_push_config(task_id, config_id)

    async def find_task(self, message_id: str) -> str | None:
        """The task the agent made for a message whose answer never arrived (None when it cannot tell)."""
        return await find_task_for_message(self.transport, message_id)

    async def cancel(
        self, task_id: str, *, confirm_within: float | None = None, timeout: float | None = None
    ) -> CancelOutcome:
        """Cancel the task, confirmed by the state the agent then reports (see a2a/cancel.py)."""
        return await cancel_and_confirm(self.transport, task_id, timeout=timeout, confirm_within=confirm_within)

    async def aclose(self) -> None:
        try:
            await self.transport.aclose()
        finally:
            if self.owned_http is not None:
                await self.owned_http.aclose()

    async def __aenter__(self) -> AgentLink:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


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
    http: httpx.AsyncClient | None = None,
    tap: Tap | None = None,
    credentials: Credentials | None = None,
    on_note: Callable[[str], None] | None = None,
    correlation_id: str | None = None,
    streaming: bool | None = None,
    cards: CardCache | None = None,
    prefer_version: str | None = None,
    binding: str | None = None,
    headers: dict[str, str] | None = None,
    trust_interface_origin: bool = False,
    a2ui: bool = True,
) -> AgentLink:
    """Connect to an agent of the agents file (or one named on the command line): read its card and build the
    transport it calls for, or point at its REST task API.

    `correlation_id` goes on every request (X-Correlation-Id) and in message metadata; `streaming` False makes
    the link poll even when the agent streams; `cards` reuses a card read before; `prefer_version` and `binding`
    (`jsonrpc`, `rest`; else the entry's `binding:`) force what is spoken; `headers` replace the entry's;
    `trust_interface_origin` adds to the entry's. Without `http` the link has a client of its own. `a2ui`: where the
    card declares the A2UI extension, activate it and announce what switchboard renders (False: the person switched
    rendering off, and the agent falls back to text).
    """
    credentials = credentials if credentials is not None else entry_credentials(entry)
    if tap:
        tap.redactor.add(*entry.interpolated)
    if headers is None:
        headers = {**(entry.headers or {}), **extension_headers(entry.extensions)}
    # An agent with a client certificate gets a client of its own: the certificate goes to its origin alone.
    cert_origins: set[str] = set()
    owned: httpx.AsyncClient | None = None
    if http is None or entry.tls is not None:
        http = owned = agent_http_client(entry, origins=cert_origins)
    a2ui_uris: list[str] = []
    try:
        if entry.protocol == "tasks":
            transport: Transport = TasksApiTransport(
                entry.url,
                agent_id=entry.name,
                http=http,
                credentials=credentials,
                tap=tap,
                on_note=on_note,
                correlation_id=correlation_id,
            )
        else:
            resolved = (
                await cards.get(entry, http, tap)
                if cards is not None
                else await fetch_card(entry.url, http, tap=tap, headers=headers or None)
            )
            a2ui_uris = declared_extensions(resolved.card) if a2ui else []
            if a2ui_uris:
                headers = with_extensions(headers, a2ui_uris)
            transport = transport_for(
                resolved,
                prefer_version=prefer_version,
                binding=BINDING_FLAGS.get(binding or entry.binding or ""),
                http=http,
                tap=tap,
                credentials=credentials,
                extra_headers=headers or None,
                on_note=on_note,
                correlation_id=correlation_id,
                trust_interface_origin=trust_interface_origin or entry.trust_interface_origin,
            )
            endpoint = getattr(transport, "endpoint", None)
            if endpoint is not None and (trust_interface_origin or entry.trust_interface_origin):
                cert_origins.add(origin_of(endpoint.url))  # the person's say-so covers the certificate too
    except BaseException:
        if owned is not None:
            await owned.aclose()
        raise
    return AgentLink(
        entry.name,
        transport,
        streaming=streaming,
        owned_http=owned,
        a2ui={CAPABILITIES_KEY: client_capabilities()} if a2ui_uris else None,
        a2ui_extensions=tuple(a2ui_uris),
    )
