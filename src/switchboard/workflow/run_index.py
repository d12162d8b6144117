"""The runs of a journal directory, kept up to date cheaply for a view that lists them as they happen."""

from __future__ import annotations

from pathlib import Path

from .journal import RunSummary, default_dir, fold, read_records


class RunIndex:
    """Every run of a journal directory, newest first, kept up to date cheaply: a journal is read again only
    when it changed (size or time) or its run was still going (its process may have died since).

    For a view that lists runs as they happen (the TUI's Workflows tab polls it), where a run may come from
    another process: `switchboard run`, or a caller of `switchboard serve`.
    """

    def __init__(self, journal_dir: Path | None = None) -> None:
        self.journal_dir = journal_dir
        self._known: dict[Path, tuple[int, int, RunSummary]] = {}

    def runs(self) -> list[RunSummary]:
        directory = self.journal_dir or default_dir()
        if not directory.is_dir():
            self._known.clear()
            return []
        seen: dict[Path, tuple[int, int, RunSummary]] = {}
        for path in directory.glob("*.jsonl"):
            try:
                stat = path.stat()
            except OSError:
                continue
            known = self._known.get(path)
            if known and known[:2] == (stat.st_mtime_ns, stat.st_size) and known[2].status != "running":
                seen[path] = known
                continue
            try:
                records, _ = read_records(path)
            except OSError:
                continue
            seen[path] = (stat.st_mtime_ns, stat.st_size, fold(records, path.stem, journal=path).summary())
        self._known = seen
        return sorted((s for *_, s in seen.values()), key=lambda r: (r.started_at or 0, r.run_id), reverse=True)
