"""`switchboard web`: the TUI in a browser, through textual-serve, behind a secret link."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..arguments import port, positive_int

WEB_EPILOG = """\
Each browser tab runs its own switchboard on the agents file (and on the demo fleet, which starts once when
asked for or when there are no agents). The printed link holds a random token: the page and every session
need it, and a session opens only from this server's own page. Every asset is served from here.

examples:
  switchboard web
  switchboard web --demo --port 0
"""


@dataclass(frozen=True)
class WebOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    demo: bool = False
    agents: str | None = None  # --agents before `web` too: main() hands it on
    max_sessions: int = 4


def add_arguments(web: argparse.ArgumentParser) -> None:
    web.description = "Serve the TUI to a browser through textual-serve, on 127.0.0.1 behind a secret link."
    web.epilog = WEB_EPILOG
    web.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1; others warn)")
    web.add_argument("--port", type=port, default=8000, metavar="N", help="port (default 8000; 0 = any free port)")
    web.add_argument("--demo", action="store_true", help="start the demo agent fleet and use it")
    web.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    web.add_argument(
        "--max-sessions", type=positive_int, default=4, metavar="N", help="browser tabs served at once (default 4)"
    )


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..options import options_from
    from ..web import serve_web

    return run_async(serve_web, options_from(WebOptions, namespace))
