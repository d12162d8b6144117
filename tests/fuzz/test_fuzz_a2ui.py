"""Fuzz: A2UI surfaces as an agent sends them (v0.9.1 and v0.8, the booking agent's own forms), broken in structure
and values, read into surfaces, edited, checked, answered and printed for the command line (the TUI draws from the
same tree: tests/tui/test_tui_a2ui_catalog.py draws a hostile surface). Nothing raises; nothing printed holds a
terminal control; every bound holds."""

from __future__ import annotations

import json
from typing import Any

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st
from properties_support import has_terminal_controls, mutated

from switchboard.a2a.model import DataPart
from switchboard.a2ui import bounds
from switchboard.a2ui.actions import build_event, check_surface, drawn_nodes, event_part, server_event
from switchboard.a2ui.surfaces import SurfaceSet
from switchboard.a2ui.text import part_summary, surface_lines
from switchboard.a2ui.tree import Walk
from switchboard.demo import booking_surfaces as ui

V091 = ui.surface_v091("booking-form", ui.form_components(), {"booking": dict(ui.DEFAULTS)}) + ui.surface_v091(
    "booking-confirm", ui.confirm_components(dict(ui.DEFAULTS)), None
)
V08 = ui.surface_v08("booking-form", ui.form_components(), {"booking": dict(ui.DEFAULTS)})
MIMES = st.sampled_from(["application/a2ui+json", "application/json+a2ui", "APPLICATION/A2UI+JSON"])


@st.composite
def parts(draw: st.DrawFn) -> list[DataPart]:
    version = draw(st.sampled_from(["v0.9.1", "v0.8"]))
    messages: Any = V091 if version == "v0.9.1" else V08
    messages = draw(mutated(messages, max_mutations=draw(st.integers(1, 6))))
    mime = draw(MIMES)
    if version == "v0.8" and isinstance(messages, list) and draw(st.booleans()):
        return [DataPart(data=m, metadata={"mimeType": mime}) for m in messages]
    return [DataPart(data=messages, metadata={"mimeType": mime})]


def exercise(surfaces: SurfaceSet, values: Any) -> None:
    for surface in list(surfaces.surfaces.values()):
        lines = surface_lines(surface)
        assert not any(has_terminal_controls(line) for line in lines)
        assert len(surface.components) <= bounds.MAX_COMPONENTS
        check_surface(surface)
        walk = Walk(surface)
        nodes = drawn_nodes(walk)
        assert walk.drawn <= bounds.MAX_RENDERED
        for node in nodes:
            if server_event(node.component) is not None:
                event = build_event(surface, node)
                assert event is not None
                json.dumps(event_part(surface, event).data)  # what is sent is JSON
        for node in nodes:
            if node.component.type in ("TextField", "Slider", "CheckBox", "ChoicePicker", "DateTimeInput"):
                value = node.component.props.get("value")
                if isinstance(value, dict) and isinstance(value.get("path"), str):
                    surfaces.edit(surface.surface_id, value["path"], values)


@fuzz(examples=150)
@given(parts(), st.one_of(st.text(max_size=20), st.integers(), st.lists(st.text(max_size=5), max_size=3)))
def test_any_surface_is_read_drawn_and_answered_without_an_error(given_parts, values):
    surfaces = SurfaceSet()
    surfaces.take(None, given_parts)
    for part in given_parts:
        summary = part_summary(part)
        assert summary is None or not has_terminal_controls(summary)
    exercise(surfaces, values)
    assert len(surfaces.surfaces) <= bounds.MAX_SURFACES
