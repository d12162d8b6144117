"""What the client sends back: the action event (v0.8 `userAction`, v0.9 `action`) with its context resolved from
the data model, in a data part of the surface's own media type; and the local actions (openUrl) it never runs
by itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..a2a.model import DataPart
from .binding import absolute, is_path, read
from .functions import Evaluation, failed_checks
from .model import INPUTS, Component, Surface
from .tree import Node, Walk


@dataclass(frozen=True)
class ActionEvent:
    name: str
    surface_id: str
    source_component_id: str
    context: dict[str, Any]
    timestamp: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "surfaceId": self.surface_id,
            "sourceComponentId": self.source_component_id,
            "timestamp": self.timestamp,
            "context": self.context,
        }


def server_event(component: Component) -> dict[str, Any] | None:
    """The `{"name", "context"}` a component's action sends to the agent, None when it sends nothing."""
    action = component.props.get("action")
    event = action.get("event") if isinstance(action, dict) else None
    if isinstance(event, dict) and isinstance(event.get("name"), str) and event["name"]:
        return event
    return None


def local_call(component: Component) -> dict[str, Any] | None:
    """The function a component's action runs on the client (`{"call", "args"}`), such as openUrl."""
    action = component.props.get("action")
    call = action.get("functionCall") if isinstance(action, dict) else None
    return call if isinstance(call, dict) and isinstance(call.get("call"), str) else None


def build_event(surface: Surface, node: Node, *, now: datetime | None = None) -> ActionEvent | None:
    """The event the component at `node` sends, its context's bindings resolved in the node's scope."""
    event = server_event(node.component)
    if event is None:
        return None
    evaluation = Evaluation(surface.data, node.scope)
    raw = event.get("context")
    context = {k: evaluation.value(v) for k, v in in_form_order(surface, raw, node.scope)}
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    stamp = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return ActionEvent(event["name"], surface.surface_id, node.component.id, context, stamp)


def in_form_order(surface: Surface, context: Any, scope: str) -> list[tuple[str, Any]]:
    """An action's context entries in the form's order: those bound to an input as the inputs are drawn, then the
    rest as given. The agent's own order does not survive a protobuf Struct (the official SDK's wire), so what was
    sent, and what a button sends, read in a new order every time."""
    items = list(context.items()) if isinstance(context, dict) else []
    drawn = {path: i for i, path in enumerate(_input_paths(surface))}
    return sorted(items, key=lambda item: drawn.get(_bound(item[1], scope) or "", len(drawn)))


def _bound(value: Any, scope: str) -> str | None:
    return absolute(value["path"], scope) if is_path(value) else None


def _input_paths(surface: Surface) -> list[str]:
    """The data paths the surface's inputs write, in drawing order."""
    nodes = [n for n in drawn_nodes(Walk(surface)) if n.component.type in INPUTS]
    paths = [_bound(n.component.props.get("value"), n.scope) for n in nodes]
    return [p for p in paths if p is not None]


def event_message(surface: Surface, event: ActionEvent) -> dict[str, Any]:
    """The client-to-server message, shaped by the surface's version (client_to_server.json of each)."""
    if surface.is_v08:
        return {"userAction": event.to_json()}
    # v0.9.1 is the extension's version (URI, media type): its client_to_server.json still fixes "v0.9" here.
    return {"version": "v0.9", "action": event.to_json()}


def event_part(surface: Surface, event: ActionEvent) -> DataPart:
    """The data part that carries the event: v0.8 one message, v0.9 a list of messages (as the extension says),
    or one message where the agent sent its own that way (a v0.3 wire's data part holds an object only)."""
    message = event_message(surface, event)
    data: Any = message if surface.is_v08 or surface.inline_data else [message]
    if surface.wrapped_list and isinstance(data, list):
        data = {"value": data}  # as the agent wrapped its own list (a v0.3 data part holds an object)
    return DataPart(data=data, metadata={"mimeType": surface.mime_type})


def check_surface(surface: Surface, source: Node | None = None) -> dict[str, list[str]]:
    """The local checks before an action is sent: each drawn input's checks (and a TextField's
    validationRegexp), and the source button's own; failures by the key of the node drawn (empty: all pass)."""
    return {node.key: failed for node, failed in failed_nodes(surface, source)}


def failed_nodes(surface: Surface, source: Node | None = None) -> list[tuple[Node, list[str]]]:
    """check_surface's failures with the nodes that failed, in drawing order."""
    walk = Walk(surface)
    failures: list[tuple[Node, list[str]]] = []
    for node in drawn_nodes(walk):
        component = node.component
        if component.type not in INPUTS and node is not source and (source is None or node.key != source.key):
            continue
        evaluation = Evaluation(surface.data, node.scope)
        failed = failed_checks(component.props.get("checks"), evaluation)
        pattern = component.props.get("validationRegexp")
        if component.type == "TextField" and isinstance(pattern, str):
            value: Any = component.props.get("value")
            text = read(surface.data, absolute(value["path"], node.scope)) if is_path(value) else value
            if text not in (None, "") and evaluation.call("regex", {"value": text, "pattern": pattern}) is not True:
                failed.append("does not have the expected form")
        if component.type == "DateTimeInput":
            failed += _moment_checks(component, evaluation)
        if failed:
            failures.append((node, failed))
    return failures


_DATE, _TIME = r"\d{4}-\d{2}-\d{2}", r"\d{1,2}:\d{2}(:\d{2})?"


def _moment_checks(component: Component, evaluation: Evaluation) -> list[str]:
    """A DateTimeInput's value, when given, is ISO 8601 of the kind it asks for (a date, a time, or both)."""
    value = evaluation.value(component.props.get("value"))
    if value in (None, ""):
        return []
    date, time = component.props.get("enableDate") is True, component.props.get("enableTime") is True
    pattern = _DATE if date and not time else _TIME if time and not date else f"{_DATE}[T ]{_TIME}.*"
    if not isinstance(value, str) or re.fullmatch(pattern, value[:64]) is None:
        return [{_DATE: "Write the date as YYYY-MM-DD.", _TIME: "Write the time as HH:MM."}.get(pattern,
                "Write it as YYYY-MM-DDTHH:MM.")]  # fmt: skip
    return []


def drawn_nodes(walk: Walk) -> list[Node]:
    """Every component the surface draws from its root, in drawing (and Tab) order."""
    out: list[Node] = []
    root = walk.root()

    def visit(node: Node, path: tuple[str, ...]) -> None:
        out.append(node)
        here = (*path, node.component.id)
        props = node.component.props
        kids: list[Node | None] = []
        if node.component.type in ("Row", "Column", "List"):
            kids = list(walk.children(node, here))
        elif node.component.type in ("Card", "Button"):
            kids = [walk.child(node, "child", here)]
        elif node.component.type == "Modal":
            kids = [walk.child(node, "trigger", here), walk.child(node, "content", here)]
        elif node.component.type == "Tabs" and isinstance(props.get("tabs"), list):
            tabs = [t for t in props["tabs"] if isinstance(t, dict)]
            kids = [walk.node(t.get("child"), node.scope, f"{node.key}/tab{i}", here) for i, t in enumerate(tabs)]
        for kid in kids:
            if kid is not None:
                visit(kid, here)

    if root is not None:
        visit(root, ())
    return out


def find_action(surface: Surface, name: str) -> Node | None:
    """The drawn component whose action sends event `name` (the command line answers a form by it)."""
    return next((n for n in drawn_nodes(Walk(surface)) if (server_event(n.component) or {}).get("name") == name), None)
