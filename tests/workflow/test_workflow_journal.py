"""The run journal: append-only JSONL, one line per record, fsync'd in groups off the event loop, redacted, a torn
last line tolerated."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
from workflow_support import artifact, snapshot, status

from switchboard.a2a.errors import UsageError
from switchboard.a2a.model import TaskState
from switchboard.a2a.redact import Redactor
from switchboard.a2a.wire import v10
from switchboard.workflow.journal import Journal, RunLockedError
from switchboard.workflow.runs import journal_path, list_runs, read_records, read_run
from switchboard.workflow.summary import is_running

STEPS = [
    {"name": "a", "type": "a2a", "agent": "x", "dependsOn": []},
    {"name": "b", "type": "shell", "dependsOn": ["a"]},
]


def started(journal: Journal, run_id: str) -> None:
    journal.write("RunStarted", runId=run_id, workflow="wf", file="/w.yaml", inputs={"topic": "t"}, steps=STEPS)


def test_records_are_lines_of_json_written_through_the_redactor(tmp_path):
    journal = Journal.create(tmp_path, "r1", Redactor(["s3cret-value"]))
    started(journal, "r1")
    journal.write("StepRequested", step="a", attempt=1, input="use s3cret-value please", correlationId="r1:delegate:a")
    journal.close()
    lines = (tmp_path / "r1.jsonl").read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["RunStarted", "StepRequested"]
    assert "s3cret-value" not in lines[1] and json.loads(lines[1])["input"] == "use [redacted] please"
    assert (tmp_path / "r1.jsonl").stat().st_mode & 0o777 == 0o600


def test_a_torn_last_line_is_skipped_on_read_and_cut_before_the_next_append(tmp_path):
    journal = Journal.create(tmp_path, "r2", Redactor())
    started(journal, "r2")
    journal.write("StepRequested", step="a", attempt=1)
    journal.close()
    path = tmp_path / "r2.jsonl"
    with open(path, "ab") as handle:
        handle.write(b'{"type":"StepEvent","step":"a","ev')  # the crash came mid-write
    records, skipped = read_records(path)
    assert [r["type"] for r in records] == ["RunStarted", "StepRequested"] and skipped == 1
    run = read_run("r2", tmp_path)
    assert run.status == "interrupted" and run.skipped_lines == 1 and run.steps["a"].status == "running"
    reopened = Journal.reopen(tmp_path, "r2", Redactor())
    reopened.write("RunResumed")
    reopened.close()
    records, skipped = read_records(path)
    assert [r["type"] for r in records] == ["RunStarted", "StepRequested", "RunResumed"] and skipped == 0


def test_a_journal_that_is_only_a_torn_line(tmp_path):
    path = tmp_path / "r3.jsonl"
    path.write_bytes(b'{"type":"RunSt')
    reopened = Journal.reopen(tmp_path, "r3", Redactor())
    reopened.write("RunResumed")
    reopened.close()
    assert [r["type"] for r in read_records(path)[0]] == ["RunResumed"]


def test_a_live_run_holds_its_journal_so_a_second_resume_is_refused(tmp_path):
    journal = Journal.create(tmp_path, "r4", Redactor())
    started(journal, "r4")
    assert is_running(tmp_path / "r4.jsonl")
    assert read_run("r4", tmp_path).status == "running"
    with pytest.raises(RunLockedError, match="running in another process"):
        Journal.reopen(tmp_path, "r4", Redactor())
    journal.close()
    assert not is_running(tmp_path / "r4.jsonl")
    assert read_run("r4", tmp_path).status == "interrupted"


def test_the_fold_rebuilds_steps_from_their_records(tmp_path):
    journal = Journal.create(tmp_path, "r5", Redactor())
    started(journal, "r5")
    journal.write("StepRequested", step="a", attempt=1, correlationId="r5:delegate:a", messageId="m1", input="go")
    for event in (
        snapshot("t1", TaskState.WORKING),
        artifact("t1", "partial "),
        status("t1", TaskState.INPUT_REQUIRED, "Name?"),
    ):
        journal.write("StepEvent", step="a", event=v10.encode_event(event))
    journal.write(
        "AwaitingInput", step="a", state="input-required", question=[{"text": "Name?"}], taskId="t1", contextId="ctx-1"
    )
    journal.write("RunAwaitingInput", status="awaiting_input", outputs={})
    journal.close()
    run = read_run("r5", tmp_path)
    step = run.steps["a"]
    assert run.status == "awaiting_input" and run.waiting == ["a"] and run.inputs == {"topic": "t"}
    assert (step.status, step.task_id, step.context_id, step.message_id) == ("waiting", "t1", "ctx-1", "m1")
    assert step.view.output_text == "partial " and step.question.text == "Name?"
    assert step.question.correlation_id == "r5:delegate:a"
    assert run.steps["b"].type == "shell" and run.steps["b"].depends_on == ["a"] and run.steps["b"].status == "pending"


def test_runs_are_listed_newest_first_and_found_by_a_unique_prefix(tmp_path):
    for run_id in ("20260101T000000-aaaaaa", "20260102T000000-bbbbbb", "20260102T000000-cccccc"):
        journal = Journal.create(tmp_path, run_id, Redactor())
        started(journal, run_id)
        journal.write("RunCompleted", status="completed", outputs={"x": "1"})
        journal.close()
    runs = list_runs(tmp_path)
    assert len(runs) == 3 and all(r.status == "completed" for r in runs)
    assert journal_path("20260101", tmp_path).stem == "20260101T000000-aaaaaa"
    with pytest.raises(UsageError, match="matches several runs"):
        journal_path("20260102", tmp_path)
    with pytest.raises(UsageError, match="there is no run nope"):
        journal_path("nope", tmp_path)
    with pytest.raises(UsageError, match="is not a run id"):
        journal_path("../etc/passwd", tmp_path)
    assert list_runs(tmp_path / "missing") == []


def test_fsyncs_run_off_the_writers_thread_and_one_covers_every_record_written_meanwhile(tmp_path, monkeypatch):
    real_fsync = os.fsync
    synced_from: list[str] = []

    def slow_fsync(fd: int) -> None:
        synced_from.append(threading.current_thread().name)
        time.sleep(0.05)  # a slow disk: records keep coming while it works
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    journal = Journal.create(tmp_path, "r9", Redactor())
    started(journal, "r9")
    for i in range(100):
        journal.write("StepNotice", step="a", text=f"note {i}")
    journal.close()  # returns once everything written is fsync'd
    records, skipped = read_records(tmp_path / "r9.jsonl")
    assert len(records) == 101 and skipped == 0
    assert synced_from and threading.current_thread().name not in synced_from
    assert len(synced_from) < 10  # grouped: not one fsync per record
    assert all(name == "journal-sync" for name in synced_from)


def test_one_syncer_thread_serves_every_journal_of_the_process(tmp_path):
    before = threading.active_count()
    journals = [Journal.create(tmp_path, f"r{i:03d}", Redactor()) for i in range(50)]
    for journal in journals:
        started(journal, journal.path.stem)
    assert threading.active_count() <= before + 1
    for journal in journals:
        journal.close()
    assert all(len(read_records(j.path)[0]) == 1 for j in journals)


def test_a_failed_fsync_is_raised_to_the_writer(tmp_path, monkeypatch):
    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    journal = Journal.create(tmp_path, "r10", Redactor())
    started(journal, "r10")
    with pytest.raises(OSError, match="Input/output error"):
        journal.close()


def test_the_journals_of_a_process_update_the_run_index_through_one_connection(tmp_path, monkeypatch):
    from switchboard.workflow import journal as journal_module
    from switchboard.workflow.index import RunIndex

    opened: list[object] = []
    real_open = RunIndex.open.__func__

    def counting_open(cls, directory, **kwargs):
        opened.append(directory)
        return real_open(cls, directory, **kwargs)

    monkeypatch.setattr(journal_module.RunIndex, "open", classmethod(counting_open))
    journals = [Journal.create(tmp_path, f"r{i:02d}", Redactor()) for i in range(20)]
    for i, journal in enumerate(journals):
        started(journal, f"r{i:02d}")
    for journal in journals:
        journal.write("RunCompleted", status="completed", outputs={})
        journal.close()  # each close tells the index the run's last state, and waits for it
    assert opened.count(tmp_path) == 1  # opening costs ten updates: not one per update, nor one per run
    runs = list_runs(tmp_path)
    assert len(runs) == 20 and all(r.status == "completed" for r in runs)
