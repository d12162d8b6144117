"""The agents file: the agents a person works with, in the format agent registries use.

```yaml
agents:
  - name: writer
    url: http://127.0.0.1:9102/
    apiKeyEnv: WRITER_KEY          # or  auth: {scheme: bearer | apiKey, env: VAR}
    headers: {X-Team: "${TEAM}"}   # ${VAR} comes from the environment
    protocol: a2a                  # a2a (default) | tasks (the simple REST task API)
    binding: rest                  # force a binding: jsonrpc | rest | grpc (default: the card's first one spoken)
    trustInterfaceOrigin: false    # true: send credentials even when the card points at another origin
    extensions: [https://example.com/ext/trace/v1]   # activated on every request (A2A-Extensions)
    auth: {scheme: basic, user: ada, env: VAR}       # HTTP Basic: the password is in $VAR
    tls: {cert: client.pem, key: client.key, ca: ca.pem}   # mutual TLS; paths relative to this file
    cardKeys: [planner.jwks.json]  # keys that sign this agent's card (pinned: only they count)
    oauth:                         # OAuth2 / OpenID Connect, when the card declares it
      clientId: switchboard-cli
      clientSecretEnv: WRITER_SECRET   # client credentials only; the secret stays in the environment
      flow: deviceCode             # clientCredentials | authorizationCode | deviceCode (default: from the card)
      scopes: [a2a:send]           # default: the card's security requirement
      resource: https://...        # RFC 8707 resource (default: the agent's URL); false sends none
      scheme: corp-sso             # which of the card's schemes (default: the first the client can satisfy)
      issuer: https://sso.example  # secrets go only to this origin, whatever the card names
```

Secrets are never written here: only the names of the environment variables that hold them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .a2a.errors import UsageError
from .agents_model import (
    BINDINGS as BINDINGS,  # read by the workflow file's checks
)
from .agents_model import (
    ENTRY_KEYS,
    FILE_KEYS,
    OAUTH_KEYS,
    AgentsFileSpec,
    AgentSpec,
    OAuthSpec,
    entry_errors,
    oauth_problem,
    tolerated,
)

if TYPE_CHECKING:
    from .agents_yaml import Parsed


_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass
class OAuthSettings:
    """An agent's `oauth:` block: the client and how to use it (the secret's variable, never the secret)."""

    client_id: str
    client_secret_env: str | None = None
    flow: str | None = None
    scopes: list[str] | None = None
    resource: str | None = None
    send_resource: bool = True
    scheme: str | None = None
    issuer: str | None = None  # the only origin the secret, codes and refresh tokens may go to


@dataclass(frozen=True)
class ClientTls:
    """Paths (absolute) of a client certificate and its key, and of a CA bundle for the agent's server."""

    cert: str | None = None
    key: str | None = None
    ca: str | None = None


@dataclass
class AgentEntry:
    name: str
    url: str
    protocol: Literal["a2a", "tasks"] = "a2a"
    binding: Literal["jsonrpc", "rest", "grpc"] | None = None  # None: the card's first interface switchboard speaks
    api_key_env: str | None = None
    bearer_env: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    skills: list[dict[str, Any]] | None = None
    # the person's say-so to send credentials to an interface the card places on another origin
    trust_interface_origin: bool = False
    extensions: list[str] = field(default_factory=list)  # extension URIs activated on every request
    basic_user: str | None = None  # HTTP Basic; the password is in the variable basic_env
    basic_env: str | None = None
    tls: ClientTls | None = None  # mutual TLS: the client certificate to present
    card_keys: list[str] = field(default_factory=list)  # key files that pin this agent's card signatures
    oauth: OAuthSettings | None = None
    # values that came from ${VAR}: secrets to redact wherever they might show
    interpolated: list[str] = field(default_factory=list, repr=False)
    # the entry as written in the file, uninterpolated, so saving the file never writes a secret
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class AgentsFile:
    path: Path | None
    agents: list[AgentEntry]
    warnings: list[str]

    def find(self, name: str) -> AgentEntry | None:
        for agent in self.agents:
            if agent.name == name:
                return agent
        return None


