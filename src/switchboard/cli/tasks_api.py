"""`send` to an agent of the agents file whose protocol is the simple REST task API."""

from __future__ import annotations

from typing import Any

from ..a2a.errors import UsageError
from ..a2a.model import Part, TextPart
from ..a2a.tasks_api import TasksApiClient
from ..a2a.turn import TaskView
from .commands import consume_turn, deadline, folded, naming_the_task, print_result, print_summary, warn_outcome
from .context import Target, credentials_for, make_tap, reply_command, warn
from .render import Out


async def send_tasks_api(args: Any, target: Target, parts: list[Part]) -> int:
    """Submit (or answer, with --task-id) and poll to the end of the turn; output as for A2A agents."""
    if any(not isinstance(p, TextPart) for p in parts):
        raise UsageError(
            f"{target.entry.name} speaks the REST task API, which takes text only",
            hint="Drop --file/--data, or send the content as text.",
        )
    if args.no_wait:
        raise UsageError("--async is not offered for REST task API agents", hint="Drop --async.")
    text = "".join(p.text for p in parts)
    credentials = credentials_for(args, target.entry)
    tap = make_tap(args, target.entry)
    out = Out()
    view = TaskView()
    with naming_the_task(args, target, view):
        async with (
            TasksApiClient(
                target.ref,
                agent_id=target.entry.name,
                credentials=credentials,
                tap=tap,
                correlation_id=args.correlation_id,
                poll_interval=min(args.poll_interval, 1.0),
                on_note=warn,
            ) as client,
            deadline(args.timeout, "the task"),
        ):
            turn = client.run_turn(text, task_id=args.task_id, context_id=args.context_id)
            await consume_turn(folded(turn, view), view, args, out, live=args.stream)
    if args.stream:
        if args.output == "text":
            print_summary(out, args, reply_command(args, target), view)
    else:
        print_result(out, args, reply_command(args, target), view.to_task())
    warn_outcome(view.state)
    return 0
