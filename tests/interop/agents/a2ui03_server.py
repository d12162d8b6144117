"""An A2UI agent on a2a-sdk 0.3.26 built with the A2UI project's own `a2ui-a2a` (its extension and parts helpers):
an RSVP form at input-required, a thank-you at the end. Where the client does not activate the extension it asks in
words. Its parts are what the official helpers make: one A2UI message per data part (a v0.3 data part holds an
object), the media type by the version activated.

    python a2ui03_server.py [--port N] [--exit-on-stdin-eof]

Runs in .venv-a2a03 (a2a-sdk 0.3 and a2ui-a2a; see the Makefile's A2A03_PIN).
"""

from __future__ import annotations

import hosting
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, DataPart, Part, TaskState, TextPart
from a2ui.a2a import create_a2ui_part, get_a2ui_agent_extension, try_activate_a2ui_extension

CATALOG = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"


def rsvp_form() -> list[dict]:
    components = [
        {"id": "root", "component": "Column", "children": ["title", "name", "guests", "diet", "send"]},
        {"id": "title", "component": "Text", "variant": "h2", "text": "RSVP"},
        {"id": "name", "component": "TextField", "label": "Your name", "value": {"path": "/rsvp/name"},
         "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/rsvp/name"}}},
                     "message": "Your name, please."}]},
        {"id": "guests", "component": "Slider", "label": "Guests", "min": 0, "max": 4,
         "value": {"path": "/rsvp/guests"}},
        {"id": "diet", "component": "CheckBox", "label": "Vegetarian", "value": {"path": "/rsvp/veg"}},
        {"id": "send-label", "component": "Text", "text": "Send"},
        {"id": "send", "component": "Button", "variant": "primary", "child": "send-label",
         "action": {"event": {"name": "rsvp", "context": {
             "name": {"path": "/rsvp/name"}, "guests": {"path": "/rsvp/guests"}, "veg": {"path": "/rsvp/veg"}}}}},
    ]  # fmt: skip
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": "rsvp", "catalogId": CATALOG}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "rsvp", "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "rsvp", "value": {"rsvp": {"name": "", "guests": 1,
                                                                                         "veg": False}}}},
    ]  # fmt: skip


def action_of(context: RequestContext) -> dict | None:
    for part in context.message.parts if context.message else []:
        data = part.root.data if isinstance(part.root, DataPart) else None
        messages = data.get("value") if isinstance(data, dict) and isinstance(data.get("value"), list) else [data]
        for message in messages:
            if isinstance(message, dict) and isinstance(message.get("action"), dict):
                return message["action"]
    return None


class RsvpExecutor(AgentExecutor):
    def __init__(self, card: AgentCard) -> None:
        self.card = card

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        if context.current_task is None:
            await updater.submit()
            version = try_activate_a2ui_extension(context, self.card)
            if version is None:
                ask = [Part(root=TextPart(text="Your name and how many guests? (A2UI not activated)"))]
            else:
                ask = [Part(root=TextPart(text="Please RSVP.")), *(create_a2ui_part(m, version) for m in rsvp_form())]
            await updater.update_status(TaskState.input_required, updater.new_agent_message(ask), final=True)
            return
        action = action_of(context)
        said = f"RSVP from {action['context'].get('name')}" if action else f"RSVP in words: {context.get_user_input()}"
        if action:
            said += f", {action['context'].get('guests')} guests, vegetarian {action['context'].get('veg')}"
        await updater.complete(updater.new_agent_message([Part(root=TextPart(text=said))]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id or "", context.context_id or "").cancel()


def build_app(url: str) -> hosting.ASGIApp:
    extension = get_a2ui_agent_extension("0.9.1", supported_catalog_ids=[CATALOG])
    card = AgentCard(
        name="RSVP (a2ui-a2a)",
        description="An A2UI form built with the A2UI project's a2a helpers, on a2a-sdk 0.3.",
        url=url,
        version="1.0.0",
        protocol_version="0.3.0",
        capabilities=AgentCapabilities(streaming=True, extensions=[extension]),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain", "application/a2ui+json"],
        skills=[AgentSkill(id="rsvp", name="RSVP", description="An RSVP form.", tags=["a2ui"])],
    )
    handler = DefaultRequestHandler(agent_executor=RsvpExecutor(card), task_store=InMemoryTaskStore())
    return A2AStarletteApplication(agent_card=card, http_handler=handler).build()


def main() -> None:
    args = hosting.parse_args()
    sock = hosting.bind(args.port)
    hosting.serve(build_app(hosting.base_url(sock)), sock, exit_on_stdin_eof=args.exit_on_stdin_eof)


if __name__ == "__main__":
    main()
