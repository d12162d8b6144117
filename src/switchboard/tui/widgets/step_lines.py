"""A run's list of steps, a line each: its mark and state in the theme's colours, its agent, time and
dependencies, indented by how far it is from the start. And the run's outputs, under its head."""

from __future__ import annotations

from textual.content import Content

from ...safe_text import strip_controls
from ...workflow.state import StepState
from .run_picture import STYLE

OUTPUT_LINES = 3  # of each run output, under the run's head


def depths(steps: dict[str, StepState]) -> dict[str, int]:
    """How far each step is from the start: the longest chain of dependencies before it."""
    memo: dict[str, int] = {}

    def depth(name: str, seen: frozenset[str] = frozenset()) -> int:
        if name not in memo:
            deps = [d for d in steps[name].depends_on if d in steps and d not in seen]
            memo[name] = 1 + max((depth(d, seen | {name}) for d in deps), default=-1)
        return memo[name]

    return {name: depth(name) for name in steps}


def step_line(state: StepState, depth: int) -> Content:
    mark, style = STYLE.get(state.status, ("?", ""))
    elapsed = f"{state.elapsed:5.1f}s" if state.elapsed is not None else "      "
    who = state.agent or ("shell" if state.type == "shell" else "")
    after = f"  ← {', '.join(state.depends_on)}" if state.depends_on else ""
    return Content.assemble(
        "  " * depth,
        (f"{mark} ", style),
        (state.name, "bold"),
        (f"  {who}", "$accent"),
        (f"  {state.status}", style),
        (f"  {elapsed}", "$text-muted"),
        (after, "$text-muted italic"),
    )


def outputs_picture(outputs: dict[str, str], run_id: str) -> Content:
    """Each output by its name, its first lines (the rest: `switchboard runs show`)."""
    width = max(len(name) for name in outputs)
    lines = [Content.styled("outputs", "bold")]
    cut = False
    for name, value in outputs.items():
        value_lines = strip_controls(str(value)).splitlines() or [""]
        cut = cut or len(value_lines) > OUTPUT_LINES
        for index, line in enumerate(value_lines[:OUTPUT_LINES]):
            label = f"  {name:<{width}}  " if index == 0 else " " * (width + 4)
            lines.append(Content.assemble((label, "$accent"), line))
    if cut:
        said = f"  (cut to {OUTPUT_LINES} lines each: switchboard runs show {run_id})"
        lines.append(Content.styled(said, "$text-muted italic"))
    return Content("\n").join(lines)
