"""The headless commands: card get, send, task get|cancel|subscribe|list."""

from __future__ import annotations

import asyncio
import base64
import json
import mimetypes
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..a2a.cancel import CONFIRM_WITHIN
from ..a2a.errors import TimedOutError, UsageError
from ..a2a.follow import FollowPolicy, Notice
from ..a2a.model import DataPart, FilePart, Message, Part, Task, TaskState, TextPart
from ..a2a.turn import TaskView
from ..a2a.wire import v10
from .context import open_agent, reply_command, split_target, warn
from .render import (
    Out,
    render_card,
    render_event,
    render_message,
    render_task,
    render_task_page,
    resume_hint,
    stream_response,
)

# --- building the message ----------------------------------------------------------------------------


def _read_json(source: str) -> Any:
    if source == "-":
        text, where = sys.stdin.read(), "stdin"
    elif source.startswith("@") or (not source.lstrip().startswith(("{", "[", '"')) and Path(source).is_file()):
        path = Path(source.removeprefix("@")).expanduser()
        try:
            text, where = path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise UsageError(f"cannot read --data file {path}: {exc.strerror}", hint="Check the path.") from None
    else:
        text, where = source, "--data"
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            hint="Pass inline JSON ('{\"k\": 1}'), @file.json, or - for stdin.",
        ) from None


def _file_part(value: str, media_type: str | None) -> FilePart:
    if value.startswith(("http://", "https://")):
        url_path = urlsplit(value).path  # the name and type come from the path, not the host or query
        name = url_path.rstrip("/").rsplit("/", 1)[-1] or None
        return FilePart(url=value, name=name, media_type=media_type or mimetypes.guess_type(url_path)[0])
    path = Path(value).expanduser()
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read --file {path}: {exc.strerror}", hint="Check the path.") from None
    guessed = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return FilePart(raw=base64.b64encode(content).decode("ascii"), name=path.name, media_type=media_type or guessed)


def build_parts(text_words: list[str], flags: list[tuple[str, str, str | None]]) -> list[Part]:
    """The positional text first, then --text/--file/--data in the order given."""
    parts: list[Part] = []
    if text_words:
        parts.append(TextPart(text=" ".join(text_words)))
    for kind, value, media_type in flags:
        if kind == "text":
            parts.append(TextPart(text=value, media_type=media_type))
        elif kind == "file":
            parts.append(_file_part(value, media_type))
        else:
            parts.append(DataPart(data=_read_json(value), media_type=media_type or "application/json"))
    return parts


