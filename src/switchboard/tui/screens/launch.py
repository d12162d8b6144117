"""Launch a workflow: a form with one field per input (defaults filled in). Dismisses with the values."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ...safe_text import strip_controls


class LaunchScreen(ModalScreen[dict[str, str] | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="launch.cancel")]

    def __init__(self, workflow) -> None:
        super().__init__()
        self.workflow = workflow

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog launch"):
            yield Static(Content.styled(f"Run {strip_controls(self.workflow.name)}", "bold"))
            yield Static(Content(strip_controls(self.workflow.description or "")), classes="launch-description")
            for name, spec in self.workflow.inputs.items():
                need = " (required)" if spec.required and spec.default is None else ""
                yield Label(f"{name}{need}  {strip_controls(spec.description)}")
                yield Input(value=spec.default or "", id=f"input-{name}", name=name)
            yield Static(id="launch-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Run", variant="primary", id="run")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        fields = self.query(Input)
        (fields.first() if fields else self.query_one("#run", Button)).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#run")
    def _run(self) -> None:
        values = {field.name: field.value for field in self.query(Input) if field.name}  # each input's name
        missing = [
            name for name, spec in self.workflow.inputs.items()
            if spec.required and spec.default is None and not values.get(name, "").strip()
        ]  # fmt: skip
        if missing:
            self.query_one("#launch-status", Static).update(Content.styled(f"Needed: {', '.join(missing)}", "$error"))
            return
        self.dismiss(values)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
