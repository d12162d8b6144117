"""A question that comes with an A2UI form, in the prompt pane on its own: the data part the form already shows is
not repeated as JSON; the pickers' marks differ in shape; enter on a choice picks it and sends the form."""

from __future__ import annotations

import json
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from switchboard.a2a.model import DataPart, Part, TaskState, TextPart
from switchboard.a2ui.surfaces import SurfaceSet
from switchboard.demo.interviewer import CHOICES, goal_form
from switchboard.tui.widgets.a2ui.surface import A2uiSurface
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.transcript import JsonBlock

CATALOG = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"
MIME = "application/a2ui+json"


class PaneApp(App[None]):
    def __init__(self, question: list[Part], *, a2ui: bool = True) -> None:
        super().__init__()
        self.steady = True
        self.surfaces = SurfaceSet() if a2ui else None
        if self.surfaces is not None:
            self.surfaces.take("question", question)
        self.question = question
        self.sent: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield PromptPane(self.question, TaskState.INPUT_REQUIRED, title="interviewer", surfaces=self.surfaces)

    def on_a2ui_surface_action_taken(self, event: A2uiSurface.ActionTaken) -> None:
        self.sent.append(event.part.data[0]["action"])


def interviewer_question(*extra: Part) -> list[Part]:
    """The interviewer's goal question as it sends it: words, its choices as data, the same choices as a form."""
    return [TextPart(text="What is your goal today?"), DataPart(data={"choices": CHOICES}), *extra,
            DataPart(data=goal_form(), metadata={"mimeType": MIME})]  # fmt: skip


# (the pickers are looked up by Textual's names: the form's own subclasses of them are what is tested)


def _shown_json(app: PaneApp) -> list[Any]:
    return [json.loads(block.content.text.plain) for block in app.query(JsonBlock)]


async def test_the_choices_the_form_shows_are_not_repeated_as_json_above_it():
    app = PaneApp(interviewer_question())
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.query(A2uiSurface) and app.query("RadioSet")
        assert _shown_json(app) == []  # the form is the choices; no `{"choices": [...]}` above it


async def test_a_data_part_that_says_more_than_the_choices_stays_beside_the_form():
    app = PaneApp(interviewer_question(DataPart(data={"order": 42, "choices": CHOICES})))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.query(A2uiSurface)
        assert _shown_json(app) == [{"order": 42, "choices": CHOICES}]


async def test_without_a_form_drawn_the_choices_are_shown_as_data():
    app = PaneApp(interviewer_question()[:2], a2ui=False)  # A2UI off: the agent sends no form
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert not app.query(A2uiSurface)
        assert _shown_json(app) == [{"choices": CHOICES}]


def _form(components: list[dict[str, Any]], data: dict[str, Any]) -> list[Part]:
    messages = [
        {"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": CATALOG}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "f", "value": data}},
    ]
    return [TextPart(text="Pick."), DataPart(data=messages, metadata={"mimeType": MIME})]


def _button(cid: str, name: str, primary: bool = False) -> list[dict[str, Any]]:
    context = {"one": {"path": "/one"}, "many": {"path": "/many"}, "ok": {"path": "/ok"}}
    return [{"id": f"{cid}-label", "component": "Text", "text": name.title()},
            {"id": cid, "component": "Button", "child": f"{cid}-label", **({"variant": "primary"} if primary else {}),
             "action": {"event": {"name": name, "context": context}}}]  # fmt: skip


def _pickers(*buttons: list[dict[str, Any]]) -> list[Part]:
    ids = [b[1]["id"] for b in buttons]
    components = [
        {"id": "root", "component": "Column", "children": ["one", "many", "ok", *ids]},
        {"id": "one", "component": "ChoicePicker", "label": "One", "variant": "mutuallyExclusive",
         "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}, {"label": "C", "value": "c"}],
         "value": {"path": "/one"}},
        {"id": "many", "component": "ChoicePicker", "label": "Many", "variant": "multipleSelection",
         "options": [{"label": "X", "value": "x"}, {"label": "Y", "value": "y"}], "value": {"path": "/many"}},
        {"id": "ok", "component": "CheckBox", "label": "Agree", "value": {"path": "/ok"}},
        *[c for b in buttons for c in b],
    ]  # fmt: skip
    return _form(components, {"one": ["a"], "many": ["x"], "ok": False})


