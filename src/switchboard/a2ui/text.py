"""A surface as readable text, for the command line and for anything that cannot draw widgets: labels, current
values (and the data path each input writes, which `send --a2ui-action NAME --data` fills), and the actions with
what each sends. Plain text: the caller strips control sequences before it reaches a terminal.
"""

from __future__ import annotations

from typing import Any

from ..safe_text import strip_controls
from .actions import in_form_order, local_call, server_event
from .binding import as_text, is_call, is_path
from .functions import Evaluation
from .model import Surface
from .tree import Node, Walk

ICONS = {
    "mail": "✉", "phone": "☎", "call": "☎", "check": "✓", "close": "✕", "add": "+", "delete": "🗑", "star": "★",
    "starOff": "☆", "favorite": "♥", "info": "ℹ", "warning": "⚠", "error": "⚠", "search": "⌕", "home": "⌂",
    "calendarToday": "📅", "event": "📅", "person": "👤", "accountCircle": "👤", "settings": "⚙", "lock": "🔒",
    "locationOn": "📍", "send": "➤", "arrowForward": "→", "arrowBack": "←", "refresh": "↻", "help": "?",
    "play": "▶", "pause": "⏸", "stop": "■", "shoppingCart": "🛒", "payment": "💳", "share": "⇪", "edit": "✎",
}  # fmt: skip


def clean(text: str) -> str:
    return strip_controls(text).replace("\n", " ").strip()


def bound_path(value: Any, scope: str) -> str | None:
    """The absolute data path an input writes to, None when it is not bound."""
    from .binding import absolute

    return absolute(value["path"], scope) if is_path(value) else None


def describe_value(value: Any) -> str:
    """How an action context's value reads: a literal as JSON-ish text, a binding as the path it reads."""
    if is_path(value):
        return f"the value at {value['path']}"
    if is_call(value):
        return f"{value['call']}(…)"
    return as_text(value)


def button_label(walk: Walk, node: Node, evaluation: Evaluation) -> str:
    child = walk.child(node, "child", (node.component.id,))
    if child is not None and child.component.type == "Text":
        return clean(Evaluation(walk.surface.data, child.scope).text(child.component.props.get("text")))
    if child is not None and child.component.type == "Icon":
        return icon_text(child.component.props.get("name"), evaluation)
    label = node.component.props.get("label")
    return clean(evaluation.text(label)) if label is not None else node.component.id


def icon_text(name: Any, evaluation: Evaluation) -> str:
    if isinstance(name, dict) and "svgPath" in name:
        return "◆"
    text = clean(evaluation.text(name))
    return ICONS.get(text, f"({text})" if text else "◆")


def action_text(surface: Surface, node: Node, evaluation: Evaluation) -> str:
    event = server_event(node.component)
    if event is not None:
        context = in_form_order(surface, event.get("context"), node.scope)
        said = ", ".join(f"{clean(k)}={clean(describe_value(v))}" for k, v in context)
        return f"sends action {clean(event['name'])}" + (f" with {said}" if said else "")
    call = local_call(node.component)
    if call is not None and call.get("call") == "openUrl":
        given = call.get("args")
        args: dict[str, Any] = given if isinstance(given, dict) else {}
        return f"opens {clean(evaluation.text(args.get('url')))} (after asking)"
    return "does nothing here"


def surface_lines(surface: Surface) -> list[str]:
    """The surface as indented lines of text."""
    walk = Walk(surface)
    head = f"Form {clean(surface.surface_id)} (A2UI {surface.version}"
    head += f", from {clean(surface.agent_name)} as it says)" if surface.agent_name else ")"
    lines = [head]
    root = walk.root()
    if root is None:
        lines.append("  (nothing to show yet: no root component)")
    else:
        _lines(walk, root, 1, (), lines)
    for note in [*surface.notices, *walk.notes]:
        lines.append(f"  ! {clean(note)}")
    return [strip_controls(line) for line in lines]  # every value above is cleaned; this is the net under them


