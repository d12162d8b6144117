"""Serving an a2a-sdk 1.x request handler over gRPC beside the HTTP app: the SDK's GrpcHandler (lf.a2a.v1, v1.0)
and its CompatGrpcHandler (a2a.v1, v0.3) on one grpc.aio server, on 127.0.0.1 and a free port, behind the same
API-key gate as the HTTP servers (`x-api-key` metadata, UNAUTHENTICATED without it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import grpc.aio
import hosting
from a2a.compat.v0_3 import a2a_v0_3_pb2_grpc
from a2a.compat.v0_3.grpc_handler import CompatGrpcHandler
from a2a.server.request_handlers import GrpcHandler, RequestHandler
from a2a.types import a2a_pb2_grpc


class ApiKeyInterceptor(grpc.aio.ServerInterceptor):
    """Every call without the right API key ends UNAUTHENTICATED before it reaches the handler."""

    def __init__(self, api_key: str) -> None:
        self.api_key = api_key

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        wanted = hosting.API_KEY_HEADER.lower()
        if any(key == wanted and value == self.api_key for key, value in details.invocation_metadata or ()):
            return await continuation(details)

        async def deny(request: Any, context: grpc.aio.ServicerContext) -> None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong API key")

        return grpc.unary_unary_rpc_method_handler(deny)


def start_server(api_key: str | None) -> tuple[grpc.aio.Server, int]:
    """A gRPC server bound to a free port of 127.0.0.1, not started yet (see `serve`): the server and its port."""
    server = grpc.aio.server(interceptors=[ApiKeyInterceptor(api_key)] if api_key else [])
    port = server.add_insecure_port("127.0.0.1:0")
    return server, port


def add_handlers(server: grpc.aio.Server, handler: RequestHandler) -> None:
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), server)
    a2a_v0_3_pb2_grpc.add_A2AServiceServicer_to_server(CompatGrpcHandler(handler), server)
