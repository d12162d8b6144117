"""The `switchboard` command. Heavy imports wait until a command runs, so --help is instant."""

from __future__ import annotations

import argparse
import os
import sys
import types

from ..a2a.errors import UsageError
from .guard import reader_went_away
from .output import report
from .parser import ArgumentError, build_parser, command_named, module_of

TYPE_CHECKING = False  # typing itself is not imported on the way to --help (tests/unit/test_lazy_imports.py)
if TYPE_CHECKING:
    from typing import Any


def _defer_httpx_cli() -> None:
    """`import httpx` also imports httpx's own command line (click, rich, pygments: about half of its import
    time, encode/httpx#3547). A stand-in for that one module loads the real one only if httpx.main is called."""
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return

    def main(*args: Any, **kwargs: Any) -> Any:
        sys.modules.pop("httpx._main", None)
        from httpx._main import main as real_main

        return real_main(*args, **kwargs)

    stand_in = types.ModuleType("httpx._main", "Stands in for httpx's command line until it is called.")
    stand_in.main = main  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stand_in


_defer_httpx_cli()


def _output_of(argv: list[str]) -> str:
    """The -o value, read by hand when argparse itself failed."""
    for i, arg in enumerate(argv):
        if arg in ("-o", "--output") and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--output="):
            return arg.split("=", 1)[1]
        if arg.startswith("-o") and len(arg) > 2 and not arg.startswith("--"):
            return arg[2:].lstrip("=")
    return "text"


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Like parse_args, but positionals may also come after options (`send URL --task-id T "reply"`)."""
    args, extras = parser.parse_known_args(argv)
    unknown = [e for e in extras if e.startswith("-") and e != "-"]
    if unknown or (extras and not hasattr(args, "words")):
        from .suggest import flag_hint

        hint = flag_hint(parser, args, unknown)
        raise ArgumentError(f"switchboard: unrecognized arguments: {' '.join(unknown or extras)}", hint=hint)
    if extras:
        args.words = [*args.words, *extras]
    return args


def main(argv: list[str] | None = None) -> int:
    from_command_line = argv is None
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    try:
        args = parse(parser, argv)
    except ArgumentError as exc:
        hint = exc.hint or "switchboard --help shows the commands and their flags."
        report(UsageError(str(exc), hint=hint), _output_of(argv))
        return 2
    if getattr(args, "app_agents", None) and hasattr(args, "agents") and not args.agents:
        args.agents = args.app_agents  # `switchboard --agents FILE send ...`
    if getattr(args, "app_temporal", None) and args.command is not None:
        if not hasattr(args, "temporal"):  # never silently ignored: the command would act on something else
            report(
                UsageError(
                    f"--temporal does not go with `{args.command}`",
                    hint="It goes with run, runs, worker, or alone for the TUI: switchboard --temporal HOST:PORT",
                ),
                _output_of(argv),
            )
            return 2
        args.temporal = args.temporal or args.app_temporal  # `switchboard --temporal HOST:PORT runs show ...`
    if args.command is None:
        from .app import run_app

        return run_app(args)
    # The command's own module builds its typed options from `args` and runs their handler (cli/groups/).
    code: int = module_of(command_named(args.command)).main(args)
    if "temporalio.bridge" in sys.modules and from_command_line:
        # temporalio's runtime threads can abort the interpreter's finalization ("PyGILState_Release ... must be
        # current", exit 134) after the command has answered: there is nothing left to clean up, so leave now.
        try:
            sys.stdout.flush()
        except BrokenPipeError:  # this flush is past `guarded`: the reader that left is as quiet here
            code = reader_went_away()
        sys.stderr.flush()
        os._exit(code)
    return code
