"""A long stream made of a real capture: the reducer's artifact text is exactly the chunks, concatenated.

The chunked-artifact captures of both wires (tests/fixtures/transcripts) are replayed with their middle
chunk repeated, byte for byte, and cut into transport reads that split frames anywhere. The expected text is
read from the frames' JSON independently of the codecs.
"""

from __future__ import annotations

import json

import httpx
import pytest
from transcripts import ROOT

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.model import Artifact, ArtifactUpdate, DataPart, TaskState, TextPart
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.turn import TaskView

BASE = "http://agent.test/"
REPEATS = 3000
READ_SIZE = 997  # a prime, so reads end in every place of a frame

WIRES = {
    "1.0": ("v10-jsonrpc/v10-01-agent-card.json", "v10-jsonrpc/v10-31-stream-followup-chunked-artifact.sse"),
    "0.3": (
        "v03-jsonrpc-sdk03-native/v03-01-agent-card.json",
        "v03-jsonrpc-sdk03-native/v03-31-stream-followup-chunked-artifact.sse",
    ),
}


def card(wire: str):
    raw = json.loads((ROOT / WIRES[wire][0]).read_text())
    if wire == "1.0":
        raw["supportedInterfaces"] = [{"url": BASE, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]
    else:
        raw["url"] = BASE
    return parse_card(raw)


def frames(wire: str) -> list[bytes]:
    raw = (ROOT / WIRES[wire][1]).read_bytes()
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    return [block + sep for block in raw.split(sep) if block.strip()]


def chunk_of(frame: bytes) -> tuple[str, str, bool] | None:
    """(artifact id, text, append) of an artifact-update frame, read straight from its JSON."""
    result = json.loads(frame.decode().removeprefix("data:"))["result"]
    update = result.get("artifactUpdate", result if result.get("kind") == "artifact-update" else None)
    if update is None:
        return None
    parts = update["artifact"]["parts"]
    return update["artifact"]["artifactId"], "".join(p.get("text", "") for p in parts), bool(update.get("append"))


def replicated(wire: str) -> list[bytes]:
    """The capture with its one appended middle chunk ("Grace") sent REPEATS times."""
    recorded = frames(wire)
    middle = [i for i, f in enumerate(recorded) if (c := chunk_of(f)) and c[2] and c[1] == "Grace"]
    assert len(middle) == 1, "the capture changed: expected one appended 'Grace' chunk"
    i = middle[0]
    return recorded[:i] + [recorded[i]] * REPEATS + recorded[i + 1 :]


class Reads(httpx.AsyncByteStream):
    def __init__(self, body: bytes):
        self.body = body

    async def __aiter__(self):
        for start in range(0, len(self.body), READ_SIZE):
            yield self.body[start : start + READ_SIZE]


@pytest.mark.parametrize("wire", ["1.0", "0.3"])
async def test_the_reducers_text_for_a_replicated_stream_is_the_chunks_concatenated(wire):
    stream = replicated(wire)
    expected: dict[str, str] = {}
    for frame in stream:
        chunk = chunk_of(frame)
        if chunk:
            artifact_id, text, append = chunk
            expected[artifact_id] = (expected.get(artifact_id, "") if append else "") + text
    assert len(expected["greeting-artifact"]) > REPEATS * len("Grace")

    def agent(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Reads(b"".join(stream)))

    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(card(wire), card_url=BASE + ".well-known/agent-card.json", http=http)
        assert client.endpoint.version == wire
        view = TaskView()
        async for event in client.stream(new_message("Grace")):
            view.apply(event)

    assert view.events == len(stream)
    assert {a: v.text for a, v in view.artifacts.items()} == expected
    greeting = view.artifacts["greeting-artifact"]
    assert greeting.chunks == REPEATS + 2 and greeting.closed
    assert view.output_text == "".join(expected.values())
    assert view.state is TaskState.COMPLETED
    assert list(client.notes) == [] and list(view.notes) == []


def test_appended_plain_text_reads_as_one_part_and_every_other_part_keeps_its_place():
    def chunk(*parts, append=True):
        artifact = Artifact(artifact_id="a", parts=list(parts))
        return ArtifactUpdate(task_id="t", context_id="c", artifact=artifact, append=append or None)

    data = DataPart(data={"n": 1})
    styled = TextPart(text="<b>", media_type="text/html")
    view = TaskView(spill_after=None)
    for update in (
        chunk(TextPart(text="Hello"), append=False),
        chunk(TextPart(text=", ")),
        chunk(TextPart(text="Ada"), TextPart(text="!")),
        chunk(data),
        chunk(TextPart(text="after ")),
        chunk(TextPart(text="data")),
        chunk(styled),
        chunk(TextPart(text="tail")),
    ):
        view.apply(update)
    artifact = view.artifacts["a"]
    assert artifact.chunks == 8
    assert artifact.text == "Hello, Ada!after data<b>tail"
    assert artifact.parts == [
        TextPart(text="Hello, Ada!"),
        data,
        TextPart(text="after data"),
        styled,
        TextPart(text="tail"),
    ]
    # Reading does not stop the run: later chunks still join it, and a replacing chunk starts over.
    view.apply(chunk(TextPart(text=" end")))
    assert artifact.parts[-1] == TextPart(text="tail end")
    view.apply(chunk(TextPart(text="new"), append=False))
    assert view.artifacts["a"].parts == [TextPart(text="new")]
