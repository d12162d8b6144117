"""From parsed arguments to a link to the agent: which agent, which credentials, what to show on stderr."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..a2a.auth.credentials import Credentials, credentials_from_env
from ..a2a.errors import UsageError
from ..a2a.tap import Tap, format_record
from ..a2a.user_input import check_header, check_secret
from ..agents import AgentEntry, AgentsFile, ClientTls, load_agents
from ..demo_credentials import with_demo_defaults
from ..paths import agents_file
from ..safe_text import strip_controls
from .output import warn

if TYPE_CHECKING:
    import httpx

    from ..a2a.auth.oauth.types import DevicePrompt
    from ..link import AgentLink
    from .arguments import Connection


@dataclass
class Target:
    """The agent a command talks to, and what the command line says about it."""

    ref: str
    entry: AgentEntry | None
    args: list[str] = field(default_factory=list)  # positionals after the agent


def invocation() -> str:
    """How to run switchboard from this shell: `switchboard` when PATH finds this one, else its path."""
    argv0 = Path(sys.argv[0])
    if argv0.name == "switchboard":
        found = shutil.which("switchboard")
        if found and Path(found).resolve() == argv0.resolve():
            return "switchboard"
        return shlex.quote(_short(argv0))
    return f"{shlex.quote(_short(Path(sys.executable)))} -m switchboard"


def _short(path: Path) -> str:
    """Relative to the working directory when under it (as `make run` prints it), else absolute."""
    absolute = path.absolute()
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def reply_command(args: Connection, target: Target) -> str:
    """`switchboard [--agents F] send AGENT [credential flags]`, naming the agent as this command did, so
    the printed Resume line works as it stands."""
    return _command(args, target, ["send"], [])


def login_command(args: Connection, target: Target, scope_flags: str) -> str:
    """`switchboard [--agents F] auth login AGENT --scope S ... --remember [credential flags]`, ready to paste."""
    return _command(args, target, ["auth", "login"], [scope_flags, "--remember"])


def task_command(args: Connection, target: Target, subcommand: str, task_id: str) -> str:
    """`switchboard [--agents F] task SUBCOMMAND AGENT TASK_ID [credential flags]`, ready to paste."""
    return _command(args, target, ["task", subcommand], [shlex.quote(task_id)])


def _command(args: Connection, target: Target, command: list[str], after_agent: list[str]) -> str:
    bits = [invocation()]
    if args.agents:
        bits += ["--agents", shlex.quote(args.agents)]
    bits += [*command, shlex.quote(target.entry.name if target.entry else target.ref), *after_agent]
    for flag in (
        "api_key_env",
        "bearer_env",
        "basic_user",
        "basic_password_env",
        "client_cert",
        "client_key",
        "ca_cert",
        "a2a_version",
        "binding",
        "client_id",
        "client_secret_env",
        "oauth_flow",
    ):
        value = getattr(args, flag, None)
        if value:
            bits += [f"--{flag.replace('_', '-')}", shlex.quote(value)]
    for scope in getattr(args, "scope", None) or []:
        bits += ["--scope", shlex.quote(scope)]
    if getattr(args, "trust_interface_origin", False):
        bits.append("--trust-interface-origin")
    return " ".join(bits)


def split_target(args: Connection, words: list[str], needs: int) -> Target:
    """The agent is --agent-card, else the first positional; `needs` positionals must remain after it."""
    words = list(words)
    ref = args.agent_card or os.environ.get("A2ACLI_AGENT_CARD")
    if not args.agent_card and words and (len(words) > needs or not ref):
        ref = words.pop(0)
    if not ref:
        raise UsageError(
            "no agent given", hint="Name the agent first: a URL, host:port, card file, or agents-file name."
        )
    if len(words) < needs:
        raise UsageError(f"missing argument after the agent ({needs} expected)", hint="See --help for the form.")
    registry = registry_of(args)
    entry = registry.find(ref)
    if entry is not None:
        return Target(entry.url, entry, words)
    check_address(ref, registry)
    return Target(ref, None, words)


def check_address(ref: str, registry: AgentsFile) -> None:
    """A word that names no agent of the file is an address only when it looks like one (a scheme, a dot, a
    port, localhost, a card file); a bare word is a name that is not there, never the host `https://WORD/`.
    Either way a mistake is a usage error here, before any request."""
    from ..a2a.user_input import check_agent_ref, did_you_mean, looks_like_address

    if looks_like_address(ref):
        check_agent_ref(ref)
        return
    known = [agent.name for agent in registry.agents]
    where = str(registry.path) if registry.path else "the agents file"
    if known:
        listed = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
        hint = f"{did_you_mean(ref, known).strip()} The agents in {where}: {listed}.".lstrip()
    elif registry.path is not None and registry.path.exists():
        hint = f"{where} lists no agents."
    else:
        hint = f"There is no agents file at {where} (name one with --agents FILE)."
    raise UsageError(
        f"no agent named {ref!r} in {where}",
        hint=hint + f" To name a host instead, write its URL (https://{ref}/ or {ref}:PORT).",
    )


class NamesAgentsFile(Protocol):
    """Options with --agents: the agents file named on the command line, if one was."""

    @property
    def agents(self) -> str | None: ...


def registry_of(args: NamesAgentsFile) -> AgentsFile:
    """The agents file named by --agents (which must exist), else the default one; warnings to stderr."""
    path = Path(args.agents).expanduser() if args.agents else agents_file()
    if args.agents and not path.exists():
        raise UsageError(f"the agents file {path} does not exist", hint="Check the path given to --agents.")
    registry = load_agents(path)
    for text in registry.warnings:
        warn(text)
    return registry


def credentials_for(args: Connection, entry: AgentEntry | None) -> Credentials:
    """Literal flags, then named variables, then the agents file's variables, then A2ACLI_* defaults."""
    basic_user = args.basic_user or (entry.basic_user if entry else None)
    from_env = credentials_from_env(
        bearer_env=args.bearer_env or (entry.bearer_env if entry else None),
        api_key_env=args.api_key_env or (entry.api_key_env if entry else None),
        env=with_demo_defaults(os.environ),  # the gatekeeper and the tasks agent answer with nothing exported
        basic_user=basic_user,
        basic_password_env=args.basic_password_env or (entry.basic_env if entry else None),
    )
    bearer = check_secret(args.bearer, "--bearer") if args.bearer else from_env.bearer
    api_key = check_secret(args.api_key, "--api-key") if args.api_key else from_env.api_key
    from ..link import oauth_client

    oauth = oauth_client(
        entry.oauth if entry else None,
        client_id=args.client_id,
        client_secret_env=args.client_secret_env,
        flow=args.oauth_flow,
        scopes=[s for flag in args.scope or [] for s in flag.split()] or None,
        interaction=StderrInteraction(open_browser=not args.no_browser),
        remember=getattr(args, "remember", False),  # auth login --remember, the one command with it
    )
    tls = tls_for(args, entry)
    return replace(from_env, bearer=bearer, api_key=api_key, client_cert=bool(tls and tls.cert), oauth=oauth)


