"""`switchboard auth login|status|logout AGENT`: OAuth sign-in to the issuer an agent's card names."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..arguments import Connection, connection_options


@dataclass(frozen=True, kw_only=True)
class AuthOptions(Connection):
    """`auth status` and `auth logout`: the agent, and how to reach it."""

    agent: str | None = None


@dataclass(frozen=True, kw_only=True)
class AuthLoginOptions(AuthOptions):
    remember: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    auth = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    login = auth.add_parser(
        "login", help="sign in to the issuer the agent's card names (device code, browser, or client secret)"
    )
    login.add_argument("agent", nargs="?", help="the agent")
    login.add_argument(
        "--remember",
        action="store_true",
        help="keep the token for later commands: OS keyring, else a 0600 file in the config dir (with a warning)",
    )
    connection_options(login)
    status = auth.add_parser("status", help="whether a token is held for the agent, its scope and expiry")
    status.add_argument("agent", nargs="?", help="the agent")
    connection_options(status)
    logout = auth.add_parser("logout", help="forget the agent's remembered token")
    logout.add_argument("agent", nargs="?", help="the agent")
    connection_options(logout)


def main(namespace: argparse.Namespace) -> int:
    from ..guard import no_subcommand, run_async
    from ..options import options_from

    if namespace.subcommand == "login":
        from ..auth import login

        return run_async(login, options_from(AuthLoginOptions, namespace))
    if namespace.subcommand in ("status", "logout"):
        from ..auth import logout, status

        return run_async(status if namespace.subcommand == "status" else logout, options_from(AuthOptions, namespace))
    return no_subcommand("auth")
