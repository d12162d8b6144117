"""One consumer of the replayed stream, alone in its process so its peak RSS is its own.

    python ingest_consumer.py floor|ours|sdk 1.0|0.3|rest URL

(1.0 and 0.3: JSON-RPC at that version; rest: HTTP+JSON at 1.0, its stream at URL + rest/message:stream.)

Prints one JSON line: events, seconds (from sending the request to the last event consumed), the CPU
seconds this process spent in that time, peak RSS MB, and the artifact text's digest where the consumer
builds the text (ours, the 0.3 SDK's task tracker).
Setting up the client (imports, the card) happens before the clock starts. `sdk` with wire 0.3 runs under
the a2a-sdk 0.3.26 venv; everything else under the project venv.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import resource
import sys
import time
import uuid


class Clock:
    """Wall and CPU time of the stream alone (client setup and the card are outside it)."""

    def start(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def stop(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


CLOCK = Clock()


REST_STREAM = "rest/message:stream"  # ingest_agent.py's HTTP+JSON interface, and its streaming route


def request_body(wire: str) -> bytes:
    if wire != "0.3":
        message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": "go"}]}
        body = {"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": {"message": message}}
        if wire == "rest":
            body = {"message": message}
    else:
        message = {"kind": "message", "messageId": str(uuid.uuid4()), "role": "user"}
        message["parts"] = [{"kind": "text", "text": "go"}]
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/stream", "params": {"message": message}}
    return json.dumps(body).encode()


def digest(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


async def floor(wire: str, url: str) -> tuple[int, tuple[float, float], str | None]:
    """httpx-sse plus json.loads of each frame, and nothing else."""
    import httpx
    from httpx_sse import EventSource

    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    if wire != "0.3":
        headers["A2A-Version"] = "1.0"
    body = request_body(wire)
    target = url + REST_STREAM if wire == "rest" else url
    async with httpx.AsyncClient(timeout=None) as http:
        n = 0
        CLOCK.start()
        async with http.stream("POST", target, content=body, headers=headers) as response:
            async for sse in EventSource(response).aiter_sse():
                json.loads(sse.data)
                n += 1
        return n, CLOCK.stop(), None


async def ours(wire: str, url: str) -> tuple[int, tuple[float, float], str | None]:
    """The path the CLI and the TUI take: follow_turn (stall watch, reconciliation) over Transport.stream,
    every event folded once into the caller's turn reducer, as `switchboard send` does."""
    from switchboard.a2a.client import connect, new_message
    from switchboard.a2a.follow import Notice, follow_turn
    from switchboard.a2a.turn import TaskView

    version, binding = ("1.0", "HTTP+JSON") if wire == "rest" else (wire, "JSONRPC")
    async with await connect(url, prefer_version=version, binding=binding) as client:
        assert (client.endpoint.version, client.endpoint.binding) == (version, binding), client.endpoint
        view = TaskView()
        message = new_message("go")
        n = 0
        CLOCK.start()
        async for event in follow_turn(client, message, streaming=True, view=view):
            if isinstance(event, Notice):  # a reconciliation step: the replayed stream never needs one
                raise RuntimeError(f"follow_turn said: {event.text}")
            n += 1
        times = CLOCK.stop()
        return n, times, digest(view.output_text)


async def sdk10(url: str, binding: str) -> tuple[int, tuple[float, float], str | None]:
    """a2a-sdk 1.x: ClientFactory's streaming client on `binding`; it yields each StreamResponse, it keeps no task."""
    import httpx
    from a2a.client import ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, SendMessageRequest

    async with httpx.AsyncClient(timeout=None) as http:
        config = ClientConfig(streaming=True, httpx_client=http, supported_protocol_bindings=[binding])
        client = await ClientFactory(config).create_from_url(url)
        request = SendMessageRequest(
            message=Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(text="go")])
        )
        n = 0
        CLOCK.start()
        async for _event in client.send_message(request):
            n += 1
        return n, CLOCK.stop(), None


async def sdk03(url: str) -> tuple[int, tuple[float, float], str | None]:
    """a2a-sdk 0.3.26: ClientFactory's streaming client, whose task tracker folds every update into a Task."""
    import httpx
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, TextPart

    async with httpx.AsyncClient(timeout=None) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        client = ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create(card)
        message = Message(message_id=str(uuid.uuid4()), role=Role.user, parts=[Part(root=TextPart(text="go"))])
        n = 0
        task = None
        CLOCK.start()
        async for event in client.send_message(message):
            task = event[0] if isinstance(event, tuple) else task
            n += 1
        times = CLOCK.stop()
        text = None
        if task is not None and task.artifacts:
            text = "".join(p.root.text for a in task.artifacts for p in a.parts if p.root.kind == "text")
        return n, times, digest(text)


def main() -> None:
    mode, wire, url = sys.argv[1:4]
    if mode == "floor":
        run = floor(wire, url)
    elif mode == "ours":
        run = ours(wire, url)
    else:
        run = sdk03(url) if wire == "0.3" else sdk10(url, "HTTP+JSON" if wire == "rest" else "JSONRPC")
    events, (seconds, cpu), text_digest = asyncio.run(run)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"events": events, "seconds": seconds, "cpu": cpu, "rss_mb": rss, "digest": text_digest}))


if __name__ == "__main__":
    main()
