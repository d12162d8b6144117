"""Push notifications on the command line: `task push set|get|list|delete` (the A2A CLI spec's Tier 2), and
`send --push`, which follows a turn by the agent's pushes to a local receiver (a2a/push.py) instead of a stream."""

from __future__ import annotations

from typing import Any

from ..a2a.errors import UsageError
from ..a2a.model import Task
from ..a2a.push import PushReceiver
from ..a2a.turn import TaskView
from .commands import deadline, naming_the_task, print_result, warn_outcome
from .context import open_agent, reply_command, split_target
from .output import Out

ACTIONS = {"set": 2, "get": 2, "list": 1, "delete": 2}  # the words after the agent: TASK_ID and URL / CONFIG_ID


def _print_configs(out: Out, args: Any, configs: list[dict[str, Any]]) -> None:
    if args.output == "json":
        out.json_doc({"configs": configs})
        return
    for config in configs:
        out.field("Config", config.get("id"))
        out.field("Task", config.get("taskId"))
        out.field("URL", config.get("url"))
        out.field("Token", "[set]" if config.get("token") else None)  # a secret: never printed


async def task_push(args: Any) -> int:
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


async def send_by_push(args: Any, link: Any, message: Any, target: Any, out: Out) -> None:
    """Send without waiting, have the agent push the task's updates to a local receiver, and follow the turn by
    them to its end (or to a question); the task is read once after registering, for what came before."""
    view = TaskView()
    async with PushReceiver(redactor=link.tap.redactor if link.tap else None) as receiver:
        started = await link.send(message, blocking=False)
        view.apply(started)
        if isinstance(started, Task) and not view.turn_over:
            token = receiver.register(started.id)
            await link.create_push_config(started.id, receiver.url, token=token)
            with naming_the_task(args, target, view, task_id=started.id):
                async with deadline(args.timeout, "the task"):
                    view.apply(await link.get_task(started.id))  # what happened before the config existed
                    events = aiter(receiver.events(started.id))
                    while not view.turn_over:
                        view.apply(await anext(events))
    result = view.reply if view.reply is not None else view.to_task()
    print_result(out, args, reply_command(args, target), result if result is not None else started)
    warn_outcome(view.state)
