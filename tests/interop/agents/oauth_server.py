"""A2A agent on a2a-sdk 1.3 behind OAuth2: its card declares OAuth2 (client credentials, authorization code with
PKCE, device code) and OpenID Connect schemes, and every call but the card's GETs needs a bearer JWT from the
issuer, checked against its JWKS: issuer, audience (this agent's URL), expiry and scope.

    python oauth_server.py --issuer URL [--port N] [--card-scope S] [--required-scope S] [--with-v03]
                           [--exit-on-stdin-eof]

A missing or bad token is a 401 with `WWW-Authenticate: Bearer ... error="invalid_token"`, a token without the
required scope a 403 with `error="insufficient_scope"`, both naming the RFC 9728 protected-resource document
(served at /.well-known/oauth-protected-resource) in `resource_metadata`. --required-scope beyond --card-scope
makes an agent whose card asks for less than it needs (the 403 path). --with-v03 also serves v0.3 (the SDK's compat
mode, as sdk13_server.py's default mode does): the SDK then publishes each scheme twice in its one merged card, the
v1.0 oneof and a v0.3 `type: oauth2` copy whose `flows` is empty for the device code (v0.3 has no such flow).
"""

from __future__ import annotations

import argparse
import base64
import json

import hosting
import httpx
from a2a.helpers.proto_helpers import new_task_from_user_message
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2 as pb
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.jose.errors import JoseError
from sdk13_server import ScriptedExecutor
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

METADATA_PATH = "/.well-known/oauth-protected-resource"


def build_card(url: str, issuer: str, scope: str, with_v03: bool = False) -> pb.AgentCard:
    scopes = {scope: "talk to the agent"}
    flows = {
        "service": pb.OAuthFlows(
            client_credentials=pb.ClientCredentialsOAuthFlow(token_url=f"{issuer}/token", scopes=scopes)
        ),
        "user": pb.OAuthFlows(
            authorization_code=pb.AuthorizationCodeOAuthFlow(
                authorization_url=f"{issuer}/auth",
                token_url=f"{issuer}/token",
                refresh_url=f"{issuer}/token",
                scopes=scopes,
                pkce_required=True,
            )
        ),
        "device": pb.OAuthFlows(
            device_code=pb.DeviceCodeOAuthFlow(
                device_authorization_url=f"{issuer}/device/auth",
                token_url=f"{issuer}/token",
                refresh_url=f"{issuer}/token",
                scopes=scopes,
            )
        ),
    }
    versions = ("1.0", "0.3") if with_v03 else ("1.0",)
    card = pb.AgentCard(
        name="OAuth Agent (sdk 1.3)",
        description="Answers like the reference agent, to callers holding a token from the test issuer.",
        supported_interfaces=[
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version=v) for v in versions
        ],
        version="1.0.0",
        capabilities=pb.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="greet", name="Greeter", description="Greets.", tags=["test"])],
    )
    # The person's flows name the issuer's RFC 8414 metadata (oidc-provider's discovery document is one): where
    # `auth logout` finds the revocation endpoint. The service flow names none: logout can only forget there.
    metadata = f"{issuer}/.well-known/openid-configuration"
    for name, flow in flows.items():
        scheme = pb.OAuth2SecurityScheme(flows=flow, oauth2_metadata_url=metadata if name != "service" else "")
        card.security_schemes[name].CopyFrom(pb.SecurityScheme(oauth2_security_scheme=scheme))
    oidc = pb.OpenIdConnectSecurityScheme(open_id_connect_url=f"{issuer}/.well-known/openid-configuration")
    card.security_schemes["oidc"].CopyFrom(pb.SecurityScheme(open_id_connect_security_scheme=oidc))
    for name in (*flows, "oidc"):  # any one of them will do
        card.security_requirements.append(pb.SecurityRequirement(schemes={name: pb.StringList(list=[scope])}))
    return card


VAULT_SCOPE = "a2a:admin"


