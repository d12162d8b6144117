"""The theme list holds the themes the README names, the shipped ones (themes/), and the person's own from
CONFIG_DIR/themes: not Textual's twenty-odd, never checked against this app's colours (issue 26, item 6)."""

from __future__ import annotations

from scenes import build_app, settle
from textual.command import CommandPalette
from textual.widgets import OptionList
from tui_support import until

SHIPPED = {"switchboard", "daylight", "contrast", "switchboard-1962"}
MINE = "name: my-own\nprimary: '#44AA88'\nforeground: '#EEEEEE'\nbackground: '#101010'\n"


async def test_the_theme_list_is_the_shipped_themes_and_the_persons_own(tmp_path):
    (tmp_path / "config" / "themes").mkdir(parents=True)
    (tmp_path / "config" / "themes" / "mine.yaml").write_text(MINE)
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert set(app.available_themes) == SHIPPED | {"my-own"}
        app.search_themes()  # what the palette's "Change theme" opens
        await until(lambda: isinstance(app.screen, CommandPalette) and bool(app.screen.query(OptionList)))
        options = app.screen.query_one(OptionList)
        await until(lambda: options.option_count > 0)
        await settle(pilot, 0.2)
        listed = {str(options.get_option_at_index(i).prompt).strip() for i in range(options.option_count)}
        assert listed == SHIPPED | {"my-own"}, listed


async def test_a_theme_of_textuals_named_in_the_settings_falls_back_to_the_default_and_says_so(tmp_path):
    app = build_app(tmp_path, theme="nord")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "switchboard"
        notices = [notification.message for notification in app._notifications]
        assert "theme nord is not one of switchboard's or yours: switchboard is used" in notices
