"""Replay across the matrix: a conversation recorded against each reference server (a2a-sdk 1.3 and 0.3.26, the
JavaScript SDK, JSON-RPC and HTTP+JSON, 1.0 and 0.3) is served back by replay agents (demo --replay's, on the SDK
server classes) and followed again: every turn ends as it did, with the same question, the same artifacts chunk for
chunk, and the same states on the way."""

from __future__ import annotations

import json
from pathlib import Path

from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import ArtifactUpdate, TextPart
from switchboard.a2a.redact import Redactor
from switchboard.agents import AgentEntry
from switchboard.conversation import Conversation
from switchboard.demo.fleet import start_in_background
from switchboard.demo.replay import replay_agents
from switchboard.export import export_transcript
from switchboard.export.json_doc import load
from switchboard.export.transcript import of_conversation
from switchboard.link import open_link

MESSAGES = ("hello", "Ada")  # asks for a name (input-required), then greets in an artifact of 3 chunks


async def _converse(url: str) -> Conversation:
    async with new_http_client() as http:
        link = await open_link(AgentEntry(name="reference", url=url), http=http)
        conversation = Conversation(link)
        for text in MESSAGES:
            async for _ in conversation.send(text):
                pass
        await link.aclose()
    return conversation


def _seen(conversation: Conversation) -> list[dict]:
    """What each turn showed: states on the way, the end, the question, artifacts and the chunks they came in."""
    out = []
    for turn in conversation.turns:
        chunks = [
            [p.text for p in r.event.artifact.parts if isinstance(p, TextPart)]
            for r in turn.recording.events
            if isinstance(r.event, ArtifactUpdate)
        ]
        out.append(
            {
                "timeline": [s.state for s in turn.view.timeline],
                "state": turn.view.state,
                "question": [p.text for p in turn.view.question if isinstance(p, TextPart)],
                "artifacts": {k: a.text for k, a in turn.view.artifacts.items()},
                "chunks": chunks,
            }
        )
    return out


async def test_a_recorded_conversation_replays_as_it_was(reference_server, tmp_path):
    first = await _converse(reference_server.url)
    assert first.turns[0].view.state.is_interrupted and first.turns[1].view.state.is_terminal
    path = tmp_path / "recording.json"
    path.write_text(export_transcript(of_conversation(first, "reference"), "json", Redactor()).text)
    transcript = load(json.loads(path.read_text()))
    fleet = start_in_background(
        first_port=0, agents=replay_agents(transcript, Path(path), paced=False), write_file=False
    )
    try:
        again = await _converse(fleet.agent("reference").url)
    finally:
        fleet.stop()
    assert _seen(again) == _seen(first)
    assert sum(len(turn["chunks"]) for turn in _seen(again)) >= 3
