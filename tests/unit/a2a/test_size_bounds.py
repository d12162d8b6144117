"""Size bounds in the core: an artifact's text spills to disk past a bound and reads back exactly; the wire
tap keeps a bounded memory of bodies."""

from __future__ import annotations

import sys

from switchboard.a2a.model import Artifact, ArtifactUpdate, DataPart, Task, TaskState, TaskStatus, TextPart, text_of
from switchboard.a2a.spill import TextSpill
from switchboard.a2a.tap import Tap
from switchboard.a2a.turn import TaskView


def chunk(text: str, *, append: bool = True, last: bool = False, artifact_id: str = "a") -> ArtifactUpdate:
    artifact = Artifact(artifact_id=artifact_id, parts=[TextPart(text=text)])
    return ArtifactUpdate(task_id="t", context_id="c", artifact=artifact, append=append, last_chunk=last)


def test_spill_reads_back_any_range_exactly_with_multibyte_text_and_lone_surrogates():
    spill = TextSpill()
    pieces = ["héllo ", "wörld ✓ ", "\ud800 lone ", "", "日本語 end"]
    for piece in pieces:
        spill.append(piece)
    whole = "".join(pieces)
    assert spill.length == len(whole) and spill.read() == whole
    for start in range(len(whole) + 1):
        for end in (start, start + 3, len(whole)):
            assert spill.read(start, end) == whole[start:end]
    assert "".join(spill.blocks()) == whole


def test_an_artifact_past_the_bound_keeps_little_in_memory_and_its_text_exact():
    view = TaskView(spill_after=1000)
    sent = [f"line {i:05d} ✓\n" for i in range(2000)]  # 28,000 characters
    for i, text in enumerate(sent):
        view.apply(chunk(text, append=i > 0, last=i == len(sent) - 1))
    artifact = view.artifacts["a"]
    whole = "".join(sent)
    assert artifact.spill is not None
    assert sum(len(p.text) for p in artifact.parts if isinstance(p, TextPart)) <= 1000
    assert artifact.text == whole and artifact.text_length == len(whole)
    assert artifact.chunks == len(sent) and artifact.closed
    assert "".join(artifact.text_blocks()) == whole
    for start, end in ((0, 10), (995, 1010), (27_990, None), (5000, 26_000)):
        assert artifact.text_from(start, end) == whole[start:end]
    assert text_of(artifact.to_artifact().parts) == whole
    assert view.output_text == whole


def test_non_text_parts_stay_and_a_replacing_chunk_starts_over():
    view = TaskView(spill_after=10)
    view.apply(chunk("x" * 8, append=False))
    data = Artifact(artifact_id="a", parts=[DataPart(data={"k": 1}), TextPart(text="y" * 8)])
    view.apply(ArtifactUpdate(task_id="t", context_id="c", artifact=data, append=True))
    artifact = view.artifacts["a"]
    assert artifact.text == "x" * 8 + "y" * 8
    assert [p for p in artifact.parts if isinstance(p, DataPart)] == [DataPart(data={"k": 1})]
    view.apply(chunk("fresh", append=False))
    assert view.artifacts["a"].text == "fresh" and view.artifacts["a"].spill is None


def test_a_snapshot_with_a_huge_artifact_is_bounded_too():
    view = TaskView(spill_after=100)
    big = Artifact(artifact_id="a", parts=[TextPart(text="z" * 5000)])
    view.apply(Task(id="t", context_id="c", status=TaskStatus(state=TaskState.COMPLETED), artifacts=[big]))
    artifact = view.artifacts["a"]
    assert artifact.spill is not None and artifact.text == "z" * 5000


def test_without_a_bound_nothing_spills():
    view = TaskView(spill_after=None)
    for i in range(100):
        view.apply(chunk("w" * 100, append=i > 0))
    assert view.artifacts["a"].spill is None and view.artifacts["a"].text_length == 10_000


def test_the_tap_keeps_a_bounded_memory_of_bodies_and_cuts_huge_frames():
    tap = Tap(max_records=1000, max_body=1000, max_bytes=10_000)
    exchange = tap.request("POST", "http://127.0.0.1/", [], "{}")
    huge = ("é" * 5_000_000).encode()  # 10 MB of bytes: only the kept part is decoded
    tap.frame(exchange, "message", huge.decode())
    tap.response(exchange, 200, [], huge)
    for _ in range(100):
        tap.frame(exchange, "message", "b" * 900)
    bodies = [r.body for r in tap.records]
    assert sum(map(sys.getsizeof, bodies)) <= 10_000
    assert tap.records[-1].body == "b" * 900  # the newest stay
    assert all(len(body) <= 1000 for body in bodies)
    cut = Tap(max_body=1000)
    cut.response(1, 200, [], huge)
    assert cut.records[-1].truncated and cut.records[-1].body == "é" * 1000


def test_the_taps_bound_is_memory_so_wide_characters_keep_fewer_records():
    narrow, wide = Tap(max_bytes=100_000), Tap(max_bytes=100_000)
    for _ in range(100):
        narrow.frame(1, "message", "a" * 1000)  # one byte a character
        wide.frame(1, "message", "\u2713" * 1000)  # two bytes a character
    assert sum(sys.getsizeof(r.body) for r in wide.records) <= 100_000
    assert len(wide.records) < len(narrow.records) < 100
