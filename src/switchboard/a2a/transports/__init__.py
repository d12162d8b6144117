"""Transports: one interface (base.Transport), one implementation per way of talking to an agent.

jsonrpc.py and rest.py speak A2A's JSON-RPC and HTTP+JSON bindings (v1.0 and v0.3) over the plumbing they share
(http_transport.py); grpc.py speaks its gRPC binding (the extra a2a-switchboard[grpc], imported only when
chosen, so not here); tasks_api.py adapts the REST task API of the workflow-engine world. Which one a card gets
is decided in switchboard.a2a.client (the card's interfaces in its order of preference, the first one spoken).
"""

from .base import StreamBrokenError, Transport

__all__ = ["StreamBrokenError", "Transport"]
