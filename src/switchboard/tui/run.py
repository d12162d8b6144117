"""Open the TUI: on the agents file, and on the demo fleet when asked for or when there is nothing else."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..agents import load_agents
from ..paths import agents_file


def run_tui(args: Any) -> int:
    path = Path(args.agents).expanduser() if args.agents else agents_file()
    registry = load_agents(path)
    fleet = None
    extra = []
    if args.demo or not registry.agents:
        from ..demo.fleet import start_in_background

        fleet = start_in_background()
        # The fleet's agents name these variables for their credentials; give them the fleet's values
        # (unless the person set their own), so the gatekeeper and the tasks agent work out of the box.
        for name, value in fleet.credential_env.items():
            os.environ.setdefault(name, value)
        extra = [agent.as_entry() for agent in fleet.agents]
    from .app import SwitchboardApp

    subtitle = str(path) + (" + demo fleet" if fleet else "")
    app = SwitchboardApp(path, extra_agents=extra, subtitle=subtitle)
    try:
        app.run()
    finally:
        if fleet is not None:
            fleet.stop()
    return app.return_code or 0
