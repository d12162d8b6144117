"""Themes: YAML files (shipped in themes/, and the user's in the config dir) turned into Textual themes.

Each theme also names a colour per task state (`states:`), exposed to CSS as $state-<name>.
"""

from __future__ import annotations

from pathlib import Path

from textual.color import Color
from textual.theme import Theme

from ..a2a.model import TaskState
from ..paths import config_dir

# Fallbacks, so Textual's own themes can be chosen too: one set for dark backgrounds, one for light ones.
STATE_DEFAULTS = {
    "state-submitted": "#8B93A3",
    "state-working": "#5EA3F2",
    "state-input-required": "#F2C14E",
    "state-auth-required": "#F2A65E",
    "state-completed": "#4FC58C",
    "state-failed": "#F0626A",
    "state-canceled": "#8B93A3",
    "state-rejected": "#D47FD8",
    "state-unknown": "#8B93A3",
}
STATE_DEFAULTS_LIGHT = {
    "state-submitted": "#5F6B7A",
    "state-working": "#1F6FD1",
    "state-input-required": "#8F5A00",
    "state-auth-required": "#B04E0A",
    "state-completed": "#17804F",
    "state-failed": "#C8323D",
    "state-canceled": "#5F6B7A",
    "state-rejected": "#9B2FA6",
    "state-unknown": "#5F6B7A",
}
MUTED_SHARE = 0.65  # how much of the foreground muted text keeps, over the background


def state_defaults(dark: bool) -> dict[str, str]:
    return dict(STATE_DEFAULTS if dark else STATE_DEFAULTS_LIGHT)


def muted_text(foreground: str, background: str) -> str:
    """A concrete colour for $text-muted. Textual's own ("auto 60%") is worked out against whatever is under
    the text, and text drawn where nothing is under it (a DataTable cell, a style in Content markup) lost it:
    black on a dark table, or plain white."""
    return Color.parse(background).blend(Color.parse(foreground), MUTED_SHARE).hex


def shipped_themes_dir() -> Path:
    """themes/ inside the installed package, or at the top of a source checkout."""
    packaged = Path(__file__).resolve().parent.parent / "themes"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[3] / "themes"


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def theme_from_yaml(path: Path) -> Theme:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not data.get("name") or not data.get("primary"):
        raise ValueError("a theme needs at least `name` and `primary`")
    variables = {f"state-{state}": str(colour) for state, colour in (data.get("states") or {}).items()}
    unknown = {k for k in variables if k not in STATE_DEFAULTS}
    if unknown:
        raise ValueError(f"unknown task states: {', '.join(sorted(unknown))}")
    if data.get("foreground") and data.get("background"):
        variables["text-muted"] = muted_text(str(data["foreground"]), str(data["background"]))
    variables.update({str(k): str(v) for k, v in (data.get("variables") or {}).items()})

    def colour(key: str) -> str | None:
        return str(data[key]) if data.get(key) else None

    return Theme(
        name=str(data["name"]),
        primary=str(data["primary"]),
        secondary=colour("secondary"),
        accent=colour("accent"),
        foreground=colour("foreground"),
        background=colour("background"),
        surface=colour("surface"),
        panel=colour("panel"),
        boost=colour("boost"),
        success=colour("success"),
        warning=colour("warning"),
        error=colour("error"),
        dark=bool(data.get("dark", True)),
        luminosity_spread=float(data.get("luminosity_spread", 0.15)),
        text_alpha=float(data.get("text_alpha", 0.95)),
        variables=variables,
    )


def load_themes() -> tuple[list[Theme], list[str]]:
    """Shipped themes then user themes (a user theme may replace a shipped one); warnings for bad files."""
    themes: dict[str, Theme] = {}
    warnings: list[str] = []
    for folder in (shipped_themes_dir(), user_themes_dir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.y*ml")):
            try:
                theme = theme_from_yaml(path)
            except Exception as exc:  # a broken user theme must not stop the app
                warnings.append(f"theme {path.name} skipped: {exc}")
                continue
            themes[theme.name] = theme
    return list(themes.values()), warnings


def state_variable(state: TaskState | None) -> str:
    return f"$state-{(state or TaskState.UNKNOWN).value}"