class VaultExecutor(ScriptedExecutor):
    """ "open the vault" stops the task at auth-required asking for a2a:admin (a Bearer challenge in the question);
    a follow-up sent with a token that carries it completes the task, one without asks again."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        asked = task is not None and task.status.state == pb.TaskState.TASK_STATE_AUTH_REQUIRED
        if not asked and context.get_user_input() != "open the vault":
            await super().execute(context, event_queue)
            return
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        if task is None:
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        headers = context.call_context.state.get("headers", {}) if context.call_context else {}
        token = headers.get("authorization", "").partition(" ")[2]
        payload = token.split(".")[1] if token.count(".") == 2 else ""
        scopes = json.loads(base64.urlsafe_b64decode(payload + "==")).get("scope", "").split() if payload else []
        if asked and VAULT_SCOPE in scopes:
            await updater.complete(updater.new_agent_message([pb.Part(text="The vault is open.")]))
            return
        question = f'The vault needs the scope {VAULT_SCOPE}: sign in with it (Bearer scope="{VAULT_SCOPE}").'
        await updater.update_status(
            pb.TaskState.TASK_STATE_AUTH_REQUIRED, message=updater.new_agent_message([pb.Part(text=question)])
        )


class BearerGate:
    """ASGI wrapper: every request but GETs under /.well-known/ needs a valid bearer JWT with the scope."""

    def __init__(self, app: hosting.ASGIApp, *, url: str, issuer: str, scope: str) -> None:
        self.app, self.url, self.issuer, self.scope = app, url, issuer, scope
        config = httpx.get(f"{issuer}/.well-known/openid-configuration").json()
        self.keys = JsonWebKey.import_key_set(httpx.get(config["jwks_uri"]).json())
        self.jwt = JsonWebToken(["RS256"])  # the only algorithm the issuer signs with: no "none", no HMAC

    async def __call__(self, scope: dict, receive, send) -> None:
        if scope["type"] != "http" or (scope["method"] == "GET" and scope["path"].startswith("/.well-known/")):
            await self.app(scope, receive, send)
            return
        status, error, why = self._check(dict(scope["headers"]).get(b"authorization", b"").decode("latin-1"))
        if status == 200:
            await self.app(scope, receive, send)
            return
        challenge = f'Bearer realm="{self.url}", resource_metadata="{self.url.rstrip("/")}{METADATA_PATH}"'
        if error:
            challenge += f', error="{error}", error_description="{why}"'
        if error == "insufficient_scope":
            challenge += f', scope="{self.scope}"'
        body = json.dumps({"error": error or "unauthorized", "error_description": why}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", challenge.encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _check(self, header: str) -> tuple[int, str | None, str]:
        kind, _, token = header.partition(" ")
        if kind.lower() != "bearer" or not token:
            return 401, None, "a bearer token is required"
        try:
            claims = self.jwt.decode(
                token,
                self.keys,
                claims_options={
                    "iss": {"essential": True, "value": self.issuer},
                    "aud": {"essential": True, "value": self.url},
                    "exp": {"essential": True},
                },
            )
            claims.validate(leeway=0)
        except (JoseError, ValueError) as exc:
            return 401, "invalid_token", str(exc).replace('"', "'")
        if self.scope not in str(claims.get("scope", "")).split():
            return 403, "insufficient_scope", f"the token lacks the scope {self.scope}"
        return 200, None, ""


def build_app(url: str, issuer: str, card_scope: str, required_scope: str, with_v03: bool = False) -> hosting.ASGIApp:
    card = build_card(url, issuer, card_scope, with_v03)
    handler = DefaultRequestHandler(agent_executor=VaultExecutor(), task_store=InMemoryTaskStore(), agent_card=card)

    async def metadata(_request):
        return JSONResponse({"resource": url, "authorization_servers": [issuer], "scopes_supported": [required_scope]})

    routes = [
        Route(METADATA_PATH, metadata),
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, "/", enable_v0_3_compat=with_v03),
    ]
    return BearerGate(Starlette(routes=routes), url=url, issuer=issuer, scope=required_scope)


def main() -> None:
    parser = argparse.ArgumentParser(description="A2A agent behind OAuth2, for the switchboard OAuth tests.")
    parser.add_argument("--issuer", required=True, help="the OpenID Provider's issuer URL")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--card-scope", default="a2a:send", help="the scope the card's requirements name")
    parser.add_argument("--required-scope", default=None, help="the scope a token must carry (default: the card's)")
    parser.add_argument("--with-v03", action="store_true", help="serve v0.3 too (the SDK's compat mode)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    sock = hosting.bind(args.port)
    required = args.required_scope or args.card_scope
    app = build_app(hosting.base_url(sock), args.issuer, args.card_scope, required, args.with_v03)
    hosting.serve(app, sock, exit_on_stdin_eof=args.exit_on_stdin_eof)


if __name__ == "__main__":
    main()
