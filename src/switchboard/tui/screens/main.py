"""The main screen: the agents tab, a tab per conversation (marked when it waits for you), the wire view."""

from __future__ import annotations

import itertools

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane

from ...agent_status import AgentStatus
from ..widgets.agents_pane import AgentsPane
from ..widgets.conversation_view import ConversationView
from ..widgets.wire_view import WireView

_ids = itertools.count(1)


class MainScreen(Screen):
    BINDINGS = [
        Binding("f1", "show_agents", "Agents", id="tabs.agents"),
        Binding("ctrl+pagedown,alt+right", "next_tab", "Next tab", id="tabs.next", show=False),
        Binding("ctrl+pageup,alt+left", "previous_tab", "Previous tab", id="tabs.previous", show=False),
        Binding("f4", "close_tab", "Close tab", id="tabs.close"),
    ]

    def compose(self) -> ComposeResult:
        yield Header(icon="☎")
        with TabbedContent(id="tabs"), TabPane("Agents", id="agents-tab"):
            yield AgentsPane(id="agents")
        yield WireView(id="wire", classes="-hidden")
        yield Footer()

    # --- conversations -------------------------------------------------------------------------------

    @on(AgentsPane.OpenConversation)
    async def _open(self, event: AgentsPane.OpenConversation) -> None:
        await self.open_conversation(event.status, event.prefill)

    async def open_conversation(self, status: AgentStatus, prefill: str = "") -> ConversationView:
        pane_id = f"conversation-{next(_ids)}"
        view = ConversationView(status, prefill)
        tabs = self.query_one(TabbedContent)
        await tabs.add_pane(TabPane(self._label(view), view, id=pane_id))
        tabs.active = pane_id
        return view

    def _label(self, view: ConversationView) -> Content:
        if view.waiting is not None:
            return Content.assemble(("✱ ", "bold $warning"), (view.agent_name, "bold $warning"))
        if view.running:
            return Content.assemble(("● ", "$primary"), view.agent_name)
        return Content(view.agent_name)

    @on(ConversationView.Changed)
    def _changed(self, event: ConversationView.Changed) -> None:
        pane = event.view.parent
        if isinstance(pane, TabPane) and pane.id:
            self.query_one(TabbedContent).get_tab(pane.id).label = self._label(event.view)

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

    @on(TabbedContent.TabActivated)
    def _focus_tab(self, event: TabbedContent.TabActivated) -> None:
        """Put the keyboard where the tab's work is: the agents table, the open prompt, or the message box."""
        pane = event.pane
        if pane.id == "agents-tab":
            self.query_one("#agents-table").focus()
            return
        prompts = pane.query("PromptPane Input")
        target = prompts.last() if prompts else pane.query("#message").first()
        self.call_after_refresh(target.focus)

    def _cycle(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        panes = [pane.id for pane in tabs.query(TabPane)]
        if len(panes) > 1 and tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]

    def action_next_tab(self) -> None:
        self._cycle(1)

    def action_previous_tab(self) -> None:
        self._cycle(-1)

    async def action_close_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        if tabs.active and tabs.active != "agents-tab":
            await tabs.remove_pane(tabs.active)

    def toggle_wire(self) -> None:
        self.query_one(WireView).toggle_class("-hidden")

    def conversations(self) -> list[ConversationView]:
        return list(self.query(ConversationView))
