"""The settings file: theme, key bindings, refresh and size limits. YAML in the config dir, written atomically."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .paths import config_dir


class Settings(BaseModel):
    """settings.yaml: the TUI's theme, keys, refresh and size limits. Every key may be left out (its default stands);
    a key this version does not know is ignored with a warning, so a newer file still opens."""

    # extra="forbid" so a misspelt key is found (load_settings reports it and goes on without it); built when
    # settings are first read
    model_config = ConfigDict(extra="forbid", title="a2a-switchboard settings", defer_build=True)

    theme: str = Field(
        "switchboard",
        description="the theme's name: a shipped one, or a YAML file of your own in CONFIG_DIR/themes/",
        examples=["switchboard", "switchboard-1962", "daylight", "contrast"],
    )
    keymap: dict[str, str] = Field(
        default_factory=dict,
        description="key bindings by binding id (the footer and the help screen show the ids): "
        "keys comma-separated, as Textual names them",
        examples=[{"send": "ctrl+s", "toggle_wire": "f12"}],
    )
    card_refresh_minutes: float = Field(
        default=10.0, gt=0, description="how often the agents pane fetches each agent's card again"
    )
    artifact_render_limit: int = Field(
        default=200_000,
        gt=1000,
        description="text beyond this many characters of one artifact is not drawn (it can still be saved whole)",
    )
    wire_records: int = Field(default=5000, gt=10, description="how many exchanges the wire view keeps")
    temporal: str | None = Field(
        None,
        description="a Temporal server (HOST:PORT) whose runs the Workflows tab lists too (needs the temporal "
        "extra); checked when the TUI starts",
        examples=["127.0.0.1:7233"],
    )
    temporal_namespace: str = Field("default", description="the Temporal namespace of those runs")
    card_keys: list[str] = Field(
        default_factory=list,
        description="files of public keys trusted to sign any agent's card (JWKS, JWK or PEM); "
        "an agent's own cardKeys replace them for that agent",
    )
    a2ui: bool = Field(
        True,
        description="draw agents' A2UI surfaces as forms, and say so to agents whose card declares the extension; "
        "false: the agents fall back to text (`switchboard --no-a2ui` for one session)",
    )
    # The inbox's nudge when something new waits while the app is not focused.
    notify_bell: bool = Field(True, description="ring the terminal's bell when something new waits for you")
    notify_desktop: bool = Field(
        True, description="ask the terminal for a desktop notification (OSC 9 and OSC 777) when something new waits"
    )
    notify_toast: bool = Field(True, description="show a toast in the app when something new waits")
    notify_command: list[str] | str | None = Field(
        None,
        description="a command of your own run when something new waits (an argv list, or a string split as a shell "
        "would; never run through a shell), with the item in SWITCHBOARD_ITEM_* environment variables",
        examples=[["notify-send", "switchboard"], "ntfy publish mytopic"],
    )


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
        errors = exc.errors()
    unknown = [str(err["loc"][0]) for err in errors if err["type"] == "extra_forbidden"]
    bad = [".".join(str(p) for p in err["loc"]) for err in errors if err["type"] != "extra_forbidden"]
    dropped = {str(err["loc"][0]) for err in errors if err["loc"]}
    warnings = []
    if unknown:
        named = f"key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}"
        warnings.append(f"{path}: unknown {named}; ignored (`switchboard schema settings` lists the keys)")
    if bad:
        warnings.append(f"{path}: invalid {', '.join(bad)}; defaults used for those")
    return Settings.model_validate({k: v for k, v in data.items() if str(k) not in dropped}), warnings


def save_settings(settings: Settings, path: Path | None = None) -> None:
    import yaml

    from .files import write_atomically

    write_atomically(path or settings_path(), yaml.safe_dump(settings.model_dump(), sort_keys=False))