def _lines(walk: Walk, node: Node, depth: int, path: tuple[str, ...], out: list[str]) -> None:
    c, pad = node.component, "  " * depth
    e = Evaluation(walk.surface.data, node.scope)
    props = c.props
    here = (*path, c.id)
    label = clean(e.text(props.get("label"))) if props.get("label") is not None else ""
    where = bound_path(props.get("value"), node.scope)
    at = f" [{where}]" if where else ""
    if c.type == "Text":
        text = clean(e.text(props.get("text")))
        variant = props.get("variant")
        out.append(pad + (text.upper() if variant in ("h1", "h2") else text))
    elif c.type == "Image":
        alt = clean(e.text(props.get("description"))) or "image"
        out.append(f"{pad}[image: {alt}] {clean(e.text(props.get('url')))}")
    elif c.type == "Icon":
        out.append(pad + icon_text(props.get("name"), e))
    elif c.type in ("Video", "AudioPlayer"):
        kind = "video" if c.type == "Video" else "audio"
        desc = clean(e.text(props.get("description"))) if props.get("description") else ""
        out.append(f"{pad}[{kind}{': ' + desc if desc else ''}] {clean(e.text(props.get('url')))}")
    elif c.type in ("Row", "Column", "List", "Card"):
        kids = walk.children(node, here) if c.type != "Card" else [walk.child(node, "child", here)]
        for kid in kids:
            if kid is not None:
                _lines(walk, kid, depth + (1 if c.type == "Card" else 0), here, out)
    elif c.type == "Tabs":
        for i, tab in enumerate(t for t in props.get("tabs") or [] if isinstance(t, dict)):
            out.append(f"{pad}Tab {clean(e.text(tab.get('title')))}:")
            kid = walk.node(tab.get("child"), node.scope, f"{node.key}/tab{i}", here)
            if kid is not None:
                _lines(walk, kid, depth + 1, here, out)
    elif c.type == "Modal":
        trigger = walk.child(node, "trigger", here)
        name = button_label(walk, trigger, e) if trigger and trigger.component.type == "Button" else "more"
        out.append(f"{pad}[{name}] opens:")
        content = walk.child(node, "content", here)
        if content is not None:
            _lines(walk, content, depth + 1, here, out)
    elif c.type == "Divider":
        out.append(pad + "─" * 20)
    elif c.type == "Button":
        primary = " (primary)" if props.get("variant") == "primary" else ""
        out.append(f"{pad}[ {button_label(walk, node, e)} ]{primary} {action_text(walk.surface, node, e)}")
    elif c.type == "TextField":
        value = (
            "•" * len(e.text(props.get("value"))) if props.get("variant") == "obscured" else e.text(props.get("value"))
        )
        out.append(f"{pad}{label or 'Text'}{at}: {clean(value) or '(empty)'}")
    elif c.type == "CheckBox":
        out.append(f"{pad}[{'x' if e.value(props.get('value')) is True else ' '}] {label}{at}")
    elif c.type == "ChoicePicker":
        chosen = e.value(props.get("value"))
        chosen = chosen if isinstance(chosen, list) else [chosen] if chosen is not None else []
        many = props.get("variant") == "multipleSelection"
        opts = []
        for o in props.get("options") or []:
            if isinstance(o, dict):
                mark = ("[x]" if many else "(•)") if o.get("value") in chosen else ("[ ]" if many else "( )")
                opts.append(f"{mark} {clean(e.text(o.get('label')))}={clean(as_text(o.get('value')))}")
        out.append(f"{pad}{label or 'Choose'}{at}: {'  '.join(opts)}")
    elif c.type == "Slider":
        low, high = props.get("min", 0), props.get("max")
        span = f"{clean(as_text(low))}..{clean(as_text(high))}"
        out.append(f"{pad}{label or 'Value'}{at}: {clean(e.text(props.get('value'))) or '(none)'} ({span})")
    elif c.type == "DateTimeInput":
        kinds = [k for k, on in (("date YYYY-MM-DD", props.get("enableDate")), ("time HH:MM", props.get("enableTime")))
                 if on is True] or ["date and time"]  # fmt: skip
        out.append(f"{pad}{label or 'When'}{at}: {clean(e.text(props.get('value'))) or '(empty)'} ({', '.join(kinds)})")
    elif c.type == "#cycle":
        out.append(f"{pad}[{clean(c.id)}: refers to itself; not drawn again]")
    elif c.type == "#missing":
        out.append(f"{pad}[{clean(as_text(props.get('ref')))}: not sent yet]")
    else:
        out.append(f"{pad}[unsupported component {clean(c.type)} (id {clean(c.id)}); its JSON is in the wire view]")


def part_summary(part: Any) -> str | None:
    """One line for an A2UI data part in a transcript: the action a person sent (and its values), or the forms an
    agent's part speaks of; None for any other part."""
    from ..a2a.model import DataPart
    from .messages import is_a2ui_part, read_part

    if not isinstance(part, DataPart) or not is_a2ui_part(part):
        return None
    for message in part.data if isinstance(part.data, list) else [part.data]:
        event = message.get("action") or message.get("userAction") if isinstance(message, dict) else None
        if isinstance(event, dict):
            given = event.get("context")
            context: dict[str, Any] = given if isinstance(given, dict) else {}
            values = ", ".join(f"{clean(str(k))}={clean(as_text(v))}" for k, v in list(context.items())[:12])
            return f"▸ form action {clean(as_text(event.get('name')))}" + (f" ({values})" if values else "")
    from .model import DeleteSurface

    ids: dict[str, bool] = {}  # surface id -> only deleted
    for op in read_part(part)[0]:
        ids[op.surface_id] = ids.get(op.surface_id, True) and isinstance(op, DeleteSurface)
    said = [f"form {clean(i)}" + (" closed" if closed else "") for i, closed in ids.items()]
    return f"({', '.join(said)})" if said else "(A2UI part)"
