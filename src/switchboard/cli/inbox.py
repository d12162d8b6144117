"""`switchboard inbox` and `switchboard answer`: the inbox's items from the command line, with the same core as
the TUI's (switchboard/inbox). Answering reuses the commands that already do each kind: `send --task-id` for a
conversation task, `run --resume --answer` for a local run, the run's answer update (that question's id) on
Temporal; their output and exit codes are the answer's."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..a2a.errors import UsageError
from ..agents import AgentsFile
from ..inbox.item import InboxItem, first_line, sort_oldest_first, waited
from ..inbox.sources import local_run_items, reread
from ..inbox.store import Remembered, forget, load_remembered
from ..safe_text import strip_controls
from .arguments import Connection
from .context import Target, open_agent, registry_of
from .output import Out
from .runs import stamp

if TYPE_CHECKING:
    from .groups.answer import AnswerOptions
    from .groups.inbox import InboxOptions


def _target(remembered: Remembered, registry: AgentsFile) -> Target:
    """The agents file's entry of the remembered agent (same name and address, else the same address), else its
    address."""
    url = remembered.agent_url.rstrip("/")
    entry = registry.find(remembered.agent)
    if entry is None or entry.url.rstrip("/") != url:  # named otherwise here (by its card, by another file)
        entry = next((e for e in registry.agents if e.url.rstrip("/") == url), None)
    return Target(entry.name, entry) if entry is not None else Target(remembered.agent_url, None)


async def _remembered_items(options: InboxOptions | AnswerOptions, registry: AgentsFile) -> list[InboxItem]:
    """Each remembered task read again from its agent, all at once (an agent slow to answer, or gone, holds up
    none of the others)."""

    async def one(remembered: Remembered) -> InboxItem | None:
        target = _target(remembered, registry)
        connection = Connection(agents=options.agents)

        async def open_link(_: Remembered) -> Any:
            return await open_agent(connection, target)

        item = await reread(remembered, open_link)
        if item is None:
            forget(remembered.agent_url, remembered.task_id)  # answered or ended meanwhile
            return None
        return item if target.entry is not None else replace(item, where=f"{item.where}, {remembered.agent_url}")

    found = await asyncio.gather(*(one(remembered) for remembered in load_remembered()))
    return [item for item in found if item is not None]


def _temporal_of(options: InboxOptions | AnswerOptions) -> str | None:
    if options.temporal:
        return options.temporal
    from ..config import load_settings

    settings, _ = load_settings()
    return settings.temporal


async def _temporal_items(options: InboxOptions | AnswerOptions) -> list[InboxItem]:
    address = _temporal_of(options)
    if not address:
        return []
    from ..inbox.sources import temporal_items
    from ..workflow.temporal.client import connect
    from .temporal import require_temporal

    require_temporal()
    client = await connect(address, options.namespace)
    return await temporal_items(client, address)


async def gather(options: InboxOptions | AnswerOptions, *, kinds: str = "trw") -> list[InboxItem]:
    """The items of every source (`kinds`: the letters of the kinds wanted), oldest first."""
    registry = registry_of(options)
    items: list[InboxItem] = []
    if "t" in kinds:
        items += await _remembered_items(options, registry)
    if "r" in kinds:
        items += local_run_items()
    if "w" in kinds:
        items += await _temporal_items(options)
    return sort_oldest_first(items)


def item_json(item: InboxItem, now: float) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind,
        "who": item.who,
        "question": item.question,
        "state": item.state,
        "since": stamp(item.since),
        "waitedSeconds": None if item.since is None else max(0, int(now - item.since)),
        "where": item.where,
        "agent": item.agent or None,
        "agentUrl": item.agent_url or None,
        "taskId": item.task_id or None,
        "contextId": item.context_id or None,
        "runId": item.run_id or None,
        "step": item.step or None,
        "questionId": item.ask_id or None,
        "note": item.note or None,
        "answerable": not (item.stale or item.live_elsewhere),
    }


def _cell(text: str) -> str:
    return " ".join(strip_controls(text).split())


def render_table(out: Out, items: list[InboxItem], now: float) -> None:
    """One line per item: id, how long it waited, who asks, the question's first line, where it lives (the
    agents' text with no control sequence, as every text output)."""
    rows = [("ID", "WAITED", "WHO", "QUESTION", "WHERE")]
    for item in items:
        where = f"{item.where} ({item.note})" if item.note else item.where
        rows.append(
            (item.id, waited(item.since, now) or "-", _cell(item.who), first_line(item.first_line, 60), _cell(where))
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        cells = "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
        out.stream.write(f"{cells}  {row[4]}\n")


async def inbox(options: InboxOptions) -> int:
    if options.dismiss:
        return _dismiss(options)
    items = await gather(options)
    now = time.time()
    out = Out()
    if options.output == "json":
        out.json_doc({"items": [item_json(item, now) for item in items], "count": len(items)})
    elif items:
        render_table(out, items, now)
    else:
        print("Nothing waits for you.", file=sys.stderr)
    return 0


def _dismiss(options: InboxOptions) -> int:
    for remembered in load_remembered():
        task_item_id = InboxItem("task", "", "", "", None, "", agent_url=remembered.agent_url,
                                 task_id=remembered.task_id).id  # fmt: skip
        if task_item_id.startswith(options.dismiss or "-"):
            forget(remembered.agent_url, remembered.task_id)
            print(f"{task_item_id}: dismissed", file=sys.stderr)
            return 0
    raise UsageError(f"no remembered task {options.dismiss}", hint="`switchboard inbox` lists the items and their ids.")


def find_item(items: list[InboxItem], wanted: str) -> InboxItem:
    """The item whose id is `wanted`, or starts with it (one only); a usage error otherwise."""
    matches = [item for item in items if item.id == wanted] or [item for item in items if item.id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"{wanted} matches several items: {', '.join(i.id for i in matches[:5])}",
                         hint="Give more of the id.")  # fmt: skip
    raise UsageError(
        f"nothing in the inbox is {wanted} (answered already, or never there)",
        hint="`switchboard inbox` lists the items and their ids.",
    )


Continue = Callable[[InboxItem, "AnswerOptions"], Awaitable[int]]


async def answer(options: AnswerOptions, *, answer_task: Continue, answer_run: Continue) -> int:
    """Find the item and hand it to the command that answers its kind (groups/answer.py builds their options)."""
    if not options.item.strip():
        raise UsageError("no item given", hint="`switchboard inbox` lists the items and their ids.")
    if (options.text is None) == (options.data is None):
        raise UsageError("give the answer as TEXT or with --data, one of them", hint='switchboard answer ITEM "yes"')
    kind = options.item[0]
    item = find_item(await gather(options, kinds=kind if kind in "trw" else "trw"), options.item)
    if item.stale:
        raise UsageError(f"{item.id}: {item.note}", hint=f"Let go of it: switchboard inbox --dismiss {item.id}")
    if item.live_elsewhere:
        raise UsageError(f"{item.id}: the run {item.run_id} is {item.note}",
                         hint="It asks in the terminal (or TUI) that runs it.")  # fmt: skip
    if item.kind == "task":
        return await answer_task(item, options)  # send keeps the task's next question, or lets it go
    if options.data is not None:
        raise UsageError("a workflow step takes a text answer", hint="Give the answer as TEXT, not --data.")
    return await answer_run(item, options)


def agent_ref(item: InboxItem, registry: AgentsFile) -> str:
    """How the command line names the item's agent: its agents-file name when that entry is the same agent."""
    target = _target(Remembered(item.agent, item.agent_url, item.task_id, "", item.state, "", None), registry)
    return target.ref


def temporal_of(options: InboxOptions | AnswerOptions) -> str | None:
    """The Temporal server: --temporal, else the settings' `temporal:`."""
    return _temporal_of(options)
