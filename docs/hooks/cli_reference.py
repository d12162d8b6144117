"""The command-line reference, written from the real parser (src/switchboard/cli/parser.py) at build time, so the
page cannot say what `switchboard --help` no longer says.

Each command's parser is filled by its own module only when asked (`Parser.fill`), so this walks every command and
subcommand, fills it, and writes its usage, its help and a table per argument group.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from switchboard.cli.parser import Parser, build_parser

WIDTH = "88"  # argparse wraps usage to $COLUMNS: a fixed width keeps the page the same on every machine


def cli_reference_markdown() -> str:
    """The whole reference as Markdown: the root command, then each command and subcommand in --help's order."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        root = build_parser()
        seen: dict[tuple[str, tuple[str, ...]], str] = {}
        return "\n".join(_section(name, parser, depth, seen) for name, parser, depth in _walk("switchboard", root, 2))
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved


def command_names() -> list[str]:
    """Every command path the reference documents (`switchboard task push`, ...), for the tests."""
    return [name for name, _, _ in _walk("switchboard", build_parser(), 2)]


def _walk(name: str, parser: argparse.ArgumentParser, depth: int) -> Iterator[tuple[str, argparse.ArgumentParser, int]]:
    if isinstance(parser, Parser):
        parser.fill()
    yield name, parser, depth
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub_parser in action.choices.items():
                yield from _walk(f"{name} {sub_name}", sub_parser, min(depth + 1, 4))


def _help_of_subcommands(parser: argparse.ArgumentParser) -> dict[str, str]:
    helps: dict[str, str] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                helps[choice.dest] = choice.help or ""
    return helps


def _section(
    name: str, parser: argparse.ArgumentParser, depth: int, seen: dict[tuple[str, tuple[str, ...]], str]
) -> str:
    """One command's part of the page. An argument group that an earlier command has word for word (the connection
    and output flags most commands share) is linked to, not repeated."""
    formatter = parser._get_formatter()
    lines = [f"{'#' * depth} `{name}`", ""]
    if parser.description:
        lines += [_escape(parser.description), ""]
    usage = parser.format_usage().strip()
    lines += ["```text", usage, "```", ""]
    subcommands = _help_of_subcommands(parser)
    if subcommands:
        lines += ["| subcommand | what it does |", "|---|---|"]
        lines += [f"| [`{sub}`](#{_anchor(name + ' ' + sub)}) | {_cell(text)} |" for sub, text in subcommands.items()]
        lines.append("")
    for group in parser._action_groups:
        rows = [a for a in group._group_actions if not isinstance(a, argparse._SubParsersAction)]
        rows = [a for a in rows if a.help != argparse.SUPPRESS and "-h" not in a.option_strings]
        if not rows:
            continue
        title = group.title or "arguments"
        key = (title, tuple(_invocation(formatter, a) + (a.help or "") for a in rows))
        if len(rows) > 3 and key in seen:
            lines += [f"**{_escape(title)}**: as for [`{seen[key]}`](#{_anchor(seen[key])}).", ""]
            continue
        seen.setdefault(key, name)
        lines += [f"**{_escape(title)}**", "", "| argument | meaning |", "|---|---|"]
        for action in rows:
            lines.append(f"| {_cell(_invocation(formatter, action))} | {_cell(_help_text(formatter, action))} |")
        lines.append("")
    if parser.epilog:
        lines += ["```text", parser.epilog.rstrip(), "```", ""]
    return "\n".join(lines)


def _invocation(formatter: argparse.HelpFormatter, action: argparse.Action) -> str:
    return f"`{formatter._format_action_invocation(action)}`"


def _help_text(formatter: argparse.HelpFormatter, action: argparse.Action) -> str:
    if not action.help:
        return ""
    return _escape(formatter._expand_help(action))


def _anchor(name: str) -> str:
    """The id Python-Markdown's toc gives a heading `` `name` ``: lower case, spaces to dashes."""
    return name.lower().replace(" ", "-")


def _escape(text: str) -> str:
    # argparse help is plain text: characters Markdown reads as markup are shown as written
    for char in ("\\", "*", "_", "<", ">", "[", "]"):
        text = text.replace(char, "\\" + char)
    return text


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
