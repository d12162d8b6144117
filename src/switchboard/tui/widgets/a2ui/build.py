"""Each component of the basic catalog as a Textual widget, built from a surface's tree (a2ui/tree.py).

Text from the agent is data: it goes into `Content` (never parsed as markup) after its control sequences are
stripped. Inputs are bound to the data model: the widget knows its path, and the surface writes what the person
changes there. Nothing here fetches or opens anything: images and media are links the person may open, after
being asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import (
    Button,
    Collapsible,
    Input,
    Rule,
    Static,
    TabbedContent,
    TabPane,
    TextArea,
)

from ....a2ui.actions import local_call, server_event
from ....a2ui.binding import as_text
from ....a2ui.functions import Evaluation
from ....a2ui.model import Surface
from ....a2ui.text import bound_path, button_label, clean, icon_text
from ....a2ui.tree import Node, Walk
from ....safe_text import strip_controls
from .choices import ChoiceButton, ChoiceChecks, ChoiceRadios, FormCheckbox
from .open_url import A2uiOpenUrl
from .slider import Slider

_VARIANT_CLASS = {"h1": "-h1", "h2": "-h1", "h3": "-h3", "h4": "-h3", "h5": "-h3", "caption": "-caption"}
_PLACEHOLDERS = {"date": "YYYY-MM-DD", "time": "HH:MM", "both": "YYYY-MM-DDTHH:MM"}


class LinkRow(Static, can_focus=True):
    """An image, a video or a sound: never fetched; its link is shown, enter offers to open it (after asking)."""

    BINDINGS = [("enter", "open", "Open link")]

    def __init__(self, kind: str, alt: str, url: str) -> None:
        said = Content.assemble((f"{kind}: ", "$text-muted"), (alt, "bold"), ("  ", ""), (url, "underline $text-muted"))
        super().__init__(said, classes="a2ui-link")
        self.url = url

    def action_open(self) -> None:
        self.post_message(A2uiOpenUrl(self.url))


@dataclass
class Built:
    """What the surface needs to know about the widgets built: where each input writes, what to redraw as the
    data model changes, where each component's errors go, and what each button does."""

    bound: dict[int, tuple[str, str]] = field(default_factory=dict)  # id(widget) -> (path, kind of value)
    displays: list[tuple[Static, Callable[[], Content]]] = field(default_factory=list)
    errors: dict[str, Static] = field(default_factory=dict)  # node key -> its error line
    inputs: dict[str, Widget] = field(default_factory=dict)  # node key -> the widget to focus on an error
    buttons: dict[int, Node] = field(default_factory=dict)  # id(button) -> its node
    primary: Button | None = None  # what enter in a field presses
    placeholders: int = 0


