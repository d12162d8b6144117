"""An action's context comes out in the form's order (its inputs as drawn), whatever order the agent's JSON kept:
the official SDK's protobuf Struct does not keep it, and the transcript's line of what was sent read differently
each time."""

from __future__ import annotations

from switchboard.a2a.model import DataPart
from switchboard.a2ui.actions import build_event, find_action
from switchboard.a2ui.surfaces import SurfaceSet
from switchboard.a2ui.text import part_summary, surface_lines
from switchboard.demo import booking_surfaces as ui


def test_the_booking_forms_context_is_sent_in_the_order_its_fields_are_drawn():
    components = ui.form_components()
    book = next(c for c in components if c["id"] == "book")
    context = book["action"]["event"]["context"]
    book["action"]["event"]["context"] = {"fixed": 1, **dict(reversed(list(context.items())))}  # as a Struct may
    surfaces = SurfaceSet()
    data = {"booking": {**ui.DEFAULTS, "date": "2026-12-24", "name": "Ada"}}
    surfaces.take("m", [DataPart(data=ui.surface_v091(ui.FORM, components, data),
                                 metadata={"mimeType": "application/a2ui+json"})])  # fmt: skip
    surface = surfaces.get(ui.FORM)
    node = find_action(surface, "book")
    event = build_event(surface, node)
    assert list(event.context) == ["date", "time", "party", "seating", "name", "notes", "fixed"]
    summary = part_summary(DataPart(data=[{"version": "v0.9", "action": event.to_json()}],
                                    metadata={"mimeType": "application/a2ui+json"}))  # fmt: skip
    assert summary is not None and summary.startswith("▸ form action book (date=2026-12-24, time=19:30, party=2,")
    # and the form as text (the command line's) says what the button sends in the same order
    said = next(line for line in surface_lines(surface) if "sends action book" in line)
    assert said.endswith("with date=the value at /booking/date, time=the value at /booking/time, party=the value at "
                         "/booking/party, seating=the value at /booking/seating, name=the value at /booking/name, "
                         "notes=the value at /booking/notes, fixed=1")  # fmt: skip
