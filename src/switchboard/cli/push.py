"""Push notifications on the command line: `task push set|get|list|delete` (the A2A CLI spec's Tier 2); `send --push`
and `task watch`, which follow a task by the agent's pushes to a local receiver (push/receiver.py) instead of a stream,
or by polling where the agent cannot push (watch.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..a2a.errors import UsageError
from ..a2a.model import Message, Task
from ..a2a.turn import TaskView
from ..push.receiver import PATH, PushReceiver, check_push_url
from ..watch import can_push, watch_task
from .context import open_agent, reply_command, split_target
from .following import (
    consume_turn,
    deadline,
    naming_the_task,
    print_followed,
    print_result,
    warn_outcome,
)
from .output import Out, warn
from .task_inbox import keep_in_inbox

if TYPE_CHECKING:
    from .arguments import Connection
    from .groups.send import SendOptions
    from .groups.task import TaskPushOptions, TaskWatchOptions

ACTIONS = {"set": 2, "get": 2, "list": 1, "delete": 2}  # the words after the agent: TASK_ID and URL / CONFIG_ID


def _print_configs(out: Out, args: Connection, configs: list[dict[str, Any]]) -> None:
    if args.output == "json":
        out.json_doc({"configs": configs})
        return
    for config in configs:
        out.field("Config", config.get("id"))
        out.field("Task", config.get("taskId"))
        out.field("URL", config.get("url"))
        out.field("Token", "[set]" if config.get("token") else None)  # a secret: never printed


async def task_push(args: TaskPushOptions) -> int:
    words = list(args.words)
    if not words or words[0] not in ACTIONS:
        raise UsageError("task push needs an action: set, get, list or delete", hint="switchboard task push --help")
    action = words.pop(0)
    target = split_target(args, words, ACTIONS[action])
    task_id = target.args[0]
    out = Out()
    async with await open_agent(args, target) as link:
        if action == "set":
            if args.token and link.tap is not None:
                link.tap.redactor.add(args.token)  # a secret: never in --verbose
            config = await link.create_push_config(task_id, target.args[1], token=args.token, config_id=args.config_id)
            _print_configs(out, args, [config])
        elif action == "get":
            _print_configs(out, args, [await link.get_push_config(task_id, target.args[1])])
        elif action == "list":
            _print_configs(out, args, await link.list_push_configs(task_id))
        else:
            await link.delete_push_config(task_id, target.args[1])
            if args.output == "json":
                out.json_doc({"deleted": target.args[1], "taskId": task_id})
            else:
                out.field("Deleted", target.args[1])
    return 0


def receiver_for(args: SendOptions | TaskWatchOptions, link: Any) -> PushReceiver:
    """The local receiver for this command's pushes: on 127.0.0.1 (--push-port, else an ephemeral port), at the path
    of --push-url when one is given (a tunnel forwards that path), its tokens kept out of --verbose."""
    url = check_push_url(args.push_url) if args.push_url else None
    path = (urlsplit(url).path or "/") if url else PATH
    redactor = link.tap.redactor if link.tap else None
    return PushReceiver(port=args.push_port or 0, path=path, redactor=redactor)


def _receiving(receiver: PushReceiver, args: SendOptions | TaskWatchOptions) -> None:
    if args.push_url:  # the person's tunnel must forward there
        warn(f"receiving pushes on {receiver.url}; the agent is given {args.push_url}")


async def send_by_push(args: SendOptions, link: Any, message: Any, target: Any, out: Out) -> Task | Message:
    """Send without waiting, have the agent push the task's updates to a local receiver, and follow the turn by
    them to its end (or to a question); the task is read once after registering, for what came before. The task
    (or message) it ended at."""
    view = TaskView()
    async with receiver_for(args, link) as receiver:
        _receiving(receiver, args)
        started = await link.send(message, blocking=False)
        view.apply(started)
        if isinstance(started, Task) and not view.turn_over:
            with naming_the_task(args, target, view, task_id=started.id):
                async with deadline(args.timeout, "the task"):
                    events = watch_task(link, started.id, view, receiver, push_url=args.push_url)
                    await consume_turn(events, view, args, out, live=False)
    result = view.reply if view.reply is not None else view.to_task()
    print_result(out, args, reply_command(args, target), result if result is not None else started)
    warn_outcome(view.state)
    return result if result is not None else started


async def task_watch(args: TaskWatchOptions) -> int:
    """`task watch AGENT TASK`: the task's updates by push (or polling, where the agent cannot push) until its turn
    ends, printed as `task subscribe` prints them; the push config is deleted at the end, Ctrl+C included."""
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    if args.push_url:
        check_push_url(args.push_url)  # before any request
    out = Out()
    async with await open_agent(args, target) as link:
        view = TaskView()
        async with receiver_for(args, link) as receiver:
            if can_push(link):
                _receiving(receiver, args)
            with naming_the_task(args, target, view, task_id=task_id):
                async with deadline(args.timeout, f"task {task_id}"):
                    events = watch_task(link, task_id, view, receiver, push_url=args.push_url)
                    await consume_turn(events, view, args, out, live=args.stream)
        seen = await print_followed(out, args, target, link, view, task_id)
        keep_in_inbox(args, target, link, seen)
    return 0
