"""The parsers of the commands not yet moved into modules of their own (parser.COMMANDS names this module for
them); they run through the string-keyed tables in cli/__init__.py."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import (
    connection_options,
    push_receiver,
    seconds,
)
from .parser import EPILOG, Parser

PUSH_EPILOG = """\
examples:
  switchboard task push set writer TASK https://hooks.example.com/a2a --token "$HOOK_TOKEN"
  switchboard task push list writer TASK
  switchboard task push get writer TASK CONFIG_ID
  switchboard task push delete writer TASK CONFIG_ID
"""


WATCH_EPILOG = """\
The receiver listens on 127.0.0.1; an agent that cannot push (its card does not say pushNotifications, or it refuses
the config) is polled instead (0.5 s, doubling up to 15 s, back to 0.5 s when the task changed), said once on stderr.

examples:
  switchboard task watch writer TASK --stream
  switchboard task watch writer TASK --push-url https://abc.example.net/a2a/push --push-port 8765
"""


class _OneCommand:
    """Stands in for the subparsers action while the builders below run: hands back the parser of the one command
    being filled (its description and epilog set), and a throwaway parser for every other command."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.name = parser.prog.split()[-1]

    def add_parser(self, name: str, **kwargs: Any) -> Parser:
        if name != self.name:
            return Parser(prog=name)
        for text in ("description", "epilog"):
            if text in kwargs:
                setattr(self.parser, text, kwargs[text])
        return self.parser


def add_arguments(parser: Parser) -> None:
    _build(_OneCommand(parser))


def _build(commands) -> None:

    task = commands.add_parser("task", help="tasks: get, cancel, subscribe, watch, list, push").add_subparsers(
        dest="subcommand", metavar="SUBCOMMAND"
    )
    get = task.add_parser("get", help="a task's state, artifacts and (with --history) messages", epilog=EPILOG)
    get.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    get.add_argument("--history", type=int, metavar="N", help="include up to N history messages")
    get.add_argument("--wait", "--watch", action="store_true", help="poll until the task ends or needs input")
    get.add_argument("--poll-interval", type=seconds, default=2.0, metavar="SECONDS")
    connection_options(get)
    cancel = task.add_parser("cancel", help="cancel a task", epilog=EPILOG)
    cancel.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    connection_options(cancel)
    subscribe = task.add_parser("subscribe", help="re-attach to a running task's stream", epilog=EPILOG)
    subscribe.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    subscribe.add_argument("--stream", action="store_true", help="print each event (JSONL with -o json)")
    connection_options(subscribe)
    watch = task.add_parser(
        "watch",
        help="follow a task by the agent's push notifications (or by polling), no stream",
        epilog=WATCH_EPILOG,
    )
    watch.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    watch.add_argument("--stream", action="store_true", help="print each update (JSONL with -o json)")
    push_receiver(watch)
    connection_options(watch)
    listing = task.add_parser("list", help="list the agent's tasks (protocol 1.0)", epilog=EPILOG)
    listing.add_argument("words", nargs="*", metavar="[AGENT]")
    listing.add_argument("--context-id", help="only tasks in this context")
    listing.add_argument("--state", help="only tasks in this state (e.g. completed, input-required)")
    listing.add_argument("--page-size", type=int, metavar="N")
    listing.add_argument("--page-token", metavar="TOKEN")
    listing.add_argument("--history", type=int, metavar="N")
    connection_options(listing)
    push = task.add_parser(
        "push",
        help="a task's push-notification configs: set, get, list, delete (protocol 1.0)",
        epilog=PUSH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    push.add_argument("words", nargs="*", metavar="ACTION [AGENT] TASK_ID [URL|CONFIG_ID]")
    push.add_argument("--token", help="set: the token the agent echoes in X-A2A-Notification-Token (a secret)")
    push.add_argument("--config-id", metavar="ID", help="set: the config's id (default: the agent chooses)")
    connection_options(push)
