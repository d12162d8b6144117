"""An artifact's text says its media type (its first text part's), kept when the text moves to disk: the TUI draws
text/plain as plain text and saves it as .txt however long it grew (issue 26, item 6)."""

from __future__ import annotations

from switchboard.a2a.model import DataPart, TextPart
from switchboard.a2a.turn import ArtifactView


def test_the_text_media_type_is_the_first_text_parts_and_survives_a_spill():
    artifact = ArtifactView(
        "a", "notes", parts=[DataPart(data={"k": 1}), TextPart(text="one\n", media_type="text/plain")]
    )
    artifact.extend([TextPart(text="two\n", media_type="text/plain")])
    assert artifact.text_media_type == "text/plain"
    artifact.spill_text()
    artifact.extend([TextPart(text="three\n", media_type="text/plain")])
    assert artifact.text_media_type == "text/plain"
    assert "".join(artifact.text_blocks()) == "one\ntwo\nthree\n"


def test_text_that_says_no_type_has_none():
    assert ArtifactView("a", parts=[TextPart(text="x")]).text_media_type is None
    assert ArtifactView("b", parts=[DataPart(data=1)]).text_media_type is None
