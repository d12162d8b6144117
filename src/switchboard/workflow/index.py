"""The run index: one small SQLite file beside the journals, so a list of runs reads a page, not every journal.

The journals stay the source of truth; the index is a cache of each run's summary that anything may rebuild.
Each row remembers how far into its journal it has folded (`offset`, always a line start) and which file that
was (`inode`). Before answering, `heal` looks at the directory: a journal with no row, or a different file, is
folded whole; one that grew is folded from the row's offset on (only the new lines, and of those only the few
that change a summary); a row whose journal is gone is dropped. So a writer that crashed between a journal
write and an index write, a journal copied in by hand, or an index deleted, corrupt or from another version
are all mended on the next read. A run the records leave running is probed for its lock each time (its
process may have died since).

Writers (the journal's syncer thread) update a run's row after the records it covers are on disk. Nothing
here waits for the disk (synchronous=OFF): what a crash loses, `heal` rebuilds. Stdlib only.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import data_dir
from .summary import RunSummary, SummaryFold, is_running

INDEX_NAME = "index.sqlite3"
SCHEMA_VERSION = 1
BUSY_TIMEOUT = 5.0  # seconds to wait for another process's write
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  inode INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  fold TEXT NOT NULL,
  workflow TEXT NOT NULL,
  status TEXT NOT NULL,
  sort_at REAL NOT NULL,
  waiting INTEGER NOT NULL,
  summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_newest ON runs (sort_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status, sort_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS runs_workflow ON runs (workflow, sort_at DESC, run_id DESC);
"""
# Last writer wins: a row is always a true summary of its journal's first `offset` bytes, so one that a slow
# reader puts over a writer's newer one is only behind, and the next `heal` folds the rest.
_UPSERT = """
INSERT OR REPLACE INTO runs (run_id, inode, offset, fold, workflow, status, sort_at, waiting, summary)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
STATUSES = ("running", "completed", "failed", "canceled", "awaiting_input", "interrupted")


def default_dir() -> Path:
    """Where the journals (and their index) live: DATA_DIR/runs."""
    return data_dir() / "runs"


@dataclass
class RunPage:
    """One page of runs, newest first, and how many runs match in all."""

    runs: list[RunSummary]
    total: int
    offset: int

    @property
    def next_offset(self) -> int | None:
        """Where the next page starts (None: this was the last)."""
        end = self.offset + len(self.runs)
        return end if end < self.total else None


def _row(run_id: str, inode: int, offset: int, fold: SummaryFold, summary: RunSummary) -> tuple[Any, ...]:
    doc = {
        "path": summary.path,
        "startedAt": summary.started_at,
        "endedAt": summary.ended_at,
        "stepsTotal": summary.steps_total,
        "stepsCompleted": summary.steps_completed,
        "waiting": summary.waiting,
        "failed": summary.failed,
    }
    return (
        run_id,
        inode,
        offset,
        json.dumps(fold.to_json(), separators=(",", ":")),
        summary.workflow,
        summary.status,
        summary.started_at or 0.0,
        1 if summary.waiting else 0,
        json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
    )


def _summary(run_id: str, workflow: str, status: str, text: str, journal: Path) -> RunSummary:
    doc = json.loads(text)
    return RunSummary(
        run_id,
        workflow,
        doc.get("path", ""),
        status,  # type: ignore[arg-type]
        doc.get("startedAt"),
        doc.get("endedAt"),
        doc.get("stepsTotal", 0),
        doc.get("stepsCompleted", 0),
        list(doc.get("waiting") or []),
        list(doc.get("failed") or []),
        journal,
    )


class RunIndex:
    """The index of the journals in `directory`. Open it with `RunIndex.open`; `close` when done."""

    def __init__(self, directory: Path, db: sqlite3.Connection) -> None:
        self.directory = directory
        self.db = db

    @classmethod
    def open(cls, directory: Path, *, busy_timeout: float = BUSY_TIMEOUT) -> RunIndex:
        """The directory's index, made (or remade, when unreadable or of another version) as needed.

        A directory where it cannot be written gets an index in memory: slower, never wrong.
        """
        path = directory / INDEX_NAME
        try:
            return cls(directory, _connect(path, busy_timeout))
        except sqlite3.DatabaseError:
            pass
        for suffix in ("", "-wal", "-shm"):  # not an index we can read: it is only a cache, start again
            try:
                os.unlink(f"{path}{suffix}")
            except OSError:
                pass
        try:
            return cls(directory, _connect(path, busy_timeout))
        except sqlite3.Error:
            return cls(directory, _connect(":memory:", busy_timeout))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> RunIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- keeping it true to the journals ---------------------------------------------------------------

    def heal(self) -> int:
        """Bring every row up to its journal (see the module's doc); how many rows changed."""
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            entries = []
        files: dict[str, tuple[int, int]] = {}
        for entry in entries:
            name = entry.name
            if not name.endswith(".jsonl"):
                continue
            try:
                size = entry.stat().st_size
            except OSError:
                continue  # removed meanwhile
            files[name[:-6]] = (entry.inode(), size)
        rows = {
            run_id: (inode, offset, status)
            for run_id, inode, offset, status in self.db.execute("SELECT run_id, inode, offset, status FROM runs")
        }
        changed: list[tuple[Any, ...]] = []
        for run_id, (inode, size) in files.items():
            row = rows.get(run_id)
            if row is not None and row[0] == inode and row[1] == size and row[2] != "running":
                continue  # nothing new: most rows, every time
            path = self.directory / f"{run_id}.jsonl"
            if row is not None and row[0] == inode and row[1] == size:
                if is_running(path):
                    continue  # still running: the row stands
                fold, offset = self._fold_of(run_id), row[1]
            elif row is not None and row[0] == inode and row[1] < size:
                fold = self._fold_of(run_id)
                offset = row[1] + _fold_file(fold, path, row[1])
            else:
                fold = SummaryFold()
                offset = _fold_file(fold, path, 0)
            summary = fold.summary(run_id, path)
            changed.append(_row(run_id, inode, offset, fold, summary))
        gone = [(run_id,) for run_id in rows.keys() - files.keys()]
        if changed or gone:
            try:
                with self.db:
                    self.db.executemany(_UPSERT, changed)
                    self.db.executemany("DELETE FROM runs WHERE run_id = ?", gone)
            except sqlite3.OperationalError:
                pass  # busy or read-only: the next read mends it; this one answers from what it folded
        return len(changed) + len(gone)

    def _fold_of(self, run_id: str) -> SummaryFold:
        row = self.db.execute("SELECT fold FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return SummaryFold.from_json(json.loads(row[0]))

    def record(self, run_id: str, inode: int, offset: int, fold: SummaryFold, *, alive: bool) -> None:
        """A writer's update: its run's summary as of `offset` bytes of the journal (all on disk)."""
        summary = fold.summary(run_id, self.directory / f"{run_id}.jsonl", alive=alive)
        with self.db:
            self.db.execute(_UPSERT, _row(run_id, inode, offset, fold, summary))

    # --- reading -----------------------------------------------------------------------------------------

    def page(
        self,
        *,
        status: str | None = None,
        workflow: str | None = None,
        waiting: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> RunPage:
        """Runs newest first, filtered (status, workflow name, a step waiting for input), `limit` from `offset`."""
        where, params = [], []
        if status:
            where.append("status = ?")
            params.append(status)
        if workflow:
            where.append("workflow = ?")
            params.append(workflow)
        if waiting:
            where.append("waiting = 1")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.db.execute(f"SELECT count(*) FROM runs {clause}", params).fetchone()[0]
        rows = self.db.execute(
            f"SELECT run_id, workflow, status, summary FROM runs {clause} "
            "ORDER BY sort_at DESC, run_id DESC LIMIT ? OFFSET ?",
            [*params, -1 if limit is None else limit, max(0, offset)],
        ).fetchall()
        runs = [
            _summary(run_id, name, state, text, self.directory / f"{run_id}.jsonl")
            for run_id, name, state, text in rows
        ]
        return RunPage(runs, total, max(0, offset))


def _connect(path: Path | str, busy_timeout: float) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=busy_timeout, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=OFF")  # a cache: what a crash loses is rebuilt from the journals
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            db.executescript(
                f"BEGIN; DROP TABLE IF EXISTS runs; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
        return db
    except sqlite3.Error:
        db.close()
        raise


def _fold_file(fold: SummaryFold, path: Path, start: int) -> int:
    """Fold the journal's whole lines from `start`; how many bytes were folded."""
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            data = handle.read()
    except OSError:
        return 0
    return fold.apply_lines(data)
