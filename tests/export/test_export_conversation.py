"""Exports of real conversations with the demo fleet, read back: the JSON replays into the very task views the
turns built, the Markdown tells the turns, the HAR passes the HAR 1.2 schema and keeps every SSE frame."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from export_support import har_errors, shown

from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import ArtifactUpdate, DataPart, TaskState
from switchboard.a2a.recording import Recording
from switchboard.a2a.tap import Tap
from switchboard.conversation import Conversation
from switchboard.demo import writer
from switchboard.export import export_transcript, export_wire
from switchboard.export.json_doc import load
from switchboard.export.transcript import of_conversation, replay
from switchboard.link import known_secrets, open_link


async def converse(fleet, name: str, *messages: str, secret_last: bool = False) -> tuple[Conversation, Tap]:
    tap = Tap()
    entry = fleet.agent(name).as_entry()
    tap.redactor.add(*known_secrets(entry))
    async with new_http_client() as http:
        link = await open_link(entry, http=http, tap=tap)
        conversation = Conversation(link, tap=tap)
        for number, text in enumerate(messages, start=1):
            async for _ in conversation.send(text, secret=secret_last and number == len(messages)):
                pass
        await link.aclose()
    return conversation, tap


def exported(conversation: Conversation, tap: Tap, name: str, fmt: str, **kwargs) -> str:
    return export_transcript(of_conversation(conversation, name, "http://agent"), fmt, tap.redactor, **kwargs).text


async def test_json_of_a_streamed_document_replays_into_the_same_view(fleet):
    conversation, tap = await converse(fleet, "writer", "tides")
    turn = conversation.last
    assert turn.view.state is TaskState.COMPLETED and turn.view.artifacts[writer.ARTIFACT_ID].chunks > 20
    doc = json.loads(exported(conversation, tap, "writer", "json"))
    assert doc["format"] == "a2a-switchboard.transcript" and doc["kind"] == "conversation"
    (exchange,) = doc["exchanges"]
    assert exchange["message"]["messageId"] == turn.message.message_id and exchange["message"]["role"] == "ROLE_USER"
    assert all(e["at"].endswith("Z") for e in exchange["events"])
    assert {next(iter(e["event"])) for e in exchange["events"]} >= {"statusUpdate", "artifactUpdate"}
    # Every chunk is kept as it came (a replay serves them one by one), and they build the same artifact.
    chunks = [e for e in exchange["events"] if "artifactUpdate" in e["event"]]
    assert len(chunks) == turn.view.artifacts[writer.ARTIFACT_ID].chunks
    views = replay(load(doc))
    assert shown(views[1]) == shown(turn.view)
    assert views[1].artifacts[writer.ARTIFACT_ID].text == writer.compose("tides")


async def test_json_of_an_interview_replays_every_turn_questions_and_answers_included(fleet):
    conversation, tap = await converse(fleet, "interviewer", "interview me", "Ada", "test my own agent")
    assert [t.view.state for t in conversation.turns] == [
        TaskState.INPUT_REQUIRED,
        TaskState.INPUT_REQUIRED,
        TaskState.COMPLETED,
    ]
    doc = json.loads(exported(conversation, tap, "interviewer", "json"))
    assert [e["view"] for e in doc["exchanges"]] == [1, 2, 3]
    assert "answers" in doc["exchanges"][1] and doc["exchanges"][1]["message"]["taskId"]
    views = replay(load(doc))
    for number, turn in enumerate(conversation.turns, start=1):
        assert shown(views[number]) == shown(turn.view)
    data = [p.data for a in views[3].artifacts.values() for p in a.parts if isinstance(p, DataPart)]
    assert {"name": "Ada", "goal": "test my own agent"} in data


async def test_markdown_and_html_tell_the_questions_the_answers_and_the_outcome(fleet):
    conversation, tap = await converse(fleet, "interviewer", "interview me", "Ada", "test my own agent")
    question = conversation.turns[0].view.question[0].text
    markdown = exported(conversation, tap, "interviewer", "markdown")
    assert markdown.startswith("# Conversation with interviewer")
    assert "**You**" in markdown and "> interview me" in markdown
    assert markdown.count("**You answered**") == 2 and "> Ada" in markdown
    assert "**interviewer asks** (`input-required`)" in markdown and question.splitlines()[0] in markdown
    assert "- `completed`" in markdown and "Outcome: **completed**" in markdown
    assert '"goal": "test my own agent"' in markdown  # the data part, as JSON
    page = exported(conversation, tap, "interviewer", "html")
    text = page_text(page)
    assert "You answered" in text and "Ada" in text and "interviewer asks" in text and "completed" in text


async def test_markdown_of_a_document_holds_it_whole(fleet):
    conversation, tap = await converse(fleet, "writer", "tides")
    markdown = exported(conversation, tap, "writer", "markdown")
    assert "### Artifact: draft.md" in markdown
    assert writer.compose("tides").strip() in markdown


async def test_har_of_the_wire_passes_the_schema_and_keeps_every_frame(fleet):
    _, tap = await converse(fleet, "writer", "tides")
    har = json.loads(export_wire(tap.records, tap.wall_start, tap.redactor).text)
    assert har_errors(har) == []
    entries = har["log"]["entries"]
    assert [e["_exchange"] for e in entries] == sorted({r.exchange for r in tap.records})
    assert entries[0]["request"]["method"] == "GET" and "agent-card.json" in entries[0]["request"]["url"]
    (stream,) = [e for e in entries if "_sseMessages" in e]
    frames = [r for r in tap.records if r.kind == "sse" and r.exchange == stream["_exchange"]]
    assert [m["data"] for m in stream["_sseMessages"]] == [f.body for f in frames]
    assert stream["response"]["content"]["mimeType"].startswith("text/event-stream")
    body = stream["response"]["content"]["text"]
    data = [json.loads(line[len("data: ") :]) for line in body.splitlines() if line.startswith("data: ")]
    assert len(data) == len(frames) and all(d.get("jsonrpc") == "2.0" for d in data)
    sent = json.loads(stream["request"]["postData"]["text"])
    assert sent["params"]["message"]["parts"][0]["text"] == "tides"
    assert stream["startedDateTime"].endswith("Z") and stream["time"] >= stream["timings"]["wait"] >= 0


async def test_a_stream_past_the_recording_bound_still_replays_through_the_snapshot(fleet, monkeypatch):
    monkeypatch.setattr("switchboard.a2a.recording.RECORD_LIMIT", 500)
    conversation, tap = await converse(fleet, "writer", "tides")
    turn = conversation.last
    assert not turn.recording.complete
    doc = json.loads(exported(conversation, tap, "writer", "json"))
    assert doc["exchanges"][0]["complete"] is False
    assert "task" in doc["exchanges"][0]["events"][-1]["event"]  # the view's snapshot ends the events
    views = replay(load(doc))
    assert views[1].artifacts[writer.ARTIFACT_ID].text == turn.view.artifacts[writer.ARTIFACT_ID].text
    assert shown(views[1])["status"] == shown(turn.view)["status"]


async def test_a_credential_typed_as_an_answer_is_in_no_export(fleet):
    conversation, tap = await converse(fleet, "gatekeeper", "open the vault", "sesame", secret_last=True)
    assert conversation.last.view.state is TaskState.COMPLETED and conversation.last.secret
    for fmt in ("markdown", "json", "html"):
        text = exported(conversation, tap, "gatekeeper", fmt)
        assert "sesame" not in text, fmt
        assert "[redacted]" in text or "credential, not shown" in text
    har = export_wire(tap.records, tap.wall_start, tap.redactor).text
    assert "sesame" not in har and "[redacted]" in har


def test_merged_chunks_keep_their_order_and_the_last_chunk_flag():
    from switchboard.a2a.model import Artifact, TextPart

    recording = Recording(chunks=1)  # past the first chunk, consecutive chunks are joined

    def chunk(text: str, append: bool, last: bool = False) -> ArtifactUpdate:
        artifact = Artifact(artifact_id="a", parts=[TextPart(text=text)])
        return ArtifactUpdate(task_id="t", context_id="c", artifact=artifact, append=append, last_chunk=last)

    for event in (chunk("one ", False), chunk("two ", True), chunk("three", True, last=True), chunk("!", True)):
        recording.add(event)
    events = [r.event for r in recording.events]
    assert [e.artifact.parts[0].text for e in events] == ["one two three", "!"]
    assert events[0].last_chunk is True and not events[0].append and events[1].append is True


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)


def page_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return " ".join(parser.chunks)
