"""`switchboard send [AGENT] TEXT`: a message that starts or continues a task, followed to its end (or not)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..arguments import Connection, PartAction, connection_options, inbox_option, push_receiver, seconds
from ..parser import EPILOG

# (kind, value, media type): --text, --file, --data in the order given, --media-type bound to the one before it
PartFlag = tuple[str, str, str | None]


@dataclass(frozen=True, kw_only=True)
class SendOptions(Connection):
    words: list[str] = field(default_factory=list)  # [AGENT] TEXT...
    parts: list[PartFlag] = field(default_factory=list)
    task_id: str | None = None
    context_id: str | None = None
    stream: bool = False
    no_wait: bool = False
    poll_interval: float = 2.0
    metadata: str | None = None
    correlation_id: str | None = None
    push: bool = False
    push_url: str | None = None
    push_port: int = 0
    record: str | None = None
    a2ui_action: str | None = None
    no_a2ui: bool = False
    no_inbox: bool = False
    inbox_name: str | None = None  # who asks, as the inbox says it (`switchboard answer`: the item's own name)


def add_arguments(send: argparse.ArgumentParser) -> None:
    send.epilog = EPILOG
    send.add_argument("words", nargs="*", metavar="[AGENT] TEXT", help="the agent, then the message text")
    send.add_argument("--text", dest="part_text", action=PartAction, metavar="TEXT", help="a text part, repeatable")
    send.add_argument(
        "--file", dest="part_file", action=PartAction, metavar="PATH|URL", help="a file part (bytes, or a URL)"
    )
    send.add_argument(
        "--data",
        dest="part_data",
        action=PartAction,
        metavar="JSON|@FILE|-",
        help="a data part: inline JSON, file, stdin",
    )
    send.add_argument(
        "--media-type", dest="part_media_type", action=PartAction, metavar="TYPE", help="media type of the part before"
    )
    send.add_argument("--task-id", help="continue this task (e.g. answer input-required)")
    send.add_argument("--context-id", help="start a new task in this context")
    send.add_argument("--stream", action="store_true", help="follow the live event stream (JSONL with -o json)")
    send.add_argument(
        "--async", dest="no_wait", action="store_true", help="return the task ids at once instead of waiting"
    )
    send.add_argument("--return-immediately", dest="no_wait", action="store_true", help=argparse.SUPPRESS)
    send.add_argument("--no-wait", dest="no_wait", action="store_true", help=argparse.SUPPRESS)
    send.add_argument("--poll-interval", type=seconds, default=2.0, metavar="SECONDS", help="when polling (default 2)")
    send.add_argument("--metadata", metavar="JSON", help="message metadata, a JSON object")
    send.add_argument("--correlation-id", metavar="ID", help="trace id: X-Correlation-Id and metadata.correlationId")
    send.add_argument(
        "--push",
        action="store_true",
        help="follow the task by the agent's push notifications to a local receiver (127.0.0.1), not a stream",
    )
    push_receiver(send)
    send.add_argument(
        "--record",
        metavar="FILE",
        help="write the exchange to FILE, secrets redacted: .md, .json (replayable; onto a recording of the same "
        "agent, its next turn), .html, or .har (the wire); an existing file is never replaced",
    )
    send.add_argument(
        "--a2ui-action",
        metavar="NAME",
        help="answer the task's A2UI form (with --task-id): press its button NAME, with --data JSON setting the "
        'form\'s values first, e.g. --data \'{"/booking/name": "Ada"}\' (keys: the paths the form prints)',
    )
    send.add_argument(
        "--no-a2ui",
        action="store_true",
        help="do not announce A2UI rendering: an agent that can fall back to text does (forms print as JSON)",
    )
    inbox_option(send)
    send.set_defaults(parts=[], inbox_name=None)  # inbox_name: set by `switchboard answer`, no flag
    connection_options(send)


def main(namespace: argparse.Namespace) -> int:
    from ..commands import send
    from ..guard import run_async
    from ..options import options_from

    return run_async(send, options_from(SendOptions, namespace))
