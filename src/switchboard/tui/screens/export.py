"""ctrl+o: choose what to export (the shown conversation or run in a format, or the wire as HAR)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..exporting import exports_dir, run_export


class ExportScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen OptionList { height: auto; max-height: 12; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export.cancel")]

    def __init__(self, options: list[tuple[str, Callable[[], Path]]]) -> None:
        super().__init__()
        self._choices = options

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Export (secrets redacted) to {exports_dir()}", markup=False)
            yield OptionList(*[Option(label, id=str(i)) for i, (label, _) in enumerate(self._choices)], id="export")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        _, export = self._choices[int(event.option.id or 0)]
        self.dismiss()
        run_export(self.app, export)

    def action_cancel(self) -> None:
        self.dismiss()
