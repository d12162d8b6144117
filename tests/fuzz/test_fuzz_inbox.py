"""The inbox's untrusted-ish inputs: the remembered-questions file read back from disk (any bytes: never a crash,
only well-formed entries taken, bounded), and an agent's text on its way into a terminal notification escape (no
control character survives to end the sequence early or start another, the length is bounded)."""

from __future__ import annotations

import json
import re

from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.inbox.item import InboxItem
from switchboard.inbox.nudge import TEXT_MAX, notification_text, notify_environment, terminal_escapes
from switchboard.inbox.store import MAX_ENTRIES, MAX_QUESTION, STATES, parse_remembered

_JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
_FIELD = st.one_of(st.text(max_size=30), st.integers(), st.none(), st.floats(), st.lists(st.text(), max_size=2))
_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "agent": _FIELD,
        "agentUrl": _FIELD,
        "taskId": _FIELD,
        "contextId": _FIELD,
        "state": st.sampled_from([*STATES, "working", 3, None]),
        "question": _FIELD,
        "since": st.one_of(st.floats(allow_nan=True), st.integers(), st.booleans(), st.text(max_size=5)),
    },
)


def _check(found) -> None:
    assert len(found) <= MAX_ENTRIES
    for entry in found:
        assert entry.agent and entry.agent_url and entry.task_id and entry.state in STATES
        assert all(isinstance(v, str) for v in (entry.agent, entry.agent_url, entry.task_id, entry.context_id))
        assert len(entry.question) <= MAX_QUESTION
        assert entry.since is None or 0 < entry.since < 1e11


@fuzz(examples=300)
@given(st.binary(max_size=400))
@example(b'{"questions": [' + b"[" * 5000 + b"]}")
@example(b"\xff\xfe{}")
def test_any_bytes_read_as_remembered_questions_or_none(data):
    _check(parse_remembered(data))


@fuzz(examples=300)
@given(st.one_of(_JSON, st.fixed_dictionaries({"questions": st.lists(st.one_of(_ENTRY, _JSON), max_size=6)})))
def test_any_json_document_reads_as_well_formed_entries(doc):
    _check(parse_remembered(json.dumps(doc).encode()))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@fuzz(examples=400)
@given(st.text(max_size=600), st.integers(min_value=1, max_value=300))
@example("\x1b]9;evil\x07\x1b]777;notify;x;y\x1b\\\x9c", TEXT_MAX)
@example("4;3;100", TEXT_MAX)
def test_notification_text_has_no_control_and_is_bounded(text, limit):
    cleaned = notification_text(text, limit)
    assert not _CONTROL.search(cleaned)
    assert ";" not in cleaned
    assert len(cleaned) <= limit


@fuzz(examples=200)
@given(st.text(max_size=300), st.text(max_size=300), st.booleans())
def test_the_escapes_hold_exactly_the_sequences_we_write(who, question, tmux):
    item = InboxItem("task", who=who, question=question, state="input-required", since=None, where="tab",
                     agent_url="http://a", task_id="t")  # fmt: skip
    written = terminal_escapes(item, bell=True, desktop=True, tmux=tmux)
    if tmux:
        # Inside tmux's passthrough every ESC of ours is doubled; take the wrappers off to read what gets through.
        written = "".join(re.findall(r"\x1bPtmux;(.*?)\x1b\\", written, re.S)).replace("\x1b\x1b", "\x1b")
        written = "\a" + written
    assert written.count("\x1b") == 2 and written.count("\x07") == 3  # two OSCs, each ended by BEL, and the bell
    osc9, osc777 = re.fullmatch(r"\a(\x1b\]9;[^\x07\x1b]*\x07)(\x1b\]777;notify;[^\x07\x1b]*\x07)", written).groups()
    assert osc9.startswith("\x1b]9;switchboard: ")  # never a digit first (ConEmu's 9;4 progress)
    assert osc777.count(";") == 3  # 777 ; notify ; title ; body: the agent's text adds no field
    for value in notify_environment(item).values():
        assert "\x00" not in value and not _CONTROL.search(value)
