"""One A2UI surface as widgets: drawn from its tree, bound to its data model, its actions sent up as messages.

The surface writes every change the person makes to the data model at once (two-way binding) and redraws what
reads it. A button whose action sends an event runs the form's checks first; failing, the messages show under the
inputs and nothing is sent. Passing, it posts `ActionTaken` with the data part to send; the host sends it (in the
task that asked, or as a new message). `openUrl` and links post `A2uiOpenUrl`: the screen asks the person first.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, RadioSet, SelectionList, Static, TextArea

from ....a2a.model import DataPart
from ....a2ui.actions import build_event, event_part, failed_nodes, local_call, server_event
from ....a2ui.functions import Evaluation
from ....a2ui.surfaces import SurfaceSet
from ....a2ui.text import clean
from .build import Built, SurfaceBuilder, typed
from .choices import FormEnter
from .open_url import A2uiOpenUrl
from .slider import Slider


class A2uiSurface(Vertical):
    """A live surface of `surfaces` (the conversation's), drawn again when its revision moves (`redraw`)."""

    BINDINGS = [Binding("ctrl+enter", "submit", "Send form", show=False, id="a2ui.submit")]

    class ActionTaken(Message):
        """A button's action passed its checks: `part` is the event to send to the agent."""

        def __init__(self, surface: A2uiSurface, part: DataPart, name: str, secrets: list[str]) -> None:
            super().__init__()
            self.surface = surface
            self.part = part
            self.name = name
            self.secrets = secrets  # what the person typed in masked fields: redacted, the message shown masked

    def __init__(self, surfaces: SurfaceSet, surface_id: str, *, classes: str = "") -> None:
        super().__init__(classes=f"a2ui-surface {classes}".strip())
        self.surfaces = surfaces
        self.surface_id = surface_id
        self.built = Built()
        self.drawn_revision = -1

    @property
    def gone(self) -> bool:
        return self.surfaces.get(self.surface_id) is None

    def compose(self) -> ComposeResult:
        surface = self.surfaces.get(self.surface_id)
        if surface is None:
            yield Static(Content.styled("(this form was closed by the agent)", "$text-muted italic"))
            return
        self.drawn_revision = surface.revision
        if surface.agent_name:  # the agent's own claim (the theme's agentDisplayName), said as such
            yield Static(Content.styled(f"form from “{clean(surface.agent_name)}”, as it says", "$text-muted"))
        builder = SurfaceBuilder(surface)
        widgets = builder.build()
        self.built = builder.built
        if not widgets:
            yield Static(Content.styled("(the form has no root component yet)", "$text-muted italic"))
        yield from widgets
        notes = [*surface.notices, *builder.walk.notes, *self.surfaces.notes]
        if builder.built.placeholders:
            notes.append(f"{builder.built.placeholders} component(s) could not be drawn; shown as placeholders")
        for note in notes:
            yield Static(Content.styled(f"⚠ {clean(note)}", "$warning"), classes="a2ui-notice")

    async def redraw(self) -> None:
        """Draw again if the agent changed the surface since it was drawn (components, data, or deleted)."""
        surface = self.surfaces.get(self.surface_id)
        if surface is not None and surface.revision == self.drawn_revision:
            return
        await self.recompose()
        self.on_mount()

    def on_mount(self) -> None:
        if getattr(self.app, "steady", False):  # tests and screenshots: no blinking cursor in the picture
            for field in self.query("Input, TextArea"):
                field.cursor_blink = False  # type: ignore[attr-defined]

    def focus_first(self) -> bool:
        """The keyboard in the first field (or button) of the form; False when it has none."""
        for widget in self.query("Input, TextArea, Checkbox, RadioSet, SelectionList, Slider, Button"):
            if widget.focusable:
                widget.focus(scroll_visible=False)
                return True
        return False

    # --- the person's changes go to the data model -------------------------------------------------------

    def _write(self, widget: Widget, value: Any) -> None:
        bound = self.built.bound.get(id(widget))
        if bound is None:
            return
        path, kind = bound
        self.surfaces.edit(self.surface_id, path, typed(kind, value))
        for static, make in self.built.displays:
            static.update(make())

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        self._write(event.input, event.value)

    @on(TextArea.Changed)
    def _area(self, event: TextArea.Changed) -> None:
        self._write(event.text_area, event.text_area.text)

    @on(Checkbox.Changed)
    def _ticked(self, event: Checkbox.Changed) -> None:
        self._write(event.checkbox, event.value)

    @on(RadioSet.Changed)
    def _picked(self, event: RadioSet.Changed) -> None:
        values = getattr(event.radio_set, "a2ui_values", [])
        if 0 <= event.index < len(values):
            self._write(event.radio_set, [values[event.index]])

    @on(SelectionList.SelectedChanged)
    def _selected(self, event: SelectionList.SelectedChanged) -> None:
        self._write(event.selection_list, list(event.selection_list.selected))

    @on(Slider.Changed)
    def _slid(self, event: Slider.Changed) -> None:
        self._write(event.slider, event.value)

    # --- actions -----------------------------------------------------------------------------------------

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        """Enter in a field presses the form's primary button (or its only one)."""
        event.stop()
        self.action_submit()

    @on(FormEnter)
    def _entered_on_picker(self, event: FormEnter) -> None:
        """Enter on a picker: what it picked is written first (the set's own change message comes later), then the
        form is sent; a form without one obvious action keeps the pick, or has enter tick as space does."""
        event.stop()
        if isinstance(event.widget, RadioSet) and event.picked is not None:
            values = getattr(event.widget, "a2ui_values", [])
            if 0 <= event.picked < len(values):
                self._write(event.widget, [values[event.picked]])
        target = self._submit_target()
        if target is not None:
            self._press(target)
        elif hasattr(event.widget, "fallback"):
            event.widget.fallback()

    def _submit_target(self) -> Button | None:
        """The form's one obvious action: its primary button, or its only one."""
        buttons = [b for b in self.query(Button) if id(b) in self.built.buttons and not b.disabled]
        return self.built.primary if self.built.primary in buttons else buttons[0] if len(buttons) == 1 else None

    def action_submit(self) -> None:
        target = self._submit_target()
        if target is None:
            self.notify("press one of the form's buttons", markup=False)
            return
        self._press(target)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if id(event.button) in self.built.buttons:
            event.stop()
            self._press(event.button)

    def _press(self, button: Button) -> None:
        node = self.built.buttons[id(button)]
        surface = self.surfaces.get(self.surface_id)
        if surface is None:
            return
        call = local_call(node.component)
        if call is not None and server_event(node.component) is None:
            if call.get("call") == "openUrl":
                args = call.get("args") if isinstance(call.get("args"), dict) else {}
                url = clean(Evaluation(surface.data, node.scope).text(args.get("url")))  # type: ignore[union-attr]
                if url:
                    self.post_message(A2uiOpenUrl(url))
            return
        if not self._checked(node):
            return
        event = build_event(surface, node)
        if event is not None:
            secrets = [w.value for w in self.query(Input) if w.password and w.value]
            self.post_message(self.ActionTaken(self, event_part(surface, event), event.name, secrets))

    def _checked(self, source) -> bool:
        surface = self.surfaces.get(self.surface_id)
        if surface is None:
            return False
        failures = dict((n.key, msgs) for n, msgs in failed_nodes(surface, source))
        first: Widget | None = None
        for key, line in self.built.errors.items():
            said = failures.get(key)
            line.display = bool(said)
            line.update(Content.styled("✗ " + " ".join(clean(m) for m in said), "$error") if said else "")
            if said and first is None:
                first = self.built.inputs.get(key)
        if first is not None:
            first.focus()
        elif failures:
            self.notify("the form does not pass its checks", severity="warning", markup=False)
        return not failures