class SurfaceBuilder:
    def __init__(self, surface: Surface) -> None:
        self.surface = surface
        self.walk = Walk(surface)
        self.built = Built()

    def build(self) -> list[Widget]:
        root = self.walk.root()
        return [self.widget(root, ())] if root is not None else []

    def _eval(self, node: Node) -> Evaluation:
        return Evaluation(self.surface.data, node.scope)

    def _text(self, node: Node, prop: str) -> str:
        return clean(self._eval(node).text(node.component.props.get(prop)))

    def _live(self, node: Node, make: Callable[[], Content], classes: str) -> Static:
        """A Static redrawn whenever the data model changes (its text may be bound)."""
        widget = Static(make(), classes=classes)
        self.built.displays.append((widget, make))
        return widget

    def _field(self, node: Node, label: str, widget: Widget, path: str | None, kind: str) -> Widget:
        """An input with its label above and its error line below."""
        if path is not None:
            self.built.bound[id(widget)] = (path, kind)
        else:
            widget.disabled = True  # not bound: nothing to write to
        error = Static("", classes="a2ui-error")
        error.display = False
        self.built.errors[node.key] = error
        self.built.inputs[node.key] = widget
        parts: list[Widget] = [Static(Content(label), classes="a2ui-label")] if label else []
        return Vertical(*parts, widget, error, classes="a2ui-field")

    def widget(self, node: Node, path: tuple[str, ...]) -> Widget:  # one branch per component
        c, props, here = node.component, node.component.props, (*path, node.component.id)
        e = self._eval(node)
        kind = c.type
        if kind == "Text":
            variant = _VARIANT_CLASS.get(str(props.get("variant")), "")
            return self._live(node, lambda: Content(self._text(node, "text")), f"a2ui-text {variant}".strip())
        if kind in ("Image", "Video", "AudioPlayer"):
            alt = self._text(node, "description") or {"Image": "image", "Video": "video", "AudioPlayer": "audio"}[kind]
            label = {"Image": "▣ image", "Video": "▶ video", "AudioPlayer": "♪ audio"}[kind]
            return LinkRow(label, alt, self._text(node, "url"))
        if kind == "Icon":
            return Static(Content(icon_text(props.get("name"), e)), classes="a2ui-icon")
        if kind in ("Row", "Column", "List", "Card"):
            if kind == "Card":
                kid = self.walk.child(node, "child", here)
                kids = [self.widget(kid, here)] if kid is not None else []
                return Vertical(*kids, classes="a2ui-card")
            children = [self.widget(k, here) for k in self.walk.children(node, here)]
            across = kind == "Row" or (kind == "List" and props.get("direction") == "horizontal")
            return (Horizontal if across else Vertical)(*children, classes=f"a2ui-{'row' if across else 'column'}")
        if kind == "Divider":
            return Rule(
                orientation="vertical" if props.get("axis") == "vertical" else "horizontal", classes="a2ui-rule"
            )
        if kind == "Tabs":
            return self._tabs(node, here)
        if kind == "Modal":
            trigger = self.walk.child(node, "trigger", here)
            title = button_label(self.walk, trigger, e) if trigger is not None else "more"
            content = self.walk.child(node, "content", here)
            inner = [self.widget(content, here)] if content is not None else []
            return Collapsible(*inner, title=title or "more", collapsed=True, classes="a2ui-modal")
        if kind == "Button":
            return self._button(node)
        if kind == "TextField":
            return self._text_field(node)
        if kind == "CheckBox":
            box = FormCheckbox(
                self._text(node, "label"), e.value(props.get("value")) is True, classes="a2ui-check", compact=True
            )
            return self._field(node, "", box, bound_path(props.get("value"), node.scope), "bool")
        if kind == "ChoicePicker":
            return self._choices(node)
        if kind == "Slider":
            low = props.get("min", 0)
            high = props.get("max", 100)
            low, high = (
                (float(low) if isinstance(low, int | float) else 0.0),
                (float(high) if isinstance(high, int | float) else 100.0),
            )
            value = e.value(props.get("value"))
            slider = Slider(float(value) if isinstance(value, int | float) else low, low, high, classes="a2ui-slider")
            return self._field(
                node, self._text(node, "label"), slider, bound_path(props.get("value"), node.scope), "number"
            )
        if kind == "DateTimeInput":
            date, time = props.get("enableDate") is True, props.get("enableTime") is True
            hint = _PLACEHOLDERS["both" if date == time else "date" if date else "time"]
            field = Input(
                strip_controls(as_text(e.value(props.get("value")))),
                placeholder=hint,
                classes="a2ui-input",
                compact=True,
            )
            label = self._text(node, "label") or (
                "Date" if hint == "YYYY-MM-DD" else "Time" if hint == "HH:MM" else "When"
            )
            return self._field(node, f"{label} ({hint})", field, bound_path(props.get("value"), node.scope), "text")
        return self._placeholder(node)

    def _placeholder(self, node: Node) -> Widget:
        c = node.component
        self.built.placeholders += 1
        if c.type == "#missing":
            said = f"[{clean(as_text(c.props.get('ref')))}: not sent yet]"
        elif c.type == "#cycle":
            said = f"[{clean(c.id)}: refers to itself; not drawn again]"
        else:
            said = f"⚠ unsupported component {clean(c.type)} (id {clean(c.id)}): its JSON is in the wire view"
        return Static(Content(said), classes="a2ui-placeholder")

    def _button(self, node: Node) -> Widget:
        label = button_label(self.walk, node, self._eval(node)) or "(no label)"
        variant = node.component.props.get("variant")
        primary = variant == "primary"
        button = Button(label, variant="primary" if primary else "default", classes="a2ui-button", compact=True)
        if variant == "borderless":
            button.add_class("-borderless")
        if server_event(node.component) is None and local_call(node.component) is None:
            button.disabled = True
        self.built.buttons[id(button)] = node
        if variant == "primary" and self.built.primary is None:
            self.built.primary = button
        error = Static("", classes="a2ui-error")
        error.display = False
        self.built.errors[node.key] = error
        return Vertical(button, error, classes="a2ui-button-box")

    def _text_field(self, node: Node) -> Widget:
        props, e = node.component.props, self._eval(node)
        value, variant = strip_controls(as_text(e.value(props.get("value")))), props.get("variant")
        path = bound_path(props.get("value"), node.scope)
        if variant == "longText":
            area = TextArea(value, classes="a2ui-area", soft_wrap=True, show_line_numbers=False, compact=True)
            area.tab_behavior = "focus"  # tab goes on to the next field, as everywhere in the form
            return self._field(node, self._text(node, "label"), area, path, "text")
        field = Input(value, password=variant == "obscured", type="number" if variant == "number" else "text",
                      classes="a2ui-input", compact=True)  # fmt: skip
        return self._field(node, self._text(node, "label"), field, path, "number" if variant == "number" else "text")

    def _choices(self, node: Node) -> Widget:
        props, e = node.component.props, self._eval(node)
        chosen = e.value(props.get("value"))
        chosen = chosen if isinstance(chosen, list) else [chosen] if chosen not in (None, "") else []
        options = [o for o in props.get("options") or [] if isinstance(o, dict)]
        labels = [(clean(e.text(o.get("label"))) or as_text(o.get("value")), as_text(o.get("value"))) for o in options]
        path = bound_path(props.get("value"), node.scope)
        if props.get("variant") == "multipleSelection":
            picker: Widget = ChoiceChecks(*[(label, value, value in chosen) for label, value in labels],
                                          classes="a2ui-choices", compact=True)  # fmt: skip
            return self._field(node, self._text(node, "label"), picker, path, "choices")
        radios = ChoiceRadios(*[ChoiceButton(label, value in chosen) for label, value in labels],
                              classes="a2ui-radios", compact=True)  # fmt: skip
        radios.a2ui_values = [value for _, value in labels]  # type: ignore[attr-defined]
        return self._field(node, self._text(node, "label"), radios, path, "choice")

    def _tabs(self, node: Node, here: tuple[str, ...]) -> Widget:
        tabs = [t for t in node.component.props.get("tabs") or [] if isinstance(t, dict)]
        panes = []
        for i, tab in enumerate(tabs):
            kid = self.walk.node(tab.get("child"), node.scope, f"{node.key}/tab{i}", here)
            title = clean(self._eval(node).text(tab.get("title"))) or f"tab {i + 1}"
            panes.append(TabPane(title, *([self.widget(kid, here)] if kid is not None else [])))
        tabbed = TabbedContent(classes="a2ui-tabs")
        for pane in panes:
            tabbed.compose_add_child(pane)  # what `with TabbedContent():` does in a compose
        return tabbed


def typed(kind: str, value: Any) -> Any:
    """A widget's value as the data model keeps it: numbers as numbers when they read as one."""
    if kind == "number" and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    if kind == "number" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value
