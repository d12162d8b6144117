"""`switchboard card get AGENT`: an agent card fetched, checked and shown."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..arguments import Connection, connection_options
from ..parser import EPILOG


@dataclass(frozen=True, kw_only=True)
class CardGetOptions(Connection):
    agent: str | None = None
    validate: bool = False
    extended: bool = False
    card_key: list[str] = field(default_factory=list)
    require_signature: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    card = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    card_get = card.add_parser("get", help="fetch and show an agent card", epilog=EPILOG)
    card_get.add_argument("agent", nargs="?", help="the agent")
    card_get.add_argument("--validate", action="store_true", help="list what is missing or odd in the card")
    card_get.add_argument("--extended", action="store_true", help="fetch the authenticated extended card")
    card_get.add_argument(
        "--card-key",
        metavar="FILE",
        action="append",
        default=[],
        help="public key trusted to sign this card (JWKS, JWK or PEM), repeatable; pins the agent to these keys",
    )
    card_get.add_argument(
        "--require-signature", action="store_true", help="fail (exit 4) unless a signature of the card verifies"
    )
    connection_options(card_get)


def main(namespace: argparse.Namespace) -> int:
    from ..guard import no_subcommand, run_async
    from ..options import options_from

    if namespace.subcommand == "get":
        from ..card_get import card_get

        return run_async(card_get, options_from(CardGetOptions, namespace))
    return no_subcommand("card")
