"""Stream ingest over gRPC: one long stream of StreamResponses, three consumers, beside grpc's own stub loop.

The stream: a task, then artifact chunks of 100 characters, then `completed`, serialized once and replayed as
bytes by a gRPC server of its own (a process of its own, `--serve`), so the server is never what is measured.
Each round runs the consumers, each in a fresh process (`--consume`), in an order that rotates from round to round:
  floor  the official SDK's generated stub (a2a_pb2_grpc), each message parsed into its proto, nothing else;
  ours   follow_turn over GrpcTransport.stream (the CLI's and the TUI's path), every event through the turn
         reducer (TaskView.apply);
  sdk    the official a2a-sdk 1.3 client (ClientFactory, gRPC binding) on the same stream: it yields the protos.
Medians of events per second of wall time and per CPU-second of the consumer, as the SSE ingest rows (ingest.py).
Goal: ours at least 0.9x the SDK client's events per CPU-second (the SDK client does nothing beyond the stub's
read, so it runs at the floor's speed), as the median of each round's own ratio.

    python bench/ingest_grpc.py [--quick]
"""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import Row, env_with_src, run_standalone

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
        # Every event folded once into the caller's reducer, as `switchboard send` (and ingest.py's consumer) do.
        async for _event in follow_turn(transport, new_message("go"), streaming=True, view=view):
            count += 1
    assert view.artifacts["a-1"].chunks > 0
    return count


async def sdk(target: str) -> int:
    import grpc.aio
    from a2a.client import ClientConfig, ClientFactory
    from a2a.types import a2a_pb2 as pb

    card = pb.AgentCard(
        name="replay",
        supported_interfaces=[pb.AgentInterface(url=target, protocol_binding="GRPC", protocol_version="1.0")],
        capabilities=pb.AgentCapabilities(streaming=True),
    )
    config = ClientConfig(
        streaming=True, grpc_channel_factory=grpc.aio.insecure_channel, supported_protocol_bindings=["GRPC"]
    )
    client = ClientFactory(config).create(card)
    try:
        request = pb.SendMessageRequest(message=pb.Message(message_id="m", role=pb.Role.ROLE_USER))
        return sum([1 async for _ in client.send_message(request)])
    finally:
        await client.close()


CONSUMERS = {"floor": floor, "ours": ours, "sdk": sdk}
GOAL_PEER = 0.9  # ours' events per CPU-second at least this share of the SDK client's (issue 33)


def consume(name: str, target: str) -> None:
    """One consumer in this (fresh) process: its imports first, then the clock; prints one JSON line."""
    import a2a.client
    import a2a.client.transports.grpc  # noqa: F401

    import switchboard.a2a.client
    import switchboard.a2a.follow
    import switchboard.a2a.transports.grpc  # noqa: F401

    wall, cpu = time.perf_counter(), time.process_time()
    count = asyncio.run(CONSUMERS[name](target))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"events": count, "seconds": wall, "cpu": cpu, "rss_mb": rss}))


def run_consumer(name: str, target: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--consume", name, target],
        capture_output=True,
        text=True,
        env=env_with_src(),
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name} consumer on gRPC failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(quick: bool = False) -> list[Row]:
    events, rounds = (20_000, 3) if quick else (100_000, 5)
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(events)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        target = f"127.0.0.1:{server.stdout.readline().split()[1]}"
        runs: dict[str, list[dict]] = {name: [] for name in CONSUMERS}
        names = list(CONSUMERS)
        for round_ in range(rounds):
            for name in names[round_ % 3 :] + names[: round_ % 3]:
                result = run_consumer(name, target)
                if result["events"] != events:
                    raise RuntimeError(f"{name} saw {result['events']} events, the stream has {events}")
                runs[name].append(result)
                print(
                    f"  round {round_ + 1} grpc {name:5} {events / result['seconds']:10,.0f} events/s "
                    f"{events / result['cpu']:10,.0f} events/CPU-s",
                    file=sys.stderr,
                )
    finally:
        server.stdin.close()
        server.wait(10)
    return rows_for(runs, events, rounds)


def rows_for(runs: dict[str, list[dict]], events: int, rounds: int) -> list[Row]:
    common = {"bench": "ingest gRPC v1.0", "peer_name": "a2a-sdk 1.3", "floor_name": "grpc stub"}
    rows = []
    for measure, key, note in (
        ("events/s", "seconds", f"{events:,} events, median of {rounds} rounds, each consumer in a fresh process"),
        ("events/CPU-s", "cpu", "events per CPU-second of the consumer: steadier on a busy machine"),
    ):
        per_run = {name: [events / x[key] for x in runs[name]] for name in CONSUMERS}
        ours, peer, floor_ = (statistics.median(per_run[n]) for n in ("ours", "sdk", "floor"))
        spread = "; ".join(f"{n} {[round(r) for r in per_run[n]]}" for n in CONSUMERS)
        paired = statistics.median(o / p for o, p in zip(per_run["ours"], per_run["sdk"], strict=True))
        on_cpu = key == "cpu"
        rows.append(
            Row(
                measure=measure,
                ours=ours,
                peer=peer,
                floor=floor_,
                goal=f">= {GOAL_PEER:g}x peer" if on_cpu else "",
                met=paired >= GOAL_PEER if on_cpu else None,
                notes=[note, f"runs in round order ({measure}): {spread}; ours / peer per round, median {paired:.2f}x"],
                **common,
            )
        )
    return rows


if __name__ == "__main__":
    if "--serve" in sys.argv:
        asyncio.run(serve(int(sys.argv[sys.argv.index("--serve") + 1])))
    elif "--consume" in sys.argv:
        at = sys.argv.index("--consume")
        consume(sys.argv[at + 1], sys.argv[at + 2])
    else:
        run_standalone(main, "ingest_grpc")
