"""Reaching an A2A agent: read its card, choose the interface to speak, and build the Transport for it.

`connect` is the one door: whatever the card offers, the caller gets a Transport (transports/base.py) and never
branches on the binding or the wire version behind it.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, TypeAlias

import httpx

from .cards import GRPC, GRPC_EXTRA, HTTP_JSON, ResolvedCard, choose_endpoint, fetch_card
from .errors import ProtocolUnsupportedError
from .http import DEFAULT_RETRY, new_http_client
from .model import Message, Part, Role, TextPart
from .tap import Tap
from .transports.http_transport import HttpTransport
from .transports.jsonrpc import JsonRpcTransport
from .transports.rest import RestTransport

if TYPE_CHECKING:
    from .transports.grpc import GrpcTransport

# A Transport made from a card's interface: an A2A binding, so it has an endpoint (binding, version, tenant).
CardTransport: TypeAlias = "HttpTransport | GrpcTransport"


def new_message(
    parts: list[Part] | str,
    *,
    task_id: str | None = None,
    context_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Message:
    """A user message with a fresh messageId."""
    if isinstance(parts, str):
        parts = [TextPart(text=parts)]
    return Message(
        message_id=str(uuid.uuid4()),
        role=Role.USER,
        parts=parts,
        task_id=task_id,
        context_id=context_id,
        metadata=metadata,
    )


def transport_for(
    resolved: ResolvedCard, *, prefer_version: str | None = None, binding: str | None = None, **kwargs: Any
) -> CardTransport:
    """The transport for a card already read (see choose_endpoint for which interface, and what may be forced);
    its notes (what reading the card met) become the transport's."""
    endpoint = choose_endpoint(resolved.card, prefer_version, binding=binding)
    if endpoint.binding == GRPC:
        kind: type[CardTransport] = _grpc_transport(resolved.card.name)
    else:
        kind = RestTransport if endpoint.binding == HTTP_JSON else JsonRpcTransport
    transport = kind(resolved.card, card_url=resolved.card_url, endpoint=endpoint, **kwargs)
    for note in resolved.notes:
        transport.note(note)
    return transport


def _grpc_transport(agent: str) -> type[GrpcTransport]:
    """The gRPC transport, imported only now: grpc is an optional install, and a heavy import."""
    try:
        from .transports.grpc import GrpcTransport
    except ImportError as exc:
        raise ProtocolUnsupportedError(
            f"{agent} is reached over gRPC, and switchboard's gRPC support cannot be loaded ({exc})",
            hint=f"Install it: {GRPC_EXTRA}.",
        ) from None
    return GrpcTransport


async def connect(
    ref: str,
    *,
    http: httpx.AsyncClient | None = None,
    tap: Tap | None = None,
    card_headers: dict[str, str] | None = None,
    **kwargs: Any,
) -> CardTransport:
    """Fetch the card for `ref` (URL, host, card URL or file) and build the transport it calls for.

    Without `http` the transport owns a client of its own and closes it with itself.
    """
    owns = http is None
    http = http or new_http_client()
    try:
        resolved = await fetch_card(ref, http, tap=tap, headers=card_headers, retry=kwargs.get("retry", DEFAULT_RETRY))
        transport = transport_for(resolved, http=http, tap=tap, **kwargs)
    except BaseException:
        if owns:
            await http.aclose()
        raise
    transport._owns_http = owns
    return transport
