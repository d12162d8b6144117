"""Validation of a workflow's `agents:` section: names from the agents file, or inline definitions.

Inline definitions use the agents-file format; a secret value in them (a token, a literal Authorization
header) is an error whose fix says which environment variable to name instead.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from ..a2a.errors import UsageError
from ..a2a.user_input import check_agent_url
from ..agents import AgentEntry, AgentsFile, entry_from_mapping
from .checker import Checker, duration, suggest
from .file_model import AGENT_KEYS, AGENT_OPTION_KEYS, AgentDecl
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
    wrong = _declared(
        definition, ("auth", "headers", "trustInterfaceOrigin", "protocol", "runtime", "binding"), name, chk
    )
    headers = definition.get("headers")
    if isinstance(headers, LineDict):
        for header, value in headers.items():
            if str(header).lower() in SENSITIVE_HEADERS and "${" not in str(value):
                chk.add(
                    headers.line_of(header),
                    f"agent {name}: the {header} header holds a literal credential",
                    f'Take it from the environment: {header}: "${{MY_SECRET}}" (or use apiKeyEnv / auth).',
                )
    raw = {
        k: v
        for k, v in definition.items()
        if k in _COPIED_KEYS and not (k in ("trustInterfaceOrigin", "binding") and k in wrong)
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
    value: Any = "auto" if _declared(definition, ("streaming",), name, chk) else definition.get("streaming", "auto")
    streaming[name] = None if value == "auto" else value
    seconds = duration(chk, definition, "timeout", f"agent {name}")
    if seconds is not None:
        timeouts[name] = seconds


# What an agent says when a value is not what AgentDecl declares: (message after "agent NAME: ", fix).
_WRONG = {
    "streaming": ("streaming must be auto, true or false", "Write streaming: auto."),
    "trustInterfaceOrigin": (
        "trustInterfaceOrigin must be true or false",
        "Write trustInterfaceOrigin: true only for an agent whose card may point at another origin you trust.",
    ),
    "protocol": ("protocol must be a2a or tasks", "Write protocol: a2a."),
    "binding": (
        "binding must be jsonrpc, rest or grpc",
        "Write binding: rest to speak HTTP+JSON, or leave it out to use the card's first interface.",
    ),
    "headers": ("headers must be a mapping", "Write headers: {X-Team: blue}."),
    "auth": (
        "auth needs {scheme, env}",
        "Write auth: {scheme: bearer, env: MY_TOKEN}: the name of the variable, never the token.",
    ),
}


def _declared(definition: LineDict, keys: tuple[str, ...], name: str, chk: Checker) -> set[str]:
    """Validate these keys of an agent by AgentDecl; report each wrong value at its line. The keys found wrong."""
    given = {k: definition[k] for k in keys if k in definition}
    if isinstance(given.get("binding"), str):
        given["binding"] = given["binding"].lower()  # REST is rest
    if "protocol" in given:
        given.pop("runtime", None)  # protocol, when both are written, is the one read
    try:
        AgentDecl.model_validate(given)
        return set()
    except ValidationError as exc:
        errors = exc.errors()
    wrong: set[str] = set()
    said: set[str] = set()
    for error in sorted(errors, key=lambda e: e["type"] != "extra_forbidden"):  # an unknown key first, as it is read
        key, inside = str(error["loc"][0]), [str(p) for p in error["loc"][1:]]
        if (key == "auth" and inside[:1] == ["scheme"]) or (key == "headers" and inside):
            continue  # tolerated: a scheme is read as bearer, a header's number as its text
        wrong.add(key)
        if key == "auth" and error["type"] == "extra_forbidden":
            auth: LineDict = definition["auth"]
            chk.add(
                auth.line_of(inside[0]),
                f"agent {name}: auth takes scheme and env, not {inside[0]}",
                "Put the secret in an environment variable and name it with env:.",
            )
            continue
        shown = "protocol" if key == "runtime" else key
        if shown not in said:
            said.add(shown)
            text, fix = _WRONG[shown]
            chk.add(definition.line_of(shown, value=True), f"agent {name}: {text}", fix)
    return wrong
