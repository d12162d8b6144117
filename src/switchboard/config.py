"""The settings file: theme, key bindings, refresh and size limits. YAML in the config dir, written atomically."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .paths import config_dir


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    theme: str = "switchboard"
    # binding id -> keys, e.g. {"send": "ctrl+s", "toggle_wire": "f12"}; see the footer for the ids
    keymap: dict[str, str] = Field(default_factory=dict)
    card_refresh_minutes: float = Field(default=10.0, gt=0)
    # Text beyond this many characters of one artifact is not rendered (it can still be saved whole).
    artifact_render_limit: int = Field(default=200_000, gt=1000)
    wire_records: int = Field(default=5000, gt=10)
    # A Temporal server (HOST:PORT) whose runs the Workflows tab lists too (needs the temporal extra); the TUI
    # checks it at start.
    temporal: str | None = None
    temporal_namespace: str = "default"
    # The inbox's nudge when something new waits while the app is not focused: the terminal's bell, its desktop
    # notification (OSC 9 and OSC 777), a toast in the app, and a command of your own (an argv list, or a string
    # split as a shell would) run with the item in SWITCHBOARD_ITEM_* environment variables.
    notify_bell: bool = True
    notify_desktop: bool = True
    notify_toast: bool = True
    notify_command: list[str] | str | None = None
    # files of public keys trusted to sign any agent's card (JWKS, JWK or PEM); see card_trust.py
    card_keys: list[str] = Field(default_factory=list)


def settings_path() -> Path:
    return config_dir() / "settings.yaml"


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The settings, and warnings for anything that could not be used (the defaults stand in for it)."""
    path = path or settings_path()
    if not path.exists():
        return Settings(), []
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        return Settings(), [f"{path} could not be read ({exc}); defaults used"]
    if not isinstance(data, dict):
        return Settings(), [f"{path} is not a mapping; defaults used"]
    try:
        return Settings.model_validate(data), []
    except ValidationError as exc:
        bad = ", ".join(".".join(str(p) for p in err["loc"]) for err in exc.errors())
        good = {k: v for k, v in data.items() if k not in {str(err["loc"][0]) for err in exc.errors()}}
        return Settings.model_validate(good), [f"{path}: invalid {bad}; defaults used for those"]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    import yaml

    from .files import write_atomically

    write_atomically(path or settings_path(), yaml.safe_dump(settings.model_dump(), sort_keys=False))
