"""What a conversation does with a form's action: it goes to the agent as the next message (in the task that
asked, when one waits: see Conversation.next_message; else a new task in the same context)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .surface import A2uiSurface

if TYPE_CHECKING:
    from ....a2a.model import Part
    from ....a2ui.surfaces import SurfaceSet
    from ....workflow.state import AskRequest


class FormActions:
    """Mixed into ConversationView (which has `send` and its prompt panes)."""

    async def on_a2ui_surface_action_taken(self, event: A2uiSurface.ActionTaken) -> None:
        event.stop()
        host: Any = self
        parts: list[Part] = [event.part]
        if event.secrets:  # a masked field's value: never in the wire view, and the message shows masked
            host.app.tap.redactor.add(*event.secrets)
        host.send(parts, secret=True if event.secrets else None)  # the turn takes the question's pane away

    def _forms(self) -> SurfaceSet | None:
        """The conversation's surfaces when the app draws A2UI (None: forms show as their JSON)."""
        host: Any = self
        conversation = host.conversation
        return conversation.surfaces if conversation is not None and host.app.draws_a2ui else None


def step_forms(request: AskRequest) -> SurfaceSet:
    """The surfaces a workflow step's question carries (a run keeps no surfaces across its steps' turns)."""
    from ....a2ui.surfaces import SurfaceSet

    surfaces = SurfaceSet()
    surfaces.take(None, request.question)
    return surfaces
