"""Filling a DataTable with Content cells: DataTable does not measure Content, so columns are sized here, and it
draws a cell through Rich with no background under it, so each cell is drawn here against the table's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style as RichStyle
from rich.text import Text
from textual.binding import Binding
from textual.content import Content
from textual.style import Style
from textual.widgets import DataTable

MAX_WIDTH = 60


def _plain(cell: Content | str) -> str:
    return cell.plain if isinstance(cell, Content) else str(cell)


class TableCell:
    """A Content cell whose colours are worked out against the table's background when it is drawn (so also after
    a theme change). Given to DataTable as it is, `$text-muted` ("auto 60%": a share of whatever contrasts with
    the background) had no background to contrast with and came out black, on a dark table."""

    def __init__(self, content: Content, table: DataTable) -> None:
        self.content = content
        self.table = table

    def __str__(self) -> str:
        return self.content.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        under = Style.from_rich_style(self.table.rich_style)
        text = Text(end="", no_wrap=options.no_wrap or False)
        for piece, style in self.content.render(under, end=""):
            rich = style.rich_style if style else RichStyle()
            # The colour only: the table lays its own background (zebra stripes, the cursor) under the text.
            text.append(piece, RichStyle(color=rich.color, bold=rich.bold, italic=rich.italic, reverse=rich.reverse))
        yield text


class RowTable(DataTable):
    """A table whose cursor is a row: home and end go to the first and the last row (DataTable's own move to
    the first and last column, which a row cursor does not have, so they did nothing)."""

    BINDINGS = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, *, enter: str = "", **kwargs) -> None:
        """`enter` names what enter on a row does, in the footer: DataTable's own enter ("Select", not shown) is
        the focused widget's, so it hides the pane's binding for the same key that says it."""
        super().__init__(cursor_type="row", **kwargs)
        if enter:
            self._bindings.key_to_bindings["enter"] = [Binding("enter", "select_cursor", enter)]


def cursor_key(table: DataTable) -> str | None:
    """The key of the row under the cursor; None in an empty table."""
    if not table.row_count:
        return None
    return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value


def fill_table(table: DataTable, columns: Sequence[str], rows: Mapping[str, Sequence[Content | str]]) -> None:
    """Replace the table's columns and rows; the cursor stays on the same row key when it still exists."""
    current = cursor_key(table)
    widths = [
        min(MAX_WIDTH, max([len(label), *(len(_plain(row[i])) for row in rows.values())]))
        for i, label in enumerate(columns)
    ]
    table.clear(columns=True)
    for label, width in zip(columns, widths, strict=True):
        table.add_column(label, width=width)
    for key, cells in rows.items():
        table.add_row(*(TableCell(c, table) if isinstance(c, Content) else c for c in cells), key=key)
    if current is not None and current in rows:
        table.move_cursor(row=list(rows).index(current), animate=False)
