"""The rule for a plain data part beside a form: left out only when every value in it is one of the form's choices
(the interviewer's `{"choices": [...]}`); anything else the agent said stays on screen."""

from __future__ import annotations

from typing import Any

from switchboard.a2a.model import DataPart
from switchboard.a2ui.presented import shown_by_form
from switchboard.a2ui.surfaces import SurfaceSet
from switchboard.demo.interviewer import CHOICES, goal_form

CATALOG = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"


def _surfaces(messages: list[dict[str, Any]]) -> list:
    surfaces = SurfaceSet()
    ids = surfaces.take("m", [DataPart(data=messages, metadata={"mimeType": "application/a2ui+json"})])
    return [surfaces.get(i) for i in ids]


def test_the_interviewers_choices_beside_its_form_are_what_the_form_shows():
    form = _surfaces(goal_form())
    assert shown_by_form({"choices": CHOICES}, form)
    assert shown_by_form({"choices": CHOICES[:1]}, form)  # some of the choices: still nothing new
    assert shown_by_form(CHOICES, form)


def test_anything_the_form_does_not_show_keeps_the_part_on_screen():
    form = _surfaces(goal_form())
    assert not shown_by_form({"choices": CHOICES, "order": 42}, form)  # one value more: shown whole
    assert not shown_by_form({"choices": [*CHOICES, "a fourth"]}, form)
    assert not shown_by_form({"hint": "pick one"}, form)
    assert not shown_by_form({}, form) and not shown_by_form([], form)  # nothing to compare: shown as before
    assert not shown_by_form({"choices": [None]}, form)
    assert not shown_by_form({"choices": CHOICES}, [])  # no form drawn


def test_labels_count_as_shown_and_a_form_without_a_picker_shows_no_choices():
    picker = [
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": CATALOG}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "ChoicePicker", "value": {"path": "/pick"}, "options": [
                {"label": {"path": "/names/0"}, "value": "in"}, {"label": "Outside", "value": "out"}]}]}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"names": ["Indoors"], "pick": []}}},
    ]  # fmt: skip
    assert shown_by_form({"seating": ["Indoors", "out"]}, _surfaces(picker))  # a bound label, as drawn
    text_only = [
        {"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": CATALOG}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "t", "components": [
            {"id": "root", "component": "Text", "text": "in"}]}},
    ]  # fmt: skip
    assert not shown_by_form({"choices": ["in"]}, _surfaces(text_only))


def test_a_deep_or_huge_data_part_is_shown():
    form = _surfaces(goal_form())
    deep: Any = CHOICES[0]
    for _ in range(40):
        deep = [deep]
    assert not shown_by_form(deep, form)
    assert not shown_by_form({"choices": CHOICES * 400}, form)
