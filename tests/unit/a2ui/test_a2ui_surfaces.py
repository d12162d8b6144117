"""The surface state machine on both versions: created, updated, re-bound and deleted as the messages say; bad
messages noted and skipped, the next one still read; bounds cut with a notice."""

from __future__ import annotations

from typing import Any

import pytest

from switchboard.a2a.model import DataPart
from switchboard.a2ui import bounds
from switchboard.a2ui.actions import build_event, check_surface, event_message, find_action
from switchboard.a2ui.surfaces import SurfaceSet
from switchboard.a2ui.text import surface_lines
from switchboard.a2ui.tree import Walk

V091 = "application/a2ui+json"
V08 = "application/json+a2ui"


def part(data: Any, mime: str = V091) -> DataPart:
    return DataPart(data=data, metadata={"mimeType": mime})


def v09(kind: str, **body: Any) -> dict[str, Any]:
    return {"version": "v0.9", kind: {"surfaceId": "s", **body}}


FORM = [
    v09("createSurface", catalogId="https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"),
    v09("updateComponents", components=[
        {"id": "root", "component": "Column", "children": ["email", "go"]},
        {"id": "email", "component": "TextField", "label": "Email", "value": {"path": "/form/email"},
         "checks": [{"condition": {"call": "email", "args": {"value": {"path": "/form/email"}}},
                     "message": "Give an email address."}]},
        {"id": "go-label", "component": "Text", "text": "Send ${/form/email}"},
        {"id": "go", "component": "Button", "child": "go-label",
         "action": {"event": {"name": "send", "context": {"email": {"path": "/form/email"}, "fixed": 1}}}},
    ]),
    v09("updateDataModel", path="/form", value={"email": "not an address"}),
]  # fmt: skip


def test_a_v09_surface_is_created_updated_rebound_and_deleted():
    surfaces = SurfaceSet()
    assert surfaces.take("m1", [part(FORM)]) == ["s"]
    surface = surfaces.get("s")
    assert surface is not None and surface.version == "v0.9" and surface.mime_type == V091
    assert check_surface(surface) == {"root/0": ["Give an email address."]}
    surfaces.edit("s", "/form/email", "ada@example.com")  # the person types: the data model follows
    assert check_surface(surface) == {}
    event = build_event(surface, find_action(surface, "send"))
    assert event is not None and event.context == {"email": "ada@example.com", "fixed": 1}
    assert event_message(surface, event)["version"] == "v0.9"
    assert "[ Send ada@example.com ] sends action send" in "\n".join(surface_lines(surface))
    surfaces.take("m2", [part([v09("updateDataModel", path="/form/email", value="b@example.com")])])
    assert surface.data == {"form": {"email": "b@example.com"}}
    surfaces.take("m3", [part([v09("updateDataModel", path="/form/email")])])  # no value: the key goes
    assert surface.data == {"form": {}}
    surfaces.take("m4", [part([v09("deleteSurface")])])
    assert surfaces.get("s") is None


def test_a_part_taken_twice_is_applied_once():
    surfaces = SurfaceSet()
    surfaces.take("m1", [part(FORM)])
    surfaces.edit("s", "/form/email", "kept@example.com")
    assert surfaces.take("m1", [part(FORM)]) == []  # a task snapshot repeating the status message
    assert surfaces.get("s").data == {"form": {"email": "kept@example.com"}}


