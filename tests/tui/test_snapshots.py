"""Snapshots of the TUI's scenes (switchboard.tui.scenes): scripted agents, fixed size, no blinking cursor,
no clock or port in the picture. `make screenshots` renders the same scenes for the README."""

from __future__ import annotations

import pytest

from switchboard.tui.scenes import SCENES, SIZE, THEME_SCENE, build_app, scene_links
from switchboard.tui.themes import load_themes

THEMES = [theme.name for theme in load_themes()[0]]


@pytest.fixture
def scene_app(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))

    def make(theme: str = "switchboard"):
        return build_app(tmp_path, theme=theme, links=scene_links())

    return make


@pytest.mark.parametrize("name", list(SCENES))
def test_scene(name, scene_app, snap_compare):
    assert snap_compare(scene_app(), run_before=SCENES[name], terminal_size=SIZE)


@pytest.mark.parametrize("theme", THEMES)
def test_theme(theme, scene_app, snap_compare):
    assert snap_compare(scene_app(theme), run_before=THEME_SCENE, terminal_size=SIZE)


def test_four_themes_ship_including_a_light_and_a_high_contrast_one():
    themes = {theme.name: theme for theme in load_themes()[0]}
    assert {"switchboard", "daylight", "contrast", "switchboard-1962"} <= set(themes)
    assert themes["daylight"].dark is False
    assert all(f"state-{state}" in themes["contrast"].variables for state in ("working", "input-required"))
