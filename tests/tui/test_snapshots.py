"""Snapshots of the TUI's scenes (tests/tui/scenes.py): scripted agents, fixed size, no blinking cursor,
no clock or port in the picture. `make screenshots` renders the same scenes for the README."""

from __future__ import annotations

import pytest
from scenes import SCENES, SIZE, THEME_SCENE, build_app, scene_links, settle

from switchboard.tui.themes import load_themes

THEMES = [theme.name for theme in load_themes()[0]]
SMALL = {"80x24": (80, 24), "60x15": (60, 15)}  # the smallest usual terminal, and one below it


async def add_agent_scene(pilot) -> None:
    await settle(pilot)
    await pilot.press("a")
    await settle(pilot)


async def wire_detail_scene(pilot) -> None:
    await SCENES["wire"](pilot)
    await pilot.press("up", "up", "enter")
    await settle(pilot)


SMALL_SCENES = {**SCENES, "add-agent": add_agent_scene, "wire-detail": wire_detail_scene}


@pytest.fixture
def scene_app(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))

    def make(theme: str = "switchboard"):
        return build_app(tmp_path, theme=theme, links=scene_links())

    return make


@pytest.mark.parametrize("name", list(SCENES))
def test_scene(name, scene_app, snap_compare):
    assert snap_compare(scene_app(), run_before=SCENES[name], terminal_size=SIZE)


@pytest.mark.parametrize("size", list(SMALL))
@pytest.mark.parametrize("name", list(SMALL_SCENES))
def test_scene_on_a_small_terminal(name, size, scene_app, snap_compare):
    assert snap_compare(scene_app(), run_before=SMALL_SCENES[name], terminal_size=SMALL[size])


@pytest.mark.parametrize("size", list(SMALL))
@pytest.mark.parametrize("name", list(SMALL_SCENES))
async def test_the_focused_field_is_in_view_on_a_small_terminal(name, size, scene_app):
    """What has the focus is where the person can see it: keys typed go somewhere they can see."""
    app = scene_app()
    async with app.run_test(size=SMALL[size]) as pilot:
        await SMALL_SCENES[name](pilot)
        focused = app.focused
        assert focused is not None
        region = focused.region
        assert region.height > 0 and app.screen.region.contains_region(region), (focused, region)
        under, _ = app.screen.get_widget_at(*region.center)
        assert under is focused or focused in under.ancestors, (focused, under)


@pytest.mark.parametrize("theme", THEMES)
def test_theme(theme, scene_app, snap_compare):
    assert snap_compare(scene_app(theme), run_before=THEME_SCENE, terminal_size=SIZE)


def test_four_themes_ship_including_a_light_and_a_high_contrast_one():
    themes = {theme.name: theme for theme in load_themes()[0]}
    assert {"switchboard", "daylight", "contrast", "switchboard-1962"} <= set(themes)
    assert themes["daylight"].dark is False
    assert all(f"state-{state}" in themes["contrast"].variables for state in ("working", "input-required"))
