"""Reference A2A server on a2a-sdk 1.3: JSON-RPC at the base URL and HTTP+JSON (REST) under /rest, each at v1.0
and, through the SDK's compat mode, v0.3 (JSON-RPC on the same URL, REST under /rest/v1); in the gRPC modes also
gRPC, v1.0 and v0.3, on a port of its own (grpc_serving.py). Push notifications on: the SDK's in-memory config
store and its sender.

    python sdk13_server.py [--port N] [--api-key KEY] [--mode v10|v03compat|rest|v03rest|grpc|v03grpc]

Every mode serves everything; the card says what a client choosing by it speaks:
--mode v10 (default): JSONRPC 1.0 then JSONRPC 0.3 (the SDK serves one merged JSON card).
--mode v03compat: only JSONRPC 0.3, so such a client speaks v0.3 to the 1.x SDK.
--mode rest: only HTTP+JSON 1.0 (a REST-only agent).
--mode v03rest: only HTTP+JSON 0.3 (the v0.3 REST binding, through the compat mode).
--mode grpc: only GRPC 1.0 (a gRPC-only agent).
--mode v03grpc: only GRPC 0.3 (the v0.3 gRPC service, through the compat handler).
"""

from __future__ import annotations

from typing import Any

import hosting
import httpx
import script
from a2a.helpers.proto_helpers import new_data_part, new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette

MODES = ("v10", "v03compat", "rest", "v03rest", "grpc", "v03grpc")
REST_PREFIX = "/rest"
_STATES = {
    script.WORKING: pb.TaskState.TASK_STATE_WORKING,
    script.INPUT_REQUIRED: pb.TaskState.TASK_STATE_INPUT_REQUIRED,
    script.AUTH_REQUIRED: pb.TaskState.TASK_STATE_AUTH_REQUIRED,
    script.COMPLETED: pb.TaskState.TASK_STATE_COMPLETED,
    script.FAILED: pb.TaskState.TASK_STATE_FAILED,
    script.REJECTED: pb.TaskState.TASK_STATE_REJECTED,
    script.CANCELED: pb.TaskState.TASK_STATE_CANCELED,
}


def to_script_part(part: pb.Part) -> script.Part:
    filename, media_type = part.filename or None, part.media_type or None
    if part.HasField("raw"):
        return script.FilePart(filename, media_type, raw=part.raw)
    if part.HasField("url"):
        return script.FilePart(filename, media_type, url=part.url)
    if part.HasField("data"):
        return script.DataPart(MessageToDict(part.data))
    return script.TextPart(part.text)


def to_sdk_part(part: script.Part) -> pb.Part:
    if isinstance(part, script.TextPart):
        return pb.Part(text=part.text)
    if isinstance(part, script.DataPart):
        return new_data_part(part.value, media_type="application/json")
    if part.raw is not None:
        return pb.Part(raw=part.raw, filename=part.name or "", media_type=part.media_type or "")
    return pb.Part(url=part.url, filename=part.name or "", media_type=part.media_type or "")


def state_name(task: pb.Task | None) -> str | None:
    if task is None:
        return None
    return pb.TaskState.Name(task.status.state).removeprefix("TASK_STATE_").lower().replace("_", "-")


EXTENSIONS_ASKED = "which extensions?"
TRACE_EXTENSION = "https://example.com/ext/trace/v1"  # listed on the card, not required


class ScriptedExecutor(AgentExecutor):
    """Replays script.plan() through the SDK's TaskUpdater."""

    def __init__(self) -> None:
        self._canceled: set[str] = set()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        if context.get_user_input() == EXTENSIONS_ASKED:  # which extensions the request activated, as the SDK read them
            said = ", ".join(sorted(context.requested_extensions)) or "none"
            reply = TaskUpdater(event_queue, context.task_id, context.context_id).new_agent_message(
                [pb.Part(text=said)]
            )
            reply.ClearField("task_id")
            await event_queue.enqueue_event(reply)
            return
        incoming = script.Incoming(
            parts=tuple(to_script_part(p) for p in context.message.parts),
            task_state=state_name(context.current_task),
        )
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)

        async def emit(step: script.Step) -> None:
            if isinstance(step, script.Reply):
                reply = updater.new_agent_message([to_sdk_part(p) for p in step.parts])
                reply.ClearField("task_id")  # a direct reply belongs to no task
                await event_queue.enqueue_event(reply)
            elif isinstance(step, script.NewTask):
                await event_queue.enqueue_event(new_task_from_user_message(context.message))
            elif isinstance(step, script.Status):
                message = updater.new_agent_message([pb.Part(text=step.text)])
                await updater.update_status(_STATES[step.state], message=message)
            elif isinstance(step, script.ArtifactChunk):
                await updater.add_artifact(
                    [to_sdk_part(p) for p in step.parts],
                    artifact_id=step.artifact_id,
                    name=step.name,
                    append=step.append or None,
                    last_chunk=step.last_chunk or None,
                )

        try:
            await script.perform(script.plan(incoming), emit, lambda: context.task_id in self._canceled)
        finally:
            self._canceled.discard(context.task_id)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # Flag first: the running loop must not publish another tick after CANCELED.
        self._canceled.add(context.task_id)
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel(updater.new_agent_message([pb.Part(text=script.CANCEL_TEXT)]))


