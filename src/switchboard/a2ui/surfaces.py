"""The surfaces of one conversation (or one run step), as the agent's stream creates, updates, re-binds and
deletes them; and the person's edits, which write to a surface's data model (two-way binding).

Parts are taken once each (`key`: a message id, an artifact chunk): a task snapshot that repeats a status
message does not create a surface again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..a2a.model import ArtifactUpdate, DataPart, Message, Part, StatusUpdate, Task
from . import binding
from .bounds import MAX_COMPONENTS, MAX_SURFACES, TooLarge
from .messages import a2ui_mime_type, read_part, unwrapped
from .model import CreateSurface, DeleteSurface, Operation, Surface, UpdateComponents, UpdateData
from .negotiation import DATA_MODEL_KEY


class SurfaceSet:
    def __init__(self) -> None:
        self.surfaces: dict[str, Surface] = {}
        self.notes: list[str] = []  # what could not be read, for the transcript's notice
        self._taken: set[str] = set()
        self.revision = 0

    def get(self, surface_id: str) -> Surface | None:
        return self.surfaces.get(surface_id)

    def take(self, key: str | None, parts: Iterable[Part]) -> list[str]:
        """Apply the A2UI parts among `parts` (once per `key`); the ids of the surfaces they touched, in order."""
        if key is not None:
            if key in self._taken:
                return []
            self._taken.add(key)
        touched: list[str] = []
        for part in parts:
            mime = a2ui_mime_type(part)
            if mime is None or not isinstance(part, DataPart):
                continue
            ops, notes = read_part(part)
            self._note(notes)
            for op in ops:
                data = unwrapped(part.data)
                shape = {"inline": not isinstance(data, list), "wrapped": data is not part.data}
                if self.apply(op, mime, **shape) and op.surface_id not in touched:
                    touched.append(op.surface_id)
        return touched

    def _note(self, notes: list[str]) -> None:
        for text in notes:
            if text not in self.notes and len(self.notes) < 50:
                self.notes.append(text)

    def apply(self, op: Operation, mime: str, *, inline: bool = False, wrapped: bool = False) -> bool:
        """One operation; False when it was refused (a surface too many), with a note saying why."""
        surface = self.surfaces.get(op.surface_id)
        if isinstance(op, DeleteSurface):
            if surface is not None:
                del self.surfaces[op.surface_id]
                self.revision += 1
            return surface is not None
        if surface is None or isinstance(op, CreateSurface):
            if surface is None and len(self.surfaces) >= MAX_SURFACES:
                self._note([f"more than {MAX_SURFACES} surfaces; surface {op.surface_id!r} was not shown"])
                return False
            old = surface
            # v0.8 may describe a surface before beginRendering says to draw it; v0.9 may skip createSurface
            # for a surface another agent made (we draw it then).
            surface = Surface(op.surface_id, op.version, mime_type=mime, ready=op.version != "v0.8")
            if old is not None and isinstance(op, CreateSurface) and op.version == "v0.8":
                surface.components, surface.data = old.components, old.data  # begin after the updates it follows
            self.surfaces[op.surface_id] = surface
        surface.inline_data, surface.wrapped_list = inline, wrapped
        try:
            _apply(surface, op)
        except TooLarge as exc:
            surface.note(f"an update was left out: {exc}")
        surface.revision += 1
        self.revision += 1
        return True

    def edit(self, surface_id: str, path: str, value: Any) -> None:
        """The person changed an input bound to `path` (absolute): the data model follows at once."""
        surface = self.surfaces.get(surface_id)
        if surface is None:
            return
        try:
            surface.data = binding.write(surface.data, path, value)
        except TooLarge as exc:
            surface.note(f"an edit was not kept: {exc}")

    def data_models(self) -> dict[str, Any]:
        """The data models of the surfaces that asked for them (sendDataModel), for a message's metadata."""
        return {s.surface_id: s.data for s in self.surfaces.values() if s.send_data_model}

    def metadata(self, announcement: dict[str, Any] | None) -> dict[str, Any] | None:
        """A message's metadata: the client's capabilities where A2UI is on for this agent (`announcement`, see
        negotiation.py), and the data models of surfaces created with sendDataModel. None when there is neither."""
        if announcement is None:
            return None
        models = self.data_models()
        if not models:
            return dict(announcement)
        return {**announcement, DATA_MODEL_KEY: {"version": "v0.9", "surfaces": models}}


def surface_ids(parts: Iterable[Part]) -> list[str]:
    """The ids of the surfaces A2UI parts among `parts` speak of, in order (nothing is applied)."""
    ids: list[str] = []
    for part in parts:
        for op in read_part(part)[0]:
            if op.surface_id not in ids:
                ids.append(op.surface_id)
    return ids


def take_event(surfaces: SurfaceSet, event: object) -> list[str]:
    """Feed the A2UI parts of one stream event (status message, artifact chunk, direct reply, task snapshot)."""
    if isinstance(event, StatusUpdate | Task):
        message = event.status.message
        return surfaces.take(message.message_id, message.parts) if message is not None else []
    if isinstance(event, ArtifactUpdate):
        return surfaces.take(None, event.artifact.parts)
    if isinstance(event, Message):
        return surfaces.take(event.message_id, event.parts)
    return []


def _apply(surface: Surface, op: Operation) -> None:
    if isinstance(op, CreateSurface):
        surface.catalog_id, surface.root = op.catalog_id, op.root
        surface.send_data_model, surface.agent_name, surface.ready = op.send_data_model, op.agent_name, True
    elif isinstance(op, UpdateComponents):
        for component in op.components:
            if component.type == "#init":  # v0.8: literals that initialise the paths they are bound to
                for path, value in component.props["inits"]:
                    if binding.read(surface.data, path) is None:
                        surface.data = binding.write(surface.data, path, value)
                continue
            if component.id not in surface.components and len(surface.components) >= MAX_COMPONENTS:
                surface.note(f"more than {MAX_COMPONENTS} components; the rest are left out")
                break
            surface.components[component.id] = component
    elif isinstance(op, UpdateData):
        if op.version == "v0.8" and op.path not in ("", "/") and isinstance(op.value, dict):
            surface.data = binding.merge(surface.data, op.path, op.value)
        else:
            surface.data = binding.write(surface.data, op.path, op.value, remove=op.remove)
