"""Exports: a conversation, a run or one `send` as Markdown, JSON or a self-contained HTML page, and the wire as
a HAR archive. One format per module; none imports a terminal library. Every export is redacted first
(redact.py), whatever its format.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..a2a.errors import UsageError
from ..a2a.redact import Redactor
from ..a2a.tap import WireRecord
from .transcript import Transcript

# Format name -> the file extension it is written with.
FORMATS = {"markdown": ".md", "json": ".json", "html": ".html", "har": ".har"}
_BY_SUFFIX = {".md": "markdown", ".markdown": "markdown", ".json": "json", ".html": "html", ".htm": "html"}
_BY_SUFFIX[".har"] = "har"


@dataclass
class Export:
    text: str
    attachments: dict[str, bytes] = field(default_factory=dict)  # path relative to the export's folder -> bytes


def format_of(path: Path) -> str:
    """The format a file name asks for by its extension; UsageError for one no format writes."""
    found = _BY_SUFFIX.get(path.suffix.lower())
    if found is None:
        names = ", ".join(sorted(_BY_SUFFIX))
        raise UsageError(
            f"{path.name}: no export format is written as {path.suffix or 'a file without extension'}",
            hint=f"End the file name with one of {names}.",
        )
    return found


def export_transcript(
    transcript: Transcript, fmt: str, redactor: Redactor, *, attachments_dir: str | None = None
) -> Export:
    """`transcript` in format `fmt` (markdown, json or html), its secrets redacted. Markdown writes inline files
    as attachments under `attachments_dir` (relative to the export) when given."""
    from .redact import redacted

    clean = redacted(transcript, redactor)
    if fmt == "markdown":
        from . import markdown

        rendered = markdown.render(clean, attachments_dir)
        return Export(rendered.text, rendered.attachments)
    if fmt == "json":
        from . import json_doc

        return Export(json_doc.render(clean))
    if fmt == "html":
        from . import html_page

        return Export(html_page.render(clean))
    raise UsageError(
        f"a {transcript.kind} exports as markdown, json or html, not {fmt}",
        hint="HAR is the wire's format: export it from the wire view, or `send --record FILE.har`.",
    )


def export_wire(records: Iterable[WireRecord], wall_start: float, redactor: Redactor) -> Export:
    """The wire records as a HAR archive, redacted."""
    from . import har

    return Export(har.render(records, wall_start, redactor))


def attachments_dir_for(path: Path) -> str:
    """Where a Markdown export at `path` keeps its attachments, relative to it: `NAME.files`."""
    return f"{path.stem}.files"


def write_export(export: Export, path: Path) -> list[Path]:
    """Write the export (atomically) and its attachments beside it; the paths written."""
    from ..files import write_atomically

    written = []
    for relative, content in export.attachments.items():
        target = path.parent / relative
        write_atomically(target, content)
        written.append(target)
    write_atomically(path, export.text)
    return [path, *written]