def build_cards(url: str, mode: str, api_key: str | None, grpc_target: str = "") -> tuple[pb.AgentCard, pb.AgentCard]:
    """The public card and the extended card (public + the "secret" skill)."""
    rest = url.rstrip("/") + REST_PREFIX
    interfaces = {
        "v10": [("JSONRPC", "1.0", url), ("JSONRPC", "0.3", url)],
        "v03compat": [("JSONRPC", "0.3", url)],
        "rest": [("HTTP+JSON", "1.0", rest)],
        "v03rest": [("HTTP+JSON", "0.3", rest)],
        "grpc": [("GRPC", "1.0", grpc_target)],
        "v03grpc": [("GRPC", "0.3", grpc_target)],
    }[mode]
    interfaces = [pb.AgentInterface(url=u, protocol_binding=b, protocol_version=v) for b, v, u in interfaces]
    card = pb.AgentCard(
        name=f"{script.AGENT_NAME} (sdk 1.3, {mode})",
        description=script.AGENT_DESCRIPTION,
        supported_interfaces=interfaces,
        provider=pb.AgentProvider(organization="a2a-switchboard tests", url="https://example.com"),
        version="1.0.0",
        capabilities=pb.AgentCapabilities(
            streaming=True,
            push_notifications=True,
            extended_agent_card=True,
            extensions=[pb.AgentExtension(uri=TRACE_EXTENSION, description="traces the task", required=False)],
        ),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            pb.AgentSkill(
                id=script.SKILL_ID,
                name=script.SKILL_NAME,
                description=script.SKILL_DESCRIPTION,
                tags=script.SKILL_TAGS,
                examples=script.SKILL_EXAMPLES,
            )
        ],
    )
    if api_key:
        scheme = pb.APIKeySecurityScheme(location="header", name=hosting.API_KEY_HEADER)
        card.security_schemes["apiKey"].CopyFrom(pb.SecurityScheme(api_key_security_scheme=scheme))
        card.security_requirements.append(pb.SecurityRequirement(schemes={"apiKey": pb.StringList()}))
    extended = pb.AgentCard()
    extended.CopyFrom(card)
    extended.skills.append(pb.AgentSkill(tags=["extended"], **script.SECRET_SKILL))
    return card, extended


def build_app(url: str, mode: str, api_key: str | None, grpc_server: Any = None) -> hosting.ASGIApp:
    """The HTTP app; with `grpc_server` (a grpc_serving server and its port) the handler is served there too."""
    grpc_target = f"127.0.0.1:{grpc_server[1]}" if grpc_server else ""
    card, extended = build_cards(url, mode, api_key, grpc_target)
    # Push notifications: the SDK's config store and sender, POSTing each event to the URL a client registered.
    push_store = InMemoryPushNotificationConfigStore()
    handler = DefaultRequestHandler(
        agent_executor=ScriptedExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
        extended_agent_card=extended,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(httpx.AsyncClient(), push_store),
    )
    if grpc_server:
        import grpc_serving

        grpc_serving.add_handlers(grpc_server[0], handler)
    routes = (
        create_agent_card_routes(card)
        + create_rest_routes(handler, enable_v0_3_compat=True, path_prefix=REST_PREFIX)
        + create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True)
    )
    return hosting.gated(Starlette(routes=routes), api_key)


def main() -> None:
    args = hosting.parse_args(modes=MODES)
    sock = hosting.bind(args.port)
    if "grpc" not in args.mode:
        app = build_app(hosting.base_url(sock), args.mode, args.api_key)
        hosting.serve(app, sock, exit_on_stdin_eof=args.exit_on_stdin_eof)
        return

    async def build() -> tuple[hosting.ASGIApp, str]:
        import grpc_serving  # grpcio only where gRPC is served

        grpc_server = grpc_serving.start_server(args.api_key)
        app = build_app(hosting.base_url(sock), args.mode, args.api_key, grpc_server)
        await grpc_server[0].start()
        app.grpc_server = grpc_server[0]  # held for the life of the app: a grpc.aio server stops when collected
        return app, f"grpc=127.0.0.1:{grpc_server[1]}"

    hosting.serve_built(build, sock, exit_on_stdin_eof=args.exit_on_stdin_eof)


if __name__ == "__main__":
    main()
