"""A question that comes with an A2UI form, in the prompt pane on its own: the data part the form already shows is
not repeated as JSON; the pickers' marks differ in shape; enter on a choice picks it and sends the form."""

from __future__ import annotations

import json
from typing import Any

from textual.app import App, ComposeResult

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
