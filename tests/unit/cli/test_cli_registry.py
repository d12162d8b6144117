"""The command registry: every command is owned by one module (its flags, its typed options, its entry), each
options field is a flag its parser really has (a renamed flag would otherwise leave the field at its default
without a word), and `switchboard --help` loads none of the command modules."""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys

import pytest

from switchboard.cli import parse
from switchboard.cli.groups.auth import AuthLoginOptions, AuthOptions
from switchboard.cli.groups.card import CardGetOptions
from switchboard.cli.groups.completion import CompletionOptions
from switchboard.cli.groups.conformance import ConformanceOptions
from switchboard.cli.groups.demo import DemoOptions
from switchboard.cli.groups.export import ExportOptions
from switchboard.cli.groups.replay import ReplayOptions
from switchboard.cli.groups.run import RunOptions
from switchboard.cli.groups.runs import RunsCancelOptions, RunsListOptions, RunsShowOptions
from switchboard.cli.groups.schema import SchemaOptions
from switchboard.cli.groups.send import SendOptions
from switchboard.cli.groups.serve import ServeOptions
from switchboard.cli.groups.task import (
    TaskCancelOptions,
    TaskGetOptions,
    TaskListOptions,
    TaskPushOptions,
    TaskSubscribeOptions,
    TaskWatchOptions,
)
from switchboard.cli.groups.temporal import TemporalDevOptions
from switchboard.cli.groups.web import WebOptions
from switchboard.cli.groups.worker import WorkerOptions
from switchboard.cli.options import options_from
from switchboard.cli.parser import COMMANDS, build_parser, module_of

OPTIONS = {
    ("card", "get"): CardGetOptions,
    ("send",): SendOptions,
    ("task", "get"): TaskGetOptions,
    ("task", "cancel"): TaskCancelOptions,
    ("task", "subscribe"): TaskSubscribeOptions,
    ("task", "watch"): TaskWatchOptions,
    ("task", "list"): TaskListOptions,
    ("task", "push"): TaskPushOptions,
    ("auth", "login"): AuthLoginOptions,
    ("auth", "status"): AuthOptions,
    ("auth", "logout"): AuthOptions,
    ("run",): RunOptions,
    ("runs", "list"): RunsListOptions,
    ("runs", "show"): RunsShowOptions,
    ("runs", "cancel"): RunsCancelOptions,
    ("worker",): WorkerOptions,
    ("temporal", "dev"): TemporalDevOptions,
    ("export",): ExportOptions,
    ("replay",): ReplayOptions,
    ("conformance",): ConformanceOptions,
    ("web",): WebOptions,
    ("serve",): ServeOptions,
    ("demo",): DemoOptions,
    ("schema",): SchemaOptions,
    ("completion",): CompletionOptions,
}


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_parser(path: tuple[str, ...]) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = build_parser()
    for name in path:
        parser = subparsers(parser)[name]
        parser.format_help()  # fills a command's parser, as parsing it would
    return parser


def test_every_command_is_listed_once_and_its_module_owns_its_flags_and_its_entry():
    assert [name for name in subparsers(build_parser())] == [command.name for command in COMMANDS]
    for command in COMMANDS:
        module = module_of(command)
        assert callable(module.add_arguments) and callable(module.main), command.name


@pytest.mark.parametrize("path", sorted(OPTIONS), ids=" ".join)
def test_each_options_field_is_a_flag_of_its_command(path):
    parser = command_parser(path)
    dests = {action.dest for action in parser._actions} | set(parser._defaults)  # send's parts: a default
    fields = {field.name for field in dataclasses.fields(OPTIONS[path])}
    assert fields - dests == set()


def test_options_are_built_from_what_was_parsed_and_flags_of_other_commands_are_left_out():
    namespace = parse(build_parser(), ["--agents", "a.yaml", "send", "writer", "hi", "--stream", "--text", "more"])
    options = options_from(SendOptions, namespace)
    assert options.words == ["writer", "hi"] and options.stream and options.parts == [("text", "more", None)]
    assert options.output == "text" and options.poll_interval == 2.0
    listing = options_from(RunsListOptions, parse(build_parser(), ["runs", "list", "--status", "awaiting-input"]))
    assert listing == RunsListOptions(status="awaiting-input")


def test_the_root_help_loads_no_command_module():
    probe = (
        "import contextlib, io, json, sys\n"
        "from switchboard.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('switchboard.cli.'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = json.loads(done.stdout)
    assert not [name for name in loaded if name.startswith(("switchboard.cli.groups", "switchboard.cli.arguments"))]
    assert "switchboard.cli.parser" in loaded