async def test_picked_and_not_picked_differ_in_shape_not_only_in_colour():
    app = PaneApp(_pickers(_button("go", "go", primary=True)))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        marks = [str(b.render())[:3] for b in app.query("RadioButton")]
        assert marks == ["(•)", "( )", "( )"]
        checks = app.query_one("SelectionList")
        assert [checks.render_line(y).text[:3] for y in range(2)] == ["[x]", "[ ]"]
        box = app.query_one("Checkbox")
        assert str(box.render()).startswith("[ ]")
        box.focus()
        await pilot.press("space")
        assert str(box.render()).startswith("[x]") and app.sent == []  # space ticks, and sends nothing


async def test_enter_on_a_choice_picks_it_and_sends_the_form_space_only_picks():
    app = PaneApp(_pickers(_button("go", "go", primary=True), _button("no", "cancel")))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        radios = app.query_one("RadioSet")
        assert app.focused is radios  # the pane gives the form's first field the keyboard
        hint = str(app.query_one(".prompt-hint", Static).render())
        assert "space picks · enter sends the form" in hint
        await pilot.press("down", "space")
        assert app.sent == [] and app.surfaces.get("f").data["one"] == ["b"]
        await pilot.press("down", "enter")  # the third choice: picked, and the form sent by its primary button
        assert [(a["name"], a["context"]["one"]) for a in app.sent] == [("go", ["c"])]
        checks = app.query_one("SelectionList")
        checks.focus()
        await pilot.press("down", "enter")  # on check boxes enter sends what is ticked, as it is: y is not ticked
        assert [(a["name"], a["context"]["many"]) for a in app.sent][1:] == [("go", ["x"])]
        app.query_one("Checkbox").focus()
        await pilot.press("enter")
        assert len(app.sent) == 3 and app.sent[2]["context"]["ok"] is False


async def test_enter_on_a_form_that_came_with_a_later_choice_picked_sends_that_choice():
    question = _pickers(_button("go", "go", primary=True))
    question[1].data[2]["updateDataModel"]["value"]["one"] = ["c"]
    app = PaneApp(question)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the cursor starts on the picked choice, not on the first
        assert [a["context"]["one"] for a in app.sent] == [["c"]]


async def test_without_one_obvious_action_enter_picks_and_ticks_and_sends_nothing():
    app = PaneApp(_pickers(_button("yes", "yes"), _button("no", "no")))  # two buttons, neither primary
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        assert app.surfaces.get("f").data["one"] == ["b"]
        app.query_one("SelectionList").focus()
        await pilot.press("down", "enter")
        app.query_one("Checkbox").focus()
        await pilot.press("enter")
        await pilot.pause()
        data = app.surfaces.get("f").data
        assert app.sent == [] and data["many"] == ["x", "y"] and data["ok"] is True


async def test_the_slider_with_the_keyboard_shows_its_value_as_a_cursor():
    from switchboard.demo import booking_surfaces as ui
    from switchboard.tui.widgets.a2ui.slider import Slider

    form = ui.surface_v091(ui.FORM, ui.form_components(), {"booking": dict(ui.DEFAULTS)})
    app = PaneApp([TextPart(text="Book a table."), DataPart(data=form, metadata={"mimeType": MIME})])
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.pause()
        slider = app.query_one(Slider)

        def value_style() -> str:
            drawn = slider.render()
            return next(str(s.style) for s in drawn.spans if drawn.plain[s.start : s.end].strip() == "2")

        assert "reverse" not in value_style()
        await pilot.press("tab", "tab")  # from the date: the time, then the party size
        assert app.focused is slider and "reverse" in value_style()  # bold alone did not show where the keys go
        await pilot.press("tab")
        assert "reverse" not in value_style()
