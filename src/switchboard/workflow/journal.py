"""The run journal: one append-only JSONL file per run, under DATA_DIR/runs/, that a crash cannot corrupt.

Every record is one line `{"type", "at", ...}`, passed through the redactor first, so no secret reaches the
disk, and written with one write() before the run goes on: from then on a killed or crashed process cannot
lose it. Making it durable against a power cut is the syncer thread's job (group commit): one fsync covers
every record written while the one before it ran, so the event loop never waits for the disk and two
hundred steps finishing at once cost a handful of fsyncs, not six hundred. `close` returns once all is
fsync'd. A crash can tear only the last line: readers (runs.py) skip it, and the next writer cuts it off
before appending. The running process holds an exclusive lock on the file, so a second `--resume` of a live
run is refused and `runs list` can tell a running run from one whose process died.

Records: RunStarted (workflow, file, digest, inputs, steps; the starter's correlationId and origin when given),
RunResumed, StepRequested (attempt, agent,
correlation id, message id, input), StepEvent (a v1.0 StreamResponse), StepNotice, StepTaskMoved (the agent
took an answer to a new task: its id, and the one before), AwaitingInput (state,
question, task and context ids), InputSubmitted (the answer, or only `secret: true`), StepCompleted (task id,
output), StepFailed (code, error, task id, retrying), StepCanceled, StepSkipped, and one of RunCompleted,
RunFailed, RunCanceled, RunAwaitingInput, RunInterrupted.

The run index (index.py) beside the journals is updated by the syncer thread too, after the records it
summarizes are on disk; a list of runs reads it, not the journals.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..a2a.errors import UsageError
from ..a2a.redact import Redactor
from .index import RunIndex
from .summary import SUMMARY_KINDS, SummaryFold

try:
    import fcntl
except ImportError:  # not on POSIX: no lock (summary.py reads the same absence as "not running")
    fcntl = None  # type: ignore[assignment]

WRITER_BUSY_TIMEOUT = 1.0  # seconds a writer waits for the index when others hold it; then the next read mends it


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RunLockedError(UsageError):
    """Another process is running this run."""


class Journal:
    """The writer. Use `create` for a new run and `reopen` to resume one."""

    def __init__(self, path: Path, fd: int, redactor: Redactor, fold: SummaryFold | None = None) -> None:
        self.path = path
        self.redactor = redactor
        self._fd: int | None = fd
        self._changed = threading.Condition()
        self._written = 0  # records written so far
        self._durable = 0  # records a finished fsync covers
        self._closing = False
        self._sync_error: OSError | None = None
        # What the run index is told: the summary as of `_offset` bytes, once they are durable.
        self._fold = fold or SummaryFold()
        self._offset = os.lseek(fd, 0, os.SEEK_END)
        self._inode = os.fstat(fd).st_ino
        self._summary_changed = True
        _INDEXES.journal_opened()

    @classmethod
    def create(cls, directory: Path, run_id: str, redactor: Redactor) -> Journal:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{run_id}.jsonl"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600)
        return cls._locked(path, fd, redactor)

    @classmethod
    def reopen(cls, directory: Path, run_id: str, redactor: Redactor) -> Journal:
        path = directory / f"{run_id}.jsonl"
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
        journal = cls._locked(path, fd, redactor)
        _cut_torn_tail(fd)
        journal._offset = os.lseek(fd, 0, os.SEEK_END)
        journal._fold.apply_lines(os.pread(fd, journal._offset, 0))
        return journal

    @classmethod
    def _locked(cls, path: Path, fd: int, redactor: Redactor) -> Journal:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise RunLockedError(
                    f"the run {path.stem} is running in another process",
                    hint="Let it finish, or stop that process first; `switchboard runs show RUN_ID` shows it.",
                ) from None
        return cls(path, fd, redactor)

    def write(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Append one record (the syncer thread fsyncs it); returns the record as written (before redaction)."""
        record = {"type": kind, "at": now_iso(), **fields}
        if self._fd is None:
            return record
        if self._sync_error is not None:
            raise self._sync_error
        line = self.redactor.text(json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str))
        data = (line + "\n").encode("utf-8")
        os.write(self._fd, data)
        with self._changed:
            self._offset += len(data)
            if kind in SUMMARY_KINDS:
                self._fold.apply(json.loads(line))  # as written: the index never holds what the journal does not
                self._summary_changed = True
            self._written += 1
        _SYNCER.mark(self)
        return record

    def _sync(self) -> None:
        """Called on the syncer thread: one fsync covers every record written so far; then the index is told."""
        with self._changed:
            fd, target = self._fd, self._written
            if fd is None or self._durable >= target or self._sync_error is not None:
                return
            summary = self._summary_snapshot()
        try:
            # Outside the lock: records go on being written meanwhile. The fd stays open: close() waits for
            # this fsync, since `_durable` is still behind.
            os.fsync(fd)
        except OSError as exc:
            with self._changed:
                self._sync_error = exc
                self._changed.notify_all()
            return
        if summary is not None:
            # Before `_durable` moves: close() waits for it, so the run's last word in the index is close()'s.
            self._update_index(summary, alive=True)
        with self._changed:
            self._durable = max(self._durable, target)
            self._changed.notify_all()

    def _summary_snapshot(self) -> tuple[int, SummaryFold] | None:
        """(offset, summary) when the summary changed since the index was last told (under the lock)."""
        if not self._summary_changed:
            return None
        self._summary_changed = False
        return self._offset, SummaryFold.from_json(json.loads(json.dumps(self._fold.to_json())))

    def _update_index(self, summary: tuple[int, SummaryFold] | None = None, *, alive: bool) -> None:
        """Tell the run index; a failure is left for the next reader to mend."""
        if summary is None:
            summary = (self._offset, self._fold)  # closing: every record is durable
        try:
            _INDEXES.record(self.path.parent, self.path.stem, self._inode, summary, alive=alive)
        except Exception:
            pass  # the index is a cache: `heal` rebuilds what is missing

    def close(self) -> None:
        """Wait until every record is fsync'd, tell the index the run's last state, then close (and unlock)."""
        if self._fd is None:
            return
        with self._changed:
            self._closing = True
            while self._durable < self._written and self._sync_error is None:
                self._changed.wait()
            fd, self._fd = self._fd, None
        try:
            if self._sync_error is None:
                self._update_index(alive=False)
        finally:
            _INDEXES.journal_closed()
        try:
            if self._sync_error is not None:
                raise self._sync_error
        finally:
            os.close(fd)


