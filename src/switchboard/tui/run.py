"""Open the TUI: on the agents file, and on the demo fleet when asked for or when there is nothing else."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..agents import load_agents
from ..paths import agents_file


def prepare(args: Any):
    """The app to run and the demo fleet it runs on (None without one); the caller stops the fleet."""
    given = getattr(args, "app_agents", None)
    path = Path(given).expanduser() if given else agents_file()
    registry = load_agents(path)
    fleet = None
    extra = []
    shared = os.environ.get("SWITCHBOARD_DEMO_AGENTS")  # a `switchboard web` session: the server runs the fleet
    if shared:
        extra = load_agents(Path(shared)).agents
    elif getattr(args, "demo", False) or not registry.agents:
        from ..demo.fleet import start_in_background

        fleet = start_in_background()
        # The fleet's agents name these variables for their credentials; give them the fleet's values
        # (unless the person set their own), so the gatekeeper and the tasks agent work out of the box.
        for name, value in fleet.credential_env.items():
            os.environ.setdefault(name, value)
        extra = [agent.as_entry() for agent in fleet.agents]
    from .app import SwitchboardApp

    subtitle = str(path) + (" + demo fleet" if fleet or shared else "")
    temporal = getattr(args, "app_temporal", None)
    app = SwitchboardApp(
        path,
        extra_agents=extra,
        subtitle=subtitle,
        tune_gc=True,
        temporal=temporal,
        runs_extra_agents=fleet is not None,
    )
    if getattr(args, "app_no_a2ui", False):
        app.a2ui_off = True  # this session only: settings.yaml is not changed
    return app, fleet


def run_tui(args: Any) -> int:
    app, fleet = prepare(args)
    try:
        app.run()
    finally:
        if fleet is not None:
            fleet.stop()
    return app.return_code or 0
