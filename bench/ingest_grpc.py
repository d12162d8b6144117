"""Stream ingest over gRPC: one long stream of StreamResponses, three consumers, beside grpc's own stub loop.

The stream: a task, then artifact chunks of 100 characters, then `completed`, serialized once and replayed as
bytes by a gRPC server of its own (a process of its own, `--serve`), so the server is never what is measured.
Each round runs the consumers in this process, in an order that rotates from round to round:
  floor  the official SDK's generated stub (a2a_pb2_grpc), each message parsed into its proto, nothing else;
  ours   follow_turn over GrpcTransport.stream (the CLI's and the TUI's path), every event through the turn
         reducer (TaskView.apply);
  sdk    the official a2a-sdk 1.3 client's GrpcTransport on the same stream (protos, not read further).
Medians of events per second of wall time. Goal, as for the JSON-RPC ingest: ours >= 0.5x floor and >= 2x sdk.

    python bench/ingest_grpc.py [--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVICE = "lf.a2a.v1.A2AService"


def stream_bytes(events: int) -> list[bytes]:
    from a2a.types import a2a_pb2 as pb

    task = pb.Task(id="t-1", context_id="c-1", status=pb.TaskStatus(state=pb.TaskState.TASK_STATE_SUBMITTED))
    out = [pb.StreamResponse(task=task).SerializeToString()]
    for i in range(events - 2):
        artifact = pb.Artifact(artifact_id="a-1", parts=[pb.Part(text=f"{i:08d} " + "x" * 91)])
        update = pb.TaskArtifactUpdateEvent(task_id="t-1", context_id="c-1", artifact=artifact, append=i > 0)
        out.append(pb.StreamResponse(artifact_update=update).SerializeToString())
    done = pb.TaskStatusUpdateEvent(
        task_id="t-1", context_id="c-1", status=pb.TaskStatus(state=pb.TaskState.TASK_STATE_COMPLETED)
    )
    out.append(pb.StreamResponse(status_update=done).SerializeToString())
    return out


async def serve(events: int) -> None:
    import grpc
    import grpc.aio

    frames = stream_bytes(events)

    async def replay(request: bytes, context) -> object:
        for frame in frames:
            yield frame

    handler = grpc.method_handlers_generic_handler(
        SERVICE, {"SendStreamingMessage": grpc.unary_stream_rpc_method_handler(replay)}
    )
    server = grpc.aio.server(options=[("grpc.max_send_message_length", 64 * 2**20)])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"READY {port}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await server.stop(0)


async def floor(target: str) -> int:
    import grpc.aio
    from a2a.types import a2a_pb2 as pb
    from a2a.types import a2a_pb2_grpc

    async with grpc.aio.insecure_channel(target) as channel:
        stub = a2a_pb2_grpc.A2AServiceStub(channel)
        request = pb.SendMessageRequest(message=pb.Message(message_id="m", role=pb.Role.ROLE_USER))
        return sum([1 async for _ in stub.SendStreamingMessage(request)])


async def ours(target: str) -> int:
    from switchboard.a2a.cards import ResolvedCard, parse_card
    from switchboard.a2a.client import new_message, transport_for
    from switchboard.a2a.follow import follow_turn
    from switchboard.a2a.turn import TaskView
    from switchboard.a2a.wire.common import Notes

    card = parse_card(
        {
            "name": "replay",
            "supportedInterfaces": [{"url": target, "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": True},
        }
    )
    count, view = 0, TaskView()
    async with transport_for(ResolvedCard(card, "http://127.0.0.1/", Notes())) as transport:
        async for event in follow_turn(transport, new_message("go"), streaming=True):
            view.apply(event)
            count += 1
    assert view.artifacts["a-1"].chunks > 0
    return count


async def sdk(target: str) -> int:
    import grpc.aio
    from a2a.client.transports.grpc import GrpcTransport
    from a2a.types import a2a_pb2 as pb

    async with grpc.aio.insecure_channel(target) as channel:
        transport = GrpcTransport(channel, None)
        request = pb.SendMessageRequest(message=pb.Message(message_id="m", role=pb.Role.ROLE_USER))
        return sum([1 async for _ in transport.send_message_streaming(request)])


CONSUMERS = {"floor": floor, "ours": ours, "sdk": sdk}


def main(quick: bool = False) -> dict[str, float]:
    events, rounds = (20_000, 3) if quick else (100_000, 5)
    # Every consumer's imports before the first round: a round measures reading, not loading modules.
    import a2a.client.transports.grpc  # noqa: F401

    import switchboard.a2a.client
    import switchboard.a2a.follow
    import switchboard.a2a.transports.grpc  # noqa: F401

    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(events)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        target = f"127.0.0.1:{server.stdout.readline().split()[1]}"
        rates: dict[str, list[float]] = {name: [] for name in CONSUMERS}
        names = list(CONSUMERS)
        for round_ in range(rounds):
            for name in names[round_ % 3 :] + names[: round_ % 3]:
                started = time.perf_counter()
                count = asyncio.run(CONSUMERS[name](target))
                rates[name].append(count / (time.perf_counter() - started))
    finally:
        server.stdin.close()
        server.wait(10)
    medians = {name: statistics.median(values) for name, values in rates.items()}
    print(f"gRPC ingest, {events} events, {rounds} rounds (median events/s):")
    for name, rate in medians.items():
        print(f"  {name:5} {rate:10.0f}")
    print(f"  ours/floor {medians['ours'] / medians['floor']:.2f}x (goal >= 0.5x)")
    print(f"  ours/sdk   {medians['ours'] / medians['sdk']:.2f}x (goal >= 2x)")
    return medians


if __name__ == "__main__":
    if "--serve" in sys.argv:
        asyncio.run(serve(int(sys.argv[sys.argv.index("--serve") + 1])))
    else:
        main(quick="--quick" in sys.argv)
