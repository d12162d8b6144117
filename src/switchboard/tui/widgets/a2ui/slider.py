"""A slider for the keyboard: left/right (and -/+) step the value, home/end go to the ends."""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

WIDTH = 20  # cells of the track


class Slider(Widget, can_focus=True):
    BINDINGS = [
        Binding("left,minus", "step(-1)", "Less", show=False),
        Binding("right,plus,equals_sign", "step(1)", "More", show=False),
        Binding("home", "end(0)", "Least", show=False),
        Binding("end", "end(1)", "Most", show=False),
    ]
    DEFAULT_CSS = "Slider { height: 1; width: 32; } Slider:focus { text-style: bold; }"

    value: reactive[float] = reactive(0.0)

    class Changed(Message):
        def __init__(self, slider: Slider, value: float) -> None:
            super().__init__()
            self.slider = slider
            self.value = value

        @property
        def control(self) -> Slider:
            return self.slider

    def __init__(self, value: float, low: float, high: float, **kwargs) -> None:
        super().__init__(**kwargs)
        self.low, self.high = (low, high) if high > low else (low, low + 1)
        whole = all(float(x).is_integer() for x in (self.low, self.high))
        self.step_size = 1.0 if whole and self.high - self.low <= 1000 else (self.high - self.low) / WIDTH
        self.set_reactive(Slider.value, self._clamp(value))

    def _clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))

    def render(self) -> Content:
        filled = round((self.value - self.low) / (self.high - self.low) * WIDTH)
        number = int(self.value) if float(self.value).is_integer() else round(self.value, 2)
        track = [("━" * filled, "$accent"), ("┄" * (WIDTH - filled), "$text-muted")]
        # With the keyboard, the value is shown as a cursor (reverse): bold alone did not tell a focused slider from
        # the others, and reverse reads in a monochrome terminal too.
        value = (f" {number} ", "bold reverse") if self.has_focus else (str(number), "bold")
        return Content.assemble(("◀ ", "$text-muted"), *track, (" ▶ ", "$text-muted"), value)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_step(self, direction: int) -> None:
        self.value = self._clamp(self.value + direction * self.step_size)

    def action_end(self, which: int) -> None:
        self.value = self.high if which else self.low

    def watch_value(self, value: float) -> None:
        self.post_message(self.Changed(self, value))
