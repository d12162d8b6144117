"""The command line surface, after the A2A CLI specification (Tier 1, plus task list/subscribe): the root parser
and the registry of commands.

Only argparse is imported here, so `switchboard --help` stays fast. Each command's flags are added by its own
module (`COMMANDS`), and only when that command is parsed or its help shown: `switchboard send ...` never loads
the workflow commands' parsers, and `switchboard --help` loads none.
"""

from __future__ import annotations

import argparse
from importlib import import_module

TYPE_CHECKING = False  # typing itself is not imported on the way to --help (tests/unit/test_lazy_imports.py)
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any, NoReturn

EPILOG = """\
agents are named by URL (http://127.0.0.1:9101), bare host (localhost:9101), card URL, card file,
or by name from the agents file.

exit codes: 0 done (whatever the task's state), 1 failure, 2 usage, 3 unreachable / no card,
4 credentials missing or refused, 5 timeout.

examples:
  switchboard card get http://127.0.0.1:9101
  switchboard send http://127.0.0.1:9101 "hi"
  switchboard send http://127.0.0.1:9101 --task-id TASK --context-id CTX "Ada"
  switchboard send writer "a poem" --stream -o json
  switchboard task get writer TASK --wait
"""


class Command:
    """One `switchboard COMMAND`: its name and one-line help (listed by `switchboard --help`), and the module of
    this package that owns it: `add_arguments(parser)` fills its parser, `main(namespace) -> int` runs it.

    A plain class: a dataclass would add 14 modules to every start, typing.NamedTuple the typing module."""

    __slots__ = ("help", "module", "name")

    def __init__(self, name: str, help: str, module: str) -> None:
        self.name, self.help, self.module = name, help, module

    def __repr__(self) -> str:
        return f"Command({self.name!r}, {self.help!r}, {self.module!r})"


# In the order `switchboard --help` lists them.
COMMANDS: tuple[Command, ...] = (
    Command("card", "agent cards", "groups.card"),
    Command("send", "send a message to start or continue a task", "groups.send"),
    Command("task", "tasks: get, cancel, subscribe, watch, list, push", "groups.task"),
    Command("inbox", "everything waiting for your answer: tasks, runs, runs on Temporal", "groups.inbox"),
    Command("answer", "answer an item of the inbox by its id", "groups.answer"),
    Command("auth", "OAuth sign-in: login, status, logout", "groups.auth"),
    Command("run", "run a workflow file (or continue a run with --resume)", "groups.run"),
    Command("runs", "workflow runs from the journal: list, show", "groups.runs"),
    Command("worker", "serve runs on a Temporal server: their workflow code and their steps", "groups.worker"),
    Command("temporal", "a local Temporal dev server; keys", "groups.temporal"),
    Command("export", "export a workflow run (from its journal) as Markdown, JSON or HTML", "groups.export"),
    Command("replay", "play a recorded conversation or run again in the TUI, read-only", "groups.replay"),
    Command(
        "conformance",
        "probe an agent with the scenarios a client relies on; pass/warn/fail per check",
        "groups.conformance",
    ),
    Command("web", "the TUI in a browser (needs the web extra: pip install 'a2a-switchboard[web]')", "groups.web"),
    Command("serve", "serve workflows as A2A agents until Ctrl+C", "groups.serve"),
    Command("mcp", "the agents and workflows as tools for MCP hosts (needs the mcp extra)", "groups.mcp"),
    Command("demo", "serve the demo agent fleet on 127.0.0.1 until Ctrl+C", "groups.demo"),
    Command("schema", "the JSON Schema of the agents file, a workflow file or settings.yaml", "groups.schema"),
    Command("completion", "a shell completion script: bash, zsh or fish", "groups.completion"),
)


def command_named(name: str) -> Command:
    return next(command for command in COMMANDS if command.name == name)


def module_of(command: Command) -> Any:
    """The module that owns `command` (imported on first use)."""
    return import_module(f"{__package__}.{command.module}")


