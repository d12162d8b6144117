"""A run's picture for the HTML export, as inline SVG (no script, nothing fetched): the dependency graph (a box per
step with its agent and status, an arrow per `dependsOn`, waiting steps marked) and the timeline (a bar per step,
one segment per attempt, waits for a person in their own colour). Every text is escaped.
"""

from __future__ import annotations

from html import escape
from typing import Any, Literal

from ..safe_text import strip_controls
from ..workflow.picture import Span, StepBar, columns, extent
from ..workflow.summary import epoch

BOX_W, BOX_H, GAP_X, GAP_Y, PAD = 176, 58, 56, 18, 12
FILL = {
    "completed": "#d9f0dc",
    "failed": "#f7dada",
    "canceled": "#e6e1d8",
    "skipped": "#eceff2",
    "running": "#dde8fa",
    "waiting": "#fbeccb",
    "pending": "#ffffff",
}
STROKE = {"waiting": "#c98a12", "running": "#4a7bd0", "failed": "#a31d1d"}
WAIT_FILL = "#f3c65f"
LABEL_W, BAR_W, ROW_H = 170, 520, 24


def _e(text: Any) -> str:
    return escape(strip_controls(str(text)), quote=True)


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def graph_svg(steps: dict[str, dict[str, Any]]) -> str:
    """The steps as boxes in columns (a step right of everything it depends on), with an arrow per dependency."""
    cols = columns({name: step.get("dependsOn") or [] for name, step in steps.items()})
    where: dict[str, tuple[int, int]] = {}
    for c, names in enumerate(cols):
        for r, name in enumerate(names):
            where[name] = (PAD + c * (BOX_W + GAP_X), PAD + r * (BOX_H + GAP_Y))
    width = PAD * 2 + len(cols) * BOX_W + max(len(cols) - 1, 0) * GAP_X
    height = PAD * 2 + max((len(c) for c in cols), default=0) * (BOX_H + GAP_Y) - GAP_Y
    out = [
        f'<svg class="run-graph" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{max(height, 0)}" '
        f'viewBox="0 0 {width} {max(height, 0)}" role="img" aria-label="the run\'s steps and their dependencies">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#66707a"/></marker></defs>',
    ]
    for name, step in steps.items():
        x, y = where[name]
        for dep in step.get("dependsOn") or []:
            if dep in where:
                dx, dy = where[dep]
                x1, y1, x2, y2 = dx + BOX_W, dy + BOX_H / 2, x, y + BOX_H / 2
                mid = (x1 + x2) / 2
                out.append(
                    f'<path class="edge" data-from="{_e(dep)}" data-to="{_e(name)}" '
                    f'd="M {x1} {y1} C {mid} {y1}, {mid} {y2}, {x2} {y2}" fill="none" stroke="#66707a" '
                    'stroke-width="1.5" marker-end="url(#arrow)"/>'
                )
    for name, step in steps.items():
        x, y = where[name]
        status = str(step.get("status") or "pending")
        who = step.get("agent") or step.get("type") or ""
        dash = ' stroke-dasharray="5 3"' if status == "waiting" else ""
        out.append(
            f'<g class="step" data-step="{_e(name)}" data-status="{_e(status)}">'
            f"<title>{_e(name)}: {_e(status)}</title>"
            f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{FILL.get(status, "#fff")}" '
            f'stroke="{STROKE.get(status, "#8a939c")}" stroke-width="1.5"{dash}/>'
            f'<text x="{x + 10}" y="{y + 20}" font-weight="bold" font-size="13">{_e(_clip(name, 22))}</text>'
            f'<text x="{x + 10}" y="{y + 36}" font-size="11" fill="#66707a">{_e(_clip(str(who), 26))}</text>'
            f'<text x="{x + 10}" y="{y + 51}" font-size="11">{"✱ " if status == "waiting" else ""}{_e(status)}</text>'
            "</g>"
        )
    out.append("</svg>")
    return "".join(out)


def bars_of(timeline: dict[str, list[dict[str, Any]]]) -> list[StepBar]:
    """The export's timeline (ISO times) as bars again."""
    bars = []
    for name, spans in timeline.items():
        bar = StepBar(name)
        for raw in spans:
            start = epoch(raw.get("start"))
            if start is not None:
                kind: Literal["attempt", "waiting"] = "waiting" if raw.get("kind") == "waiting" else "attempt"
                bar.spans.append(Span(kind, start, epoch(raw.get("end")), int(raw.get("attempt") or 1)))
        bars.append(bar)
    return bars


def timeline_svg(steps: dict[str, dict[str, Any]], timeline: dict[str, list[dict[str, Any]]]) -> str | None:
    """A bar per step from its first start to its end: attempts in the step's colour (earlier, retried ones as
    failed), waits for a person on top. None when no step started."""
    bars = bars_of(timeline)
    span = extent(bars)
    if span is None:
        return None
    first, last = span
    scale = BAR_W / max(last - first, 1e-3)
    height = PAD * 2 + (len(bars) + 1) * ROW_H
    width = PAD * 2 + LABEL_W + BAR_W
    out = [
        f'<svg class="run-timeline" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="when each step ran">'
    ]
    for row, bar in enumerate(bars):
        y = PAD + row * ROW_H
        status = str((steps.get(bar.name) or {}).get("status") or "pending")
        took = f"{bar.end - bar.start:.1f} s" if bar.start is not None and bar.end is not None else ""
        out.append(
            f'<text x="{PAD}" y="{y + 16}" font-size="12">{_e(_clip(bar.name, 16))}</text>'
            f'<text x="{PAD + LABEL_W - 8}" y="{y + 16}" font-size="11" fill="#66707a" text-anchor="end">{took}</text>'
            f'<line x1="{PAD + LABEL_W}" y1="{y + 12}" x2="{PAD + LABEL_W + BAR_W}" y2="{y + 12}" stroke="#eceff2"/>'
        )
        last_attempt = bar.attempts
        for s in sorted(bar.spans, key=lambda s: s.kind == "waiting"):  # waits drawn over their attempt
            end = s.end if s.end is not None else last
            x = PAD + LABEL_W + (s.start - first) * scale
            w = max((end - s.start) * scale, 2)
            if s.kind == "waiting":
                fill, h, dy, what = WAIT_FILL, 10, 7, "waiting for a person"
            else:
                fill = FILL.get(status if s.attempt == last_attempt else "failed", "#dde8fa")
                h, dy, what = 18, 3, f"attempt {s.attempt}"
            open_end = ' stroke-dasharray="3 2"' if s.end is None else ""
            out.append(
                f'<rect class="span {s.kind}" data-step="{_e(bar.name)}" x="{x:.1f}" y="{y + dy}" width="{w:.1f}" '
                f'height="{h}" rx="3" fill="{fill}" stroke="#8a939c"{open_end}>'
                f"<title>{_e(bar.name)}: {what}, {s.start - first:.1f} s to "
                f"{'now' if s.end is None else f'{end - first:.1f} s'}</title></rect>"
            )
    axis_y = PAD + len(bars) * ROW_H + 14
    out.append(
        f'<text x="{PAD + LABEL_W}" y="{axis_y}" font-size="11" fill="#66707a">0 s</text>'
        f'<text x="{PAD + LABEL_W + BAR_W}" y="{axis_y}" font-size="11" fill="#66707a" text-anchor="end">'
        f"{last - first:.1f} s</text></svg>"
    )
    return "".join(out)
