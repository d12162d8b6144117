"""The parts of the site written from the code hold all of it: every command and flag the parser has (subcommands'
parsers are filled only when asked, so a walk that forgot to fill them would miss most flags), every key of the
agents file, every layers contract."""

from __future__ import annotations

import argparse

from agents_reference import agents_reference_markdown, keys_documented
from cli_reference import cli_reference_markdown, command_names
from keymap import bindings, keymap_markdown
from layers import contracts, layers_markdown

from switchboard.agents_model import AgentSpec, AuthSpec, OAuthSpec, TlsSpec
from switchboard.cli.parser import COMMANDS, build_parser


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    fill = getattr(parser, "fill", None)
    if fill:
        fill()
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _parsers(sub)
    return found


def test_the_cli_reference_has_every_command_and_every_flag() -> None:
    page = cli_reference_markdown()
    assert {f"switchboard {command.name}" for command in COMMANDS} <= set(command_names())
    assert "switchboard task push" in command_names() and "switchboard runs cancel" in command_names()
    flags = {
        flag
        for parser in _parsers(build_parser())
        for action in parser._actions
        if action.help != argparse.SUPPRESS and "-h" not in action.option_strings  # hidden: not in --help either
        for flag in action.option_strings
    }
    assert len(flags) > 60
    missing = sorted(flag for flag in flags if flag not in page)
    assert missing == []


def test_the_agents_reference_has_every_key_the_reader_takes() -> None:
    keys = {
        f.alias or name for model in (AgentSpec, AuthSpec, OAuthSpec, TlsSpec) for name, f in model.model_fields.items()
    }
    assert keys <= keys_documented()
    page = agents_reference_markdown()
    assert all(f"| `{key}` |" in page for key in keys)


def test_the_layers_section_has_every_layers_contract() -> None:
    page = layers_markdown()
    for contract in contracts():
        assert contract["name"] in page
    assert "1. `__main__`" in page


def test_the_keys_table_has_every_binding_id_the_tui_declares() -> None:
    page = keymap_markdown()
    ids = bindings()
    assert {"quit", "toggle_wire", "conversation.cancel", "wire.find", "workflows.waiting"} <= set(ids)
    assert all(f"| `{binding_id}` |" in page for binding_id in ids)
