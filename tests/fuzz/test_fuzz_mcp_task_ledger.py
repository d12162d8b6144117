"""The MCP bridge's task ledger reads files from the switchboard home, which anything on the machine may have
damaged: any bytes, and any JSON, read as an entry or as none, never an exception; and a task id a client sends
never names a path outside the ledger's folder."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st

from switchboard.mcp_bridge.task_ledger import LedgerEntry, TaskLedger, _entry, _read

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "mcp_task_id": JSON | st.text(max_size=30),
        "agent": JSON | st.text(max_size=30),
        "task_id": JSON | st.text(max_size=30),
        "context_id": JSON,
        "created_at": JSON,
        "ttl_ms": JSON,
        "status": JSON | st.sampled_from(["completed", "failed", "cancelled", "working"]),
        "message": JSON,
        "updated_at": JSON,
    },
)


@fuzz(examples=150)
@given(st.one_of(JSON, FIELDS))
def test_any_json_reads_as_an_entry_or_none(value):
    found = _entry(value)
    assert found is None or isinstance(found, LedgerEntry)


@fuzz(examples=100)
@given(st.binary(max_size=300))
def test_any_bytes_in_a_ledger_file_read_as_an_entry_or_none(blob):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.json"
        path.write_bytes(blob)
        assert _read(path) is None or isinstance(_read(path), LedgerEntry)


@fuzz(examples=100)
@given(st.text(max_size=40))
def test_a_task_id_from_a_client_never_leaves_the_folder(task_id):
    with tempfile.TemporaryDirectory() as home:
        ledger = TaskLedger(Path(home) / "ledger", 3_600_000)
        (Path(home) / "outside.json").write_text(json.dumps({"mcp_task_id": "outside"}))
        ledger.remember(LedgerEntry(task_id, "writer", "t", None, time.time(), 1000))
        assert ledger.find(task_id) is None or "/" not in task_id
        assert sorted(p.name for p in Path(home).iterdir()) in (["ledger", "outside.json"], ["outside.json"])
