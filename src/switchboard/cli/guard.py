"""Running a command handler: its exit code, or an error envelope (never a traceback); Ctrl+C and a reader
that went away (`| head`) end quietly."""

from __future__ import annotations

import os
import sys

from ..a2a.errors import SwitchboardError, UsageError
from .output import report

TYPE_CHECKING = False  # typing itself is not imported on the way to --help (tests/unit/test_lazy_imports.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine
    from typing import Any, TypeVar

    Options = TypeVar("Options")


def reader_went_away() -> int:
    """The end of a pipe closed early (`| head`): stop quietly, as Unix tools do. What is still buffered for it
    goes to /dev/null, so the interpreter's last flush raises nothing either. 141: killed by SIGPIPE, in a shell."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141


def run_async(handler: Callable[[Options], Coroutine[Any, Any, int]], args: Options, *, server: bool = False) -> int:
    """Run an async command handler: its exit code, or an error envelope (never a traceback). A `server` (serve,
    demo) runs on uvloop when the `fast` extra put it there: half the latency under load (bench/README, serve)."""

    def call() -> int:
        import asyncio

        if server and os.environ.get("SWITCHBOARD_LOOP") != "asyncio":
            try:
                import uvloop
            except ImportError:
                pass
            else:
                return uvloop.run(handler(args))
        return asyncio.run(handler(args))

    return guarded(call, args)


def guarded(call: Callable[[], int], args: object) -> int:
    """`call()`'s exit code, or an error envelope (never a traceback), in `args.output`'s format if it has one."""
    try:
        return call()
    except SwitchboardError as exc:
        report(exc, getattr(args, "output", "text"))
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return reader_went_away()
    except Exception as exc:  # the last line of defence: an envelope, never a traceback
        report(
            SwitchboardError(
                f"unexpected {type(exc).__name__}: {exc}", hint="Please report this with --verbose output."
            ),
            getattr(args, "output", "text"),
        )
        return 1


def no_subcommand(command: str) -> int:
    """`switchboard COMMAND` alone, where COMMAND has subcommands: a usage error naming its --help."""
    error = UsageError(f"`{command}` needs a subcommand", hint=f"switchboard {command} --help")
    report(error, "text")
    return error.exit_code
