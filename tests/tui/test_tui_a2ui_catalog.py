"""Every component of the basic catalog drawn with its widget, in a surface outside a question (live under its
turn); hostile text shown as data; an unknown component a placeholder with a notice; openUrl asks first."""

from __future__ import annotations

from form_scenes import catalog_links, form_scene
from scenes import build_app, scene_links, settle
from textual.containers import Horizontal
from textual.widgets import Checkbox, Collapsible, Input, RadioSet, Rule, SelectionList, Static, TabbedContent, TextArea
from tui_support import until

from switchboard.tui.screens.confirm import ConfirmScreen
from switchboard.tui.widgets.a2ui.build import LinkRow
from switchboard.tui.widgets.a2ui.slider import Slider
from switchboard.tui.widgets.a2ui.surface import A2uiSurface


def _app(tmp_path, links):
    return build_app(tmp_path, links={**scene_links(), **links})


async def _catalog(pilot) -> A2uiSurface:
    from form_scenes import BOOKING_CARD, BOOKING_URL
    from scenes import _until

    from switchboard.a2a.cards import parse_card
    from switchboard.agent_status import AgentStatus
    from switchboard.agents import AgentEntry

    await settle(pilot)
    status = AgentStatus(AgentEntry(name="booking", url=BOOKING_URL), checked_at=1_700_000_000.0)
    status.card = parse_card(BOOKING_CARD)
    view = await pilot.app.screen.open_conversation(status)
    await _until(pilot, lambda: view.conversation is not None)
    view.query_one("#message").focus()
    await pilot.press(*"show me everything", "enter")
    await _until(pilot, lambda: bool(view.query(A2uiSurface)))
    await settle(pilot)
    return view.query_one(A2uiSurface)


async def test_every_basic_component_is_drawn_with_its_widget(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = _app(tmp_path, catalog_links())
    opened: list[str] = []
    monkeypatch.setattr(app, "open_url", lambda url, **kw: opened.append(url))
    async with app.run_test(size=(130, 40)) as pilot:
        form = await _catalog(pilot)
        texts = [str(s.render()) for s in form.query(Static) if "a2ui-text" in s.classes]
        assert "Every component" in texts and "first item" in texts and "second item" in texts  # a template
        hostile = next(t for t in texts if "not markup" in t)
        assert "\x1b" not in hostile and "\u202e" not in hostile and "[bold]not markup[/]" in hostile
        assert [r.url for r in form.query(LinkRow)] == [
            "https://example.com/a.png", "https://example.com/v.mp4", "https://example.com/a.mp3"]  # fmt: skip
        assert form.query(".a2ui-icon") and form.query(Horizontal) and form.query(".a2ui-card")
        assert len(form.query(TabbedContent)) == 1 and form.query(Rule) and form.query(Collapsible)
        inputs = list(form.query(Input))
        assert [i.password for i in inputs] == [False, True, False]  # email, PIN (obscured), the date and time
        assert form.query(TextArea) and form.query(Checkbox).first().value is True
        assert form.query(RadioSet) and list(form.query(SelectionList).first().selected) == ["x"]
        assert form.query(Slider).first().value == 3
        placeholder = [str(s.render()) for s in form.query(".a2ui-placeholder")]
        assert placeholder == ["⚠ unsupported component HoloDeck (id fancy): its JSON is in the wire view"]
        assert any("could not be drawn" in str(s.render()) for s in form.query(".a2ui-notice"))
        # openUrl never opens by itself: the screen asks, and no is no
        link = next(b for b in form.query("Button") if "Open the menu" in str(b.label))
        link.focus()
        await pilot.press("enter")
        await settle(pilot, 0.1)
        assert isinstance(app.screen, ConfirmScreen) and opened == []
        await pilot.press("escape")
        await settle(pilot, 0.1)
        assert opened == []
        # a masked field's value is a secret: redacted from the wire view, the message shown masked
        email, pin = inputs[0], inputs[1]
        email.focus()
        await pilot.press(*"ada@example.com")
        pin.focus()
        await pilot.press(*"4321")
        next(b for b in form.query("Button") if "Send" in str(b.label)).press()
        view = app.screen.query_one("ConversationView")
        await until(lambda: len(view.conversation.turns) == 2)
        sent = view.conversation.turns[-1]
        assert sent.secret and sent.message.parts[0].data[0]["action"]["context"] == {"email": "ada@example.com",
                                                                                      "pin": "4321"}  # fmt: skip
        assert "4321" not in app.tap.redactor.text("pin 4321")


def test_the_catalog_snapshot(tmp_path, monkeypatch, snap_compare):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    assert snap_compare(_app(tmp_path, catalog_links()), run_before=_catalog, terminal_size=(130, 40))


def test_the_form_snapshot_at_130x40(tmp_path, monkeypatch, snap_compare):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    assert snap_compare(_app(tmp_path, {}), run_before=form_scene, terminal_size=(130, 40))


async def test_a_form_question_shows_from_its_title_with_its_first_field_in_view(tmp_path, monkeypatch):
    from switchboard.tui.widgets.prompt_pane import PromptPane

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = _app(tmp_path, {})
    async with app.run_test(size=(130, 40)) as pilot:
        await form_scene(pilot)
        pane = app.screen.query_one(PromptPane)
        transcript = pane.parent
        # The turn's last render used to follow the transcript's end after the form had shown itself from its top,
        # leaving who asks and the question scrolled away above a form taller than the view.
        assert transcript.scroll_y <= pane.virtual_region.y and not transcript.is_anchored
        assert app.focused is not None and transcript.region.contains_region(app.focused.region)
