"""A yes/no question as a small modal."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [Binding("escape", "no", "Cancel", id="confirm.cancel")]

    def __init__(self, question: str, *, confirm: str = "Yes", decline: str = "Cancel", safe: bool = False) -> None:
        """`safe`: the keyboard starts on `decline`, for a question whose yes cannot be taken back (enter pressed
        out of habit keeps things as they are)."""
        super().__init__()
        self.question = question
        self.confirm = confirm
        self.decline = decline
        self.safe = safe

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.confirm, variant="error", id="yes")
                yield Button(self.decline, id="no")

    def on_mount(self) -> None:
        if self.safe:
            self.query_one("#no", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)
