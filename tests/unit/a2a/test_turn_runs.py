"""Appended text of one media type is held as a run of strings and read as one part with that media type."""

from __future__ import annotations

from switchboard.a2a.model import Artifact, ArtifactUpdate, DataPart, TextPart
from switchboard.a2a.turn import TaskView


def chunk(parts, i: int) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="a", name="a", parts=parts)
    return ArtifactUpdate(task_id="t", context_id="c", artifact=artifact, append=i > 0)


def test_markdown_chunks_read_as_one_markdown_part_and_other_types_stay_apart():
    view = TaskView()
    pieces = ["# Ti", "tle\n\n", "body ", "text"]
    for i, text in enumerate(pieces):
        view.apply(chunk([TextPart(text=text, media_type="text/markdown")], i))
    artifact = view.artifacts["a"]
    assert artifact.parts == [TextPart(text="".join(pieces), media_type="text/markdown")]
    view.apply(chunk([TextPart(text=" plain")], 4))
    view.apply(chunk([DataPart(data={"n": 1})], 5))
    view.apply(chunk([TextPart(text="more", media_type="text/markdown", metadata={"k": 1})], 6))
    view.apply(chunk([TextPart(text=" md", media_type="text/markdown")], 7))
    assert [(type(p).__name__, getattr(p, "media_type", None)) for p in artifact.parts] == [
        ("TextPart", "text/markdown"),
        ("TextPart", None),
        ("DataPart", None),
        ("TextPart", "text/markdown"),
        ("TextPart", "text/markdown"),
    ]
    assert artifact.text == "# Title\n\nbody text plainmore md"
    assert artifact.chunks == 8