class StderrInteraction:
    """The CLI's side of a sign-in that needs the person: what to open and type, on stderr (stdout is results)."""

    def __init__(self, open_browser: bool = True) -> None:
        self.open_browser = open_browser

    def device_code(self, prompt: DevicePrompt) -> None:
        minutes = max(1, prompt.expires_in // 60)
        print(
            f"To sign in, open {strip_controls(prompt.verification_uri)} and enter the code "
            f"{strip_controls(prompt.user_code)} (within {minutes} min).",
            file=sys.stderr,
            flush=True,
        )
        if prompt.verification_uri_complete:
            print(f"Or open {strip_controls(prompt.verification_uri_complete)}", file=sys.stderr, flush=True)
        print("Waiting for the sign-in...", file=sys.stderr, flush=True)

    def authorization_url(self, url: str) -> None:
        how = "Opening your browser; if it does not open, visit" if self.open_browser else "To sign in, open"
        print(f"{how}: {strip_controls(url)}", file=sys.stderr, flush=True)
        print("Waiting for the sign-in...", file=sys.stderr, flush=True)

    def done(self) -> None:
        pass

    def warn(self, text: str) -> None:
        warn(text)


def tls_for(args: Connection, entry: AgentEntry | None) -> ClientTls | None:
    """The agent's `tls:` with --client-cert, --client-key and --ca-cert laid over it."""
    given = {"cert": args.client_cert, "key": args.client_key, "ca": args.ca_cert}
    base = entry.tls if entry is not None else None
    if not any(given.values()):
        return base
    base = base or ClientTls()
    return ClientTls(given["cert"] or base.cert, given["key"] or base.key, given["ca"] or base.ca)


def entry_for(args: Connection, target: Target) -> AgentEntry:
    """The agents-file entry (or one for the address typed), with the command line's TLS files on it."""
    entry = target.entry or AgentEntry(name=target.ref, url=target.ref)
    tls = tls_for(args, target.entry)
    return replace(entry, tls=tls) if tls != entry.tls else entry


def http_client_for(args: Connection, target: Target, timeout: Any = None) -> httpx.AsyncClient:
    """An HTTP client for one agent: with its client certificate (for its origin only) and CA when it has them."""
    from ..agent_http import agent_http_client

    return agent_http_client(entry_for(args, target), timeout)


def extra_headers(args: Connection, entry: AgentEntry | None) -> dict[str, str]:
    headers = dict(entry.headers) if entry else {}
    for item in args.svc_param:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--svc-param {item!r} is not NAME:VALUE", hint="For example --svc-param X-Trace:abc")
        check_header(name.strip(), value.strip(), "--svc-param")
        headers[name.strip()] = value.strip()
    from ..a2a.extensions import check_extension_uri, extension_headers

    activated = [*(entry.extensions if entry else []), *(check_extension_uri(u, "--extension") for u in args.extension)]
    return {**headers, **extension_headers(activated)}


def make_tap(args: Connection, entry: AgentEntry | None) -> Tap:
    """A tap whose records go to stderr under --verbose; header values from the agents file are redacted."""
    from ..agent_http import known_secrets

    tap = Tap()
    tap.redactor.add(*known_secrets(entry))
    if args.verbose or args.debug:
        tap.listeners.append(lambda record: print(format_record(record), file=sys.stderr, flush=True))
    return tap


async def open_agent(
    args: Connection,
    target: Target,
    *,
    correlation_id: str | None = None,
    streaming: bool | None = None,
    a2ui: bool = True,
) -> AgentLink:
    """The link to the target, whatever it speaks (notes go to stderr as warnings): its card read and the transport
    it calls for built, as --a2a-version and --binding allow, or its REST task API when the agents file says so."""
    from ..link import open_link

    entry = entry_for(args, target)
    credentials = credentials_for(args, target.entry)
    tap = make_tap(args, target.entry)
    tap.redactor.add(*credentials.secrets)
    from ..a2a.extensions import EXTENSION_HEADERS, required_not_activated

    headers = extra_headers(args, target.entry)
    link = await open_link(
        entry,
        tap=tap,
        credentials=credentials,
        prefer_version=args.a2a_version,
        binding=args.binding,
        correlation_id=correlation_id,
        streaming=streaming,
        headers=headers,
        trust_interface_origin=args.trust_interface_origin,
        on_note=warn,
        a2ui=a2ui,
    )
    activated = [u.strip() for u in headers.get(EXTENSION_HEADERS[0], "").split(",") if u.strip()]
    activated += link.a2ui_extensions
    for uri in required_not_activated(link.card, activated):
        warn(f"the agent marks the extension {uri} required; activate it with --extension {uri}")
    return link
