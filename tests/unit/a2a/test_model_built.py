"""The builders that skip validation (model.built_*) must make the very objects validation makes: equal, with
the same fields in the same order, dumped, printed and copied alike, and as mutable."""

from __future__ import annotations

import pytest

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    TextPart,
    built_artifact,
    built_artifact_update,
    built_message,
    built_status,
    built_status_update,
    built_text_part,
)


def _message(build: bool) -> Message:
    if build:
        return built_message("m1", Role.AGENT, [built_text_part("hi")], "t1", None)
    return Message(message_id="m1", role=Role.AGENT, parts=[TextPart(text="hi")], task_id="t1", context_id=None)


def _artifact(build: bool) -> Artifact:
    if build:
        return built_artifact("a1", "answer", None, [built_text_part("x"), built_text_part("")])
    return Artifact(artifact_id="a1", name="answer", description=None, parts=[TextPart(text="x"), TextPart(text="")])


PAIRS = {
    "text part": (lambda: built_text_part("chunk"), lambda: TextPart(text="chunk")),
    "message": (lambda: _message(True), lambda: _message(False)),
    "status": (
        lambda: built_status(TaskState.WORKING, _message(True), "2026-01-01T00:00:00Z"),
        lambda: TaskStatus(state=TaskState.WORKING, message=_message(False), timestamp="2026-01-01T00:00:00Z"),
    ),
    "status without message": (
        lambda: built_status(TaskState.COMPLETED, None, None),
        lambda: TaskStatus(state=TaskState.COMPLETED, message=None, timestamp=None),
    ),
    "artifact": (lambda: _artifact(True), lambda: _artifact(False)),
    "status update": (
        lambda: built_status_update("t1", "c1", built_status(TaskState.WORKING, None, None), False),
        lambda: StatusUpdate(
            task_id="t1",
            context_id="c1",
            status=TaskStatus(state=TaskState.WORKING, message=None, timestamp=None),
            final=False,
        ),
    ),
    "artifact update": (
        lambda: built_artifact_update("t1", "c1", _artifact(True), True, None),
        lambda: ArtifactUpdate(task_id="t1", context_id="c1", artifact=_artifact(False), append=True, last_chunk=None),
    ),
}


@pytest.mark.parametrize("name", PAIRS)
def test_a_built_object_is_the_validated_one(name):
    build, validate = PAIRS[name]
    built, validated = build(), validate()
    assert type(built) is type(validated)
    assert built == validated
    assert list(built.__dict__) == list(type(validated).model_fields)
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump() == validated.model_dump()
    assert built.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)
    assert built.model_dump_json() == validated.model_dump_json()
    assert repr(built) == repr(validated)
    assert built.model_copy(deep=True) == validated
    assert built.__pydantic_extra__ is None and built.__pydantic_private__ is None


def test_built_objects_take_assignments_and_do_not_share_their_set_fields():
    first, second = built_text_part("a"), built_text_part("b")
    first.metadata = {"k": 1}
    assert first.model_fields_set == {"text", "metadata"}
    assert second.model_fields_set == {"text"}
    assert first == TextPart(text="a", metadata={"k": 1})
