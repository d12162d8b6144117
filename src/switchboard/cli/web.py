"""`switchboard web`: the TUI in a browser. One server; each browser tab gets its own copy of switchboard on the
same agents file (and the demo fleet, started once here, when asked for or when there are no agents)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..a2a.auth.credentials import is_loopback
from ..a2a.errors import UsageError
from ..agents import load_agents
from ..paths import agents_file
from .output import warn

if TYPE_CHECKING:
    from .groups.web import WebOptions

# A session reads the demo fleet's agents from this file instead of starting a fleet of its own.
SHARED_DEMO_AGENTS = "SWITCHBOARD_DEMO_AGENTS"


def session_command(agents: Path) -> str:
    """How textual-serve starts one session (a shell command line)."""
    return shlex.join([sys.executable, "-m", "switchboard", "--agents", str(agents)])


async def serve_web(options: WebOptions) -> int:
    try:
        from ..web.server import SwitchboardServer, setup_logging
    except ImportError:
        raise UsageError(
            "switchboard web needs textual-serve, which is not installed",
            hint="pip install 'a2a-switchboard[web]'",
        ) from None
    given = options.agents  # or the --agents given before `web`
    path = Path(given).expanduser() if given else agents_file()
    if given and not path.exists():
        raise UsageError(f"the agents file {path} does not exist", hint="Check the path given to --agents.")
    registry = load_agents(path)
    fleet = None
    if options.demo or not registry.agents:
        from ..demo.fleet import start_in_background

        fleet = start_in_background()
        for name, value in fleet.credential_env.items():
            os.environ.setdefault(name, value)  # the sessions inherit them, as a terminal session would
        os.environ[SHARED_DEMO_AGENTS] = str(fleet.agents_file)
    if not is_loopback(options.host):
        warn(
            f"serving on {options.host}: anyone who reaches this address and has the link drives switchboard with "
            "your credentials, over plain HTTP (unencrypted); keep to 127.0.0.1 unless you mean it"
        )
    setup_logging()
    server = SwitchboardServer(
        session_command(path), host=options.host, port=options.port, max_sessions=options.max_sessions
    )

    def ready(server: SwitchboardServer) -> None:
        print(f"switchboard web: open {server.url}", flush=True)
        print(
            f"agents: {path}{' + demo fleet' if fleet else ''} · at most {server.max_sessions} sessions · Ctrl+C stops",
            file=sys.stderr,
            flush=True,
        )

    try:
        await server.run(ready)
    except OSError as exc:
        raise UsageError(
            f"cannot serve on {options.host}:{options.port}: {exc.strerror or exc}",
            hint="Choose another --port (0 takes any free one).",
        ) from None
    finally:
        if fleet is not None:
            fleet.stop()
    return 0
