"""Where switchboard keeps its files. SWITCHBOARD_HOME, when set, holds all of them (tests, portable use)."""

from __future__ import annotations

import os
from pathlib import Path

APP = "a2a-switchboard"


def _home() -> Path | None:
    value = os.environ.get("SWITCHBOARD_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    home = _home()
    if home:
        return home / "config"
    from platformdirs import user_config_path

    return user_config_path(APP)


def data_dir() -> Path:
    home = _home()
    if home:
        return home / "data"
    from platformdirs import user_data_path

    return user_data_path(APP)


def cache_dir() -> Path:
    home = _home()
    if home:
        return home / "cache"
    from platformdirs import user_cache_path

    return user_cache_path(APP)


def agents_file() -> Path:
    return config_dir() / "agents.yaml"
