"""Answering a surface without widgets (`send --a2ui-action NAME --data JSON`): the person's values written to the
data model, the local checks run, then the action event built as a click on that button would build it."""

from __future__ import annotations

from typing import Any

from ..a2a.errors import UsageError
from ..a2a.model import DataPart
from .actions import ActionEvent, event_part, failed_nodes, find_action
from .binding import write
from .bounds import TooLarge, bounded_json
from .model import Surface
from .surfaces import SurfaceSet
from .tree import Node


def fill(surface: Surface, values: Any) -> None:
    """`values` into the data model: a key that is a JSON Pointer ("/booking/date") sets that path; any other key
    sets the member of that name at the root."""
    if not isinstance(values, dict):
        raise UsageError(
            "the form's values must be a JSON object", hint="""For example --data '{"/date": "2026-12-24"}'."""
        )
    try:
        for key, value in bounded_json(values).items():
            pointer = key if key.startswith("/") else "/" + key.replace("~", "~0").replace("/", "~1")
            surface.data = write(surface.data, pointer, value)
    except TooLarge as exc:
        raise UsageError(f"the form's values are too large: {exc}", hint="Send fewer values.") from None


def answer(surfaces: SurfaceSet, action: str, values: Any) -> tuple[DataPart, ActionEvent]:
    """The data part that answers the newest surface offering `action`, after `values` and the local checks."""
    for surface in reversed(list(surfaces.surfaces.values())):
        node = find_action(surface, action)
        if node is None:
            continue
        fill(surface, values if values is not None else {})
        failures = failed_nodes(surface, node)
        if failures:
            said = "; ".join(f"{_name(n)}: {' '.join(msgs)}" for n, msgs in failures)
            raise UsageError(f"the form does not pass its checks: {said}",
                             hint="Fix the values named and send again (--data sets them).")  # fmt: skip
        from .actions import build_event

        event = build_event(surface, node)
        assert event is not None  # find_action found a server event on it
        return event_part(surface, event), event
    offered = sorted({n for s in surfaces.surfaces.values() for n in action_names(s)})
    raise UsageError(
        f"no form of this task offers the action {action!r}",
        hint=f"The task's forms offer: {', '.join(offered)}." if offered else "The task shows no form with actions.",
    )


def _name(node: Node) -> str:
    """An input as the person knows it: its label, else its id."""
    label = node.component.props.get("label")
    return f"{node.component.id} ({label})" if isinstance(label, str) and label else node.component.id


def action_names(surface: Surface) -> list[str]:
    """The names of the actions a surface's buttons send, in drawing order."""
    from .actions import drawn_nodes, server_event
    from .tree import Walk

    return [str(e["name"]) for n in drawn_nodes(Walk(surface)) if (e := server_event(n.component)) is not None]
