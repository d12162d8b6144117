"""The agents file the demo writes: the same format people write (switchboard.agents), with comments."""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from .defaults import API_KEY_ENV, TOKEN_ENV

HEADER = f"""\
# The a2a-switchboard demo fleet, written by `switchboard demo` when it started (rewritten on
# every start). The agents answer only while the demo runs: switchboard --agents THIS_FILE ...
# No secrets here, only the names of the variables that hold them: gatekeeper's API key is read
# from ${API_KEY_ENV}, the tasks agent's bearer token from ${TOKEN_ENV} (the demo uses
# demo-key and demo-token unless they are set when it starts).
"""


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9._/:-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


class AgentLike(Protocol):
    """What the file says of an agent: read only, so a frozen dataclass with narrower types fits."""

    @property
    def name(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def protocol(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def api_key_env(self) -> str | None: ...
    @property
    def bearer_env(self) -> str | None: ...
    @property
    def skills(self) -> tuple[dict[str, Any], ...]: ...


def _scalar(value: Any) -> str:
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    # JSON strings and objects are valid YAML flow scalars and need no escaping rules of our own.
    return json.dumps(value, ensure_ascii=False)


def schema_modeline() -> str | None:
    """The comment that points an editor (the YAML language server) at the agents file's schema: the one this
    installation ships, by its absolute file URL, since the demo's file lives outside any checkout."""
    from ..schemas import shipped_schema_file

    path = shipped_schema_file("agents")
    return None if path is None else f"# yaml-language-server: $schema={path.as_uri()}"


def render_agents_file(agents: Iterable[AgentLike]) -> str:
    lines = [HEADER.rstrip("\n"), *filter(None, [schema_modeline()]), "agents:"]
    for agent in agents:
        lines.append(f"  # {agent.description}")
        lines.append(f"  - name: {_scalar(agent.name)}")
        lines.append(f"    url: {_scalar(agent.url)}")
        lines.append(f"    protocol: {agent.protocol}")
        if agent.api_key_env:
            lines.append(f"    apiKeyEnv: {agent.api_key_env}")
        if agent.bearer_env:
            lines.append(f"    auth: {{scheme: bearer, env: {agent.bearer_env}}}")
        for key in getattr(agent, "card_keys", ()):
            lines.append(f"    cardKeys: [{_scalar(key)}]  # the key its card is signed with: verified")
        oauth = getattr(agent, "oauth", None)
        if oauth:
            block = ", ".join(f"{k}: {_scalar(v)}" for k, v in oauth.items())
            lines.append(f"    oauth: {{{block}}}  # switchboard signs in at the demo identity provider")
        if agent.skills:
            lines.append("    skills:  # a REST task API agent has no card; these say what it does")
            for skill in agent.skills:
                lines.append(f"      - {_scalar(skill)}")
    return "\n".join(lines) + "\n"


def write_agents_file(path: Path, agents: Iterable[AgentLike]) -> None:
    """Write atomically (a temp file, then os.replace): a reader never sees half a file."""
    text = render_agents_file(agents)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
