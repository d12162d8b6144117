"""What `switchboard` does with no command. The TUI replaces `run_app`; until then it serves the demo."""

from __future__ import annotations

from typing import Any


def run_app(args: Any) -> int:
    """`switchboard [--demo] [--agents FILE]`: with --demo, serve the demo fleet in the foreground (print the
    agents and commands to try, serve until Ctrl+C); without it, the help (the TUI is not here yet).
    """
    if args.demo:
        from . import run_async
        from .demo import run_demo

        return run_async(run_demo, args)
    from .parser import build_parser

    build_parser().print_help()
    return 0
