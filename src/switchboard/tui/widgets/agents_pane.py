"""The home pane: every agent with whether it answers, its protocol, streaming, auth and skills."""

from __future__ import annotations

import asyncio

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable, Static

from ...agent_status import AgentStatus
from ...safe_text import strip_controls
from ..hints import tui_hint
from ..typed_app import switchboard_app
from .tables import RowTable, cursor_key, fill_table

COLUMNS = ("", "Agent", "Protocol", "Stream", "Auth", "Skills", "Address")
CHECKS_AT_ONCE = 8  # cards read at the same time: a long agents file must not open a connection per agent at once


def _yes(value: bool | None) -> str:
    return "—" if value is None else ("yes" if value else "no")


class AgentsPane(Vertical):
    """A table of agents; the highlighted one is described underneath."""

    app = switchboard_app

    BINDINGS = [
        Binding("enter", "converse", "Talk", id="agents.converse"),
        Binding("c", "card", "Card", id="agents.card"),
        Binding("r", "refresh", "Refresh", id="agents.refresh"),
        Binding("a", "add", "Add", id="agents.add"),
        Binding("x", "remove", "Remove", id="agents.remove"),
    ]

    class OpenConversation(Message):
        def __init__(self, status: AgentStatus, prefill: str = "") -> None:
            super().__init__()
            self.status = status
            self.prefill = prefill

    class ShowCard(Message):
        def __init__(self, status: AgentStatus) -> None:
            super().__init__()
            self.status = status

    class AddRequested(Message):
        """The person asked to add an agent: the screen asks which and writes the agents file."""

    class RemoveRequested(Message):
        """The person asked to remove an agent of their agents file: the screen confirms and writes the file."""

        def __init__(self, status: AgentStatus) -> None:
            super().__init__()
            self.status = status

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.statuses: dict[str, AgentStatus] = {}
        self._checks = asyncio.Semaphore(CHECKS_AT_ONCE)

    def compose(self) -> ComposeResult:
        yield RowTable(id="agents-table", zebra_stripes=True, enter="Talk")
        yield Static(id="agent-summary", markup=False)

    def on_mount(self) -> None:
        self.load_entries()
        self.query_one(DataTable).focus()
        minutes = self.app.settings.card_refresh_minutes
        self.set_interval(minutes * 60, self.refresh_all, name="card-refresh")

    # --- data ----------------------------------------------------------------------------------------

    def load_entries(self) -> None:
        """Show the agents file's entries at once, then check each card in the background."""
        known = self.statuses
        entries = self.app.agents()
        self.statuses = {e.name: known.get(e.name) or AgentStatus(e) for e in entries}
        for entry in entries:
            self.statuses[entry.name].entry = entry
        self.render_table()
        self.refresh_all()

    def refresh_all(self) -> None:
        """Read every agent's card again, CHECKS_AT_ONCE at a time; each row shows its own result."""
        for name in self.statuses:
            self.check(name)

    @work(group="cards")
    async def check(self, name: str) -> None:
        status = self.statuses.get(name)
        if status is None:
            return
        status.checking = True
        self.render_row(name)
        async with self._checks:
            fresh = await self.app.check(status.entry)
        if name in self.statuses:
            self.statuses[name] = fresh
            self.render_row(name)
            self.update_summary()

    # --- rendering -----------------------------------------------------------------------------------

    def _cells(self, status: AgentStatus) -> list[Content]:
        """Agent-supplied text goes in as plain Content: markup in it is shown, never interpreted."""
        if status.checking and status.checked_at is None:
            dot = Content.styled("◌", "$text-muted")
        elif status.reachable is None:
            dot = Content.styled("○", "$text-muted")
        elif status.reachable:
            dot = Content.styled("●", "$success")
        else:
            dot = Content.styled("●", "$error")
        name = Content.styled(strip_controls(status.entry.name), "bold")
        if status.trust is not None and status.trust.status != "unsigned":  # a signed card: whether it verified
            verified = status.trust.verified
            name = Content.assemble(name, (" ✓" if verified else " ✗", "$success" if verified else "$error"))
        if status.error is not None:
            where = Content.styled(strip_controls(status.error.message), "$error")
        else:
            where = Content.styled(status.entry.url, "$text-muted")
        kind = status.auth_kind
        auth = Content.styled(kind, "$warning") if kind else Content("—")
        skills = "—" if status.skill_count is None else str(status.skill_count)
        return [dot, name, Content(status.protocol), Content(_yes(status.streaming)), auth, Content(skills), where]

    def render_table(self) -> None:
        fill_table(self.query_one(DataTable), COLUMNS, {n: self._cells(s) for n, s in self.statuses.items()})
        self.update_summary()

    def render_row(self, name: str) -> None:
        self.render_table()

    def selected(self) -> AgentStatus | None:
        key = cursor_key(self.query_one(DataTable))
        return None if key is None else self.statuses.get(key)

    @on(DataTable.RowHighlighted)
    def update_summary(self) -> None:
        summary = self.query_one("#agent-summary", Static)
        status = self.selected()
        if status is None:
            summary.update(
                "No agents yet. Press a to add one by URL, or start switchboard with --demo for the demo fleet."
            )
            return
        lines: list[str] = []
        if status.error is not None:
            lines.append(f"{status.entry.url} — {status.error.message}")
            hint = tui_hint(status.error)
            if hint:
                lines.append(hint)
        elif status.card is not None:
            card = status.card
            lines.append(f"{card.name}  ·  {card.description}" if card.description else card.name)
            for skill in status.skills[:4]:
                examples = "   e.g. " + " · ".join(f"“{e}”" for e in skill.examples[:3]) if skill.examples else ""
                lines.append(f"  {skill.name}{examples}")
            if status.lint:
                lines.append(f"  {len(status.lint)} card warning(s) — press c to see them")
            if status.trust is not None and status.trust.status != "unsigned":
                lines.append(f"  card signature: {status.trust}")
        elif status.entry.protocol == "tasks":
            lines.append(f"{status.entry.name} — REST task API at {status.entry.url}")
            for skill in status.skills[:4]:
                examples = " · ".join(f"“{e}”" for e in skill.examples[:3])
                lines.append(f"  {skill.name}" + (f"   e.g. {examples}" if examples else ""))
        else:
            lines.append(f"{status.entry.url} — checking…")
        summary.update(strip_controls("\n".join(lines)))

    # --- actions -------------------------------------------------------------------------------------

    @on(DataTable.RowSelected)
    def action_converse(self) -> None:
        status = self.selected()
        if status is not None:
            self.post_message(self.OpenConversation(status))

    def action_card(self) -> None:
        status = self.selected()
        if status is not None:
            self.post_message(self.ShowCard(status))

    def action_refresh(self) -> None:
        """r: every agent, not only the highlighted one (a stopped agent must not stay green until chosen)."""
        if self.statuses:
            self.notify(f"reading {len(self.statuses)} agent card(s) again")
            self.refresh_all()

    def action_add(self) -> None:
        self.post_message(self.AddRequested())

    def action_remove(self) -> None:
        status = self.selected()
        if status is None:
            return
        if self.app.is_extra(status.entry.name):
            self.notify(f"{status.entry.name} belongs to the demo fleet, not to your agents file", severity="warning")
            return
        self.post_message(self.RemoveRequested(status))

    def forget(self, name: str) -> None:
        """`name` left the agents file: its row goes."""
        self.statuses.pop(name, None)
        self.load_entries()

    async def wait_for_checks(self) -> None:
        """For tests and screenshots: until every card check has finished."""
        while any(s.checking or s.checked_at is None for s in self.statuses.values()):
            await asyncio.sleep(0.02)