def test_v08_messages_read_as_v09_shapes_and_answer_as_v08():
    messages = [  # the data first (a dataModelUpdate at the root replaces the whole model), then the components
        {"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "choice", "valueString": "b"}]}},
        {"surfaceUpdate": {"surfaceId": "s", "components": [
            {"id": "root", "component": {"Column": {"children": {"explicitList": ["pick", "go"]}}}},
            {"id": "pick", "component": {"MultipleChoice": {
                "selections": {"path": "/choice"}, "maxAllowedSelections": 1,
                "options": [{"label": {"literalString": "A"}, "value": "a"},
                            {"label": {"literalString": "B"}, "value": "b"}]}}},
            {"id": "name", "component": {"TextField": {"label": {"literalString": "Name"},
                                                       "text": {"path": "/name", "literalString": "Ada"}}}},
            {"id": "go", "component": {"Button": {"child": "name", "primary": True,
             "action": {"name": "go", "context": [{"key": "who", "value": {"path": "/name"}},
                                                  {"key": "n", "value": {"literalNumber": 2}}]}}}},
        ]}},
        {"beginRendering": {"surfaceId": "s", "root": "root"}},
    ]  # fmt: skip
    surfaces = SurfaceSet()
    for n, message in enumerate(messages):
        surfaces.take(f"m{n}", [part(message, V08)])
    surface = surfaces.get("s")
    assert surface is not None and surface.ready and surface.is_v08
    assert surface.components["pick"].type == "ChoicePicker"
    assert surface.components["pick"].props["variant"] == "mutuallyExclusive"
    assert surface.data == {"choice": "b", "name": "Ada"}  # the literal beside a path initialises it
    event = build_event(surface, find_action(surface, "go"))
    assert event is not None and event.context == {"who": "Ada", "n": 2}
    assert set(event_message(surface, event)) == {"userAction"}


def test_bad_messages_are_noted_and_the_rest_still_read():
    surfaces = SurfaceSet()
    touched = surfaces.take(None, [part([{"version": "v0.9", "nonsense": {}}, 7, *FORM])])
    assert touched == ["s"]
    assert surfaces.notes == ["A2UI message 1 is not one this client reads; left out",
                              "A2UI message 2 is not one this client reads; left out"]  # fmt: skip


def test_unknown_components_missing_children_and_cycles_are_placeholders():
    surfaces = SurfaceSet()
    surfaces.take(None, [part([v09("createSurface", catalogId="x"), v09("updateComponents", components=[
        {"id": "root", "component": "Column", "children": ["fancy", "ghost", "loop"]},
        {"id": "fancy", "component": "HoloDeck", "power": 9},
        {"id": "loop", "component": "Card", "child": "loop"},
    ])])])  # fmt: skip
    lines = "\n".join(surface_lines(surfaces.get("s")))
    assert "[unsupported component HoloDeck (id fancy)" in lines
    assert "[ghost: not sent yet]" in lines
    assert "[loop: refers to itself; not drawn again]" in lines


def test_the_bounds_cut_with_a_notice():
    many = [{"id": f"t{i}", "component": "Text", "text": "x"} for i in range(bounds.MAX_COMPONENTS + 50)]
    surfaces = SurfaceSet()
    surfaces.take(None, [part([v09("updateComponents", components=[
        {"id": "root", "component": "Column", "children": [c["id"] for c in many]}, *many])])])  # fmt: skip
    surface = surfaces.get("s")
    assert len(surface.components) == bounds.MAX_COMPONENTS
    walk = Walk(surface)
    deep: dict[str, Any] = {"id": "root", "component": "Card", "child": "c0"}
    chain = [deep] + [{"id": f"c{i}", "component": "Card", "child": f"c{i + 1}"} for i in range(60)]
    surfaces.take(None, [part([{"version": "v0.9", "updateComponents": {"surfaceId": "d", "components": chain}}])])
    assert any("nests deeper" in line for line in surface_lines(surfaces.get("d")))
    assert walk.surface is surface
    nested: Any = "x"
    for _ in range(200):
        nested = {"a": nested}
    surfaces.take(None, [part([v09("updateDataModel", path="/", value=nested)])])
    assert any("too large" in note for note in surfaces.notes)
    for n in range(bounds.MAX_SURFACES + 2):
        surfaces.take(None, [part([{"version": "v0.9", "createSurface": {"surfaceId": f"x{n}", "catalogId": "c"}}])])
    assert len(surfaces.surfaces) == bounds.MAX_SURFACES
    assert any("surfaces" in note for note in surfaces.notes)


@pytest.mark.parametrize(
    ("call", "args", "expected"),
    [
        ("required", {"value": ""}, False),
        ("required", {"value": "x"}, True),
        ("regex", {"value": "12345", "pattern": "^[0-9]{5}$"}, True),
        ("regex", {"value": "1234", "pattern": "^[0-9]{5}$"}, False),
        ("regex", {"value": "a" * 40 + "!", "pattern": "(a+)+$"}, True),  # not run: exponential; the agent checks
        ("length", {"value": "abc", "min": 1, "max": 2}, False),
        ("numeric", {"value": 5, "min": 1, "max": 12}, True),
        ("email", {"value": "a@b.co"}, True),
        ("email", {"value": "a@b"}, False),
        ("and", {"values": [True, {"call": "required", "args": {"value": "x"}}]}, True),
        ("or", {"values": [False, False]}, False),
        ("not", {"value": False}, True),
    ],
)
def test_the_basic_catalogs_checks(call, args, expected):
    from switchboard.a2ui.functions import Evaluation

    assert Evaluation({}).call(call, args) is expected


def test_a_transcript_line_says_what_an_a2ui_part_does():
    from switchboard.a2ui.text import part_summary

    action = {"name": "book", "surfaceId": "s", "sourceComponentId": "b", "timestamp": "2026-01-01T00:00:00Z",
              "context": {"n": 2}}  # fmt: skip
    event = part([{"version": "v0.9", "action": action}])
    assert part_summary(event) == "▸ form action book (n=2)"
    assert part_summary(part([v09("deleteSurface"), *FORM[:1]])) == "(form s)"
    assert part_summary(part([v09("deleteSurface")])) == "(form s closed)"
    assert part_summary(DataPart(data={"x": 1})) is None


def test_hostile_values_print_as_data():
    """Found by the fuzz test: a slider's value (and its bounds) printed raw could carry an escape sequence."""
    from properties_support import has_terminal_controls

    hostile = "\x1b[31mred\x1b[0m \x1b]0;pwned\x07"
    surfaces = SurfaceSet()
    surfaces.take(None, [part([v09("updateComponents", components=[
        {"id": "root", "component": "Column", "children": ["s", "t"]},
        {"id": "s", "component": "Slider", "label": hostile, "value": hostile, "min": hostile, "max": hostile},
        {"id": "t", "component": "TextField", "label": hostile, "value": hostile, "variant": hostile},
    ])])])  # fmt: skip
    lines = surface_lines(surfaces.get("s"))
    assert "red" in "\n".join(lines) and not any(has_terminal_controls(line) for line in lines)
