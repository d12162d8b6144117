"""grpc_events.plain_event builds, for a v1.0 gRPC stream's plain messages, the same events as the general path
(proto -> ProtoJSON -> v10.decode_event), and leaves everything else to it."""

from __future__ import annotations

import pytest
from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format

from switchboard.a2a.transports.grpc_events import plain_event
from switchboard.a2a.wire import v10
from switchboard.a2a.wire.common import Notes


def general(response: pb.StreamResponse):
    notes = Notes()
    event = v10.decode_event(json_format.MessageToDict(response), notes)
    return event, list(notes)


def chunk(**fields) -> pb.StreamResponse:
    artifact = fields.pop("artifact", None) or pb.Artifact(artifact_id="a-1", parts=[pb.Part(text='Grüße "x"\n')])
    update = pb.TaskArtifactUpdateEvent(task_id="t-1", context_id="c-1", artifact=artifact, **fields)
    return pb.StreamResponse(artifact_update=update)


def status(state=pb.TaskState.TASK_STATE_WORKING, message: pb.Message | None = None, **fields) -> pb.StreamResponse:
    task_status = pb.TaskStatus(state=state, message=message)
    update = pb.TaskStatusUpdateEvent(task_id="t-1", context_id="c-1", status=task_status, **fields)
    return pb.StreamResponse(status_update=update)


def agent_message(**fields) -> pb.Message:
    return pb.Message(**{"message_id": "m-1", "role": pb.Role.ROLE_AGENT, "parts": [pb.Part(text="step 2")], **fields})


def stamped() -> pb.StreamResponse:
    response = status(message=agent_message(task_id="t-1", context_id="c-1"))
    response.status_update.status.timestamp.FromJsonString("2026-11-23T20:00:00.123Z")
    return response


PLAIN = {
    "first chunk": chunk(),
    "appended chunk": chunk(append=True),
    "last chunk": chunk(append=True, last_chunk=True),
    "named chunk": chunk(
        artifact=pb.Artifact(artifact_id="a", name="answer", description="d", parts=[pb.Part(text="")])
    ),
    "chunk of no parts": chunk(artifact=pb.Artifact(artifact_id="a")),
    "chunk of two parts": chunk(artifact=pb.Artifact(artifact_id="a", parts=[pb.Part(text="1"), pb.Part(text="2")])),
    "working": status(),
    "completed": status(pb.TaskState.TASK_STATE_COMPLETED),
    "input-required with a question": status(pb.TaskState.TASK_STATE_INPUT_REQUIRED, agent_message()),
    "status with a timestamp and a message with ids": stamped(),
}


@pytest.mark.parametrize("response", PLAIN.values(), ids=PLAIN.keys())
def test_a_plain_message_becomes_the_event_the_general_path_builds(response: pb.StreamResponse) -> None:
    expected, notes = general(response)
    assert notes == []
    event = plain_event(response)
    assert event is not None
    assert event == expected
    assert event.model_dump() == expected.model_dump()
    assert event.model_fields_set == expected.model_fields_set


def with_metadata(message):
    message.metadata.update({"k": "v"})
    return message


OTHERS = {
    "task": pb.StreamResponse(task=pb.Task(id="t", context_id="c")),
    "message": pb.StreamResponse(message=agent_message()),
    "update metadata": chunk(metadata=with_metadata(pb.TaskArtifactUpdateEvent()).metadata),
    "artifact metadata": chunk(artifact=with_metadata(pb.Artifact(artifact_id="a", parts=[pb.Part(text="x")]))),
    "artifact extensions": chunk(artifact=pb.Artifact(artifact_id="a", extensions=["urn:x"])),
    "empty artifact id": chunk(artifact=pb.Artifact(parts=[pb.Part(text="x")])),
    "data part": chunk(artifact=pb.Artifact(artifact_id="a", parts=[pb.Part(data={"string_value": "x"})])),
    "file part": chunk(artifact=pb.Artifact(artifact_id="a", parts=[pb.Part(url="https://x", filename="f")])),
    "text part with a media type": chunk(
        artifact=pb.Artifact(artifact_id="a", parts=[pb.Part(text="x", media_type="text/markdown")])
    ),
    "no task id": pb.StreamResponse(artifact_update=pb.TaskArtifactUpdateEvent(context_id="c", artifact=pb.Artifact())),
    "unspecified state": status(pb.TaskState.TASK_STATE_UNSPECIFIED),
    "unspecified role": status(message=agent_message(role=pb.Role.ROLE_UNSPECIFIED)),
    "message without an id": status(message=agent_message(message_id="")),
    "message with references": status(message=agent_message(reference_task_ids=["t-0"])),
    "status update metadata": status(metadata=with_metadata(pb.TaskStatusUpdateEvent()).metadata),
    "no status": pb.StreamResponse(status_update=pb.TaskStatusUpdateEvent(task_id="t", context_id="c")),
    "nothing": pb.StreamResponse(),
}


@pytest.mark.parametrize("response", OTHERS.values(), ids=OTHERS.keys())
def test_anything_else_is_left_to_the_general_path(response: pb.StreamResponse) -> None:
    assert plain_event(response) is None
