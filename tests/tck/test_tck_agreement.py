"""The cross-check of issue 27: the official A2A TCK (vendored, pinned: tests/tck/vendor/README.md) and `switchboard
conformance` run against the same agents (the a2a-sdk 1.3 and @a2a-js/sdk reference servers over JSON-RPC and
HTTP+JSON, and the agent that breaks the spec one way per mode) agree on every area both judge, but for the
disagreements documented with their reason (known_disagreements.py, docs/conformance-vs-tck.md).
`python tests/tck/agreement.py` prints the table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from agreement import COLUMNS, Result, agents, compare, table
from areas import AREAS
from broken_agent import MODES
from known_disagreements import KNOWN

# One module, one worker: the agents and the TCK runs are shared by every test here (loadgroup keeps them together).
pytestmark = [pytest.mark.xdist_group("tck"), pytest.mark.interop]

DOC = Path(__file__).resolve().parents[2] / "docs" / "conformance-vs-tck.md"

# Each mode of the spec-breaking agent and the area it breaks; the TCK's verdict there.
BREACHES = {
    "json-stream": ("stream: wire", "fail"),
    "pondering": ("stream: events", "fail"),
    "backwards": ("stream: events", "fail"),
    "other-task": ("stream: events", "pass"),  # known: the TCK reads no event's taskId
    "garbled": ("stream: wire", "fail"),
    "cancel-input-required": ("cancel", "pass"),  # known: the TCK reads only the answered task's id
    "push-internal": ("push config: refused", "fail"),
    "no-error-info": ("error info", "fail"),
    "local-time": ("timestamps", "fail"),
    "history-ignored": ("history length", "fail"),  # on a task made by the TCK's scripts (broken_scripts.py)
    "subscription-closes": ("subscribe: until the end", "fail"),
    "error-info-once": ("error info", "pass"),  # known: the TCK reads the ErrorInfo of TaskNotFoundError only
    "wrong-reason": ("error info", "fail"),
    "artifact-no-id": ("artifacts", "fail"),
    "chunk-after-last": ("artifact chunks", None),  # a SHOULD (a warning of ours); the TCK reads no artifact update
    "artifact-lost": ("artifacts: in the task", None),  # the TCK reads no task after a stream
    "first-stream-only": ("subscribe: two streams", "fail"),
    "push-payload": ("push delivery", "fail"),
    "push-unsigned": ("push delivery: token", None),  # a SHOULD; the TCK checks the Authorization header only
    "push-no-auth": ("push delivery", "fail"),  # PUSH-DELIVER-001: the Authorization the config's authentication names
}
SHOULD_BREACHES = {"chunk-after-last", "push-unsigned"}  # ours warns there: the requirement is a SHOULD


@pytest.fixture(scope="module")
def result() -> Iterator[Result]:
    with agents() as urls:
        yield asyncio.run(compare(urls))


def test_the_tck_and_conformance_agree_wherever_both_judge_but_where_documented(result):
    unexplained = result.disagreements() - set(KNOWN)
    said = "\n".join(f"{area} on {column}:\n{result.why[(area, column)]}" for area, column in sorted(unexplained))
    assert not unexplained, f"{table(result)}\n\n{said}"
    # A documented disagreement that is gone (either side changed) leaves the list, and the docs, too.
    assert set(KNOWN) <= result.disagreements(), table(result)


def test_each_breaching_mode_fails_our_check_on_its_area_and_the_tcks_where_it_judges(result):
    assert set(BREACHES) == set(MODES)
    for mode, (area, tck) in BREACHES.items():
        column = f"broken:{mode}"
        ours = "warn" if mode in SHOULD_BREACHES else "fail"
        assert result.ours[(area, column)] == ours, (mode, result.why[(area, column)])
        assert result.tck[(area, column)] == tck, (mode, result.why[(area, column)])
        # the mode breaks that one area (a "stream" that is one JSON document breaks its events too): everywhere
        # else ours passes, or does not judge
        others = {a.name for a in AREAS if a.name != area and result.ours[(a.name, column)] == "fail"}
        assert others == ({"stream: events"} if mode == "json-stream" else set()), (mode, others)


def test_both_judge_most_areas_of_the_official_sdks_agents(result):
    """The agreement is not empty: on the SDK agents both sides judge most areas (the TCK skips the ones that need
    its own test agent's scripts: a task that completes on cue, one that waits for input)."""
    for column in (c.name for c in COLUMNS if c.agent != "broken"):
        judged = {area for area, where in result.both_judge() if where == column}
        assert len(judged) >= 15, (column, sorted(judged))
    # The reference servers break what KNOWN and test_conformance.py's KNOWN_BREACHES say, and nothing else.
    failed = {(area, column) for (area, column), v in result.ours.items() if v == "fail" and "broken" not in column}
    assert failed == {
        ("version: unsupported", "sdk13 JSON-RPC"),  # A2A-Version 1.1 served as 1.0
        ("version: unsupported", "sdk13 HTTP+JSON"),
        ("version: patch", "js JSON-RPC"),  # 1.0.3 refused
        ("version: patch", "js HTTP+JSON"),
        ("cancel: ended task", "js JSON-RPC"),  # a second cancel answered with the task
        ("cancel: ended task", "js HTTP+JSON"),
        ("version: empty", "js HTTP+JSON"),  # served as 1.0
        ("extended card", "js JSON-RPC"),  # declared only the v0.3 way, served at 1.0
        ("extended card", "js HTTP+JSON"),
    }, table(result)


def test_every_known_disagreement_is_explained_in_the_docs():
    text = DOC.read_text(encoding="utf-8")
    for area, column in KNOWN:
        assert f"**{area}** on `{column}`" in text, (area, column)
