"""Reference A2A server on a2a-sdk 0.3.26: native v0.3, what most deployed agents still run. JSON-RPC at the base
URL, and the SDK's HTTP+JSON (REST) routes under /v1 beside it.

    python sdk03_server.py [--port N] [--api-key KEY] [--mode native|rest]

--mode native (default): the (legacy) card prefers JSONRPC at the base URL.
--mode rest: the card prefers HTTP+JSON at the base URL and lists nothing else (a REST-only agent).
--mode push: native, with push notifications on: the SDK's in-memory config store and its sender (which POSTs the
whole Task, in the v0.3 shape, with X-A2A-Notification-Token).

Runs in its own venv (SWITCHBOARD_A2A03_PYTHON), because a2a-sdk 0.3 and 1.x cannot share one.
"""

from __future__ import annotations

import base64

import hosting
import httpx
import script
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.apps.rest.rest_adapter import RESTAdapter
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentProvider,
    AgentSkill,
    APIKeySecurityScheme,
    DataPart,
    FilePart,
    FileWithBytes,
    FileWithUri,
    In,
    Part,
    SecurityScheme,
    TaskState,
    TextPart,
)
from a2a.utils import new_agent_parts_message, new_task

# v0.3 marks the event that ends a stream with `final`; the SDK sets it for terminal states only, and like
# most deployed 0.3 agents we also set it when the task stops to wait for the user.
_INTERRUPTED = {script.INPUT_REQUIRED, script.AUTH_REQUIRED}


def to_script_part(part: Part) -> script.Part:
    inner = part.root
    if isinstance(inner, DataPart):
        return script.DataPart(inner.data)
    if isinstance(inner, FilePart):
        file = inner.file
        if isinstance(file, FileWithBytes):
            return script.FilePart(file.name, file.mime_type, raw=base64.b64decode(file.bytes))
        return script.FilePart(file.name, file.mime_type, url=file.uri)
    return script.TextPart(inner.text)


def to_sdk_part(part: script.Part) -> Part:
    if isinstance(part, script.TextPart):
        return Part(root=TextPart(text=part.text))
    if isinstance(part, script.DataPart):
        return Part(root=DataPart(data=part.value))
    if part.raw is not None:
        encoded = base64.b64encode(part.raw).decode()
        file = FileWithBytes(bytes=encoded, name=part.name, mime_type=part.media_type)
    else:
        file = FileWithUri(uri=part.url, name=part.name, mime_type=part.media_type)
    return Part(root=FilePart(file=file))


class ScriptedExecutor(AgentExecutor):
    """Replays script.plan() through the SDK's TaskUpdater."""

    def __init__(self) -> None:
        self._canceled: set[str] = set()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        incoming = script.Incoming(
            parts=tuple(to_script_part(p) for p in context.message.parts),
            task_state=task.status.state.value if task else None,
        )
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)

        async def emit(step: script.Step) -> None:
            if isinstance(step, script.Reply):
                parts = [to_sdk_part(p) for p in step.parts]
                await event_queue.enqueue_event(new_agent_parts_message(parts, context_id=context.context_id))
            elif isinstance(step, script.NewTask):
                await event_queue.enqueue_event(new_task(context.message))
            elif isinstance(step, script.Status):
                message = updater.new_agent_message([Part(root=TextPart(text=step.text))])
                final = step.state in _INTERRUPTED
                await updater.update_status(TaskState(step.state), message=message, final=final)
            elif isinstance(step, script.ArtifactChunk):
                await updater.add_artifact(
                    [to_sdk_part(p) for p in step.parts],
                    artifact_id=step.artifact_id,
                    name=step.name,
                    append=step.append,
                    last_chunk=step.last_chunk,
                )

        try:
            await script.perform(script.plan(incoming), emit, lambda: context.task_id in self._canceled)
        finally:
            self._canceled.discard(context.task_id)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # Flag first: the running loop must not publish another tick after CANCELED.
        self._canceled.add(context.task_id)
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel(updater.new_agent_message([Part(root=TextPart(text=script.CANCEL_TEXT))]))


MODES = ("native", "rest", "push")


def build_cards(url: str, mode: str, api_key: str | None) -> tuple[AgentCard, AgentCard]:
    """The public card and the extended card (public + the "secret" skill)."""
    skill = AgentSkill(
        id=script.SKILL_ID,
        name=script.SKILL_NAME,
        description=script.SKILL_DESCRIPTION,
        tags=script.SKILL_TAGS,
        examples=script.SKILL_EXAMPLES,
    )
    card = AgentCard(
        name=f"{script.AGENT_NAME} (sdk 0.3)",
        description=script.AGENT_DESCRIPTION,
        url=url,
        preferred_transport="HTTP+JSON" if mode == "rest" else "JSONRPC",
        protocol_version="0.3.0",
        provider=AgentProvider(organization="a2a-switchboard tests", url="https://example.com"),
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True, push_notifications=mode == "push"),
        supports_authenticated_extended_card=True,
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[skill],
    )
    if api_key:
        scheme = APIKeySecurityScheme(in_=In.header, name=hosting.API_KEY_HEADER)
        card.security_schemes = {"apiKey": SecurityScheme(root=scheme)}
        card.security = [{"apiKey": []}]
    secret = AgentSkill(tags=["extended"], **script.SECRET_SKILL)
    extended = card.model_copy(update={"skills": [skill, secret]})
    return card, extended


def build_app(url: str, mode: str, api_key: str | None) -> hosting.ASGIApp:
    card, extended = build_cards(url, mode, api_key)
    push: dict[str, object] = {}
    if mode == "push":
        store = InMemoryPushNotificationConfigStore()
        push = {"push_config_store": store, "push_sender": BasePushNotificationSender(httpx.AsyncClient(), store)}
    handler = DefaultRequestHandler(agent_executor=ScriptedExecutor(), task_store=InMemoryTaskStore(), **push)
    # build() serves the card at /.well-known/agent-card.json and the pre-0.3 /.well-known/agent.json.
    app = A2AStarletteApplication(agent_card=card, http_handler=handler, extended_agent_card=extended).build()
    # The REST routes as the SDK's FastAPI app would mount them (without FastAPI, which this venv lacks).
    rest = RESTAdapter(agent_card=card, http_handler=handler, extended_agent_card=extended)
    for (path, method), endpoint in rest.routes().items():
        app.add_route(path, endpoint, methods=[method])
    return hosting.gated(app, api_key)


def main() -> None:
    args = hosting.parse_args(modes=MODES)
    sock = hosting.bind(args.port)
    app = build_app(hosting.base_url(sock), args.mode, args.api_key)
    hosting.serve(app, sock, exit_on_stdin_eof=args.exit_on_stdin_eof)


if __name__ == "__main__":
    main()
