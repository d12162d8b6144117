"""The run index: a page of runs read from SQLite beside the journals, always mended to what the journals say
(a crash between a journal write and an index write, a journal copied in, an index lost or corrupt)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from switchboard.a2a.redact import Redactor
from switchboard.workflow.index import INDEX_NAME, RunIndex
from switchboard.workflow.journal import Journal
from switchboard.workflow.runs import list_runs, query_runs, read_run

STEPS = [
    {"name": "a", "type": "a2a", "agent": "x", "dependsOn": []},
    {"name": "b", "type": "a2a", "agent": "x", "dependsOn": []},
    {"name": "c", "type": "shell", "dependsOn": ["a", "b"]},
]


def journal(directory, run_id, *records, workflow="wf", close=True) -> Journal:
    """A journal written by the real writer: RunStarted, then `records` as (kind, fields)."""
    writer = Journal.create(directory, run_id, Redactor())
    writer.write("RunStarted", runId=run_id, workflow=workflow, file="/w.yaml", inputs={}, steps=STEPS)
    for kind, fields in records:
        writer.write(kind, **fields)
    if close:
        writer.close()
    return writer


def completed(directory, run_id, workflow="wf"):
    return journal(
        directory,
        run_id,
        *[("StepRequested", {"step": s, "attempt": 1}) for s in "abc"],
        *[("StepCompleted", {"step": s, "output": s}) for s in "abc"],
        ("RunCompleted", {"status": "completed", "outputs": {}}),
        workflow=workflow,
    )


def waiting(directory, run_id, workflow="wf"):
    return journal(
        directory,
        run_id,
        ("StepRequested", {"step": "a", "attempt": 1}),
        ("StepRequested", {"step": "b", "attempt": 1}),
        ("StepFailed", {"step": "b", "code": "TIMEOUT", "error": "slow", "retrying": True}),
        ("StepRequested", {"step": "b", "attempt": 2}),
        ("StepCompleted", {"step": "b", "output": "b"}),
        ("AwaitingInput", {"step": "a", "state": "input-required", "question": [{"text": "Name?"}]}),
        ("RunAwaitingInput", {"status": "awaiting_input", "outputs": {}, "waiting": ["a"]}),
        workflow=workflow,
    )


def failed(directory, run_id, workflow="wf"):
    return journal(
        directory,
        run_id,
        ("StepRequested", {"step": "a", "attempt": 1}),
        ("StepFailed", {"step": "a", "code": "A2A_TASK_FAILED", "error": "no", "retrying": False}),
        ("StepCanceled", {"step": "b"}),
        ("StepSkipped", {"step": "c", "reason": "a failed"}),
        ("RunFailed", {"status": "failed", "outputs": {}}),
        workflow=workflow,
    )


def as_fold(directory, run_id):
    """What the full fold (the one `runs show` and `--resume` use) says, in the summary's shape."""
    return read_run(run_id, directory).summary()


def append(path, *records):
    with open(path, "ab") as handle:
        for record in records:
            handle.write((json.dumps(record, separators=(",", ":")) + "\n").encode())


def test_every_summary_is_what_the_full_fold_says(tmp_path):
    completed(tmp_path, "20260101T000001-aaaaaa")
    waiting(tmp_path, "20260101T000002-bbbbbb")
    failed(tmp_path, "20260101T000003-cccccc")
    journal(tmp_path, "20260101T000004-dddddd", ("StepRequested", {"step": "a", "attempt": 1}))  # interrupted
    live = journal(tmp_path, "20260101T000005-eeeeee", ("StepRequested", {"step": "a", "attempt": 1}), close=False)
    try:
        runs = list_runs(tmp_path)
        assert [r.run_id for r in runs] == [f"20260101T00000{n}-{c * 6}" for n, c in zip("54321", "edcba", strict=True)]
        assert runs == [as_fold(tmp_path, r.run_id) for r in runs]
        assert [r.status for r in runs] == ["running", "interrupted", "failed", "awaiting_input", "completed"]
        assert runs[3].waiting == ["a"] and runs[3].steps_completed == 1 and runs[2].failed == ["a"]
    finally:
        live.close()
    assert list_runs(tmp_path)[0].status == "interrupted"  # its process let go of it without an end


