"""Filling a DataTable with Content cells: DataTable does not measure Content, so columns are sized here."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import DataTable

MAX_WIDTH = 60


def _plain(cell: Content | str) -> str:
    return cell.plain if isinstance(cell, Content) else str(cell)


def fill_table(table: DataTable, columns: Sequence[str], rows: dict[str, Sequence[Content | str]]) -> None:
    """Replace the table's columns and rows; the cursor stays on the same row key when it still exists."""
    current = None
    if table.row_count:
        current = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
    widths = [
        min(MAX_WIDTH, max([len(label), *(len(_plain(row[i])) for row in rows.values())]))
        for i, label in enumerate(columns)
    ]
    table.clear(columns=True)
    for label, width in zip(columns, widths, strict=True):
        table.add_column(label, width=width)
    for key, cells in rows.items():
        table.add_row(*cells, key=key)
    if current in rows:
        table.move_cursor(row=list(rows).index(current), animate=False)
