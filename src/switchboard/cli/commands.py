"""The headless commands: send, task get|cancel|subscribe|list (card get is card_get.py: it loads none of this)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..a2a.cancel import CONFIRM_WITHIN
from ..a2a.errors import AuthFailedError, SwitchboardError, UsageError
from ..a2a.model import Message, Part, Task, TaskState, TextPart
from ..a2a.turn import TaskView
from ..a2a.user_input import check_message_texts
from ..a2a.wire import v10
from .context import Target, open_agent, reply_command, split_target, task_command
from .following import (
    consume_turn,
    deadline,
    follow_policy,
    naming_the_task,
    print_followed,
    print_result,
    print_summary,
    print_task,
    warn_outcome,
)
from .message_parts import build_parts, metadata_of
from .output import Out, warn
from .render import render_task_page
from .task_inbox import keep_in_inbox

if TYPE_CHECKING:
    from ..link import AgentLink
    from .arguments import Connection
    from .groups.send import SendOptions
    from .groups.task import (
        TaskCancelOptions,
        TaskGetOptions,
        TaskListOptions,
        TaskSubscribeOptions,
    )

# --- commands ----------------------------------------------------------------------------------------


async def send(args: SendOptions) -> int:
    target = split_target(args, args.words, 0 if args.parts or args.a2ui_action else 1)
    values = None
    if args.a2ui_action is not None:
        from .a2ui_action import form_values

        values = form_values(replace(args, words=target.args))
        if args.no_a2ui:
            raise UsageError("--a2ui-action answers a form, --no-a2ui turns forms off", hint="Drop one of them.")
    parts: list[Part] = build_parts(target.args, args.parts) if values is None else [TextPart(text="(form)")]
    if not parts:
        raise UsageError("nothing to send", hint="Give the text after the agent, or --text/--file/--data.")
    check_message_texts([p.text for p in parts if isinstance(p, TextPart)])
    if args.push and (args.no_wait or args.stream or args.record):
        raise UsageError("--push follows the task by pushes: it does not go with --async, --stream or --record",
                         hint="Drop one of them.")  # fmt: skip
    if (args.push_url or args.push_port) and not args.push:
        raise UsageError("--push-url and --push-port set up the receiver of --push", hint="Add --push.")
    if args.push_url:
        from ..push.receiver import check_push_url

        check_push_url(args.push_url)  # before anything is sent
    if args.record and target.entry and target.entry.protocol == "tasks":
        raise UsageError("--record keeps A2A exchanges; this agent speaks the REST task API",
                         hint="Leave --record out for this agent.")  # fmt: skip
    from ..a2a.client import new_message

    message = new_message(parts, task_id=args.task_id, context_id=args.context_id, metadata=metadata_of(args.metadata))
    recorder = None
    out = Out()
    view = TaskView()
    # Without --stream the turn is polled: the output is the task at its end, so there is nothing to stream for.
    streaming = None if args.stream else False
    a2ui = not args.no_a2ui
    async with await open_agent(
        args, target, correlation_id=args.correlation_id, streaming=streaming, a2ui=a2ui
    ) as link:
        if values is not None:
            from .a2ui_action import action_message

            message = await action_message(link, args, values)
        elif link.a2ui is not None:  # the agent's card declares A2UI: say what we render (its metadata first)
            message = message.model_copy(update={"metadata": {**link.a2ui, **(message.metadata or {})}})
        if args.record:
            from .export import SendRecorder

            name = target.entry.name if target.entry else target.ref
            recorder = SendRecorder(args.record, message, name, target.ref)
            recorder.tap = link.tap
        try:
            try:
                result = await _send(link, message, view, args, target, out, recorder)
            except AuthFailedError as exc:
                # a 403 insufficient_scope: at a terminal, sign in with the wider scope and send again, once
                if recorder is not None or not await _widened(link, exc, args, target):
                    raise
                view = TaskView()
                result = await _send(link, message, view, args, target, out, recorder)
        except SwitchboardError as exc:
            if recorder is not None:
                recorder.save(view, exc)
            raise
        if recorder is not None:
            recorder.save(view)
        # a task left waiting: `switchboard inbox` lists it; the one answered, once it waits no more, leaves it
        keep_in_inbox(args, target, link, result, answered=args.task_id, name=args.inbox_name)
    return 0


async def _send(
    link: AgentLink, message: Message, view: TaskView, args: SendOptions, target: Target, out: Out, recorder: Any
) -> Task | Message | None:
    """Send and follow as the flags say, print the outcome; the task (or message) the agent left it at."""
    if args.push:
        from .push import send_by_push

        return await send_by_push(args, link, message, target, out)
    if args.no_wait:
        result = await link.send(message, blocking=False)
        if recorder is not None:
            recorder.result(result)
            view.apply(result)
        print_result(out, args, reply_command(args, target), result)
        return result
    with naming_the_task(args, target, view, task_id=args.task_id):
        async with deadline(args.timeout, "the task"):
            # With a --timeout the send does not block (then polls), so the task id is known when time is up.
            blocking = args.timeout is None or args.stream
            turn = link.follow(message, follow_policy(args), view=view, blocking=blocking)
            if recorder is not None:
                turn = recorder.events(turn)
            await consume_turn(turn, view, args, out, live=args.stream)
    if recorder is None:
        view = await _sign_in_if_asked(link, view, args, target, out)
    answer = view.reply if view.reply is not None else view.to_task()
    if args.stream:
        if args.output == "text":
            print_summary(out, args, reply_command(args, target), view)
    else:
        if answer is None:
            raise UsageError("the agent sent nothing back")  # follow_turn raises before this
        print_result(out, args, reply_command(args, target), answer)
    warn_outcome(view.state)
    return answer


async def _widened(link: AgentLink, exc: AuthFailedError, args: Connection, target: Target) -> bool:
    from ..a2a.auth.sign_in_offer import SignInOffer, oauth_source
    from .sign_in_offer import sign_in_for

    if not exc.wanted_scopes or oauth_source(link) is None or not sys.stdin.isatty():
        return False  # the error's hint names the auth login command
    offer = SignInOffer(exc.wanted_scopes, None, "the agent refused the token: insufficient_scope")
    return await sign_in_for(link, offer, args, target, "the agent")


async def _sign_in_if_asked(link: AgentLink, view: TaskView, args: SendOptions, target: Target, out: Out) -> TaskView:
    """A task at auth-required that asks for OAuth scopes: the sign-in offered, then the task followed again."""
    from .sign_in_offer import continue_after_sign_in

    async def follow(message: Message) -> TaskView:
        again = TaskView()
        with naming_the_task(args, target, again, task_id=view.task_id):
            async with deadline(args.timeout, "the task"):
                turn = link.follow(message, follow_policy(args), view=again, blocking=True)
                await consume_turn(turn, again, args, out, live=args.stream)  # --stream: the next turn streams too
        return again

    return await continue_after_sign_in(link, view, args, target, follow) or view


async def task_get(args: TaskGetOptions) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    out = Out()
    async with await open_agent(args, target) as link:
        if args.wait:
            with naming_the_task(args, target, task_id=task_id):
                async with deadline(args.timeout, f"task {task_id}"):
                    await link.wait(task_id, follow_policy(args))
        task = await link.get_task(task_id, history_length=args.history)
        print_task(out, args, reply_command(args, target), task)
        keep_in_inbox(args, target, link, task)  # found waiting: `switchboard inbox` lists it; ended: leaves it
    return 0


async def task_cancel(args: TaskCancelOptions) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    # --timeout, when given, replaces the cancel's own long wait (the agent answers with the whole task).
    with naming_the_task(args, target, task_id=task_id):
        async with (
            await open_agent(args, target) as link,
            deadline(args.timeout, f"the answer to canceling task {task_id}"),
        ):
            outcome = await link.cancel(task_id, timeout=args.timeout)
    print_task(Out(), args, reply_command(args, target), outcome.task)
    keep_in_inbox(args, target, link, outcome.task)  # canceled: it waits no more
    if not outcome.confirmed:
        # The request went through, its effect is not seen yet: the job is not done, as with a timeout.
        warn(
            f"{outcome.pending} after {CONFIRM_WITHIN:g} s; "
            f"`{task_command(args, target, 'get', task_id)}` shows whether it ends"
        )
        return 5
    return 0


async def task_subscribe(args: TaskSubscribeOptions) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    out = Out()
    async with await open_agent(args, target) as link:
        view = TaskView()
        with naming_the_task(args, target, task_id=task_id):
            async with deadline(args.timeout, f"task {task_id}"):
                turn = link.resume(task_id, follow_policy(args), streaming=True, view=view)
                await consume_turn(turn, view, args, out, live=args.stream)
        seen = await print_followed(out, args, target, link, view, task_id)
        keep_in_inbox(args, target, link, seen)
    return 0


def _state_arg(value: str | None) -> TaskState | None:
    if value is None:
        return None
    normalized = value.lower().replace("_", "-").removeprefix("task-state-")
    try:
        return TaskState(normalized)
    except ValueError:
        names = ", ".join(s.value for s in TaskState)
        raise UsageError(f"unknown state {value!r}", hint=f"Use one of: {names}.") from None


async def task_list(args: TaskListOptions) -> int:
    target = split_target(args, args.words, 0)
    out = Out()
    async with await open_agent(args, target) as link:
        page = await link.list_tasks(
            context_id=args.context_id,
            state=_state_arg(args.state),
            page_size=args.page_size,
            page_token=args.page_token,
            history_length=args.history,
        )
    if args.output == "json":
        out.json_doc(v10.encode_task_page(page))
    else:
        render_task_page(out, page)
    return 0
