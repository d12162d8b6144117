"""The floor of a served call: the official SDK server alone, answering from memory, plus the one httpx call to the
delegate that a served call cannot avoid. Nothing of switchboard is imported.

    python bench/serve_floor.py DELEGATE_URL [--six]

Each SendMessage is taken by the SDK's DefaultRequestHandler (InMemoryTaskStore, its JSON-RPC routes, v1.0 and the
v0.3 compat as `switchboard serve` mounts them), whose executor sends one blocking v1.0 SendMessage with the
caller's text to the delegate through one shared httpx.AsyncClient and answers with one event: the task,
completed, holding the delegate's text as its artifact. With --six it publishes what a served one-step run publishes
instead, through the same SDK machinery: the task (submitted), three working statuses (the step started, the
delegate's reply, the step completed), the artifact, and the completed status: the SDK's cost of those events,
without the run. Served by uvicorn's own HTTP protocol (httptools when
installed, as `switchboard serve`, whose header bounds sit on the same class), on uvloop when it is installed (as
`serve` runs). Prints `READY URL`; stops when stdin closes.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import uuid

import httpx
import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import a2a_pb2 as pb
from starlette.applications import Starlette

HEADERS = {"Content-Type": "application/json", "Accept": "application/json", "A2A-Version": "1.0"}


def working(context: RequestContext, text: str) -> pb.TaskStatusUpdateEvent:
    message = pb.Message(message_id=str(uuid.uuid4()), role=pb.Role.ROLE_AGENT, parts=[pb.Part(text=text)])
    status = pb.TaskStatus(state=pb.TaskState.TASK_STATE_WORKING, message=message)
    return pb.TaskStatusUpdateEvent(task_id=context.task_id, context_id=context.context_id, status=status)


class OneCall(AgentExecutor):
    def __init__(self, delegate: str, http: httpx.AsyncClient, six: bool) -> None:
        self.delegate, self.http, self.six = delegate, http, six

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        parts = context.message.parts if context.message else []
        said = " ".join(p.text for p in parts if p.HasField("text")) or json.dumps([str(p.data) for p in parts])
        message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": said}]}
        request = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}}
        response = await self.http.post(self.delegate, content=json.dumps(request), headers=HEADERS)
        reply = json.loads(response.content)["result"]["message"]
        answer = "".join(p.get("text", "") for p in reply["parts"])
        if self.six:
            await self.six_events(context, event_queue, answer)
            return
        task = pb.Task(
            id=context.task_id,
            context_id=context.context_id,
            status=pb.TaskStatus(state=pb.TaskState.TASK_STATE_COMPLETED),
            artifacts=[pb.Artifact(artifact_id="out", name="echoed", parts=[pb.Part(text=answer)])],
        )
        await event_queue.enqueue_event(task)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError

    async def six_events(self, context: RequestContext, queue: EventQueue, answer: str) -> None:
        ids = {"task_id": context.task_id, "context_id": context.context_id}
        submitted = pb.TaskStatus(state=pb.TaskState.TASK_STATE_SUBMITTED)
        await queue.enqueue_event(pb.Task(id=context.task_id, context_id=context.context_id, status=submitted))
        await queue.enqueue_event(working(context, "step echo started (echo)"))
        await queue.enqueue_event(working(context, answer))
        await queue.enqueue_event(working(context, "step echo completed"))
        artifact = pb.Artifact(artifact_id="out", name="echoed", parts=[pb.Part(text=answer)])
        await queue.enqueue_event(pb.TaskArtifactUpdateEvent(artifact=artifact, last_chunk=True, **ids))
        completed = pb.TaskStatus(state=pb.TaskState.TASK_STATE_COMPLETED)
        await queue.enqueue_event(pb.TaskStatusUpdateEvent(status=completed, **ids))


async def main(delegate: str, six: bool) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    card = pb.AgentCard(
        name="floor",
        description="the SDK server alone, one httpx call to the delegate",
        supported_interfaces=[pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")],
        version="1.0.0",
        capabilities=pb.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="echo", name="echo", description="one call to the delegate", tags=["floor"])],
    )
    limits = httpx.Limits(max_connections=1000, max_keepalive_connections=1000)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        handler = DefaultRequestHandler(
            agent_executor=OneCall(delegate, http, six), task_store=InMemoryTaskStore(), agent_card=card
        )
        routes = [*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True)]
        config = uvicorn.Config(Starlette(routes=routes), log_config=None, access_log=False, lifespan="off")
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        print(f"READY {url}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        server.should_exit = True
        await serving


if __name__ == "__main__":
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(sys.argv[1], "--six" in sys.argv))
    else:
        uvloop.run(main(sys.argv[1], "--six" in sys.argv))
