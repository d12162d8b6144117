"""Every shipped theme keeps its text readable: the theme's colours against its backgrounds (WCAG 2 contrast
ratio: 4.5 for body text, 3 for muted and coloured text), and what the screens actually draw, cell by cell."""

from __future__ import annotations

import pytest
from scenes import SCENES, SIZE, build_app, scene_links, settle
from textual.color import Color
from textual.theme import BUILTIN_THEMES

from switchboard.tui.themes import shipped_themes_dir, state_defaults, theme_from_yaml

SHIPPED = {theme.name: theme for theme in map(theme_from_yaml, sorted(shipped_themes_dir().glob("*.yaml")))}
BACKGROUNDS = ("background", "surface", "panel")
BODY, MUTED = 4.5, 3.0
# Borders, rules, scrollbars and block glyphs draw lines, not text.
NOT_TEXT = " " + "".join(map(chr, range(0x2500, 0x25A0)))


def luminance(rgb: tuple[int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(color: str) -> tuple[int, int, int]:
    parsed = Color.parse(color)
    return parsed.r, parsed.g, parsed.b


def theme_colours(theme) -> dict[str, str]:
    return {**theme.to_color_system().generate(), **theme.variables}


@pytest.mark.parametrize("name", list(SHIPPED))
def test_theme_text_colours_stand_out_from_every_background(name):
    colours = theme_colours(SHIPPED[name])
    coloured = ["text-muted", "primary", "secondary", "accent", "success", "warning", "error"]
    coloured += [key for key in colours if key.startswith("state-")]
    low = []
    for where in BACKGROUNDS:
        under = rgb(colours[where])
        if (ratio := contrast(rgb(colours["foreground"]), under)) < BODY:
            low.append(f"foreground on {where}: {ratio:.2f}")
        for key in coloured:
            if (ratio := contrast(rgb(colours[key]), under)) < MUTED:
                low.append(f"{key} on {where}: {ratio:.2f}")
    assert not low, low


@pytest.mark.parametrize("name", ["textual-dark", "textual-light"])
def test_state_colours_given_to_textuals_own_themes_stand_out(name):
    theme = BUILTIN_THEMES[name]
    colours = theme.to_color_system().generate()
    low = [
        f"{key} on {where}: {contrast(rgb(value), rgb(colours[where])):.2f}"
        for key, value in state_defaults(theme.dark).items()
        for where in BACKGROUNDS
        if contrast(rgb(value), rgb(colours[where])) < MUTED
    ]
    assert not low, low


def drawn_text_below(strips, floor: float) -> list[str]:
    """Each piece of text on the screen whose colour is too close to the colour under it."""
    low = set()
    for y, strip in enumerate(strips):
        for segment in strip:
            style = segment.style
            if style is None or not segment.text.strip(NOT_TEXT):
                continue
            fg, bg = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
            ratio = contrast(fg.get_truecolor(), bg.get_truecolor())
            if ratio < floor:
                low.add(f"line {y}: {segment.text.strip()!r} {ratio:.2f}")
    return sorted(low)


async def steps_focused(pilot) -> None:
    """The run, with the keyboard in its list of steps (a highlight in the cursor's colour, over coloured text)."""
    await SCENES["run"](pilot)
    pilot.app.screen.query_one("#steps").focus()
    await settle(pilot, 0.2)


async def workflows(pilot) -> None:
    await SCENES["agents"](pilot)
    await pilot.press("f3")
    await settle(pilot)


PICTURES = {"agents": SCENES["agents"], "prompt": SCENES["prompt"], "steps": steps_focused, "workflows": workflows}


@pytest.mark.parametrize("picture", list(PICTURES))
@pytest.mark.parametrize("name", list(SHIPPED))
async def test_every_text_drawn_stands_out_from_what_is_under_it(name, picture, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = build_app(tmp_path, theme=name, links=scene_links())
    async with app.run_test(size=SIZE) as pilot:
        await PICTURES[picture](pilot)
        assert app.theme == name
        assert not drawn_text_below(app.screen._compositor.render_strips(), MUTED)
