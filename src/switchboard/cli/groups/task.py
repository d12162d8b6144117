"""`switchboard task get|cancel|subscribe|watch|list|push`: a task the agent keeps, by its id."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..arguments import Connection, connection_options, inbox_option, push_receiver, seconds
from ..parser import EPILOG

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


@dataclass(frozen=True, kw_only=True)
class TaskOptions(Connection):
    """What every task subcommand takes: [AGENT] TASK_ID (and more, for push), and how to reach the agent."""

    words: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class TaskGetOptions(TaskOptions):
    history: int | None = None
    wait: bool = False
    poll_interval: float = 2.0
    no_inbox: bool = False


@dataclass(frozen=True, kw_only=True)
class TaskCancelOptions(TaskOptions):
    no_inbox: bool = False


@dataclass(frozen=True, kw_only=True)
class TaskSubscribeOptions(TaskOptions):
    stream: bool = False
    no_inbox: bool = False


@dataclass(frozen=True, kw_only=True)
class TaskWatchOptions(TaskOptions):
    stream: bool = False
    push_url: str | None = None
    push_port: int = 0
    no_inbox: bool = False


@dataclass(frozen=True, kw_only=True)
class TaskListOptions(TaskOptions):
    context_id: str | None = None
    state: str | None = None
    page_size: int | None = None
    page_token: str | None = None
    history: int | None = None


@dataclass(frozen=True, kw_only=True)
class TaskPushOptions(TaskOptions):
    token: str | None = None
    config_id: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    task = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    get = task.add_parser("get", help="a task's state, artifacts and (with --history) messages", epilog=EPILOG)
    get.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    get.add_argument("--history", type=int, metavar="N", help="include up to N history messages")
    get.add_argument("--wait", "--watch", action="store_true", help="poll until the task ends or needs input")
    get.add_argument("--poll-interval", type=seconds, default=2.0, metavar="SECONDS")
    inbox_option(get)
    connection_options(get)
    cancel = task.add_parser("cancel", help="cancel a task", epilog=EPILOG)
    cancel.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    inbox_option(cancel)
    connection_options(cancel)
    subscribe = task.add_parser("subscribe", help="re-attach to a running task's stream", epilog=EPILOG)
    subscribe.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    subscribe.add_argument("--stream", action="store_true", help="print each event (JSONL with -o json)")
    inbox_option(subscribe)
    connection_options(subscribe)
    watch = task.add_parser(
        "watch",
        help="follow a task by the agent's push notifications (or by polling), no stream",
        epilog=WATCH_EPILOG,
    )
    watch.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    watch.add_argument("--stream", action="store_true", help="print each update (JSONL with -o json)")
    push_receiver(watch)
    inbox_option(watch)
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


def main(namespace: argparse.Namespace) -> int:
    from .. import commands, push
    from ..guard import no_subcommand, run_async
    from ..options import options_from

    subcommand = namespace.subcommand
    if subcommand == "get":
        return run_async(commands.task_get, options_from(TaskGetOptions, namespace))
    if subcommand == "cancel":
        return run_async(commands.task_cancel, options_from(TaskCancelOptions, namespace))
    if subcommand == "subscribe":
        return run_async(commands.task_subscribe, options_from(TaskSubscribeOptions, namespace))
    if subcommand == "list":
        return run_async(commands.task_list, options_from(TaskListOptions, namespace))
    if subcommand == "watch":
        return run_async(push.task_watch, options_from(TaskWatchOptions, namespace))
    if subcommand == "push":
        return run_async(push.task_push, options_from(TaskPushOptions, namespace))
    return no_subcommand("task")
