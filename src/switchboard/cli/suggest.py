"""Did-you-mean for usage errors: the closest flag of the command that was typed, or the closest command.

Loaded only when a command line is wrong, so a right one never pays for difflib.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
from typing import Any

_CHOICE = re.compile(r"invalid choice: (?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def closest(word: str, candidates: list[str]) -> str | None:
    """The candidate nearest to `word`, when one is near enough to be what was meant. Flags are compared
    without their dashes, which every flag shares and would make any two look alike."""
    bare = {candidate.lstrip("-"): candidate for candidate in candidates}
    found = difflib.get_close_matches(word.lstrip("-"), list(bare), n=1, cutoff=0.6)
    return bare[found[0]] if found else None


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the deepest (sub)command `args` names: the one whose flags were meant."""
    while (action := _subcommands(parser)) is not None:
        chosen = getattr(args, action.dest, None)
        sub = action.choices.get(chosen) if isinstance(chosen, str) else None
        if sub is None:
            break
        parser = sub
    return parser


def flag_hint(parser: argparse.ArgumentParser, args: argparse.Namespace, unknown: list[str]) -> str:
    """The hint for unrecognized flags: the closest flag of the command for the first one, and its --help."""
    command = command_parser(parser, args)
    flags = [flag for action in command._actions for flag in action.option_strings]
    usage = f"`{command.prog} --help` lists its flags."
    for word in unknown:
        near = closest(word.split("=", 1)[0], flags) if word.startswith("-") else None
        if near is not None:
            return f"Did you mean {near}? {usage}"
    return usage


def choice_hint(parser: argparse.ArgumentParser, message: str) -> str | None:
    """For argparse's `invalid choice: 'X'` (a command, a subcommand, an -o value): the closest choice, or None."""
    match = _CHOICE.search(message)
    if match is None:
        return None
    try:
        value = str(ast.literal_eval(match.group("value")))
    except (ValueError, SyntaxError):
        return None
    for action in parser._actions:
        choices = [str(c) for c in (action.choices or [])]
        if choices and value not in choices and (near := closest(value, choices)) is not None:
            what = "commands" if isinstance(action, argparse._SubParsersAction) else "choices"
            return f"Did you mean {near}? `{parser.prog} --help` lists its {what}."
    return None
