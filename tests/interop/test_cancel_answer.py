"""The answer to a cancel, read against the official SDK servers: they answer with the whole task, every artifact
chunk included. Past the client's bound (set small here) only the ids and status are read, and the artifact the
conversation holds stays as the stream built it; under the bound the answer is read whole, as any task is.
"""

from __future__ import annotations

from contextlib import aclosing

from script import BIG_CHUNK_SIZE, BIG_CHUNKS, CANCEL_TEXT, big_chunk

from switchboard.a2a.client import connect
from switchboard.a2a.follow import FollowPolicy
from switchboard.a2a.model import TaskState, TextPart
from switchboard.a2a.tap import Tap
from switchboard.a2a.transports import http_transport as client_module
from switchboard.conversation import Conversation
from switchboard.link import AgentLink

FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)
BIG_TEXT = "".join(big_chunk(i) for i in range(BIG_CHUNKS))
SMALL_BOUND = 64 * 1024  # well under the task's 512 KB artifact


async def big_turn_until_ticking(conversation: Conversation) -> None:
    """Send 'big job' and follow it until the whole artifact arrived and the agent ticks, then stop listening
    (as ctrl+g does before it asks for the cancel)."""
    async with aclosing(conversation.send("big job")) as events:
        async for _ in events:
            view = conversation.last.view
            artifact = view.artifacts.get("big-artifact")
            if artifact and artifact.chunks == BIG_CHUNKS and view.status_text.startswith("tick"):
                return
    raise AssertionError(f"the turn ended before the artifact was whole: {conversation.last.view.state}")


async def test_an_answer_past_the_bound_changes_the_status_and_keeps_the_artifact_held(reference_server, monkeypatch):
    monkeypatch.setattr(client_module, "CANCEL_ANSWER_BOUND", SMALL_BOUND)
    tap = Tap()
    async with await connect(reference_server.url, tap=tap) as client:
        conversation = Conversation(AgentLink("reference", transport=client), tap=tap, policy=FAST)
        await big_turn_until_ticking(conversation)
        view = conversation.last.view
        held = view.artifacts["big-artifact"]
        assert held.text == BIG_TEXT

        canceled = await client.cancel_task(view.task_id)
        assert canceled.id == view.task_id and canceled.context_id == view.context_id
        assert canceled.status.state is TaskState.CANCELED
        assert canceled.status.message is not None and canceled.status.message.text == CANCEL_TEXT
        assert canceled.artifacts is None and canceled.history is None
        (note,) = [n for n in client.notes if "answered the cancel" in n]
        size_mb = float(note.split("task, ")[1].split(" MB")[0])
        assert BIG_CHUNKS * BIG_CHUNK_SIZE / 2**20 <= size_mb < 1.0
        assert "artifacts and history were not" in note
        # The tap recorded the exchange with the head of the answer, not all of it.
        exchange = [r for r in tap.records if r.exchange == tap.records[-1].exchange]
        (answer,) = [r for r in exchange if r.kind == "response"]
        if reference_server.binding == "GRPC":  # gRPC's status comes at the end, in the trailers: 0 is OK
            assert [r.status for r in exchange if r.kind == "trailers"] == [0]
        else:
            assert answer.status == 200
        assert answer.truncated and len(answer.body) <= 65536

        view.apply(canceled)  # as Conversation.cancel applies it
        assert view.state is TaskState.CANCELED
        assert view.artifacts["big-artifact"] is held and held.text == BIG_TEXT and held.chunks == BIG_CHUNKS


async def test_conversation_cancel_past_the_bound_keeps_what_the_view_holds(reference_server, monkeypatch):
    monkeypatch.setattr(client_module, "CANCEL_ANSWER_BOUND", SMALL_BOUND)
    async with await connect(reference_server.url) as client:
        conversation = Conversation(AgentLink("reference", transport=client), policy=FAST)
        await big_turn_until_ticking(conversation)
        history = list(conversation.last.view.history)
        await conversation.cancel()  # the TUI's ctrl+g path
        view = conversation.last.view
        assert view.state is TaskState.CANCELED
        assert view.artifacts["big-artifact"].text == BIG_TEXT
        assert view.history[: len(history)] == history


async def test_an_answer_under_the_bound_is_read_whole(reference_server):
    async with await connect(reference_server.url) as client:
        conversation = Conversation(AgentLink("reference", transport=client), policy=FAST)
        await big_turn_until_ticking(conversation)
        task_id = conversation.last.view.task_id
        canceled = await client.cancel_task(task_id)
        assert canceled.status.state is TaskState.CANCELED
        (artifact,) = [a for a in canceled.artifacts or [] if a.artifact_id == "big-artifact"]
        assert all(isinstance(p, TextPart) for p in artifact.parts)
        assert "".join(p.text for p in artifact.parts) == BIG_TEXT
        assert canceled.history  # the user's message at least
        assert not [n for n in client.notes if "answered the cancel" in n]
        # The same task, read by get-task (which reads every answer whole), decodes to the same artifacts and history.
        fetched = await client.get_task(task_id)
        assert fetched.artifacts == canceled.artifacts
        if not (reference_server.stack == "js" and reference_server.binding == "GRPC" and client.version == "0.3"):
            # The JS SDK's v0.3 gRPC takes historyLength 0 (the v0.3 proto's "not set", no presence) for "none".
            assert fetched.history == canceled.history
