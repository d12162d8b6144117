"""Flags and value types shared by several commands: the connection and credential flags, message parts, the
push receiver, --no-inbox, the Temporal server, and the checked numbers. Loaded when a command's parser is filled,
never for `switchboard --help`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .parser import ArgumentError

__all__ = [
    "Connection",
    "PartAction",
    "connection_options",
    "from_zero",
    "inbox_option",
    "non_negative_int",
    "port",
    "positive_int",
    "push_receiver",
    "seconds",
    "serve_port",
    "temporal_options",
]


class PartAction(argparse.Action):
    """--text, --file, --data and --media-type append to one ordered list of message parts."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        parts = list(getattr(namespace, "parts", None) or [])
        kind = self.dest.replace("part_", "")
        if kind == "media_type":
            if not parts or parts[-1][0] == "text":
                raise ArgumentError("--media-type binds to the --file or --data flag just before it")
            previous = parts[-1]
            parts[-1] = (previous[0], previous[1], values)
        else:
            parts.append((kind, values, None))
        namespace.parts = parts


def push_receiver(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--push-url",
        metavar="URL",
        help="the URL the agent is given for its pushes (a public address your tunnel forwards to --push-port)",
    )
    p.add_argument(
        "--push-port", type=serve_port, default=0, metavar="N", help="the local receiver's port (default: a free one)"
    )


@dataclass(frozen=True, kw_only=True)
class Connection:
    """What connection_options parses: the base of the options of every command that talks to one agent."""

    agent_card: str | None = None
    output: Literal["text", "json"] = "text"
    verbose: bool = False
    debug: bool = False
    a2a_version: Literal["1.0", "0.3"] | None = None
    binding: Literal["jsonrpc", "rest", "grpc"] | None = None
    timeout: float | None = None
    extension: list[str] = field(default_factory=list)
    agents: str | None = None
    bearer_env: str | None = None
    api_key_env: str | None = None
    bearer: str | None = None
    api_key: str | None = None
    basic_user: str | None = None
    basic_password_env: str | None = None
    client_cert: str | None = None
    client_key: str | None = None
    ca_cert: str | None = None
    client_id: str | None = None
    client_secret_env: str | None = None
    oauth_flow: Literal["clientCredentials", "authorizationCode", "deviceCode"] | None = None
    scope: list[str] | None = None
    no_browser: bool = False
    svc_param: list[str] = field(default_factory=list)
    trust_interface_origin: bool = False


def inbox_option(parser: argparse.ArgumentParser) -> None:
    """--no-inbox, the same on every command that keeps the inbox (task_inbox.py)."""
    parser.add_argument(
        "--no-inbox",
        action="store_true",
        help="leave the inbox as it is (by default a task seen at input-required or auth-required is remembered, "
        "ids and question only, for `switchboard inbox` and the TUI's inbox, and one seen no longer waiting is "
        "let go of)",
    )


def connection_options(p: argparse.ArgumentParser) -> None:
    """The flags of every command that talks to one agent: how to reach it, what to show, which credentials."""
    g = p.add_argument_group("connection and output")
    g.add_argument("-a", "--agent-card", metavar="REF", help="the agent (instead of the first positional argument)")
    g.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    g.add_argument("--verbose", action="store_true", help="show every request, response and SSE frame on stderr")
    g.add_argument("--debug", action="store_true", help="same as --verbose")
    g.add_argument("--a2a-version", choices=("1.0", "0.3"), help="protocol version to use (default: from the card)")
    g.add_argument(
        "--binding",
        choices=("jsonrpc", "rest", "grpc"),
        help="A2A binding to use: JSON-RPC, HTTP+JSON or gRPC (default: the card's first one switchboard speaks)",
    )
    g.add_argument("--timeout", type=seconds, metavar="SECONDS", help="give up waiting after this long (exit 5)")
    g.add_argument(
        "--extension",
        action="append",
        default=[],
        metavar="URI",
        help="activate an extension the card lists (A2A-Extensions header); repeat for more",
    )
    g.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    a = p.add_argument_group("credentials (values come from environment variables)")
    a.add_argument("--bearer-env", metavar="VAR", help="environment variable holding a bearer token")
    a.add_argument("--api-key-env", metavar="VAR", help="environment variable holding an API key")
    a.add_argument("--bearer", metavar="TOKEN", help="bearer token (prefer --bearer-env: argv is visible to others)")
    a.add_argument("--api-key", metavar="KEY", help="API key (prefer --api-key-env)")
    a.add_argument("--basic-user", metavar="USER", help="HTTP Basic user (the password from --basic-password-env)")
    a.add_argument("--basic-password-env", metavar="VAR", help="environment variable holding the HTTP Basic password")
    a.add_argument("--client-cert", metavar="FILE", help="client certificate (PEM) for mutual TLS")
    a.add_argument("--client-key", metavar="FILE", help="the client certificate's private key (PEM)")
    a.add_argument("--ca-cert", metavar="FILE", help="CA certificates (PEM) to trust for the agent's server")
    a.add_argument("--client-id", metavar="ID", help="OAuth client id (overrides the agents file's oauth.clientId)")
    a.add_argument("--client-secret-env", metavar="VAR", help="environment variable holding the OAuth client secret")
    a.add_argument(
        "--oauth-flow",
        choices=("clientCredentials", "authorizationCode", "deviceCode"),
        help="OAuth flow to run (default: from the card; client credentials when a secret is given)",
    )
    a.add_argument(
        "--scope",
        metavar="SCOPE",
        action="append",
        help="OAuth scope to ask for, repeatable (overrides oauth.scopes and the card's requirement)",
    )
    a.add_argument("--no-browser", action="store_true", help="print the sign-in URL, do not open a browser")
    a.add_argument(
        "--svc-param",
        metavar="K:V",
        action="append",
        default=[],
        help="extra HTTP header sent to the agent, repeatable",
    )
    a.add_argument(
        "--trust-interface-origin",
        action="store_true",
        help="send credentials even when the card points its interface at another origin",
    )


def temporal_options(parser: argparse.ArgumentParser, *, queue: bool = False) -> None:
    from .parser import temporal_address

    # Also taken before the subcommand (`switchboard --temporal HOST:PORT runs show ...`): main() hands it on.
    parser.add_argument(
        "--temporal",
        type=temporal_address,
        metavar="HOST:PORT",
        help="the Temporal server (pip install 'a2a-switchboard[temporal]')",
    )
    parser.add_argument("--namespace", default="default", help="the Temporal namespace (default: default)")
    if queue:
        parser.add_argument(
            "--task-queue", default="switchboard", metavar="NAME", help="the task queue (default: switchboard)"
        )


def seconds(value: str) -> float:
    """A duration in seconds: a number above zero (nan, inf and negatives would wait for ever or not at all)."""
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds above 0")
    return number


def serve_port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is out of range (0 to 65535)")
    return number


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number from 1")
    return number


def port(value: str) -> int:
    """A first port of a range of 16 (the demo fleet, the web server)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= number <= 65535 - 16:
        raise argparse.ArgumentTypeError(f"{number} is out of range (0 to {65535 - 16})")
    return number


def from_zero(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number from 0")
    return number


def non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of milliseconds")
    return number
