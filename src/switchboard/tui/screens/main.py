"""The main screen: the agents tab, a tab per conversation (marked when it waits for you), the wire view.

The conversation and run views (Markdown and all) are imported when the first one opens, not at start-up;
a tab's label follows its view's `busy` and `asking`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widget import MountError, Widget
from textual.widgets import Footer, Header, TabbedContent, TabPane

from ...agent_status import AgentStatus
from ..inbox_watch import TICK, InboxWatch
from ..release import forget_removed
from ..typed_app import switchboard_app
from ..widgets.a2ui.open_url import A2uiOpenUrl
from ..widgets.agents_pane import AgentsPane
from ..widgets.inbox_pane import InboxPane
from ..widgets.wire_view import WireView
from ..widgets.workflows_pane import WorkflowsPane
from .inbox_resume import Refusal

if TYPE_CHECKING:
    from ...workflow.spec import Workflow
    from ..open_work import OpenWork
    from ..widgets.conversation_view import ConversationView
    from ..widgets.run_view import RunView  # imported when a run is opened: the first screen shows none

_ids = itertools.count(1)
RELEASE_EVERY = 5.0  # seconds


class MainTabPane(TabPane):
    """A tab of the main screen. Textual shows the tab of any widget that takes the focus; but a focus asked for
    while this tab was shown lands a few messages later, and by then the person may have switched tabs (under
    load, often): then the focus must not pull this tab back over the one they chose."""

    class FocusedHidden(Message):
        """A widget of a tab that is not shown took the focus."""

    def on_unmount(self) -> None:
        # Closed: once its widgets are gone, what Textual keeps of them is let go (see release.py).
        self.app.call_later(forget_removed, self.app)

    @on(TabPane.Focused)
    def _focused(self, event: TabPane.Focused) -> None:
        # Never passed on: TabbedContent, which it would reach next, makes this tab the active one when it reads it,
        # which may be after the person switched tabs (ctrl+pagedown right after a tab opened was undone).
        event.stop()
        tabs = self.parent.parent if self.parent is not None else None
        if isinstance(tabs, TabbedContent) and tabs.active != self.id:
            self.post_message(self.FocusedHidden())


class MainScreen(Screen):
    app = switchboard_app  # typed: the app's own attributes (tui/typed_app.py)

    BINDINGS = [
        Binding("f1", "show_agents", "Agents", id="tabs.agents"),
        Binding("f3", "show_workflows", "Workflows", id="tabs.workflows"),
        Binding("f5", "show_inbox", "Inbox", id="tabs.inbox"),
        # One footer entry for both, "alt+←→ Tabs" (the footer is full); ctrl+pageup/pagedown do the same.
        Binding("alt+left", "previous_tab", "Tabs", id="tabs.previous", key_display="alt+←→"),
        Binding("alt+right", "next_tab", "Next tab", id="tabs.next", show=False),
        # Priority: from any widget, as in a browser or a terminal (a table or a list binds them to scroll sideways).
        # Not shown: a priority binding goes first in the footer, ahead of the keys of what has the focus.
        Binding("ctrl+pageup", "previous_tab", "Previous tab", id="tabs.previous_page", show=False, priority=True),
        Binding("ctrl+pagedown", "next_tab", "Next tab", id="tabs.next_page", show=False, priority=True),
        Binding("f4", "close_tab", "Close tab", id="tabs.close"),
        Binding("ctrl+o", "export", "Export", id="export", show=False),  # also in the palette
    ]

    def compose(self) -> ComposeResult:
        yield Header(icon="☎")
        with TabbedContent(id="tabs"):
            with MainTabPane("Agents", id="agents-tab"):
                yield AgentsPane(id="agents")
            with MainTabPane("Workflows", id="workflows-tab"):
                yield WorkflowsPane(id="workflows")
            with MainTabPane("Inbox", id="inbox-tab"):
                yield InboxPane(id="inbox")
        yield WireView(id="wire", classes="-hidden")
        yield Footer()

    def on_mount(self) -> None:
        # The footer is composed again whenever the focus moves; its old keys are let go here, a tab's on close.
        self.set_interval(RELEASE_EVERY, lambda: forget_removed(self.app))
        self.inbox = InboxWatch(self)
        self.query_one(InboxPane).pane_for = self.inbox.pane_for
        self.inbox.tick()
        self.set_interval(TICK, self.inbox.tick)

    # --- the inbox -----------------------------------------------------------------------------------

    @on(InboxPane.AnswerGiven)
    async def _inbox_answer(self, event: InboxPane.AnswerGiven) -> None:
        await self.inbox.answer(event)

    @on(InboxPane.SignInAsked)
    def _inbox_sign_in(self, event: InboxPane.SignInAsked) -> None:
        self.inbox.sign_in(event)

    @on(InboxPane.Dismissed)
    def _inbox_dismiss(self, event: InboxPane.Dismissed) -> None:
        self.inbox.dismiss(event.item)
        self.notify(f"{event.item.id} dismissed", markup=False)

    @on(InboxPane.GoTo)
    def _inbox_go_to(self, event: InboxPane.GoTo) -> None:
        pane = self.inbox.tab_of(event.item)
        if pane is not None:
            self.query_one(TabbedContent).active = pane
        else:
            self.notify("it has no tab here: answer it in the inbox", markup=False)

    async def resume_run_with(self, run_id: str, step: str, text: str) -> None:
        """Continue a local run that stopped at a question, with the answer to it, in a tab of its own (not shown:
        the person stays in the inbox); its next questions come to the inbox through that tab."""
        from ..widgets.run_view import RunView
        from .inbox_resume import resumable_run

        found = resumable_run(self.app, run_id, step, text)
        if isinstance(found, Refusal):
            self.notify(found.message, severity=found.severity, markup=False)
            return
        await self._add_run(RunView(found.workflow, start=found.start), show=False)

    # --- conversations -------------------------------------------------------------------------------

    @on(AgentsPane.OpenConversation)
    async def _open(self, event: AgentsPane.OpenConversation) -> None:
        await self.open_conversation(event.status, event.prefill)

    async def open_conversation(self, status: AgentStatus, prefill: str = "") -> ConversationView:
        from ..widgets.conversation_view import ConversationView

        pane_id = f"conversation-{next(_ids)}"
        view = ConversationView(status, prefill)
        if await self._add_tab(MainTabPane(self._label(view), view, id=pane_id)):
            self._relabel_on_change(view, lambda: self._label(view))
            self.query_one(TabbedContent).active = pane_id
        return view

    async def _add_tab(self, pane: TabPane) -> bool:
        """Add `pane` as a tab; False when the app began to quit meanwhile: its tabs are going, and the new one,
        never added or added to tabs on their way out, is not to be shown (Textual refuses both)."""
        tabs = self.query_one(TabbedContent)
        try:
            await tabs.add_pane(pane)
        except MountError:
            if self.app.return_code is None:  # not quitting: a fault of ours, not to be hidden
                raise
            return False
        try:
            tabs.get_tab(pane)
        except NoMatches:
            return False
        return self.app.return_code is None

    def _label(self, view: ConversationView) -> Content:
        if view.waiting is not None:
            return Content.assemble(("✱ ", "bold $warning"), (view.agent_name, "bold $warning"))
        if view.running:
            return Content.assemble(("● ", "$primary"), view.agent_name)
        return Content(view.agent_name)

    def _relabel_on_change(self, view: ConversationView | RunView, label: Callable[[], Content]) -> None:
        """The tab's label follows the view's state. (The watchers live on the view: they go with its tab.)"""

        def relabel() -> None:
            if hasattr(self, "inbox"):
                self.inbox.refresh()  # a question asked or answered in a tab is in the inbox at once
            pane = view.parent
            if not (isinstance(pane, TabPane) and pane.id):
                return
            try:
                tab = self.query_one(TabbedContent).get_tab(pane.id)
            except NoMatches:
                return  # the tab is closing
            tab.label = label()

        self.watch(view, "busy", relabel, init=False)
        self.watch(view, "asking", relabel, init=False)

    # --- workflows ---------------------------------------------------------------------------------------

    @on(WorkflowsPane.Launch)
    def _launch(self, event: WorkflowsPane.Launch) -> None:
        from .launch import LaunchScreen

        workflow = cast("Workflow", event.file.workflow)  # the pane launches only a workflow that loaded

        def launched(values: dict[str, str] | None) -> None:
            if values is None:
                return
            from ...workflow.engine import start_run
            from .sign_in import TuiInteraction

            def start(ask):
                # The steps' OAuth sign-ins show the sign-in pane, as a conversation's do.
                interaction = TuiInteraction(self.app)
                return start_run(
                    workflow, values, ask=ask, http=self.app.http, tap=self.app.tap, interaction=interaction
                )

            from ..widgets.run_view import RunView

            self.run_worker(self._add_run(RunView(workflow.name, start=start)))

        if workflow.inputs:
            self.app.push_screen(LaunchScreen(workflow), launched)
        else:
            launched({})

    @on(WorkflowsPane.OpenRun)
    def _open_run(self, event: WorkflowsPane.OpenRun) -> None:
        from ...workflow.runs import read_run

        if event.source == "temporal":
            self.run_worker(self._attach_run(event.run_id, event.workflow))
            return
        try:
            record = read_run(event.run_id)
        except Exception as exc:  # a journal that cannot be read is said, not fatal
            self.notify(f"cannot read run {event.run_id}: {exc}", severity="error")
            return
        from ..widgets.run_view import RunView

        self.run_worker(self._add_run(RunView(record.workflow, record=record)))

    async def _attach_run(self, run_id: str, workflow: str) -> None:
        """A run on the Temporal server, watched live; its questions are answered here (through the server)."""
        from ...a2a.errors import SwitchboardError, UsageError
        from ...workflow.temporal.attach import AttachedRun

        try:
            client = await self.app.temporal_client()
        except SwitchboardError as exc:
            self.notify(str(exc), severity="error")
            return
        where = f"on Temporal {self.app.temporal_address}"

        async def open_link(agent: str):
            """A running step's agent, by its name in the run's workflow: this person's agents file's entry."""
            entry = next((entry for entry in self.app.agents() if entry.name == agent), None)
            if entry is None:
                raise UsageError(f"no agent named {agent} in {self.app.agents_path}")
            return await self.app.open_link(entry)

        def start(ask):
            return AttachedRun(client, run_id, ask, where=where, open_link=open_link)

        from ..widgets.run_view import RunView

        await self._add_run(RunView(workflow or run_id, start=start))

    async def _add_run(self, view: RunView, *, show: bool = True) -> None:
        pane_id = f"run-{next(_ids)}"
        if await self._add_tab(MainTabPane(self._run_label(view), view, id=pane_id)):
            self._relabel_on_change(view, lambda: self._run_label(view))
            if show:
                self.query_one(TabbedContent).active = pane_id

    def _run_label(self, view: RunView) -> Content:
        if view.waiting:
            return Content.assemble(("✱ ", "bold $warning"), (view.title, "bold $warning"))
        if view.status == "running":
            return Content.assemble(("▶ ", "$primary"), view.title)
        return Content.assemble(("▣ ", "$text-muted"), view.title)

    @on(AgentsPane.AddRequested)
    def _add_agent(self) -> None:
        from .add_agent import AddAgentScreen

        def added(name: str | None) -> None:
            if name:
                self.query_one(AgentsPane).load_entries()
                self.notify(f"{name} added to {self.app.agents_path}")

        self.app.push_screen(AddAgentScreen(), added)

    @on(AgentsPane.RemoveRequested)
    def _remove_agent(self, event: AgentsPane.RemoveRequested) -> None:
        from ...a2a.errors import SwitchboardError
        from ...agents import remove_agent
        from .confirm import ConfirmScreen

        name = event.status.entry.name

        def confirmed(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.app.reload_registry(remove_agent(self.app.registry, name))
            except (SwitchboardError, OSError) as exc:  # the file could not be written: it is as it was
                self.notify(getattr(exc, "message", None) or str(exc), severity="error", timeout=10)
                return
            self.query_one(AgentsPane).forget(name)
            self.notify(f"{name} removed")

        self.app.push_screen(ConfirmScreen(f"Remove {name} from the agents file?", confirm="Remove"), confirmed)

    # By its handler's name, not @on(RunView.CancelRunRequested): that would import the run view with this screen.
    def on_run_view_cancel_run_requested(self, event: RunView.CancelRunRequested) -> None:
        from .confirm import ConfirmScreen

        def chosen(yes: bool | None) -> None:
            if yes:
                event.view.cancel_run()

        confirm = ConfirmScreen(event.question, confirm="Cancel run", decline="Keep running", safe=True)
        self.app.push_screen(confirm, chosen)

    @on(A2uiOpenUrl)
    def _open_url(self, event: A2uiOpenUrl) -> None:
        """An agent's form wants a link opened: never by itself, only when the person says yes to its address."""
        from ...safe_text import strip_controls
        from .confirm import ConfirmScreen

        url = strip_controls(event.url)

        def chosen(yes: bool | None) -> None:
            if yes:
                self.app.open_url(url)

        if not url.startswith(("https://", "http://")):
            self.notify(f"not opened (not a web address): {url}", severity="warning", markup=False)
            return
        self.app.push_screen(ConfirmScreen(f"The agent's form links to\n{url}\nOpen it in your browser?",
                                           confirm="Open", decline="Cancel", safe=True), chosen)  # fmt: skip

    @on(WorkflowsPane.ShowProblems)
    def _problems(self, event: WorkflowsPane.ShowProblems) -> None:
        from .problems import ProblemsScreen

        item = event.file
        self.app.push_screen(ProblemsScreen(item.path, item.problem or "", item.problem_lines()))

    @on(WireView.RecordOpened)
    def _open_record(self, event: WireView.RecordOpened) -> None:
        from .wire_detail import WireDetailScreen

        self.app.push_screen(WireDetailScreen(list(self.app.tap.records), event.record))

    @on(AgentsPane.ShowCard)
    def _card(self, event: AgentsPane.ShowCard) -> None:
        from .card import CardScreen

        def chosen(prefill: str | None) -> None:
            if prefill is not None:
                self.run_worker(self.open_conversation(event.status, prefill))

        self.app.push_screen(CardScreen(event.status), chosen)

    # --- tabs and the wire view ----------------------------------------------------------------------

    def action_show_agents(self) -> None:
        self.query_one(TabbedContent).active = "agents-tab"

    def action_show_workflows(self) -> None:
        self.query_one(TabbedContent).active = "workflows-tab"

    def action_show_inbox(self) -> None:
        self.query_one(TabbedContent).active = "inbox-tab"

    @on(TabbedContent.TabActivated)
    def _focus_tab(self, event: TabbedContent.TabActivated) -> None:
        """Put the keyboard where the tab's work is: the agents table, the open prompt, or the message box."""
        if event.pane.id == "inbox-tab":
            self.query_one(InboxPane).show(self.inbox.items)
        target = self._focus_target(event.pane)
        if target is not None:
            self.call_after_refresh(self._focus_if_shown, event.pane, target)

    def _focus_target(self, pane: TabPane) -> Widget | None:
        if pane.id == "agents-tab":
            return self.query_one("#agents-table")
        if pane.id == "workflows-tab":
            return self.query_one("#workflows-table")
        if pane.id == "inbox-tab":
            return self.query_one("#inbox-filter")
        prompts = pane.query("PromptPane Input")
        if prompts:
            return prompts.first() if pane.query("RunView") else prompts.last()
        # A tab being closed (or still mounting) may hold neither: then there is nothing to focus.
        return next(iter(pane.query("#steps, #message")), None)

    def _focus_if_shown(self, pane: TabPane, target: Widget) -> None:
        # A tab closed or left before this refresh must not take the focus: its pane would be shown again.
        tabs = self.query(TabbedContent)
        if not (target.is_attached and tabs and tabs.first().active == pane.id):
            return
        focused = self.focused
        if focused is not None and pane in focused.ancestors:
            # The keyboard was put in this tab before the refresh (a click on its runs table, on a loaded machine
            # where the refresh came late): it stays there. Taken back, the next enter launched a workflow.
            return
        self.set_focus(target)  # now, not after yet another message: the person may switch tabs meanwhile

    @on(MainTabPane.FocusedHidden)
    def _refocus(self, event: MainTabPane.FocusedHidden) -> None:
        """A focus meant for a tab that is no longer shown landed: the keyboard goes back to the shown tab."""
        tabs = self.query_one(TabbedContent)
        shown = next((pane for pane in tabs.query(TabPane) if pane.id == tabs.active), None)
        target = self._focus_target(shown) if shown is not None else None
        if target is not None and target.is_attached:
            self.set_focus(target)

    def _cycle(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        panes = [pane.id for pane in tabs.query(TabPane) if pane.id]
        if len(panes) > 1 and tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]

    def action_next_tab(self) -> None:
        self._cycle(1)

    def action_previous_tab(self) -> None:
        self._cycle(-1)

    def open_work(self, pane: Widget | None = None) -> list[OpenWork]:
        """Tasks and runs that go on at their agents when their tabs close: in `pane`, or in every tab."""
        # By name: the views' modules are imported when the first one opens, not for this.
        views = cast("list[ConversationView | RunView]", list((pane or self).query("ConversationView, RunView")))
        return [work for view in views if (work := view.open_work()) is not None]

    async def action_close_tab(self) -> None:
        """Close the tab shown; one whose task is still open at the agent asks first (cancel, leave, stay)."""
        tabs = self.query_one(TabbedContent)
        pane_id = tabs.active
        if not pane_id or pane_id in ("agents-tab", "workflows-tab", "inbox-tab"):
            return
        work = self.open_work(tabs.get_pane(pane_id))
        if not work:
            await tabs.remove_pane(pane_id)
            return
        from .leave import LeaveWorkScreen

        def chosen(choice: str | None) -> None:
            if choice in ("cancel", "leave"):
                self.run_worker(self._close_and_let_go(pane_id, work, choice), group="close-tab")

        self.app.push_screen(LeaveWorkScreen(work, quitting=False), chosen)

    async def _close_and_let_go(self, pane_id: str, work: list[OpenWork], choice: str) -> None:
        from .leave import cancel_all, leave_all

        tabs = self.query_one(TabbedContent)
        if choice == "leave":
            outcome = await leave_all(work)
            if any(pane.id == pane_id for pane in tabs.query(TabPane)):
                await tabs.remove_pane(pane_id)
            self.notify("\n".join(outcome), title="Left running", timeout=30, markup=False)
            return
        # Closed first: the tab stops reading the stream, and the cancel is one request that needs no tab.
        if any(pane.id == pane_id for pane in tabs.query(TabPane)):
            await tabs.remove_pane(pane_id)
        self.notify("canceling… (the agent's answer may take a while)", timeout=5)
        outcome = await cancel_all(work)
        canceled = all(line.endswith(": canceled") for line in outcome)
        self.notify("\n".join(outcome), severity="information" if canceled else "warning", timeout=30, markup=False)

    def toggle_wire(self) -> None:
        """Show the wire view with the focus in it (its keys choose and open records); hidden, the focus goes back
        where it was."""
        wire = self.query_one(WireView)
        wire.toggle_class("-hidden")
        if not wire.has_class("-hidden"):
            self._before_wire = self.focused
            wire.focus()
        elif wire.has_focus or self.focused is None:
            before = getattr(self, "_before_wire", None)
            if before is not None and before.is_attached and before.display:
                before.focus()
            else:
                self.focus_next()

    def shown_view(self) -> tuple[str, ConversationView | RunView] | None:
        """The conversation or run of the shown tab, with its kind; None on the agents and workflows tabs."""
        tabs = self.query_one(TabbedContent)
        pane = next((p for p in tabs.query(TabPane) if p.id == tabs.active), None)
        for kind, selector in (("conversation", "ConversationView"), ("run", "RunView")):
            found = pane.query(selector) if pane is not None else None
            if found:
                return kind, cast("ConversationView | RunView", found.first())
        return None

    def action_export(self) -> None:
        from ..exporting import choices
        from .export import ExportScreen

        self.app.push_screen(ExportScreen(choices(self.app, self.shown_view())))

    def conversations(self) -> list[ConversationView]:
        return cast("list[ConversationView]", list(self.query("ConversationView")))
