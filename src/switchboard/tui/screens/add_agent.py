"""Add an agent by URL: the card is fetched to check the address, then the entry is saved to the agents file.
An agent that cannot be read right now (stopped, not deployed yet) can still be saved: "Add anyway" keeps the URL,
and its row says it is unreachable until it answers. Dismisses with the new agent's name, or None."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...a2a.cards import fetch_card
from ...a2a.errors import SwitchboardError
from ...a2a.user_input import check_agent_ref, check_agent_url
from ...agents import add_agent, new_entry_raw
from ..hints import error_text
from ..typed_app import switchboard_app

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class AddAgentScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="add.cancel")]
    app = switchboard_app

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog add-agent"):
            yield Static(Content.styled("Add an agent", "bold"))
            yield Label("URL (base URL, host:port, or card URL)")
            yield Input(placeholder="http://127.0.0.1:9101", id="url")
            yield Label("Name (from the card when left empty)")
            yield Input(placeholder="writer", id="name")
            yield Label("Protocol")
            yield Select([("A2A", "a2a"), ("REST task API", "tasks")], value="a2a", allow_blank=False, id="protocol")
            yield Label("Credential: the name of the environment variable that holds it, never the secret")
            with Horizontal(classes="credential-row"):
                yield Select([("API key", "apiKey"), ("Bearer token", "bearer")], value="apiKey", allow_blank=False,
                             id="credential-kind")  # fmt: skip
                yield Input(placeholder="e.g. WRITER_API_KEY (optional)", id="env")
            yield Static(id="add-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", variant="primary", id="add")
                yield Button("Add anyway", variant="warning", id="add-anyway")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        for field in self.query(Input):  # steady: no blinking cursor (the snapshots, a screen reader)
            field.cursor_blink = not getattr(self.app, "steady", False)
        self._offer_unreached(False)

    def _offer_unreached(self, shown: bool) -> None:
        """Show "Add anyway" only after the card could not be read, for the URL that was tried."""
        self.query_one("#add-anyway", Button).display = shown

    def _choice(self, selector: str) -> str:
        """The option chosen in one of the screen's Selects: none can be left blank (allow_blank=False)."""
        select: Select[str] = self.query_one(selector, Select)
        choice = select.selection
        assert choice is not None, selector
        return choice

    def _status(self, text: str, style: str = "$text-muted") -> None:
        self.query_one("#add-status", Static).update(Content.styled(text, style))

    @on(Input.Changed, "#url")
    def _check_as_typed(self, event: Input.Changed) -> None:
        """What is wrong with the URL, said while it is typed (the same check as on Add)."""
        url = event.value.strip()
        self._offer_unreached(False)  # it was offered for the URL that was tried, not for this one
        protocol = self._choice("#protocol")
        try:
            if url:
                (check_agent_url if protocol == "tasks" else check_agent_ref)(url, "the URL")
        except SwitchboardError as exc:
            self._status(exc.message, "$warning")
        else:
            self._status("")

    @on(Input.Submitted)
    @on(Button.Pressed, "#add")
    def _add(self) -> None:
        self.add()

    @on(Button.Pressed, "#add-anyway")
    def _add_anyway(self) -> None:
        self.add(unreached=True)

    @work(exclusive=True)
    async def add(self, unreached: bool = False) -> None:
        url = self.query_one("#url", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        env = self.query_one("#env", Input).value.strip()
        protocol = self._choice("#protocol")
        if not url:
            self._status("A URL is needed.", "$error")
            return
        try:  # the same check as the agents file's and the command line's
            (check_agent_url if protocol == "tasks" else check_agent_ref)(url, "the URL")
        except SwitchboardError as exc:
            self._status(error_text(exc, code=False), "$error")
            return
        if env and not _ENV_NAME.match(env):
            self._status("That is not an environment variable name (letters, digits, _).", "$error")
            return
        if protocol == "a2a" and unreached:
            name = name or _name_of_url(url)
        elif protocol == "a2a":
            self._status(f"Fetching the card from {url}…")
            try:
                resolved = await fetch_card(url, self.app.http, tap=self.app.tap)
            except SwitchboardError as exc:
                self._status(
                    f"{error_text(exc, code=False)}\nAdd anyway saves it as it is: its row says it is unreachable "
                    "until it answers.",
                    "$error",
                )
                self._offer_unreached(True)
                return
            name = name or _slug(resolved.card.name)
        elif not name:
            self._status("A REST task API agent needs a name.", "$error")
            return
        kind = self._choice("#credential-kind")
        raw = new_entry_raw(
            name, url, protocol=protocol, api_key_env=env if kind == "apiKey" else None,
            bearer_env=env if kind == "bearer" else None,
        )  # fmt: skip
        try:
            self.app.reload_registry(add_agent(self.app.registry, raw))
        except (SwitchboardError, OSError) as exc:
            self._status(getattr(exc, "message", str(exc)), "$error")
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def _slug(text: str) -> str:
    """An agents-file name: lower case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-") or "agent"


def _name_of_url(url: str) -> str:
    """A name for an agent added with no card to name it: its URL's host and port (127-0-0-1-9101)."""
    return _slug(urlsplit(url if "://" in url else f"//{url}").netloc or url)