def test_the_writer_keeps_the_index_current_without_a_heal(tmp_path):
    completed(tmp_path, "20260101T000001-aaaaaa")
    waiting(tmp_path, "20260101T000002-bbbbbb")
    with RunIndex.open(tmp_path) as index:
        page = index.page()
    assert [(r.run_id, r.status) for r in page.runs] == [
        ("20260101T000002-bbbbbb", "awaiting_input"),
        ("20260101T000001-aaaaaa", "completed"),
    ]
    assert page.runs == list_runs(tmp_path)


def test_a_crash_between_the_journal_and_the_index_heals_on_the_next_read(tmp_path):
    run_id = "20260101T000001-aaaaaa"
    waiting(tmp_path, run_id)
    # Another process took the run on and wrote its journal, then died before (or instead of) telling the index.
    append(
        tmp_path / f"{run_id}.jsonl",
        {"type": "RunResumed", "at": "2026-01-01T00:01:00.000Z"},
        {"type": "InputSubmitted", "at": "2026-01-01T00:01:01.000Z", "step": "a", "answer": "Ada"},
        {"type": "StepEvent", "at": "2026-01-01T00:01:02.000Z", "step": "a", "event": {}},
        {"type": "StepCompleted", "at": "2026-01-01T00:01:03.000Z", "step": "a", "output": "hi Ada"},
    )
    with RunIndex.open(tmp_path) as index:
        assert index.page().runs[0].status == "awaiting_input"  # stale until healed
    [run] = list_runs(tmp_path)
    assert run.status == "interrupted" and run.waiting == [] and run.steps_completed == 2
    assert run == as_fold(tmp_path, run_id)
    append(tmp_path / f"{run_id}.jsonl", {"type": "RunCompleted", "at": "2026-01-01T00:02:00.000Z", "outputs": {}})
    assert list_runs(tmp_path)[0].status == "completed"


def test_a_torn_last_line_waits_until_it_is_whole(tmp_path):
    run_id = "20260101T000001-aaaaaa"
    journal(tmp_path, run_id, ("StepRequested", {"step": "a", "attempt": 1}))
    path = tmp_path / f"{run_id}.jsonl"
    with open(path, "ab") as handle:
        handle.write(b'{"type":"StepCompleted","at":"2026-01-01T00:00:09.000Z","step":"a","out')
    assert list_runs(tmp_path)[0].steps_completed == 0
    reopened = Journal.reopen(tmp_path, run_id, Redactor())  # cuts the torn line, goes on
    reopened.write("StepCompleted", step="a", output="a")
    reopened.write("RunCompleted", status="completed", outputs={})
    reopened.close()
    [run] = list_runs(tmp_path)
    assert (run.status, run.steps_completed) == ("completed", 1) and run == as_fold(tmp_path, run_id)


def test_journals_copied_in_removed_or_replaced_are_seen(tmp_path):
    completed(tmp_path, "20260101T000001-aaaaaa")
    list_runs(tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    failed(other, "20260101T000002-bbbbbb")
    os.replace(other / "20260101T000002-bbbbbb.jsonl", tmp_path / "20260101T000002-bbbbbb.jsonl")
    assert [r.status for r in list_runs(tmp_path)] == ["failed", "completed"]
    # The same name, another file (smaller than what the index had folded): folded again from its start.
    waiting(other, "20260101T000002-bbbbbb")
    os.replace(other / "20260101T000002-bbbbbb.jsonl", tmp_path / "20260101T000002-bbbbbb.jsonl")
    assert [r.status for r in list_runs(tmp_path)] == ["awaiting_input", "completed"]
    # Cut down in place (same file, shorter than the row's offset): folded again too.
    path = tmp_path / "20260101T000001-aaaaaa.jsonl"
    path.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")
    assert list_runs(tmp_path)[1].steps_completed == 0
    path.unlink()
    assert [r.run_id for r in list_runs(tmp_path)] == ["20260101T000002-bbbbbb"]


@pytest.mark.parametrize("damage", ["missing", "garbage", "other version"])
def test_an_index_lost_corrupt_or_of_another_version_is_rebuilt(tmp_path, damage):
    completed(tmp_path, "20260101T000001-aaaaaa")
    waiting(tmp_path, "20260101T000002-bbbbbb")
    expected = list_runs(tmp_path)
    index = tmp_path / INDEX_NAME
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"{INDEX_NAME}{suffix}").unlink(missing_ok=True)
    if damage == "missing":
        index.unlink()
    elif damage == "garbage":
        index.write_bytes(b"not a database at all" * 100)
    else:
        db = sqlite3.connect(index)
        db.execute("PRAGMA user_version = 99")
        db.execute("DELETE FROM runs")
        db.commit()
        db.close()
    assert list_runs(tmp_path) == expected


