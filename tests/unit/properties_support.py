"""Hypothesis strategies for the property tests: protocol objects, their wire JSON, and ways to break it."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    DataPart,
    FilePart,
    Message,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.wire.common import MAX_DEPTH

# What a terminal may act on: ESC and the other C0 controls but \t and \n, DEL, C1, bidi overrides, surrogates.
TERMINAL_ACTIVE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

HOSTILE_TEXT = (
    "[bold red]x[/]",
    "[link=http://evil.example]click[/link]",
    "[/]",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;pwned\x07",
    "\x1b]8;;http://evil\x07link\x1b]8;;\x07",
    "\x1b[2J",
    "over\rwrite",
    "back\bspace",
    "nul\x00byte",
    "bidi \u202eevil\u202c",
    "\x9b31m",
    "lone \ud800 surrogate",
)
LONG_LINE = "A" * 100_000


def deep_list(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def deep_dict(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = {"m": value}
    return value


def has_terminal_controls(text: str) -> bool:
    return TERMINAL_ACTIVE.search(text) is not None


texts = st.text(max_size=12) | st.sampled_from(HOSTILE_TEXT)
some_text = texts.filter(bool)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | texts
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3), max_leaves=8
)
metadata = st.none() | st.dictionaries(texts, json_values, max_size=3)

text_parts = st.builds(TextPart, text=texts, metadata=metadata)
file_parts = st.one_of(
    st.builds(FilePart, raw=st.sampled_from(["aGk=", "////"]), name=st.none() | some_text),
    st.builds(FilePart, url=st.sampled_from(["http://files.test/a.txt", "not a url"]), name=st.none() | some_text),
)
data_parts = st.builds(DataPart, data=st.dictionaries(texts, json_values, max_size=3), metadata=metadata)
parts = st.lists(text_parts | file_parts | data_parts, max_size=3)

task_ids = st.sampled_from(["t1", "t2"])
artifact_ids = st.sampled_from(["a1", "a2"])
states = st.sampled_from(list(TaskState))
optional_true = st.sampled_from([None, True])

messages = st.builds(
    Message,
    message_id=st.sampled_from(["m1", "m2", "m3"]),
    role=st.sampled_from(list(Role)),
    parts=parts,
    task_id=st.none() | task_ids,
    context_id=st.none() | st.just("c1"),
    metadata=metadata,
)
statuses = st.builds(
    TaskStatus,
    state=states,
    message=st.none() | messages,
    timestamp=st.none() | st.sampled_from(["2025-01-01T00:00:00Z", "2025-01-01T00:00:01+00:00"]),
)
artifacts = st.builds(Artifact, artifact_id=artifact_ids, name=st.none() | some_text, parts=parts, metadata=metadata)
status_updates = st.builds(StatusUpdate, task_id=task_ids, context_id=st.just("c1"), status=statuses)
artifact_updates = st.builds(
    ArtifactUpdate,
    task_id=task_ids,
    context_id=st.just("c1"),
    artifact=artifacts,
    append=optional_true,
    last_chunk=optional_true,
)
tasks = st.builds(
    Task,
    id=task_ids,
    context_id=st.just("c1"),
    status=statuses,
    history=st.none() | st.lists(messages, max_size=2),
    artifacts=st.none() | st.lists(artifacts, max_size=2),
    metadata=metadata,
)
events = st.one_of(status_updates, artifact_updates, tasks, messages)

# Values that do not belong where they are put: wrong types, unknown enum values, huge and deep values.
misplaced_values = st.one_of(
    st.sampled_from(
        [
            None,
            "",
            0,
            -1,
            1.5,
            True,
            [],
            {},
            "TASK_STATE_BOGUS",
            "bogus-state",
            "ROLE_ROBOT",
            "status-update",
            "artifactUpdate",
            LONG_LINE,
            10**40,
            *HOSTILE_TEXT,
        ]
    ),
    json_values,
    st.just(MAX_DEPTH + 6).map(deep_dict),
)
# Built when drawn (a strategy holding one would have to repr it): past the recursion limit of repr and json.
odd_values = misplaced_values | st.sampled_from([3000]).map(deep_list) | st.sampled_from([3000]).map(deep_dict)
# What json.dumps can still write, for documents sent as bytes.
writable_odd_values = misplaced_values


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """The places in a JSON document down to 12 levels, as tuples of keys and indexes (the root is ())."""
    found = [prefix]
    if len(prefix) >= 12:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def _replace(value: Any, path: tuple, new: Any, delete: bool) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    if not rest:
        if delete:
            del copy[head]
        else:
            copy[head] = new
    else:
        copy[head] = _replace(copy[head], rest, new, delete)
    return copy


@st.composite
def mutated(draw: st.DrawFn, document: Any, max_mutations: int = 3, values: st.SearchStrategy = odd_values) -> Any:
    """`document` with a few places replaced by odd values, removed, or given unknown fields."""
    for _ in range(draw(st.integers(1, max_mutations))):
        places = paths(document)
        path = draw(st.sampled_from(places))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "delete" and path:
            document = _replace(document, path, None, delete=True)
        elif action == "add":
            target = document
            for step in path:
                target = target[step]
            if isinstance(target, dict):
                document = _replace(document, (*path, draw(texts)), draw(values), delete=False)
        else:
            document = _replace(document, path, draw(values), delete=False)
    return document