class ArgumentError(Exception):
    """Raised instead of argparse's exit, so usage errors use the one error envelope (`hint`: a did-you-mean)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class Parser(argparse.ArgumentParser):
    """Usage errors raise ArgumentError (one envelope, a did-you-mean hint). A command's parser is filled by its
    module the first time it parses or shows its help."""

    def __init__(self, *args: Any, command: Command | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self._unfilled = command

    def fill(self) -> None:
        command, self._unfilled = self._unfilled, None
        if command is not None:
            module_of(command).add_arguments(self)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.fill()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.fill()
        return super().format_usage()

    def format_help(self) -> str:
        self.fill()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        from .suggest import choice_hint

        raise ArgumentError(f"{self.prog}: {message}", hint=choice_hint(self, message))


class _Version(argparse.Action):
    """--version, read from the installed package's metadata only when asked for (not on every start)."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        from .. import __version__

        try:
            print(f"switchboard {__version__}", flush=True)
        except BrokenPipeError:  # `switchboard --version | true`: as quiet as every other command
            from .guard import reader_went_away

            parser.exit(reader_went_away())
        parser.exit()


class _CommandParsers:
    """The commands' parsers by name, each made the first time it is asked for. `switchboard --help` lists the
    commands from their names and help alone: making fifteen parsers (argparse's gettext lookups for each) was
    a seventh of its start. A mapping to argparse and to whoever walks the parser (keys, [], get, items)."""

    def __init__(self, make: Any) -> None:
        self._make = make
        self._kwargs: dict[str, dict[str, Any]] = {}
        self._made: dict[str, Parser] = {}

    def add(self, name: str, kwargs: dict[str, Any]) -> None:
        self._kwargs[name] = kwargs

    def __getitem__(self, name: str) -> Parser:
        if name not in self._made:
            self._made[name] = self._make(**self._kwargs[name])  # KeyError for a name that is no command
        return self._made[name]

    def __contains__(self, name: object) -> bool:
        return name in self._kwargs

    def __iter__(self) -> Iterator[str]:
        return iter(self._kwargs)

    def __len__(self) -> int:
        return len(self._kwargs)

    def keys(self) -> list[str]:
        return list(self._kwargs)

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self._kwargs else default

    def items(self) -> list[tuple[str, Parser]]:
        return [(name, self[name]) for name in self._kwargs]

    def values(self) -> list[Parser]:
        return [self[name] for name in self._kwargs]


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The root's COMMAND: its parsers are made on first use (_CommandParsers)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._name_parser_map = self.choices = _CommandParsers(self._parser_class)  # type: ignore[assignment]

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        kwargs.setdefault("prog", f"{self._prog_prefix} {name}")
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs.pop("help")))
        self._name_parser_map.add(name, kwargs)  # type: ignore[attr-defined]


def build_parser() -> Parser:
    parser = Parser(
        prog="switchboard",
        description="A terminal switchboard for A2A agents: agent cards, live task streams, workflows.",
        epilog=EPILOG,
    )
    parser.add_argument("-v", "--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="start the demo agent fleet and open the TUI on it (the fleet stops when you quit)",
    )
    # Its own dest: a subcommand's own --agents default would otherwise overwrite it (main() merges them).
    parser.add_argument(
        "--agents", dest="app_agents", metavar="FILE", help="the agents file (default: the one in the config dir)"
    )
    parser.add_argument(
        "--temporal",
        dest="app_temporal",
        type=temporal_address,
        metavar="HOST:PORT",
        help="the TUI's Workflows tab also lists the runs on this Temporal server (or `temporal:` in settings.yaml)",
    )
    parser.add_argument(
        "--no-a2ui",
        dest="app_no_a2ui",
        action="store_true",
        help="the TUI draws no A2UI forms and does not announce them (agents fall back to text; or a2ui: false in "
        "settings.yaml)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser, action=_Commands)
    for command in COMMANDS:
        commands.add_parser(command.name, help=command.help, command=command)
    return parser


def temporal_address(value: str) -> str:
    from ..workflow.temporal import check_address

    try:
        return check_address(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
