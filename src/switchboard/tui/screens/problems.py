"""A workflow file's problems, every one with its line and what to do about it, as a modal."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...safe_text import strip_controls


class ProblemsScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "close", "Close", id="problems.close")]

    def __init__(self, path: Path, headline: str, problems: list[tuple[int | None, str, str]]) -> None:
        super().__init__()
        self.path = path
        self.headline = headline
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog problems"):
            yield Static(Content.styled(strip_controls(f"{self.path.name}: {self.headline}"), "bold $error"))
            yield Static(Content.styled(str(self.path), "$text-muted"))
            with VerticalScroll(id="problem-list"):
                for line, what, fix in self.problems:
                    where = f"line {line}" if line else "file"
                    text = Content.assemble((f"{where:<9}", "bold"), strip_controls(what))
                    if fix:
                        text = Content("\n").join(
                            [text, Content.styled(f"{'':<9}Fix: {strip_controls(fix)}", "$text-muted")]
                        )
                    yield Static(text, classes="problem")
            check = f"switchboard run {self.path} --validate"
            yield Static(Content.styled(f"Once fixed, r reloads the list; {check} checks the file alone.", "italic"))
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", variant="primary", id="close")

    def on_mount(self) -> None:
        self.query_one("#problem-list").focus()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
