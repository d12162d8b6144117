"""Validation of a workflow's `agents:` section: names from the agents file, or inline definitions.

Inline definitions use the agents-file format; a secret value in them (a token, a literal Authorization
header) is an error whose fix says which environment variable to name instead.
"""

from __future__ import annotations

import re

from ..a2a.errors import UsageError
from ..a2a.user_input import check_agent_url
from ..agents import BINDINGS, AgentEntry, AgentsFile, entry_from_mapping
from .checker import Checker, duration, suggest
from .file_model import AGENT_KEYS, AGENT_OPTION_KEYS
from .source import LineDict, LineList

# What an inline agent hands on to the agents-file reader.
_COPIED_KEYS = (
    *("name", "url", "apiKeyEnv", "auth", "headers", "protocol", "runtime", "trustInterfaceOrigin", "binding"),
    *("tls", "cardKeys"),  # file paths, read beside the workflow file
)
SECRET_KEYS = ("apiKey", "api_key", "token", "bearer", "password", "secret", "key", "credentials")
SENSITIVE_HEADERS = ("authorization", "proxy-authorization", "x-api-key", "api-key", "cookie")


def agents_section(
    doc: LineDict, chk: Checker, registry: AgentsFile, env: dict[str, str] | None
) -> tuple[dict[str, AgentEntry], dict[str, bool | None], dict[str, float]]:
    agents: dict[str, AgentEntry] = {}
    streaming: dict[str, bool | None] = {}
    timeouts: dict[str, float] = {}
    raw = doc.get("agents")
    if raw is None:
        return agents, streaming, timeouts
    if isinstance(raw, LineDict):  # {name: {url: ...} | null}
        items = LineList()
        items.line = raw.line
        for name, value in raw.items():
            if value is None:
                items.append(name)
            elif isinstance(value, LineDict):
                value.setdefault("name", name)
                value.key_lines.setdefault("name", raw.line_of(name))
                items.append(value)
            else:
                items.append(value)
            items.item_lines.append(raw.line_of(name))
        raw = items
    if not isinstance(raw, LineList):
        chk.add(
            doc.line_of("agents", value=True),
            "agents must be a list",
            "List names from the agents file, or mappings with name and url.",
        )
        return agents, streaming, timeouts
    for index, item in enumerate(raw):
        line = raw.line_of(index)
        item_name: object
        if isinstance(item, str):
            item_name, definition = item, None
        elif isinstance(item, LineDict):
            item_name, definition = item.get("name"), item
        else:
            chk.add(line, "an agent is a name or a mapping", "Write - writer, or - {name: writer, url: http://...}.")
            continue
        if not isinstance(item_name, str) or not item_name:
            chk.add(line, "an agent needs a name", "Add name: to it.")
            continue
        if item_name in agents:
            chk.add(line, f"the agent {item_name} is listed twice", "Keep one of them.")
            continue
        if definition is None or "url" not in definition:
            if definition is not None:
                _agent_options(definition, item_name, chk, streaming, timeouts, reference=True)
            found = registry.find(item_name)
            if found is None:
                known = [a.name for a in registry.agents]
                where = f" ({registry.path})" if registry.path else ""
                chk.add(
                    line,
                    f"the agent {item_name} is not in the agents file{where}",
                    "Add it there, pass the right file with --agents FILE, or define it here with a url."
                    + suggest(item_name, known),
                )
                continue
            agents[item_name] = found
            continue
        entry = _inline_agent(definition, index, item_name, chk, env)
        _agent_options(definition, item_name, chk, streaming, timeouts, reference=False)
        if entry is not None:
            agents[item_name] = entry
    return agents, streaming, timeouts


