"""The agent whose stream the ingest bench records: a burst of status updates and artifact chunks.

    python ingest_agent.py [BLOCKS]  (under .venv: a2a-sdk 1.3, v1.0 wire; under .venv-a2a03: a2a-sdk 0.3.26)

Served by the official SDK's own server classes, so the recorded bytes are what that SDK really writes: under
a2a-sdk 1.3 over JSON-RPC (1.0 and 0.3) at the URL and over HTTP+JSON (1.0) under `rest/`.
Prints `READY <url>` and serves until stdin closes. Stdlib + the SDK + uvicorn only: it runs in both venvs.

The burst: the task snapshot, a working status, the artifact's first chunk, BLOCKS blocks of
(CHUNKS_PER_BLOCK appended chunks + one working status with a progress message), the last chunk, completed:
5 * BLOCKS + 5 events.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading

import uvicorn

BLOCKS = int(sys.argv[1]) if len(sys.argv) > 1 else 100
CHUNKS_PER_BLOCK = 4
ARTIFACT_ID = "answer-artifact"
ARTIFACT_NAME = "answer"
REST_PATH = "rest"  # the HTTP+JSON interface (sdk 1.3 only), under the JSON-RPC one's URL
# Token-sized pieces as a language model streams them, with the escapes JSON must carry (quotes, newlines,
# non-ASCII), so the decoders do real work.
WORDS = ("The ", "switch", "board ", "streams ", '"tokens" ', "as ", "they ", "come", ".\n", "Grüße ", "— ", "ok ")


def chunk_text(i: int) -> str:
    return WORDS[i % len(WORDS)] + WORDS[(i * 7 + 3) % len(WORDS)]


def plan():
    """("status", state, text) and ("chunk", text, append, last) steps, in order."""
    yield ("status", "working", "planning the answer")
    n = 0
    yield ("chunk", chunk_text(n), False, False)
    for block in range(BLOCKS):
        for _ in range(CHUNKS_PER_BLOCK):
            n += 1
            yield ("chunk", chunk_text(n), True, False)
        yield ("status", "working", f"wrote {block + 1} of {BLOCKS} sections")
    yield ("chunk", "The end.", True, True)
    yield ("status", "completed", "done")


def serve(app, sock: socket.socket) -> None:
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2))

    def stop_on_eof() -> None:
        sys.stdin.read()
        server.should_exit = True

    threading.Thread(target=stop_on_eof, daemon=True).start()

    async def run() -> None:
        running = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not running.done():
            await asyncio.sleep(0.01)
        print(f"READY http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
        await running

    asyncio.run(run())


def app_sdk13(url: str):
    from a2a.helpers.proto_helpers import new_task_from_user_message
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
    from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
    from a2a.types import a2a_pb2 as pb
    from starlette.applications import Starlette

    states = {"working": pb.TaskState.TASK_STATE_WORKING, "completed": pb.TaskState.TASK_STATE_COMPLETED}

    class Burst(AgentExecutor):
        async def execute(self, context, event_queue) -> None:
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
            updater = TaskUpdater(event_queue, context.task_id, context.context_id)
            for step in plan():
                if step[0] == "status":
                    message = updater.new_agent_message([pb.Part(text=step[2])])
                    await updater.update_status(states[step[1]], message=message)
                else:
                    _, text, append, last = step
                    await updater.add_artifact(
                        [pb.Part(text=text)],
                        artifact_id=ARTIFACT_ID,
                        name=ARTIFACT_NAME,
                        append=append or None,
                        last_chunk=last or None,
                    )

        async def cancel(self, context, event_queue) -> None:
            raise NotImplementedError

    card = pb.AgentCard(
        name="Ingest burst agent (sdk 1.3)",
        description="Streams a burst of status updates and artifact chunks.",
        supported_interfaces=[
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0"),
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="0.3"),
            pb.AgentInterface(url=url + REST_PATH, protocol_binding="HTTP+JSON", protocol_version="1.0"),
        ],
        version="1.0.0",
        capabilities=pb.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="burst", name="Burst", description="a long stream", tags=["bench"])],
    )
    handler = DefaultRequestHandler(agent_executor=Burst(), task_store=InMemoryTaskStore(), agent_card=card)
    routes = create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True)
    routes += create_rest_routes(handler, path_prefix="/" + REST_PATH)
    return Starlette(routes=routes)


def app_sdk03(url: str):
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.apps import A2AStarletteApplication
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
    from a2a.types import AgentCapabilities, AgentCard, AgentSkill, Part, TaskState, TextPart
    from a2a.utils import new_task

    class Burst(AgentExecutor):
        async def execute(self, context, event_queue) -> None:
            await event_queue.enqueue_event(new_task(context.message))
            updater = TaskUpdater(event_queue, context.task_id, context.context_id)
            for step in plan():
                if step[0] == "status":
                    message = updater.new_agent_message([Part(root=TextPart(text=step[2]))])
                    state = TaskState(step[1])
                    await updater.update_status(state, message=message, final=state == TaskState.completed)
                else:
                    _, text, append, last = step
                    await updater.add_artifact(
                        [Part(root=TextPart(text=text))],
                        artifact_id=ARTIFACT_ID,
                        name=ARTIFACT_NAME,
                        append=append,
                        last_chunk=last,
                    )

        async def cancel(self, context, event_queue) -> None:
            raise NotImplementedError

    card = AgentCard(
        name="Ingest burst agent (sdk 0.3)",
        description="Streams a burst of status updates and artifact chunks.",
        url=url,
        preferred_transport="JSONRPC",
        protocol_version="0.3.0",
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="burst", name="Burst", description="a long stream", tags=["bench"])],
    )
    handler = DefaultRequestHandler(agent_executor=Burst(), task_store=InMemoryTaskStore())
    return A2AStarletteApplication(agent_card=card, http_handler=handler).build()


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    try:
        from a2a.types import a2a_pb2  # noqa: F401  (only a2a-sdk 1.x has the protobuf types)

        app = app_sdk13(url)
    except ImportError:
        app = app_sdk03(url)
    serve(app, sock)


if __name__ == "__main__":
    main()
