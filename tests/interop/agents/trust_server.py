"""Reference agents on a2a-sdk 1.3 for trust: signed cards, HTTP Basic, mutual TLS.

    python trust_server.py --mode cards --keys DIR [--port N]
    python trust_server.py --mode mtls --cert PEM --key PEM --ca PEM [--port N]

--mode cards serves one agent per path prefix on plain http, each card signed by the official SDK signer
(a2a.utils.signing) with keys from DIR (es256.pem, rs256.pem, written by the test):
  /es256/    signed ES256, kid es-1
  /rs256/    signed RS256, kid rs-1, jku pointing at this server's /jwks.json (the RSA key's JWKS)
  /tampered/ signed ES256, then its description changed
  /hs256/    signed HS256 with a shared secret (an algorithm a verifier must refuse)
  /plain/    not signed
  /basic/    not signed; its card declares HTTP Basic and every call but the card's needs user `ada`, password
             `basic-secret-1234`
  /basic-elsewhere/  the same card, but its interface is /basic/ on another origin (localhost for 127.0.0.1)
--mode mtls serves one agent on https that requires a client certificate signed by --ca; its card declares
MutualTLS. /elsewhere/ serves a card that places the same agent on another origin (localhost).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import socket
import ssl
import sys
import threading
from pathlib import Path

import hosting
import sdk13_server
import uvicorn
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import a2a_pb2 as pb
from a2a.utils.signing import create_agent_card_signer
from jwt.algorithms import RSAAlgorithm
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route

BASIC_USER, BASIC_PASSWORD = "ada", "basic-secret-1234"
HS256_SECRET = "shared-secret-anyone-could-hold-0123456789"


def agent(url: str, name: str, card: pb.AgentCard) -> Starlette:
    """One real SDK agent (card + JSON-RPC) at `url`."""
    handler = DefaultRequestHandler(
        agent_executor=sdk13_server.ScriptedExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    return Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/"))


def base_card(url: str, name: str) -> pb.AgentCard:
    card, _ = sdk13_server.build_cards(url, "v10", None)
    card.name = name
    card.capabilities.extended_agent_card = False
    del card.supported_interfaces[1:]  # JSON-RPC 1.0 only
    return card


def sign(card: pb.AgentCard, key: str, alg: str, kid: str, jku: str | None = None) -> pb.AgentCard:
    header = {"alg": alg, "kid": kid, "typ": "JOSE"}
    if jku:
        header["jku"] = jku
    return create_agent_card_signer(key, header)(card)  # type: ignore[arg-type]


class BasicGate:
    """401 without the right Basic credentials, except GETs of the card."""

    def __init__(self, app: hosting.ASGIApp) -> None:
        self.app = app
        self.expected = b"Basic " + base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode())

    async def __call__(self, scope: dict, receive, send) -> None:
        ok = scope["type"] != "http" or (scope["method"] == "GET" and "/.well-known/" in scope["path"])
        ok = ok or any(n == b"authorization" and v == self.expected for n, v in scope["headers"])
        if ok:
            await self.app(scope, receive, send)
            return
        await JSONResponse({"error": "basic auth required"}, 401, {"WWW-Authenticate": 'Basic realm="a2a"'})(
            scope, receive, send
        )


def cards_app(base: str, keys: Path) -> Starlette:
    es = (keys / "es256.pem").read_text()
    rs = (keys / "rs256.pem").read_text()
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    rsa_public = load_pem_private_key(rs.encode(), None).public_key()
    jwk = json.loads(RSAAlgorithm.to_jwk(rsa_public))
    jwks = {"keys": [{**jwk, "kid": "rs-1", "alg": "RS256", "use": "sig"}]}
    mounts = []
    for prefix in ("es256", "rs256", "tampered", "hs256", "plain", "basic", "basic-elsewhere"):
        url = base.replace("127.0.0.1", "localhost") + "basic/" if prefix == "basic-elsewhere" else f"{base}{prefix}/"
        card = base_card(url, f"trust {prefix}")
        if prefix in ("es256", "tampered"):
            sign(card, es, "ES256", "es-1")
        elif prefix == "rs256":
            sign(card, rs, "RS256", "rs-1", jku=f"{base}jwks.json")
        elif prefix == "hs256":
            sign(card, HS256_SECRET, "HS256", "hs-1")
        if prefix == "tampered":
            card.description = "changed after signing"
        app: hosting.ASGIApp = agent(url, prefix, card)
        if prefix.startswith("basic"):
            card.security_schemes["basic"].CopyFrom(
                pb.SecurityScheme(http_auth_security_scheme=pb.HTTPAuthSecurityScheme(scheme="Basic"))
            )
            card.security_requirements.append(pb.SecurityRequirement(schemes={"basic": pb.StringList()}))
            app = BasicGate(agent(url, prefix, card))
        mounts.append(Mount(f"/{prefix}", app=app))
    return Starlette(routes=[Route("/jwks.json", lambda request: JSONResponse(jwks)), *mounts])


def mtls_app(base: str) -> Starlette:
    card = base_card(base, "trust mtls")
    card.security_schemes["mtls"].CopyFrom(
        pb.SecurityScheme(mtls_security_scheme=pb.MutualTlsSecurityScheme(description="a client certificate"))
    )
    card.security_requirements.append(pb.SecurityRequirement(schemes={"mtls": pb.StringList()}))
    # /elsewhere/: a card whose interface is this agent on another origin (localhost for 127.0.0.1)
    moved = pb.AgentCard()
    moved.CopyFrom(card)
    moved.name = "trust mtls elsewhere"
    moved.supported_interfaces[0].url = base.replace("127.0.0.1", "localhost")
    routes = [Mount("/elsewhere", app=agent(base, "elsewhere", moved)), Mount("/", app=agent(base, "mtls", card))]
    return Starlette(routes=routes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("cards", "mtls"), required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--keys", type=Path)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--ca")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    sock = hosting.bind(args.port)
    port = sock.getsockname()[1]
    if args.mode == "cards":
        base = f"http://127.0.0.1:{port}/"
        config = uvicorn.Config(cards_app(base, args.keys), log_level="warning", access_log=False)
    else:
        base = f"https://127.0.0.1:{port}/"
        config = uvicorn.Config(
            mtls_app(base),
            log_level="warning",
            access_log=False,
            ssl_certfile=args.cert,
            ssl_keyfile=args.key,
            ssl_ca_certs=args.ca,
            ssl_cert_reqs=ssl.CERT_REQUIRED,
        )
    server = uvicorn.Server(config)
    if args.exit_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), setattr(server, "should_exit", True)), daemon=True).start()
    asyncio.run(_serve(server, sock, base))


async def _serve(server: uvicorn.Server, sock: socket.socket, base: str) -> None:
    running = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not running.done():
        await asyncio.sleep(0.01)
    if server.started:
        print(f"READY {base}", flush=True)
    await running


if __name__ == "__main__":
    main()