def interpolate(value: str, env: Mapping[str, str], warnings: list[str], where: str, used: list[str]) -> str:
    """Replace ${VAR} from the environment; an unset variable becomes empty, with a warning."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            warnings.append(f"{where}: ${{{name}}} is not set in the environment; left empty")
            return ""
        used.append(env[name])
        return env[name]

    return _VAR.sub(sub, value)


FORMAT_HINT = "See examples/agents.demo.yaml for the format."
OAUTH_HINT = "oauth takes: " + ", ".join(OAUTH_KEYS) + " (clientId is required). " + FORMAT_HINT


@dataclass
class Problem:
    """A mistake in the file that stops it being read: what and where, and what to do."""

    text: str
    hint: str


Place = Callable[[str | None], str]  # `source line N: agents[i]`, at an entry's key (or the entry)


def _place(source: str, index: int, lines: tuple[int | None, dict[str, int]] = (None, {})) -> Place:
    line, key_lines = lines

    def at(key: str | None = None) -> str:
        number = key_lines.get(key, line) if key else line
        return f"{source}{f' line {number}' if number else ''}: agents[{index}]"

    return at


def _prepared(raw: Any, at: Place, warnings: list[str]) -> dict[str, Any] | None:
    """The entry ready to validate, or None when it is skipped (with a warning), as the reader always has."""
    where = at(None)
    if not isinstance(raw, dict):
        warnings.append(f"{where} is not a mapping; skipped")
        return None
    if any(key not in ENTRY_KEYS for key in raw):
        return raw  # the model names each unknown key
    name, url = raw.get("name"), raw.get("url")
    if not isinstance(name, str) or not name or not isinstance(url, str) or not url:
        missing = " and ".join(k for k, v in (("name", name), ("url", url)) if not isinstance(v, str) or not v)
        warnings.append(f"{where} needs a name and a url (it has no {missing}); skipped")
        return None
    return tolerated(raw, lambda text: warnings.append(f"{where} ({name}): {text}"))


def _problems(errors: list[ErrorDetails], raw: dict[str, Any], at: Place) -> list[Problem]:
    """An entry's validation errors in the words the reader has always used, each at its line."""
    from .a2a.user_input import did_you_mean

    name = raw.get("name")
    named = f" ({name})" if isinstance(name, str) and name else ""
    unknown = [str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden" and len(e["loc"]) == 1]
    if unknown:
        return [
            Problem(
                f"{at(key)}{named} has an unknown key {key!r}.{did_you_mean(key, ENTRY_KEYS)}",
                "An agent takes: " + ", ".join(ENTRY_KEYS) + ".",
            )
            for key in unknown
        ]
    by_key: dict[str, list[ErrorDetails]] = {}
    for error in errors:
        by_key.setdefault(str(error["loc"][0]) if error["loc"] else "", []).append(error)
    out = []
    for key, found in by_key.items():
        if key == "tls":
            text = "tls takes cert and key (the client certificate), and ca"
            hint = "Write tls: {cert: client.pem, key: client.key} (ca: ca.pem for a private CA)."
        elif key == "cardKeys":
            text, hint = "cardKeys is a file or a list of files", "Write cardKeys: [k.json]."
        elif key == "extensions":
            text, hint = "extensions must be a list of URIs", "Write extensions: [https://example.com/ext/v1]."
        elif key == "oauth":
            inside = [ErrorDetails(**{**e, "loc": e["loc"][1:]}) for e in found]
            where = f"{at(key)}{named}: oauth"
            out.append(Problem(oauth_problem(inside, where, lambda k: did_you_mean(k, OAUTH_KEYS)), OAUTH_HINT))
            continue
        else:
            text, hint = f"{key}: {found[0]['msg']}", FORMAT_HINT
        out.append(Problem(f"{at(key or None)}{named}: {text}", hint))
    return out


def _built(
    spec: AgentSpec,
    raw: dict[str, Any],
    at: Place,
    env: Mapping[str, str],
    base: Path | None,
    warnings: list[str],
    problems: list[Problem],
) -> AgentEntry | None:
    """The entry as the rest of the tool uses it: ${VAR} filled in, the url, headers and extensions checked,
    paths made absolute beside the file. `raw` (as written) is kept so saving the file never writes a secret."""
    from .a2a.extensions import check_extension_uri
    from .a2a.user_input import check_agent_ref, check_agent_url, check_header

    where, named = at(None), f" ({spec.name})"
    used: list[str] = []
    url = interpolate(spec.url, env, warnings, where, used)
    what = "the url" + (f" {spec.url}, interpolated," if url != spec.url else "")
    try:
        # A REST task API agent has no card file, and its client needs the scheme written out.
        url = check_agent_url(url, what) if spec.protocol == "tasks" else check_agent_ref(url, what)
    except UsageError as exc:
        problems.append(Problem(f"{at('url')}{named}: {exc.message}", exc.hint or FORMAT_HINT))
        return None
    entry = AgentEntry(
        name=spec.name,
        url=url,
        protocol=spec.protocol,
        binding=spec.binding,
        api_key_env=spec.api_key_env,
        trust_interface_origin=spec.trust_interface_origin,
        skills=spec.skills,
        raw=dict(raw),
    )
    if spec.auth is not None:
        if spec.auth.scheme == "apiKey":
            entry.api_key_env = spec.auth.env
        elif spec.auth.scheme == "basic":
            entry.basic_user, entry.basic_env = spec.auth.user, spec.auth.env
        else:
            entry.bearer_env = spec.auth.env
    entry.headers = {k: interpolate(v, env, warnings, where, used) for k, v in spec.headers.items()}
    for header, value in entry.headers.items():
        try:
            check_header(header, value, f"{at('headers')}{named}: the header")
        except UsageError as exc:
            problems.append(Problem(exc.message, exc.hint or FORMAT_HINT))
    uris = [spec.extensions] if isinstance(spec.extensions, str) else spec.extensions
    try:
        entry.extensions = [check_extension_uri(u, f"{at('extensions')}{named}: extensions") for u in uris]
    except UsageError as exc:
        problems.append(Problem(exc.message, exc.hint or FORMAT_HINT))

    def path(value: str | None) -> str | None:
        if not value:
            return None
        found = Path(value).expanduser()
        return str(base / found if base is not None and not found.is_absolute() else found)

    if spec.tls is not None:
        entry.tls = ClientTls(path(spec.tls.cert), path(spec.tls.key), path(spec.tls.ca))
    keys = [spec.card_keys] if isinstance(spec.card_keys, str) else spec.card_keys
    entry.card_keys = [p for k in keys if (p := path(k))]
    if spec.oauth is not None:
        entry.oauth = _oauth(spec.oauth)
    entry.interpolated = [u for u in used if u]
    return entry


def _oauth(spec: OAuthSpec) -> OAuthSettings:
    return OAuthSettings(
        client_id=spec.client_id.strip(),
        client_secret_env=spec.client_secret_env,
        flow=spec.flow,
        scopes=spec.scopes.split() if isinstance(spec.scopes, str) else spec.scopes,
        resource=spec.resource if isinstance(spec.resource, str) else None,
        send_resource=spec.resource is not False,
        scheme=spec.scheme,
        issuer=spec.issuer,
    )


def oauth_settings(raw: Any, where: str) -> OAuthSettings:
    """An `oauth:` block read and checked (a UsageError naming `where` for a mistake)."""
    from .a2a.user_input import did_you_mean

    try:
        return _oauth(OAuthSpec.model_validate(raw))
    except ValidationError as exc:
        text = oauth_problem(exc.errors(), where, lambda key: did_you_mean(key, OAUTH_KEYS))
        raise UsageError(text, hint=OAUTH_HINT) from None


def _raise(problems: list[Problem], source: str) -> None:
    if len(problems) == 1:
        raise UsageError(problems[0].text, hint=problems[0].hint)
    listed = "\n".join(f"  {p.text}" for p in problems)
    hints = " ".join(dict.fromkeys(p.hint for p in problems))
    raise UsageError(f"{len(problems)} problems in {source}:\n{listed}", hint=hints)


def _base(source: str) -> Path | None:
    """The folder relative paths in `source` are read from (None for a source that is not a file)."""
    return Path(source).parent if source.endswith((".yaml", ".yml")) else None


def entry_from_mapping(
    raw: Any, index: int, source: str, env: Mapping[str, str] | None = None
) -> tuple[AgentEntry | None, list[str]]:
    """One agent written in the agents-file format somewhere else (inline in a workflow file), with the
    warnings reading it gave (None when it has no name or url). A mistake (a bad url) is a UsageError."""
    warnings: list[str] = []
    problems: list[Problem] = []
    at = _place(source, index)
    prepared = _prepared(raw, at, warnings)
    if prepared is None:
        return None, warnings
    try:
        spec = AgentSpec.model_validate(prepared)
    except ValidationError as exc:
        _raise(_problems(exc.errors(), raw, at), source)
        raise  # unreachable: _raise always raises
    entry = _built(spec, raw, at, os.environ if env is None else env, _base(source), warnings, problems)
    if problems:
        _raise(problems, source)
    return entry, warnings


def _read(path: Path) -> tuple[str, Parsed]:
    """The file's text and its parse; a file that cannot be read or is not YAML is a UsageError."""
    import yaml

    from .agents_yaml import parse

    try:
        text = path.read_text(encoding="utf-8")
        return text, parse(text)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        reason = getattr(exc, "problem", None) or getattr(exc, "strerror", None) or exc
        raise UsageError(
            f"cannot read the agents file {path}{where}: {reason}",
            hint="Fix the YAML, or point at another file with --agents FILE.",
        ) from None
    except (RecursionError, ValueError, AttributeError) as exc:
        # PyYAML composes nested collections recursively (a thousand `[` reach the limit), lets an integer past
        # 4300 digits raise ValueError, and its timestamp constructor an AttributeError for a date it cannot match.
        why = "it is nested too deeply" if isinstance(exc, RecursionError) else "a value cannot be read (too long?)"
        raise UsageError(
            f"cannot read the agents file {path}: {why}",
            hint="Fix the YAML, or point at another file with --agents FILE.",
        ) from None


def load_agents(path: Path | None, env: Mapping[str, str] | None = None) -> AgentsFile:
    """Read the agents file. A missing default file is an empty list; a broken file is a clear error.

    Mistakes a reader would otherwise guess around are UsageErrors naming the line: a key the format does not
    have (at the top, `agent:` for `agents:`; in an entry, `ulr:`), or a url that is no agent address.
    """
    env = os.environ if env is None else env
    if path is None or not path.exists():
        return AgentsFile(path, [], [])
    from .a2a.user_input import did_you_mean

    _, parsed = _read(path)
    source = str(path)
    # A file that is only the list is read as the agents; an empty `agents:` is none.
    document = dict(parsed.data) if isinstance(parsed.data, dict) else {"agents": parsed.data}
    if document.get("agents", 0) is None:
        del document["agents"]
    raws = document.get("agents")
    warnings: list[str] = []
    places: list[Place] = []
    kept: list[int] = []  # which entries (by index in the file) are validated: the others were skipped
    if isinstance(raws, list):
        prepared = []
        for i, raw in enumerate(raws):
            # (a key written twice can leave the layout describing the other one's list)
            known = i < len(parsed.item_lines) and i < len(parsed.key_lines)
            places.append(_place(source, i, (parsed.item_lines[i], parsed.key_lines[i]) if known else (None, {})))
            item = _prepared(raw, places[i], warnings)
            if item is not None:
                kept.append(i)
                prepared.append(item)
        document["agents"] = prepared
    problems: list[Problem] = []
    try:
        specs = dict(zip(kept, AgentsFileSpec.model_validate(document).agents, strict=True))
    except ValidationError as exc:
        errors = entry_errors(exc)
        top = errors.pop((), [])
        for error in top:
            key = str(error["loc"][0]) if error["loc"] else ""
            if error["type"] == "extra_forbidden":
                line = parsed.top_lines.get(key)
                problems.append(
                    Problem(
                        f"{path}{f' line {line}' if line else ''}: unknown key {key!r} at the top of the file."
                        + did_you_mean(key, FILE_KEYS),
                        "The file holds one key, agents: a list of entries with a name and a url. " + FORMAT_HINT,
                    )
                )
        if problems:
            _raise(problems, source)
        if top:
            raise UsageError(f"{path}: `agents` must be a list", hint=FORMAT_HINT) from None
        specs = {}
        for k, i in enumerate(kept):
            if (k,) in errors:
                problems.extend(_problems(errors[(k,)], raws[i], places[i]))  # type: ignore[index]
            else:
                specs[i] = AgentSpec.model_validate(document["agents"][k])
    agents = []
    for i, spec in specs.items():
        entry = _built(spec, raws[i], places[i], env, path.parent, warnings, problems)  # type: ignore[index]
        if entry is not None:
            agents.append(entry)
    if problems:
        _raise(problems, source)
    names = [a.name for a in agents]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        warnings.append(f"{path}: the name {dup} is used more than once; the first wins")
    return AgentsFile(path, agents, warnings)


def new_entry_raw(
    name: str, url: str, *, api_key_env: str | None = None, bearer_env: str | None = None, protocol: str = "a2a"
) -> dict[str, Any]:
    """The YAML mapping for an agent added from the UI."""
    raw: dict[str, Any] = {"name": name, "url": url}
    if protocol != "a2a":
        raw["protocol"] = protocol
    if api_key_env:
        raw["apiKeyEnv"] = api_key_env
    if bearer_env:
        raw["auth"] = {"scheme": "bearer", "env": bearer_env}
    return raw


def save_agents(path: Path, entries: list[dict[str, Any]]) -> None:
    """Write the agents file whole from raw entries (as the user wrote them: ${VAR} stays ${VAR})."""
    import yaml

    from .agents_yaml import HEADER
    from .files import write_atomically

    write_atomically(path, HEADER + yaml.safe_dump({"agents": entries}, sort_keys=False, allow_unicode=True))


def add_agent(registry: AgentsFile, raw: dict[str, Any]) -> AgentsFile:
    """Append an agent to the file, in place: its comments, order and formatting stay, and entries this
    version cannot read are kept. The entry is checked first, and a name already in use is an error."""
    if registry.path is None:
        raise UsageError("there is no agents file to save to", hint="Start with --agents FILE.")
    from .agents_yaml import appended
    from .files import write_atomically

    path = registry.path
    entry_from_mapping(raw, 0, "the new agent")  # a bad url or header is refused before the file is touched
    current = load_agents(path)  # the file as it is now: edits made since the app read it stay
    if current.find(raw["name"]):
        raise UsageError(f"an agent named {raw['name']} exists already", hint="Choose another name.")
    text = _read(path)[0] if path.exists() else ""
    write_atomically(path, appended(text, raw))
    return load_agents(path)


def remove_agent(registry: AgentsFile, name: str) -> AgentsFile:
    """Remove the agent named `name` (the entry that wins) from the file, in place (see `add_agent`)."""
    from .agents_yaml import entries, removed
    from .files import write_atomically

    path = registry.path
    found = load_agents(path).find(name) if path is not None and path.exists() else None
    if path is None or found is None:
        raise UsageError(f"no agent named {name} in the agents file")
    text, parsed = _read(path)
    index = next(i for i, raw in enumerate(entries(parsed.data)) if raw == found.raw)
    write_atomically(path, removed(text, index))
    return load_agents(path)
