"""The inbox's watch: finds every item waiting for the person, keeps the inbox tab's list live, and nudges.

Every TICK seconds (on the main screen's timer, nothing runs while nothing changed):
- open tabs: read from the views in memory (a conversation waiting, a run's steps asking);
- remembered tasks: the file (inbox/store.py) is stat'ed, read again only when written (another process
  answered one); each task not open in a tab is read from its agent (get-task) every POLL_TASKS seconds, and so
  is each tab's waiting task, so one answered elsewhere (another terminal, another tool) leaves within a second;
- local runs: the run index and journal directory are stat'ed, and read again (on a thread) only when written;
- Temporal: its waiting runs are read every POLL_TEMPORAL seconds when a server is configured (each run's journal
  once per question: inbox/sources.py's TemporalQuestions).
Then the items are merged (a tab's own item wins over the same task or run found elsewhere), sorted oldest first
and handed to the pane; an item not seen before (after its source's first read) is a new one: the nudge.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, cast

from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import TabbedContent

from ..a2a.call_context import BACKGROUND
from ..a2a.errors import SwitchboardError
from ..a2a.model import TaskState
from ..agents import AgentEntry
from ..inbox.item import InboxItem, question_text, sort_oldest_first
from ..inbox.store import Remembered, signature
from .inbox_answering import InboxAnswering, is_view
from .inbox_kept import KeptQuestions
from .inbox_nudge import Nudge
from .widgets.inbox_pane import InboxPane
from .widgets.visibility import in_shown_tab

if TYPE_CHECKING:
    from .screens.main import MainScreen
    from .widgets.conversation_view import ConversationView
    from .widgets.run_view import RunView

TICK = 0.25  # seconds between looks at the tabs and the files
POLL_TASKS = 0.75  # seconds between reads of each waiting task at its agent
POLL_TEMPORAL = 1.0  # seconds between reads of a Temporal server's waiting runs
UNREACHABLE_RETRY = 15.0  # seconds before a remembered task whose agent could not be reached is read again


class InboxWatch(InboxAnswering):
    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        self.app = screen.app
        self.nudge = Nudge(self.app)
        self.handles: dict[str, Any] = {}  # item id -> what answers it (a view, a run view's step, a Remembered)
        self.kept = KeptQuestions(self.app.ends_with_app_at)  # the file; the demo fleet's own tasks in memory
        self.items: list[InboxItem] = []
        self._remembered: dict[tuple[str, str], Remembered] = {}
        self._reread: dict[tuple[str, str], InboxItem | None] = {}  # key -> as its agent reported it last
        self._store_mark: object = object()
        self._run_mark: object = object()
        self._local: list[InboxItem] = []
        self._temporal: list[InboxItem] = []
        self.temporal_questions: Any = None  # TemporalQuestions: each run's journal read once per question
        self._since: dict[tuple[str, ...], tuple[str, float]] = {}  # key -> (question, first seen)
        self._kept_questions: dict[tuple[str, ...], tuple[str, str]] = {}  # a tab's task -> (question, state) kept
        self._seen: set[tuple[str, str]] = set()  # (item id, question): a task asking again is news again
        self._primed: set[str] = set()  # the sources read once: "task" (remembered), "run" (local), "temporal"
        # Questions answered here, on their way (item id, question): not shown again until the source moves on.
        self._answered: set[tuple[str, str]] = set()
        self._last_poll = 0.0
        self._last_temporal = 0.0
        self._links: dict[tuple[str, str], Any] = {}
        self._retry_at: dict[tuple[str, str], float] = {}  # a remembered task's agent was unreachable: not before
        self._polling = False
        self._reading_temporal = False
        self._opened: dict[str, Any] = {}  # the item whose pane is open -> what answers it, as when it opened
        self._drawn_at = 0
        self._tab_keys: set[tuple[str, ...]] = set()

    # --- the tick ------------------------------------------------------------------------------------------

    def tick(self) -> None:
        now = time.monotonic()
        mark = signature()
        if mark != self._store_mark:
            self._store_mark = mark
            self._read_store()
        run_mark = _run_signature()
        if run_mark != self._run_mark:
            self._run_mark = run_mark
            self.screen.run_worker(self._read_local, thread=True, group="inbox-local", exclusive=True)
        if now - self._last_poll >= POLL_TASKS and not self._polling:
            self._last_poll, self._polling = now, True
            self.screen.run_worker(self._poll_tasks(), group="inbox-tasks", exit_on_error=False)
        if self.app.temporal_address and now - self._last_temporal >= POLL_TEMPORAL and not self._reading_temporal:
            self._last_temporal, self._reading_temporal = now, True  # one read at a time: a slow server is not piled on
            self.screen.run_worker(self._read_temporal(), group="inbox-temporal", exit_on_error=False)
        self.refresh()

    def refresh(self) -> None:
        """Merge what each source holds, show it, and nudge for what is new."""
        handles: dict[str, Any] = {}
        merged: dict[tuple[str, ...], InboxItem] = {}
        tabs = self._tab_items()
        # The tabs' last: a task or run open in a tab is answered there (its own pane, its own future).
        for item, handle in [*self._remembered_items(), *[(i, None) for i in self._local + self._temporal], *tabs]:
            merged[item.key] = item
            handles[item.id] = handle
        self.handles = handles
        self._keep_tab_tasks([item for item, _ in tabs])
        items = sort_oldest_first([i for i in merged.values() if (i.id, i.question) not in self._answered])
        self._answered &= {(i.id, i.question) for i in merged.values()}  # moved on at its source: forgotten
        new = [item for item in items if (item.id, item.question) not in self._seen]
        self._seen |= {(item.id, item.question) for item in items}
        changed = [(i.id, i.question, i.note) for i in items] != [(i.id, i.question, i.note) for i in self.items]
        self.items = items
        second = int(self.app.clock())
        # The times waited tick once a second, while the inbox is shown (redrawn out of sight, its table would
        # lay the screen out again each second under whatever the person is doing).
        shown = any(tabs.active == "inbox-tab" for tabs in self.screen.query("#tabs").results(TabbedContent))
        if changed or (second != self._drawn_at and shown):
            self._drawn_at = second
            self._show(items)
        for item in new:
            handle = handles.get(item.id)
            source = "tab" if handle is not None and not isinstance(handle, Remembered) else item.kind
            # What a source held at its first read was there before: only what comes after is news.
            if source == "tab" or source in self._primed:
                self.nudge.new_item(item, said_by_tab=self._said_by_tab(handle))

    def _said_by_tab(self, handle: Any) -> bool:
        """The item's own tab tells the person already: a conversation's does when it is not shown (and is marked
        ✱), a run's is marked ✱ and shows the question when it is the tab shown."""
        if is_view(handle):
            return True
        view = handle[0] if isinstance(handle, tuple) else None
        return view is not None and in_shown_tab(view)

    # --- open tabs ---------------------------------------------------------------------------------------

    def _tab_items(self) -> list[tuple[InboxItem, Any]]:
        """The questions of the open tabs, each with what answers it (the view, or the run view's ask)."""
        items: list[tuple[InboxItem, Any]] = []
        for view in self.screen.conversations():
            item = self._conversation_item(view)
            if item is not None:
                items.append((item, view))
        for run_view in cast("list[RunView]", list(self.screen.query("RunView"))):  # by name: imported when used
            for item, asked in self._run_view_items(run_view):
                items.append((item, (run_view, item.step, asked)))
        return items

    def _first_seen(self, key: tuple[str, ...], question: str) -> float:
        """When this question of this task or step was first seen here (another question starts the clock again)."""
        seen = self._since.get(key)
        if seen is None or seen[0] != question:
            seen = self._since[key] = (question, self.app.clock())
        return seen[1]

    def _conversation_item(self, view: ConversationView) -> InboxItem | None:
        state = view.waiting
        last = view.conversation.last if view.conversation else None
        if state is None or last is None or not last.view.task_id:
            return None
        parts = last.view.question
        url = view.status.entry.url
        key = ("task", url.rstrip("/"), last.view.task_id)
        text = question_text(parts)
        return InboxItem(
            "task",
            who=view.agent_name,
            question=text,
            state=state.value,
            since=self._first_seen(key, text),
            where="conversation tab",
            agent=view.agent_name,
            agent_url=url,
            task_id=last.view.task_id,
            context_id=last.view.context_id or "",
            parts=tuple(parts),
        )

    def _run_view_items(self, view: RunView) -> list[tuple[InboxItem, Any]]:
        run = view.run
        if run is None:
            return []
        on_temporal = hasattr(run, "client")
        found = []
        for step, (request, future) in list(view.questions().items()):
            key = ("temporal" if on_temporal else "run", run.run_id, step)
            item = InboxItem(
                "temporal" if on_temporal else "run",
                who=f"run {view.title} · step {step}",
                question=question_text(request.question),
                state=request.state.value,
                since=self._first_seen(key, question_text(request.question)),
                where=f"run tab{' on ' + getattr(run, 'where', '')[3:] if on_temporal else ''}",
                agent=request.agent,
                task_id=request.task_id or "",
                context_id=request.context_id or "",
                run_id=run.run_id,
                step=step,
                parts=tuple(request.question),
            )
            found.append((item, (request, future)))
        return found

    def _keep_tab_tasks(self, tabs: list[InboxItem]) -> None:
        """A tab's waiting task is remembered (so a restart, or a crash, loses nothing); one that stopped waiting
        is let go of, and one let go of by another process (answered there) is followed again by its tab."""
        waiting = {item.key[1:]: item for item in tabs if item.kind == "task"}
        for key, item in waiting.items():
            # Written once per question (the file holds it redacted: compared with what was written, it would
            # differ as soon as a credential typed since appeared in it).
            if self._kept_questions.get(key) != (item.question, item.state) or key not in self._remembered:
                self._kept_questions[key] = (item.question, item.state)
                entry = Remembered(item.agent, item.agent_url, item.task_id, item.context_id, item.state,
                                   self.app.tap.redactor.text(item.question), item.since)  # fmt: skip
                self._write(self.kept.keep, entry)
                self._remembered[key] = entry  # type: ignore[index]
        open_tasks = self._open_tasks()
        for key in self._tab_keys - set(waiting):
            self._kept_questions.pop(key, None)
            # Its tab says it waits no more: let go of. Its tab was closed (the task left waiting at the agent): it
            # stays remembered, an item of the inbox as after a restart (its next read says whether it still waits).
            if key in self._remembered and key in open_tasks:
                self._write(self.kept.let_go, *key)
                self._remembered.pop(key, None)
        self._tab_keys = set(waiting)

    def _open_tasks(self) -> set[tuple[str, str]]:
        """The task of each open conversation tab, waiting or not."""
        return {(v.status.entry.url.rstrip("/"), v.conversation.last.view.task_id or "")
                for v in self.screen.conversations() if v.conversation and v.conversation.last}  # fmt: skip

    def _write(self, change: Any, *args: Any) -> None:
        try:
            change(*args)
        except OSError as exc:
            self.app.notify(f"inbox: could not write the remembered questions: {exc}", severity="warning")
        self._store_mark = signature()  # our own write is not news

    # --- remembered tasks ----------------------------------------------------------------------------------

    def _read_store(self) -> None:
        before = set(self._remembered)
        self._remembered = self.kept.load()
        gone = before - set(self._remembered)
        for view in self.screen.conversations():  # answered by another process: the tab hears it from the agent
            item = self._conversation_item(view)
            if item is not None and item.key[1:] in gone:
                self.screen.run_worker(view.answered_elsewhere(), group="inbox-elsewhere")
        if "task" not in self._primed:
            self.screen.run_worker(self._reread_all(), group="inbox-reread", exit_on_error=False)

    def _remembered_items(self) -> list[tuple[InboxItem, Remembered]]:
        """The remembered tasks not open in a tab: as their agents last reported them (before the first re-read,
        as remembered)."""
        from ..inbox.sources import task_item

        in_tabs = self._open_tasks()
        items = []
        for key, entry in self._remembered.items():
            if key in in_tabs:
                continue  # its tab says it
            item = (
                self._reread[key] if key in self._reread else task_item(entry, None, note="re-reading from the agent…")
            )
            if item is not None:
                items.append((item, entry))
        return items

    async def _reread_all(self) -> None:
        entries = [entry for entry in self._remembered.values() if not self._open_in_tab(entry.key)]
        await asyncio.gather(*(self._reread_one(entry) for entry in entries))  # one agent slow to answer holds none
        self._primed.add("task")
        self.refresh()

    async def _reread_one(self, entry: Remembered) -> None:
        """Read a remembered task again (in the background: never a sign-in); one whose agent could not be reached
        is read again only after UNREACHABLE_RETRY seconds (each try may take seconds of retries)."""
        from ..inbox.sources import NEEDS_SIGN_IN, reread

        item = await reread(entry, self._link_for, keep_link=True)  # kept in _links for the next polls
        key = entry.key
        unreachable = item is not None and item.note.startswith("not re-read") and item.note != NEEDS_SIGN_IN
        self._retry_at[key] = time.monotonic() + UNREACHABLE_RETRY if unreachable else 0.0
        link = self._links.pop(key, None) if unreachable else None  # opened anew next time
        if link is not None:
            await link.aclose()
        if item is None:
            self._write(self.kept.let_go, *key)
            self._remembered.pop(key, None)
            self._reread.pop(key, None)
        elif key in self._remembered:  # not dismissed meanwhile
            self._reread[key] = item

    def _open_in_tab(self, key: tuple[str, str]) -> bool:
        return any((item := self._conversation_item(v)) is not None and item.key[1:] == key
                   for v in self.screen.conversations())  # fmt: skip

    async def _link_for(self, entry: Remembered) -> Any:
        if entry.key not in self._links:
            self._links[entry.key] = await self.app.open_link(self.entry_of(entry))
        return self._links[entry.key]

    def entry_of(self, entry: Remembered) -> AgentEntry:
        """The agent of a remembered task: the app's agent of that name and address, else of that address (named
        by its card, or in another agents file), else one for the address."""
        url = entry.agent_url.rstrip("/")
        found = next((a for a in self.app.agents() if a.name == entry.agent and a.url.rstrip("/") == url), None)
        found = found or next((a for a in self.app.agents() if a.url.rstrip("/") == url), None)  # named otherwise
        return found or AgentEntry(name=entry.agent, url=entry.agent_url)

    async def _poll_tasks(self) -> None:
        """Each waiting task read from its agent: one answered elsewhere leaves the inbox (a tab follows it again)."""

        try:
            await self._poll_each()
        finally:
            self._polling = False

    async def _poll_each(self) -> None:
        if "task" not in self._primed:
            return
        for view in self.screen.conversations():
            item = self._conversation_item(view)
            if item is None or view.link is None or view.running:
                continue
            try:
                task = await view.link.get_task(item.task_id, context=BACKGROUND)  # never a sign-in
            except SwitchboardError:
                continue
            state = task.status.state
            moved = state not in (TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED)
            asked = question_text(list(task.status.message.parts if task.status.message else []))
            if (moved or asked not in ("", item.question)) and view.waiting is not None and not view.running:
                await view.answered_elsewhere()
        now, due = time.monotonic(), []
        for key, entry in list(self._remembered.items()):
            known = self._reread.get(key)
            if self._open_in_tab(key) or (known is not None and known.stale) or self._retry_at.get(key, 0.0) > now:
                continue  # said by its tab; the agent does not know it (the person dismisses it); or unreachable
            due.append(entry)  # also one another process remembered since the start
        await asyncio.gather(*(self._reread_one(entry) for entry in due))
        self.refresh()

    # --- runs --------------------------------------------------------------------------------------------

    def _read_local(self) -> None:
        from ..inbox.sources import local_run_items

        items = local_run_items()
        self.app.call_from_thread(self._took_local, items)

    def _took_local(self, items: list[InboxItem]) -> None:
        self._local = items
        self._primed.add("run")
        self.refresh()

    async def _read_temporal(self) -> None:
        from ..inbox.sources import TemporalQuestions

        self.temporal_questions = self.temporal_questions or TemporalQuestions()
        try:
            client = await self.app.temporal_client()
            items = await self.temporal_questions.items(client, self.app.temporal_address or "")
        except Exception:  # unreachable, or a failure of the server: read again at the next poll
            return
        finally:
            self._reading_temporal = False
        self._temporal = items
        self._primed.add("temporal")
        self.refresh()

    # --- answering ---------------------------------------------------------------------------------------

    def _show(self, items: list[InboxItem]) -> None:
        """The inbox's items changed: its tab's count, and its list (drawn when shown: out of sight, a table rebuilt
        lays the screen out again under whatever the person is doing)."""
        try:
            pane, tabs = self.screen.query_one(InboxPane), self.screen.query_one(TabbedContent)
        except NoMatches:
            return  # the app is quitting: a read or an answer that ends now has nothing left to show it in
        pane.items = items
        if tabs.active == "inbox-tab" or pane.open_item is not None:
            pane.show(items)
        label = (
            Content.assemble(("✱ ", "bold $warning"), (f"Inbox {len(items)}", "bold $warning")) if items else "Inbox"
        )
        try:
            tabs.get_tab("inbox-tab").label = label
        except NoMatches:
            pass

    def dismiss(self, item: InboxItem) -> None:
        self._write(self.kept.let_go, item.agent_url, item.task_id)
        self._remembered.pop(item.key[1:], None)  # type: ignore[arg-type]
        self._reread.pop(item.key[1:], None)  # type: ignore[arg-type]
        self.refresh()


def _run_signature() -> tuple[Any, ...]:
    from ..inbox.sources import run_signature

    return run_signature()
