"""The run view's picture: the workflow's dependency graph (a box per step with its state, agent and time, lines
from each dependency, waiting steps marked) or its timeline (a bar per step, attempts and waits for a person), drawn
in text to the width it is given, in the theme's state colours. The layout and the spans are workflow.picture's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from textual.content import Content

from ...safe_text import strip_controls
from ...workflow.picture import StepBar, columns, extent
from ...workflow.state import StepState

STYLE = {
    "pending": ("○", "$text-muted"),
    "running": ("●", "$state-working"),
    "waiting": ("✱", "$state-input-required"),
    "completed": ("✓", "$state-completed"),
    "failed": ("✕", "$state-failed"),
    "canceled": ("⊘", "$state-canceled"),
    "skipped": ("–", "$text-muted"),
}
GAP = 5  # columns between boxes: room for the lines
BOX_H, ROW_GAP = 3, 0  # the name in the top border, the agent inside, the state in the bottom border
MIN_W, MAX_W = 16, 28  # boxes share the width given between these
WIDEST = 48  # a box grows past MAX_W (the picture scrolls sideways) to show a name or agent whole, up to this
UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
LINES = {
    LEFT | RIGHT: "─", LEFT: "─", RIGHT: "─", UP | DOWN: "│", UP: "│", DOWN: "│",
    DOWN | RIGHT: "╭", DOWN | LEFT: "╮", UP | RIGHT: "╰", UP | LEFT: "╯",
    UP | DOWN | RIGHT: "├", UP | DOWN | LEFT: "┤", LEFT | RIGHT | DOWN: "┬", LEFT | RIGHT | UP: "┴",
    UP | DOWN | LEFT | RIGHT: "┼",
}  # fmt: skip


class _Canvas:
    """Characters and their styles on a grid; lines are drawn as directions per cell, joined when rendered."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]
        self.lines = [[0] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        row = self.chars[y]
        for i, char in enumerate(text):
            if 0 <= x + i < len(row):
                row[x + i] = char
                self.styles[y][x + i] = style
                self.lines[y][x + i] = 0

    def line(self, x: int, y: int, bits: int) -> None:
        if 0 <= y < len(self.lines) and 0 <= x < len(self.lines[y]) and self.chars[y][x] == " ":
            self.lines[y][x] |= bits

    def render(self) -> Content:
        out = []
        for y, row in enumerate(self.chars):
            line: list[tuple[str, str]] = []  # (character, style) per cell
            runs: list[list[str]] = []  # [text, style]: a span of cells of one style
            for x, char in enumerate(row):
                bits = self.lines[y][x]
                if bits and char == " ":
                    line.append((LINES.get(bits, "┼"), "$text-muted"))
                else:
                    line.append((char, self.styles[y][x]))
            for char, style in line:  # neighbours with one style become one span
                if runs and runs[-1][1] == style:
                    runs[-1][0] += char
                else:
                    runs.append([char, style])
            out.append(Content.assemble(*((text, style) if style else text for text, style in runs)).rstrip())
        return Content("\n").join(out)


def _clip(text: str, width: int) -> str:
    text = strip_controls(text).replace("\n", " ")
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def graph(steps: Mapping[str, StepState], width: int, now: float | None = None) -> Content:
    """The steps in columns (each right of what it depends on), a box each, a line from each dependency."""
    cols = columns({name: state.depends_on for name, state in steps.items()})
    if not cols:
        return Content("")
    shared = max(MIN_W, min(MAX_W, (width - GAP * (len(cols) - 1)) // len(cols)))
    box_w = max(shared, min(WIDEST, max(_needed(state) for state in steps.values())))
    where: dict[str, tuple[int, int]] = {}
    for c, names in enumerate(cols):
        for r, name in enumerate(names):
            where[name] = (c * (box_w + GAP), r * (BOX_H + ROW_GAP))
    canvas = _Canvas(len(cols) * (box_w + GAP) - GAP, max(len(c) for c in cols) * (BOX_H + ROW_GAP) - ROW_GAP)
    for name, state in steps.items():  # lines first: a box drawn later covers what runs behind it
        x2, y2 = where[name]
        for dep in state.depends_on:
            if dep in where:
                x1, y1 = where[dep]
                _edge(canvas, x1 + box_w, y1 + 1, x2 - 1, y2 + 1)
    for name, state in steps.items():
        _box(canvas, *where[name], box_w, state, now)
    return canvas.render()


def _edge(canvas: _Canvas, x1: int, y1: int, x2: int, y2: int) -> None:
    """From the right of one box (x1, y1) to the left of another (x2, y2): across, down or up in the gap, across."""
    turn = x2 - 2
    for x in range(x1, turn):
        canvas.line(x, y1, LEFT | RIGHT)
    if y1 == y2:
        canvas.line(turn, y1, LEFT | RIGHT)
    else:
        down = y2 > y1
        canvas.line(turn, y1, LEFT | (DOWN if down else UP))
        for y in range(min(y1, y2) + 1, max(y1, y2)):
            canvas.line(turn, y, UP | DOWN)
        canvas.line(turn, y2, RIGHT | (UP if down else DOWN))
    canvas.line(turn + 1, y2, LEFT | RIGHT)
    canvas.put(x2, y2, "▶", "$text-muted")


def _who(state: StepState) -> str:
    return strip_controls(state.agent or ("shell" if state.type == "shell" else "")).replace("\n", " ")


def _needed(state: StepState) -> int:
    """The width that shows the step's name (after its mark, in the top border) and its agent (inside) whole."""
    return max(len(strip_controls(state.name)) + 6, len(_who(state)) + 4)


def _box(canvas: _Canvas, x: int, y: int, w: int, state: StepState, now: float | None) -> None:
    mark, style = STYLE.get(state.status, ("?", ""))
    border = style if state.status in ("running", "waiting", "failed") else "$text-muted"
    # A step that waits for the person is drawn heavy: it stands out in any theme, in colour or not.
    corner = ("┏", "┓", "┗", "┛", "━", "┃") if state.status == "waiting" else ("╭", "╮", "╰", "╯", "─", "│")
    canvas.put(x, y, corner[0] + corner[4] * (w - 2) + corner[1], border)
    canvas.put(x, y + BOX_H - 1, corner[2] + corner[4] * (w - 2) + corner[3], border)
    canvas.put(x, y + 1, corner[5], border)
    canvas.put(x + w - 1, y + 1, corner[5], border)
    inner = w - 4
    canvas.put(x + 1, y, f" {mark} ", style)
    canvas.put(x + 4, y, _clip(state.name, inner - 2) + " ", "bold")
    canvas.put(x + 2, y + 1, _clip(_who(state), inner), "$accent")
    # The state (and its time, where there is room) in the bottom border, at its right: the agent keeps the line
    # inside to itself ("researcher" beside "completed 31.2s" was cut in a box of the usual width).
    said = f"{state.status} {_elapsed(state, now)}".rstrip()
    said = said if len(said) <= inner - 2 else _clip(state.status, inner - 2)
    canvas.put(x + w - 3 - len(said), y + BOX_H - 1, f" {said} ", style)


def _elapsed(state: StepState, now: float | None) -> str:
    if state.started_at is None:
        return ""
    end = state.ended_at if state.ended_at is not None else (now if now is not None else time.time())
    return f"{max(end - state.started_at, 0):.1f}s"


def timeline_picture(steps: Mapping[str, StepState], bars: Mapping[str, StepBar], width: int, now: float) -> Content:
    """A line per step: its name, then its spans across the run's time (█ the last attempt in the step's colour,
    ▒ an earlier attempt, ░ a wait for a person), and the time axis under them."""
    if not steps:
        return Content("")
    label = min(max(len(n) for n in steps) + 3, 22)
    area = max(width - label - 8, 10)
    span = extent(bars.values(), now=now)
    lines = []
    for name, state in steps.items():
        mark, style = STYLE.get(state.status, ("?", ""))
        cells = [(" ", "")] * area
        bar = bars.get(name)
        if span is not None and bar is not None:
            first, last = span
            scale = area / max(last - first, 1e-3)
            for s in sorted(bar.spans, key=lambda s: s.kind == "waiting"):
                end = s.end if s.end is not None else now
                a = min(int((s.start - first) * scale), area - 1)
                b = max(min(int((end - first) * scale), area), a + 1)
                if s.kind == "waiting":
                    fill = ("░", "$state-input-required")
                elif s.attempt < bar.attempts:
                    fill = ("▒", "$state-failed")
                else:
                    fill = ("█", style)
                cells[a:b] = [fill] * (b - a)
        took = _elapsed(state, now)
        parts: list[tuple[str, str] | str] = [(f"{mark} ", style), (f"{_clip(name, label - 2):<{label - 2}}", "bold")]
        parts += [(c, s) if s else c for c, s in cells]
        parts.append((f" {took}", "$text-muted"))
        lines.append(Content.assemble(*parts).rstrip())
    if span is not None:
        total = f"{span[1] - span[0]:.1f}s"
        lines.append(Content.styled(" " * label + "0s" + " " * max(area - 2 - len(total), 1) + total, "$text-muted"))
    return Content("\n").join(lines)
