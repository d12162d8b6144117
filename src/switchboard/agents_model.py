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

    scheme: Literal["bearer", "apiKey", "basic"] = "bearer"
    env: str
    user: str | None = Field(None, description="HTTP Basic: the user name (the password is in $env)")


class TlsSpec(_Spec):
    """`tls:`: mutual TLS. Paths are relative to the file they are written in."""

    cert: str | None = None
    key: str | None = None
    ca: str | None = None

    @model_validator(mode="after")
    def _something(self) -> TlsSpec:
        if not (self.cert or self.ca):
            raise ValueError("tls needs cert or ca")
        return self


class OAuthSpec(_Spec):
    """`oauth:`: the OAuth2 / OpenID Connect client to sign in with."""

    client_id: NonEmpty = Field(alias="clientId")
    client_secret_env: str | None = Field(None, alias="clientSecretEnv")
    flow: Literal["clientCredentials", "authorizationCode", "deviceCode"] | None = None
    scopes: list[str] | str | None = Field(None, description="a list, or one string of names split at spaces")
    resource: str | Literal[False] | None = Field(None, description="RFC 8707 resource; false sends none")
    scheme: str | None = None
    issuer: str | None = None

    @model_validator(mode="after")
    def _client_id_is_not_blank(self) -> OAuthSpec:
        if not self.client_id.strip():
            raise ValueError("clientId is blank")
        return self


class AgentSpec(_Spec):
    """One agent: its name, where it is, and how to talk to it."""

    name: NonEmpty
    url: NonEmpty
    protocol: Literal["a2a", "tasks"] = "a2a"
    binding: Binding | None = None
    api_key_env: str | None = Field(None, alias="apiKeyEnv")
    auth: AuthSpec | None = None
    headers: dict[str, str] = Field(default_factory=dict, description="${VAR} comes from the environment")
    trust_interface_origin: bool = Field(False, alias="trustInterfaceOrigin")
    extensions: list[str] | str = Field(default_factory=list, description="extension URIs activated on every request")
    tls: TlsSpec | None = None
    card_keys: list[NonEmpty] | NonEmpty = Field(default_factory=list, alias="cardKeys")
    oauth: OAuthSpec | None = None
    skills: list[dict[str, Any]] | None = None
    description: str | None = None
    runtime: Literal["a2a", "tasks"] | None = Field(None, description="the workflow engine's word for protocol")


class AgentsFileSpec(_Spec):
    """The agents file: one key, `agents`, a list of agents (a file that is only the list is read too)."""

    agents: list[AgentSpec] = Field(default_factory=list)


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
