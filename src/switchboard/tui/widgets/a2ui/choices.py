"""The form's pickers: one choice (radio marks), several (a list of check boxes), and a single check box.

Picked and not picked differ in shape, not only in colour, so they read in a monochrome terminal and in a picture:
`(•)` / `( )` for one choice, `[x]` / `[ ]` for check boxes (Textual's own marks are the same block for both states,
told apart by colour alone).

The keys are a form's: space picks (or ticks) without sending; enter, as in a text field, sends the form. On a
one-choice list enter first picks the highlighted choice (the person pointed at it and said "this one"); on check
boxes it sends what is ticked, as it is (toggling there could untick what the person just ticked). Each widget only
says enter was pressed (`FormEnter`); the surface knows whether the form has one obvious submit action, and when it
has none, asks the widget to do what enter did before (pick or tick).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox, OptionList, RadioButton, RadioSet, SelectionList
from textual.widgets.option_list import OptionDoesNotExist

PICKED, UNPICKED = "(•)", "( )"
TICKED, UNTICKED = "[x]", "[ ]"


class FormEnter(Message):
    """Enter on a picker: send the form when it has one obvious submit action; else `fallback` (pick, tick)."""

    def __init__(self, widget: Widget, picked: int | None = None) -> None:
        super().__init__()
        self.widget = widget
        self.picked = picked  # a one-choice list: the index enter picked, written before the form is sent


def _mark(on: bool, marks: tuple[str, str]) -> Content:
    return Content.styled(marks[0], "bold $text-success") if on else Content.styled(marks[1], "$text-muted")


class ChoiceButton(RadioButton):
    """One choice of a one-choice list, marked `(•)` when picked and `( )` when not."""

    @property
    def _button(self) -> Content:
        return _mark(self.value, (PICKED, UNPICKED))


class ChoiceRadios(RadioSet):
    """A one-choice list: up/down move, space picks, enter picks and sends the form."""

    BINDINGS = [
        Binding("space", "toggle_button", "Pick", show=False),
        Binding("enter", "pick_and_send", "Pick and send", show=False),
    ]

    def on_mount(self) -> None:
        # Textual's set starts its cursor on the first choice whatever is picked, so enter on a form that came with
        # its third choice picked would pick the first: the cursor starts on the picked one (after the set's own
        # mount handler, which runs after this one).
        self.call_later(self._cursor_to_picked)

    def _cursor_to_picked(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

    def action_pick_and_send(self) -> None:
        index = self._selected
        if index is None:
            return
        button = self._nodes[index]
        if isinstance(button, RadioButton) and not button.value:
            button.value = True  # the set turns the others off and says what changed, as space does
        self.post_message(FormEnter(self, index))


class FormCheckbox(Checkbox):
    """A check box marked `[x]` / `[ ]`: space ticks, enter sends the form (ticks when there is no one action)."""

    BINDINGS = [
        Binding("space", "toggle_button", "Tick", show=False),
        Binding("enter", "send", "Send form", show=False),
    ]

    @property
    def _button(self) -> Content:
        return _mark(self.value, (TICKED, UNTICKED))

    def action_send(self) -> None:
        self.post_message(FormEnter(self))

    def fallback(self) -> None:
        self.toggle()


class ChoiceChecks(SelectionList[str]):
    """A several-choice list, each choice marked `[x]` / `[ ]`: space ticks, enter sends what is ticked."""

    BINDINGS = [
        Binding("space", "select", "Tick", show=False),
        Binding("enter", "send", "Send form", show=False),
    ]

    def action_send(self) -> None:
        self.post_message(FormEnter(self))

    def fallback(self) -> None:
        self._toggle_highlighted_selection()

    def _get_left_gutter_width(self) -> int:
        return len(TICKED) + 1

    def render_line(self, y: int) -> Strip:
        # The option's own line (OptionList's), with our mark before it in place of Textual's block.
        line = OptionList.render_line(self, y)
        index = self.scroll_offset.y + y
        try:
            selection = self.get_option_at_index(index)
        except OptionDoesNotExist:
            return line
        ticked = selection.value in self._selected
        base = next(iter(line)).style or self.rich_style
        # ticked: the success colour Textual gives a ticked box; not ticked: the line's own text colour (Textual's
        # dark-on-dark block would leave `[ ]` all but unseen)
        colour = self.get_component_rich_style("selection-list--button-selected").color if ticked else base.color
        mark = Style(color=colour, bgcolor=base.bgcolor, bold=ticked, meta={"option": index})
        return Strip([Segment(TICKED if ticked else UNTICKED, mark), Segment(" ", base), *line])
