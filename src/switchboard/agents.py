"""The agents file: the agents a person works with, in the format agent registries use.

```yaml
agents:
  - name: writer
    url: http://127.0.0.1:9102/
    apiKeyEnv: WRITER_KEY          # or  auth: {scheme: bearer | apiKey, env: VAR}
    headers: {X-Team: "${TEAM}"}   # ${VAR} comes from the environment
    protocol: a2a                  # a2a (default) | tasks (the simple REST task API)
    binding: rest                  # force a binding of A2A: jsonrpc | rest (default: the card's first one spoken)
    trustInterfaceOrigin: false    # true: send credentials even when the card points at another origin
```

Secrets are never written here: only the names of the environment variables that hold them.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .a2a.errors import UsageError

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
BINDINGS = ("jsonrpc", "rest")  # `binding:`, as --binding names them


@dataclass
class AgentEntry:
    name: str
    url: str
    protocol: Literal["a2a", "tasks"] = "a2a"
    binding: Literal["jsonrpc", "rest"] | None = None  # None: the card's first interface switchboard speaks
    api_key_env: str | None = None
    bearer_env: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    skills: list[dict[str, Any]] | None = None
    # the person's say-so to send credentials to an interface the card places on another origin
    trust_interface_origin: bool = False
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


def _entry(raw: Any, index: int, env: Mapping[str, str], warnings: list[str], source: str) -> AgentEntry | None:
    where = f"{source}: agents[{index}]"
    if not isinstance(raw, dict):
        warnings.append(f"{where} is not a mapping; skipped")
        return None
    name, url = raw.get("name"), raw.get("url")
    if not isinstance(name, str) or not name or not isinstance(url, str) or not url:
        warnings.append(f"{where} needs a name and a url; skipped")
        return None
    used: list[str] = []
    url = interpolate(url, env, warnings, where, used)
    protocol = raw.get("protocol") or raw.get("runtime") or "a2a"
    if protocol not in ("a2a", "tasks"):
        warnings.append(f"{where} ({name}): protocol {protocol!r} is unknown; a2a assumed")
        protocol = "a2a"
    entry = AgentEntry(name=name, url=url, protocol=protocol, raw=dict(raw))
    binding = raw.get("binding")
    if isinstance(binding, str) and binding.lower() in BINDINGS:
        entry.binding = binding.lower()  # type: ignore[assignment]
    elif binding is not None:
        warnings.append(f"{where} ({name}): binding {binding!r} is unknown (jsonrpc or rest); the card chooses")
    if isinstance(raw.get("apiKeyEnv"), str):
        entry.api_key_env = raw["apiKeyEnv"]
    auth = raw.get("auth")
    if isinstance(auth, dict) and isinstance(auth.get("env"), str):
        scheme = str(auth.get("scheme", "bearer")).lower()
        if scheme in ("apikey", "api_key", "api-key"):
            entry.api_key_env = auth["env"]
        else:
            entry.bearer_env = auth["env"]
    elif auth is not None:
        warnings.append(f"{where} ({name}): auth needs {{scheme, env}}; ignored")
    headers = raw.get("headers") or {}
    if isinstance(headers, dict):
        entry.headers = {
            str(k): interpolate("" if v is None else str(v), env, warnings, where, used) for k, v in headers.items()
        }
    else:
        warnings.append(f"{where} ({name}): headers must be a mapping; ignored")
    trust = raw.get("trustInterfaceOrigin", False)
    if isinstance(trust, bool):
        entry.trust_interface_origin = trust
    else:
        warnings.append(f"{where} ({name}): trustInterfaceOrigin must be true or false; false assumed")
    if isinstance(raw.get("skills"), list):
        entry.skills = [s for s in raw["skills"] if isinstance(s, dict)]
    entry.interpolated = [u for u in used if u]
    return entry


def entry_from_mapping(
    raw: Any, index: int, source: str, env: Mapping[str, str] | None = None
) -> tuple[AgentEntry | None, list[str]]:
    """One agent written in the agents-file format somewhere else (inline in a workflow file), with the
    warnings reading it gave (None when it has no name or url)."""
    warnings: list[str] = []
    entry = _entry(raw, index, os.environ if env is None else env, warnings, source)
    return entry, warnings


def load_agents(path: Path | None, env: Mapping[str, str] | None = None) -> AgentsFile:
    """Read the agents file. A missing default file is an empty list; a broken file is a clear error."""
    env = os.environ if env is None else env
    if path is None or not path.exists():
        return AgentsFile(path, [], [])
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise UsageError(
            f"cannot read the agents file {path}{where}: {getattr(exc, 'problem', None) or exc}",
            hint="Fix the YAML, or point at another file with --agents FILE.",
        ) from None
    raw_agents = data.get("agents") if isinstance(data, dict) else data
    warnings: list[str] = []
    if raw_agents is None:
        raw_agents = []
    if not isinstance(raw_agents, list):
        raise UsageError(f"{path}: `agents` must be a list", hint="See examples/agents.yaml for the format.")
    agents = [a for i, raw in enumerate(raw_agents) if (a := _entry(raw, i, env, warnings, str(path)))]
    names = [a.name for a in agents]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        warnings.append(f"{path}: the name {dup} is used more than once; the first wins")
    return AgentsFile(path, agents, warnings)


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write a file so that a crash leaves either the old or the new content, never a mix.

    A uniquely named temp file in the same directory (so two writers never share one, and os.replace stays
    on one file system) is written and fsync'd, then renamed over the target; the directory is fsync'd so
    the rename itself survives a power cut. On any failure the temp file goes and the old file stands.
    """
    write_blocks_atomically(path, [content.encode("utf-8") if isinstance(content, str) else content])


def write_blocks_atomically(path: Path, blocks: Iterable[str | bytes]) -> None:
    """`write_atomically` for content written block by block (an artifact larger than memory should hold).
    Text is encoded as UTF-8, lone surrogates kept (surrogatepass), so a saved artifact is what was sent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for block in blocks:
                handle.write(block.encode("utf-8", "surrogatepass") if isinstance(block, str) else block)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):  # keep the mode a person gave the file (mkstemp makes 0600)
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename is still atomic
    finally:
        os.close(fd)


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
    """Write the agents file from raw entries (as the user wrote them: ${VAR} stays ${VAR})."""
    import yaml

    text = "# Agents for a2a-switchboard. Secrets go in environment variables, named here.\n"
    text += yaml.safe_dump({"agents": entries}, sort_keys=False, allow_unicode=True)
    write_atomically(path, text)


def add_agent(registry: AgentsFile, raw: dict[str, Any]) -> AgentsFile:
    """Append an agent and save; a name already in use is an error that says so."""
    if registry.path is None:
        raise UsageError("there is no agents file to save to", hint="Start with --agents FILE.")
    if registry.find(raw["name"]):
        raise UsageError(f"an agent named {raw['name']} exists already", hint="Choose another name.")
    entries = [a.raw for a in registry.agents] + [raw]
    save_agents(registry.path, entries)
    return load_agents(registry.path)


def remove_agent(registry: AgentsFile, name: str) -> AgentsFile:
    if registry.path is None or registry.find(name) is None:
        raise UsageError(f"no agent named {name} in the agents file")
    save_agents(registry.path, [a.raw for a in registry.agents if a.name != name])
    return load_agents(registry.path)
