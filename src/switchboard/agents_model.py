"""The agents file declared once: what a person may write in it, with the names they write (camelCase).

`AgentsFileSpec` is the one declaration of the format: the reader (agents.py) validates files with it, and
`AgentsFileSpec.model_json_schema()` is the file's JSON Schema. The models describe the shape (keys, types,
choices); what needs the environment or the file's folder (${VAR}, a url's reachability, paths) is checked
when an entry is built (agents.py). The reader's tolerance for old spellings (`binding: REST`, a bad `auth:`
ignored with a warning) is `tolerated()`, a pass before validation, so the models stay strict and the schema
says what a right file holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

Binding = Literal["jsonrpc", "rest", "grpc"]
BINDINGS: tuple[Binding, ...] = ("jsonrpc", "rest", "grpc")  # `binding:`, as --binding
OAUTH_FLOWS = ("clientCredentials", "authorizationCode", "deviceCode")
NonEmpty = Annotated[str, Field(min_length=1)]


class _Spec(BaseModel):
    # strict: `true` is not a string, "yes" is not a bool; extra: a key the format lacks is a mistake.
    # defer_build: validators are built when an agents file is first read, not by every command that imports this.
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


class AuthSpec(_Spec):
    """`auth:`: the scheme and the environment variable that holds the secret (never the secret)."""

    model_config = ConfigDict(title="Credentials")

    scheme: Literal["bearer", "apiKey", "basic"] = Field(
        "bearer",
        description="bearer: `Authorization: Bearer $env`; apiKey: sent where the card's apiKey scheme says; "
        "basic: HTTP Basic with `user` and the password in $env",
    )
    env: str = Field(
        description="the environment variable that holds the token, key or password (never the secret itself)",
        examples=["WRITER_TOKEN"],
    )
    user: str | None = Field(None, description="HTTP Basic: the user name (the password is in $env)")


class TlsSpec(_Spec):
    """`tls:`: mutual TLS. Paths are relative to the file they are written in."""

    model_config = ConfigDict(title="TLS")

    cert: str | None = Field(
        None, description="the client certificate (PEM), sent when the server asks for one", examples=["client.pem"]
    )
    key: str | None = Field(None, description="the client certificate's private key (PEM), if not in cert")
    ca: str | None = Field(None, description="CA bundle (PEM) the agent's server certificate must chain to")

    @model_validator(mode="after")
    def _something(self) -> TlsSpec:
        if not (self.cert or self.ca):
            raise ValueError("tls needs cert or ca")
        return self


class OAuthSpec(_Spec):
    """`oauth:`: the OAuth2 / OpenID Connect client to sign in with."""

    model_config = ConfigDict(title="OAuth sign-in")

    client_id: NonEmpty = Field(
        alias="clientId", description="the client id registered at the identity provider", examples=["switchboard"]
    )
    client_secret_env: str | None = Field(
        None,
        alias="clientSecretEnv",
        description="client credentials only: the environment variable that holds the client secret",
    )
    flow: Literal["clientCredentials", "authorizationCode", "deviceCode"] | None = Field(
        None, description="how to sign in (default: what the card's scheme offers)"
    )
    scopes: list[str] | str | None = Field(
        None,
        description="scopes to ask for: a list, or one string of names split at spaces (default: the card's)",
        examples=[["a2a:send"]],
    )
    resource: str | Literal[False] | None = Field(
        None, description="RFC 8707 resource indicator (default: the agent's URL); false sends none"
    )
    scheme: str | None = Field(
        None, description="which of the card's security schemes (default: the first this client can satisfy)"
    )
    issuer: str | None = Field(
        None,
        description="the identity provider's origin: secrets, codes and tokens go only there, whatever the card names",
        examples=["https://sso.example.com"],
    )

    @model_validator(mode="after")
    def _client_id_is_not_blank(self) -> OAuthSpec:
        if not self.client_id.strip():
            raise ValueError("clientId is blank")
        return self


class AgentSpec(_Spec):
    """One agent: its name, where it is, and how to talk to it."""

    model_config = ConfigDict(
        title="Agent",
        json_schema_extra={  # an editor's snippet for a new entry (yaml-language-server reads defaultSnippets)
            "defaultSnippets": [
                {"label": "agent", "description": "an agent by name and URL", "body": {"name": "$1", "url": "$2"}}
            ]
        },
    )

    name: NonEmpty = Field(
        description="how you name the agent on the command line and in workflows (switchboard send NAME ...)",
        examples=["writer"],
    )
    url: NonEmpty = Field(
        description="the agent's base URL (its card is read from /.well-known/agent-card.json there), "
        "or its card's URL; ${VAR} comes from the environment",
        examples=["http://127.0.0.1:9102/"],
    )
    protocol: Literal["a2a", "tasks"] = Field(
        "a2a", description="a2a: an A2A agent with a card; tasks: the simple REST task API, which has no card"
    )
    binding: Binding | None = Field(
        None, description="force a transport binding (default: the card's first one this client speaks)"
    )
    api_key_env: str | None = Field(
        None,
        alias="apiKeyEnv",
        description="the environment variable holding an API key, sent the way the card's scheme says",
        examples=["WRITER_KEY"],
    )
    auth: AuthSpec | None = Field(None, description="credentials: a scheme and the variable that holds the secret")
    headers: dict[str, str] = Field(
        default_factory=dict,
        description="extra HTTP headers on every request; ${VAR} comes from the environment",
        examples=[{"X-Team": "${TEAM}"}],
    )
    trust_interface_origin: bool = Field(
        False,
        alias="trustInterfaceOrigin",
        description="true: send credentials even when the card points at another origin than url",
    )
    extensions: list[str] | str = Field(
        default_factory=list, description="A2A extension URIs activated on every request (A2A-Extensions)"
    )
    tls: TlsSpec | None = Field(None, description="mutual TLS: a client certificate, and the CA to trust")
    card_keys: list[NonEmpty] | NonEmpty = Field(
        default_factory=list,
        alias="cardKeys",
        description="files of the public keys that sign this agent's card (JWKS, JWK or PEM): only they count",
        examples=[["planner.jwks.json"]],
    )
    oauth: OAuthSpec | None = Field(None, description="sign in with OAuth2 / OpenID Connect, when the card declares it")
    skills: list[dict[str, Any]] | None = Field(
        None, description="what a tasks agent (which has no card) can do: A2A AgentSkill objects"
    )
    description: str | None = Field(None, description="a note for people; switchboard does not read it")
    runtime: Literal["a2a", "tasks"] | None = Field(
        None, description="the same as protocol (the workflow engine's word for it)"
    )


class AgentsFileSpec(_Spec):
    """The agents file: one key, `agents`, a list of agents (a file that is only the list is read too)."""

    model_config = ConfigDict(title="a2a-switchboard agents file")

    agents: list[AgentSpec] = Field(
        default_factory=list, description="the agents, each with a name and a url; the first of a name wins"
    )


ENTRY_KEYS = tuple(f.alias or name for name, f in AgentSpec.model_fields.items())
FILE_KEYS = tuple(AgentsFileSpec.model_fields)
OAUTH_KEYS = tuple(f.alias or name for name, f in OAuthSpec.model_fields.items())


def tolerated(raw: dict[str, Any], warn: Callable[[str], None]) -> dict[str, Any]:
    """The entry with the spellings and mistakes the reader has always let pass made right (a warning for each
    mistake), so that what is left is validated as declared. `raw` is not changed."""
    out = dict(raw)
    spoken = out.pop("runtime", None)
    spoken = out.get("protocol") or spoken or "a2a"
    if spoken not in ("a2a", "tasks"):
        warn(f"protocol {spoken!r} is unknown; a2a assumed")
    out["protocol"] = "tasks" if spoken == "tasks" else "a2a"
    binding = out.pop("binding", None)
    if isinstance(binding, str) and binding.lower() in BINDINGS:
        out["binding"] = binding.lower()
    elif binding is not None:
        warn(f"binding {binding!r} is unknown (jsonrpc, rest or grpc); the card chooses")
    if not isinstance(out.get("apiKeyEnv"), str):
        out.pop("apiKeyEnv", None)
    auth = out.pop("auth", None)
    if isinstance(auth, dict) and isinstance(auth.get("env"), str):
        scheme = str(auth.get("scheme", "bearer")).lower()
        kind = "apiKey" if scheme in ("apikey", "api_key", "api-key") else "basic" if scheme == "basic" else "bearer"
        user = auth.get("user")
        if kind != "basic":
            out["auth"] = {"scheme": kind, "env": auth["env"]}
        elif isinstance(user, str) and user:
            out["auth"] = {"scheme": kind, "env": auth["env"], "user": user}
        else:
            warn("auth with scheme basic needs a user; ignored")
    elif auth is not None:
        warn("auth needs {scheme, env}; ignored")
    headers = out.pop("headers", None) or {}
    if isinstance(headers, dict):
        out["headers"] = {str(k): "" if v is None else str(v) for k, v in headers.items()}
    else:
        warn("headers must be a mapping; ignored")
    if not isinstance(out.get("trustInterfaceOrigin", False), bool):
        out.pop("trustInterfaceOrigin")
        warn("trustInterfaceOrigin must be true or false; false assumed")
    for key in ("extensions", "tls", "oauth", "cardKeys"):
        if out.get(key, 0) is None:
            del out[key]
    skills = out.pop("skills", None)
    if isinstance(skills, list):
        out["skills"] = [s for s in skills if isinstance(s, dict)]
    if not isinstance(out.get("description"), str):  # read by no one: whatever it holds is fine
        out.pop("description", None)
    return out


def oauth_problem(errors: list[ErrorDetails], where: str, did_you_mean: Callable[[str], str]) -> str:
    """The first mistake in an `oauth:` block, in words (errors located from inside the block)."""

    def rank(error: ErrorDetails) -> int:
        key = str(error["loc"][0]) if error["loc"] else ""
        if error["type"] == "extra_forbidden":
            return 0
        return 1 + (OAUTH_KEYS.index(key) if key in OAUTH_KEYS else len(OAUTH_KEYS))

    error = min(errors, key=rank)
    key = str(error["loc"][0]) if error["loc"] else ""
    if error["type"] == "model_type" or (not error["loc"] and error["type"] != "value_error"):
        return f"{where} must be a mapping"
    if error["type"] == "extra_forbidden":
        return f"{where} has an unknown key {key!r}.{did_you_mean(key)}"
    if key == "clientId" or not error["loc"]:
        return f"{where} needs a clientId"
    if key == "flow":
        return f"{where}.flow {error['input']!r} is not one of {', '.join(OAUTH_FLOWS)}"
    if key == "scopes":
        return f"{where}.scopes must be a list of scope names"
    if key == "resource":
        return f"{where}.resource must be a URL, or false to send none"
    return f"{where}.{key} must be a string"


def entry_errors(exc: ValidationError) -> dict[tuple[int, ...], list[ErrorDetails]]:
    """A file's validation errors grouped by the entry they are in: () for the file itself, (k,) for agents[k]."""
    grouped: dict[tuple[int, ...], list[ErrorDetails]] = {}
    for error in exc.errors():
        loc = error["loc"]
        at: tuple[int, ...] = (loc[1],) if len(loc) > 2 and loc[0] == "agents" and isinstance(loc[1], int) else ()
        grouped.setdefault(at, []).append({**error, "loc": loc[2:] if at else loc})
    return grouped