def test_an_index_that_cannot_be_made_there_is_made_in_memory(tmp_path):
    completed(tmp_path, "20260101T000001-aaaaaa")
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{INDEX_NAME}{suffix}").unlink(missing_ok=True)
    (tmp_path / INDEX_NAME).mkdir()  # in the way, and not removable as a file: as a read-only directory would be
    assert [r.status for r in list_runs(tmp_path)] == ["completed"]


def test_filters_and_pages(tmp_path):
    for n in range(7):
        maker = (completed, waiting, failed)[n % 3]
        maker(tmp_path, f"20260101T00000{n}-{n:06x}", workflow="even" if n % 2 == 0 else "odd")
    everything = query_runs(tmp_path)
    assert everything.total == 7 and everything.next_offset is None
    assert [r.run_id[-1] for r in everything.runs] == list("6543210")
    first = query_runs(tmp_path, limit=3)
    second = query_runs(tmp_path, limit=3, offset=first.next_offset)
    last = query_runs(tmp_path, limit=3, offset=second.next_offset)
    assert [len(p.runs) for p in (first, second, last)] == [3, 3, 1]
    assert first.runs + second.runs + last.runs == everything.runs and last.next_offset is None
    assert [r.run_id[-1] for r in query_runs(tmp_path, status="awaiting_input").runs] == ["4", "1"]
    assert [r.run_id[-1] for r in query_runs(tmp_path, workflow="even").runs] == ["6", "4", "2", "0"]
    assert [r.run_id[-1] for r in query_runs(tmp_path, workflow="even", waiting=True).runs] == ["4"]
    assert query_runs(tmp_path, status="running").total == 0
    assert query_runs(tmp_path / "missing").runs == []


def run_cli(home, *argv):
    env = {**os.environ, "SWITCHBOARD_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "switchboard", *argv], capture_output=True, text=True, env=env, timeout=60
    )


def test_runs_list_filters_and_pages_on_the_command_line(tmp_path):
    runs = tmp_path / "data" / "runs"
    runs.mkdir(parents=True)
    for n in range(5):
        (waiting if n % 2 else completed)(runs, f"20260101T00000{n}-{n:06x}")
    listed = run_cli(tmp_path, "runs", "list", "--status", "awaiting-input", "--limit", "1", "-o", "json")
    assert listed.returncode == 0, listed.stderr
    doc = json.loads(listed.stdout)
    assert [r["runId"] for r in doc["runs"]] == ["20260101T000003-000003"]
    assert (doc["total"], doc["offset"], doc["nextOffset"]) == (2, 0, 1)
    text = run_cli(tmp_path, "runs", "list", "--limit", "2", "--offset", "1").stdout
    assert "Run ID: 20260101T000003-000003\n" in text and "Run ID: 20260101T000002-000002\n" in text
    assert "Runs: 2\nMatching: 5\nNext Offset: 3\n" in text
    assert "Runs: 2\n" in run_cli(tmp_path, "runs", "list", "--waiting").stdout
    bad = run_cli(tmp_path, "runs", "list", "--offset", "-1")
    assert bad.returncode == 2 and "whole number from 0" in bad.stderr