def _inline_agent(
    definition: LineDict, index: int, name: str, chk: Checker, env: dict[str, str] | None
) -> AgentEntry | None:
    chk.unknown_keys(definition, AGENT_KEYS + SECRET_KEYS, f"the agent {name}")
    for key in SECRET_KEYS:
        if key in definition:
            chk.add(
                definition.line_of(key),
                f"the agent {name} has a secret value ({key}) in the workflow file",
                "Secrets go in environment variables: export MY_KEY=..., then write apiKeyEnv: MY_KEY "
                "(or auth: {scheme: bearer, env: MY_TOKEN}).",
            )
    url = definition.get("url")
    if not isinstance(url, str) or not re.match(r"https?://", url.strip()):
        chk.add(
            definition.line_of("url", value=True),
            f"the agent {name} needs an http(s) url",
            "Write url: http://host:port/.",
        )
        return None
    if "${" not in url:  # with ${VAR}, once interpolated (below)
        try:
            check_agent_url(url, f"the agent {name}'s url")
        except UsageError as exc:
            chk.add(definition.line_of("url", value=True), exc.message, exc.hint or "Write url: http://host:port/.")
            return None
    auth = definition.get("auth")
    if auth is not None:
        for key in auth if isinstance(auth, LineDict) else ():
            if key not in ("scheme", "env"):
                chk.add(
                    auth.line_of(key),
                    f"agent {name}: auth takes scheme and env, not {key}",
                    "Put the secret in an environment variable and name it with env:.",
                )
        if not isinstance(auth, LineDict) or not isinstance(auth.get("env"), str):
            chk.add(
                definition.line_of("auth", value=True),
                f"agent {name}: auth needs {{scheme, env}}",
                "Write auth: {scheme: bearer, env: MY_TOKEN}: the name of the variable, never the token.",
            )
    headers = definition.get("headers")
    if headers is not None and not isinstance(headers, LineDict):
        chk.add(
            definition.line_of("headers", value=True),
            f"agent {name}: headers must be a mapping",
            "Write headers: {X-Team: blue}.",
        )
    elif headers:
        for header, value in headers.items():
            if str(header).lower() in SENSITIVE_HEADERS and "${" not in str(value):
                chk.add(
                    headers.line_of(header),
                    f"agent {name}: the {header} header holds a literal credential",
                    f'Take it from the environment: {header}: "${{MY_SECRET}}" (or use apiKeyEnv / auth).',
                )
    trust = definition.get("trustInterfaceOrigin", False)
    if not isinstance(trust, bool):
        chk.add(
            definition.line_of("trustInterfaceOrigin", value=True),
            f"agent {name}: trustInterfaceOrigin must be true or false",
            "Write trustInterfaceOrigin: true only for an agent whose card may point at another origin you trust.",
        )
    if definition.get("protocol", definition.get("runtime", "a2a")) not in ("a2a", "tasks"):
        chk.add(
            definition.line_of("protocol", value=True),
            f"agent {name}: protocol must be a2a or tasks",
            "Write protocol: a2a.",
        )
    binding = definition.get("binding")
    if binding is not None and not (isinstance(binding, str) and binding.lower() in BINDINGS):
        chk.add(
            definition.line_of("binding", value=True),
            f"agent {name}: binding must be jsonrpc, rest or grpc",
            "Write binding: rest to speak HTTP+JSON, or leave it out to use the card's first interface.",
        )
    raw = {
        k: v
        for k, v in definition.items()
        if k in _COPIED_KEYS
        and not (k == "trustInterfaceOrigin" and not isinstance(v, bool))
        and not (k == "binding" and not (isinstance(v, str) and v.lower() in BINDINGS))
    }
    try:
        entry, warnings = entry_from_mapping(raw, index, chk.file, env)
    except UsageError as exc:
        chk.add(definition.line_of("url", value=True), exc.message, exc.hint or "Write url: http://host:port/.")
        return None
    for text in warnings:
        chk.warn(definition.line, text)
    return entry


def _agent_options(
    definition: LineDict,
    name: str,
    chk: Checker,
    streaming: dict[str, bool | None],
    timeouts: dict[str, float],
    *,
    reference: bool,
) -> None:
    if reference:
        chk.unknown_keys(definition, AGENT_OPTION_KEYS, f"the agent {name}")
    value = definition.get("streaming", "auto")
    if value not in ("auto", True, False):
        chk.add(
            definition.line_of("streaming", value=True),
            f"agent {name}: streaming must be auto, true or false",
            "Write streaming: auto.",
        )
        value = "auto"
    streaming[name] = None if value == "auto" else value
    seconds = duration(chk, definition, "timeout", f"agent {name}")
    if seconds is not None:
        timeouts[name] = seconds
