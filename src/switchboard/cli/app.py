"""What `switchboard` does with no command: the TUI on the agents file (and the demo fleet with --demo, or
when there are no agents yet). Where there is no terminal it never waits for one: `--demo` then serves the
fleet in the foreground, and plain `switchboard` prints the help."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..a2a.errors import SwitchboardError


def run_app(args: argparse.Namespace) -> int:
    from ..web.session import web_session

    web = web_session()  # a browser tab's session under `switchboard web`: Textual's web driver is the screen
    if web or (sys.stdin.isatty() and sys.stdout.isatty()):
        from ..a2a.errors import SwitchboardError
        from ..tui.run import run_tui

        try:
            return run_tui(args)
        except SwitchboardError as exc:
            _tell(web, exc)
            return exc.exit_code
        except (OSError, TimeoutError) as exc:  # the demo fleet could not start, a file could not be read
            _tell(web, SwitchboardError(f"{type(exc).__name__}: {exc}", hint="Try `switchboard demo` to see why."))
            return 1
    if args.demo:
        from .groups.demo import DemoOptions, serve_demo

        return serve_demo(DemoOptions())  # the fleet on its default ports, as `switchboard demo`
    from .parser import build_parser

    build_parser().print_help()
    print("\n(no terminal: the TUI opens when switchboard runs in one)", file=sys.stderr)
    return 0


def _tell(web: bool, error: SwitchboardError) -> None:
    """A failure to start: on stderr at a terminal; in a web session, to the browser (the only one who sees it)."""
    if not web:
        from .output import report

        report(error, "text")
        return
    from ..safe_text import strip_controls
    from ..web.session import report_failure

    report_failure(strip_controls(error.message), strip_controls(error.hint) if error.hint else None)