class _Indexes:
    """The run index connections the process's journals update: one per directory, opened at its first update
    and kept while any journal of the process is open (closed with the last). Opening one costs about ten times
    an update (the connection, WAL and schema checks), and a run updates the index a few times; one connection
    for every run in flight, not one per update and not one per run. Updates take turns on it under a lock (the
    index's own write lock serialises them anyway)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Path, RunIndex] = {}
        self._journals = 0  # journals of this process not yet closed
        if hasattr(os, "register_at_fork"):  # a child must not use its parent's connections
            os.register_at_fork(after_in_child=self._forget)

    def journal_opened(self) -> None:
        with self._lock:
            self._journals += 1

    def journal_closed(self) -> None:
        with self._lock:
            self._journals -= 1
            if self._journals <= 0:
                self._journals = 0
                indexes, self._open = list(self._open.values()), {}
                for index in indexes:
                    index.close()

    def record(
        self, directory: Path, run_id: str, inode: int, summary: tuple[int, SummaryFold], *, alive: bool
    ) -> None:
        with self._lock:
            index = self._open.get(directory)
            if index is None:
                index = self._open[directory] = RunIndex.open(directory, busy_timeout=WRITER_BUSY_TIMEOUT)
            try:
                index.record(run_id, inode, summary[0], summary[1], alive=alive)
            except BaseException:
                del self._open[directory]  # the next update opens it afresh (remade when broken)
                index.close()
                raise

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._open, self._journals = {}, 0


_INDEXES = _Indexes()


class _Syncer:
    """The one thread of the process that fsyncs journals: each journal with records not yet durable, in turn.

    One thread for every run, not one per run: a server with hundreds of runs in flight would otherwise keep
    hundreds of threads contending with its event loop. Started on first use (again after a fork).
    """

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._dirty: dict[Journal, None] = {}  # an ordered set: journals wait their turn in the order written
        self._thread: threading.Thread | None = None

    def mark(self, journal: Journal) -> None:
        with self._ready:
            self._dirty[journal] = None
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="journal-sync", daemon=True)
                self._thread.start()
            self._ready.notify()

    def _loop(self) -> None:
        while True:
            with self._ready:
                while not self._dirty:
                    self._ready.wait()
                batch = list(self._dirty)
                self._dirty.clear()
            for journal in batch:
                journal._sync()


_SYNCER = _Syncer()


def _cut_torn_tail(fd: int) -> None:
    """A crash mid-write leaves a last line without its newline: drop it so the next record starts clean."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0:
        return
    keep, chunk = size, 4096
    while keep > 0:
        start = max(0, keep - chunk)
        data = os.pread(fd, keep - start, start)
        if keep == size and data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n")
        if cut >= 0:
            os.ftruncate(fd, start + cut + 1)
            return
        keep = start
    os.ftruncate(fd, 0)
