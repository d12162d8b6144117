"""The floor of the TUI's first screen: a minimal Textual app with the widgets our first screen shows (the
header, two tabs, the agents table with the same columns and a summary line, the footer with the same Quit
key), which reads one agent card with httpx and json.loads and shows it as one row.

    python bench/minimal_tui.py URL

Nothing of switchboard is imported: what it costs is Textual's start-up, its first layout and paint, and the
card's fetch, which our first screen cannot do without either.
"""

from __future__ import annotations

import json
import sys

import httpx
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane

COLUMNS = ("", "Agent", "Protocol", "Stream", "Auth", "Skills", "Address")


class Minimal(App[None]):
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        yield Header(icon="☎")
        with TabbedContent():
            with TabPane("Agents"):
                yield DataTable(zebra_stripes=True)
                yield Static(id="summary")
            with TabPane("Workflows"):
                yield Static("no runs")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self.run_worker(self.read_card())

    async def read_card(self) -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            response = await http.get(self.url + ".well-known/agent-card.json")
        card = json.loads(response.content)
        version = card.get("supportedInterfaces", [{}])[0].get("protocolVersion", "1.0")
        streaming = "yes" if card.get("capabilities", {}).get("streaming") else "no"
        self.query_one(DataTable).add_row(
            "●", "echo", version, streaming, "-", str(len(card.get("skills", []))), self.url
        )
        self.query_one("#summary", Static).update(card.get("name", ""))


if __name__ == "__main__":
    Minimal(sys.argv[1]).run()