def _metadata(raw: str | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    value = _read_json(raw)
    if not isinstance(value, dict):
        raise UsageError("--metadata must be a JSON object", hint="""For example --metadata '{"k": "v"}'""")
    return value


# --- waiting -----------------------------------------------------------------------------------------


@asynccontextmanager
async def deadline(seconds: float | None, what: str):
    """Turn an expired --timeout into TimedOutError (exit 5), naming what was being waited for."""
    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        raise TimedOutError(
            f"gave up after {seconds:g} s waiting for {what}",
            hint="The task goes on at the agent: `switchboard task get AGENT TASK_ID --wait` picks it up.",
        ) from None


def warn_outcome(state: TaskState | None) -> None:
    if state in (TaskState.FAILED, TaskState.REJECTED, TaskState.CANCELED):
        warn(f"the task ended {state.value}")
    elif state in (TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED):
        warn(f"the task is waiting: {state.value}")


async def consume_turn(events: AsyncIterator, view: TaskView, args: Any, out: Out, *, live: bool) -> TaskView:
    """Read a turn whose events follow_turn folds into `view`; under --stream print each one as it arrives."""
    noted = 0
    async for event in events:
        if isinstance(event, Notice):
            warn(event.text)
            continue
        for note in view.notes[noted:]:  # an oddity in the agent's events, said as it happens
            warn(note)
        noted = len(view.notes)
        if live:
            if args.output == "json":
                out.json_line(stream_response(event))
            else:
                render_event(out, event)
    return view


def print_summary(out: Out, args: Any, agent: str, view: TaskView) -> None:
    """The closing lines of a text stream: ids and state again, and how to answer an interrupted task."""
    out.field("Task ID", view.task_id)
    out.field("Context ID", view.context_id)
    out.field("State", view.state.value if view.state else ("replied" if view.reply else None))
    task = view.to_task()
    if task and view.state and view.state.is_interrupted:
        out.field("Resume", resume_hint(agent, task))


# --- commands ----------------------------------------------------------------------------------------


async def card_get(args: Any) -> int:
    from ..a2a.cards import BINDING_FLAGS, fetch_card, lint_card
    from ..a2a.http import new_http_client
    from .context import extra_headers, make_tap

    target = split_target(args, [args.agent] if args.agent else [], 0)
    out = Out()
    if args.extended:
        async with await open_agent(args, target) as link:
            card, card_url = await link.extended_card(), link.card_url
    else:
        async with new_http_client(args.timeout) as http:
            tap = make_tap(args, target.entry)
            resolved = await fetch_card(target.ref, http, tap=tap, headers=extra_headers(args, target.entry))
        card, card_url = resolved.card, resolved.card_url
        for note in resolved.notes:
            warn(note)
    if args.output == "json":
        out.json_doc(card.raw)
        if args.validate:
            for warning in lint_card(card, card_url):
                warn(warning)
    else:
        binding = BINDING_FLAGS.get(args.binding or (target.entry.binding if target.entry else None) or "")
        render_card(out, card, card_url, validate=args.validate, version=args.a2a_version, binding=binding)
    return 0


async def send(args: Any) -> int:
    target = split_target(args, args.words, 0 if args.parts else 1)
    parts = build_parts(target.args, args.parts)
    if not parts:
        raise UsageError("nothing to send", hint="Give the text after the agent, or --text/--file/--data.")
    from ..a2a.client import new_message

    message = new_message(parts, task_id=args.task_id, context_id=args.context_id, metadata=_metadata(args.metadata))
    out = Out()
    # Without --stream the turn is polled: the output is the task at its end, so there is nothing to stream for.
    streaming = None if args.stream else False
    async with await open_agent(args, target, correlation_id=args.correlation_id, streaming=streaming) as link:
        if args.no_wait:
            result = await link.send(message, blocking=False)
            print_result(out, args, reply_command(args, target), result)
            return 0
        policy = FollowPolicy(poll_interval=args.poll_interval)
        async with deadline(args.timeout, "the task"):
            view = TaskView()
            turn = link.follow(message, policy, view=view)
            await consume_turn(turn, view, args, out, live=args.stream)
        if args.stream:
            if args.output == "text":
                print_summary(out, args, reply_command(args, target), view)
        else:
            result = view.reply if view.reply is not None else view.to_task()
            if result is None:
                raise UsageError("the agent sent nothing back")  # follow_turn raises before this
            print_result(out, args, reply_command(args, target), result)
        warn_outcome(view.state)
    return 0


def print_result(out: Out, args: Any, agent: str, result: Task | Message) -> None:
    if args.output == "json":
        out.json_doc(v10.encode_send_result(result))
        return
    if isinstance(result, Message):
        render_message(out, result)
        return
    render_task(out, result)
    if result.status.state.is_interrupted:
        out.field("Resume", resume_hint(agent, result))


async def task_get(args: Any) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    out = Out()
    async with await open_agent(args, target) as link:
        if args.wait:
            async with deadline(args.timeout, f"task {task_id}"):
                await link.wait(task_id, FollowPolicy(poll_interval=args.poll_interval))
        task = await link.get_task(task_id, history_length=args.history)
    _print_task(out, args, reply_command(args, target), task)
    return 0


def _print_task(out: Out, args: Any, agent: str, task: Task) -> None:
    if args.output == "json":
        out.json_doc(v10.encode_task(task))
    else:
        render_task(out, task, history=bool(getattr(args, "history", None)))
        if task.status.state.is_interrupted:
            out.field("Resume", resume_hint(agent, task))


async def task_cancel(args: Any) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    # --timeout, when given, replaces the cancel's own long wait (the agent answers with the whole task).
    async with (
        await open_agent(args, target) as link,
        deadline(args.timeout, f"the answer to canceling task {task_id}"),
    ):
        outcome = await link.cancel(task_id, timeout=args.timeout)
    _print_task(Out(), args, reply_command(args, target), outcome.task)
    if not outcome.confirmed:
        # The request went through, its effect is not seen yet: the job is not done, as with a timeout.
        warn(
            f"{outcome.pending} after {CONFIRM_WITHIN:g} s; "
            f"`switchboard task get {reply_command(args, target)} {task_id}` shows whether it ends"
        )
        return 5
    return 0


async def task_subscribe(args: Any) -> int:
    target = split_target(args, args.words, 1)
    task_id = target.args[0]
    out = Out()
    async with await open_agent(args, target) as link:
        async with deadline(args.timeout, f"task {task_id}"):
            view = TaskView()
            turn = link.resume(task_id, streaming=True, view=view)
            await consume_turn(turn, view, args, out, live=args.stream)
        if args.stream:
            if args.output == "text":
                print_summary(out, args, reply_command(args, target), view)
        else:
            _print_task(out, args, reply_command(args, target), await link.get_task(task_id))
        warn_outcome(view.state)
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


async def task_list(args: Any) -> int:
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
