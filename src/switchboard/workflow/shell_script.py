"""A shell step's `run` rendered with references, never values: the script names environment variables, and
the values travel beside it (shell.run_command puts them in the step process's environment).

`{{steps.a.output}}` becomes `"$SWITCHBOARD_STEPS_A_OUTPUT"` as a word, `${SWITCHBOARD_STEPS_A_OUTPUT}` inside
"..." or an unquoted here-document, `'"$SWITCHBOARD_STEPS_A_OUTPUT"'` inside '...' (the quote is closed, the
value expanded, the quote reopened), and stays as written in a comment. In arithmetic, where bash evaluates a
value as an expression (and an expression can run commands), it refers to a second variable that holds the value
only when it is a whole number; any other value fails the step before it starts. Where a reference sits is found
by shell_lex; whatever it decides, the script holds no byte of any value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import template
from .shell_lex import Placement, Problem, ShellLexer

PREFIX = "SWITCHBOARD_"
_NUMBER = re.compile(r"\s*([+-]?[0-9]{1,30})\s*")

PROBLEMS: dict[Problem, tuple[str, str]] = {
    "quoted-heredoc": (
        "sits in a quoted here-document (<<'EOF'), where the shell expands nothing, so no value can reach it",
        "Write the delimiter unquoted (<<EOF, and \\$ for a literal $ in the body), or move the reference out of it.",
    ),
    "backslash": (
        "has a backslash right before it, which would escape the first character of the shell's reference",
        "Drop the backslash: the value arrives as it is.",
    ),
    "nesting": (
        "sits in shell nested too deeply to read",
        "Write the command with fewer nested $(...), quotes and backticks.",
    ),
    "delimiter": (
        "is a here-document's delimiter, which must be text of the file",
        "Write a fixed delimiter (<<EOF).",
    ),
}


class ShellTemplateError(ValueError):
    """A reference in `run` that cannot be delivered (what the workflow checks report before a run)."""


@dataclass
class ShellScript:
    """`script` for /bin/sh -c, and `values`: environment variable -> value, for the step's process only."""

    script: str
    values: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # environment variable -> the reference, for the journal
    not_numbers: list[str] = field(default_factory=list)  # references in arithmetic whose value is not a number


def placements(text: str, *, bare_inputs: bool = False) -> tuple[list[template.Ref], ShellLexer]:
    """The references of `text` and the lexer that placed them."""
    refs, _ = template.parse(text, bare_inputs=bare_inputs)
    lexer = ShellLexer(text, {r.start: r.end for r in refs})
    try:
        lexer.run()
    except RecursionError:  # thousands of nested $( or quotes: no reference is placed, each is a problem
        lexer.problems = dict.fromkeys(lexer.starts, "nesting")
    return refs, lexer


def problems(text: str, *, bare_inputs: bool = False) -> list[template.TemplateProblem]:
    """What in `text` (a shell step's run) cannot be rendered, each with its fix."""
    refs, lexer = placements(text, bare_inputs=bare_inputs)
    out = []
    for ref in refs:
        if (kind := lexer.problems.get(ref.start)) is not None:
            message, fix = PROBLEMS[kind]
            out.append(template.TemplateProblem(f"{{{{{ref.text}}}}} {message}", fix))
    return out


def render(text: str, resolve: Callable[[template.Ref], str], *, bare_inputs: bool = False) -> ShellScript:
    """`text` with every reference replaced by a reference to an environment variable; the values beside it.

    NUL bytes are dropped from values (an environment string cannot hold one; bash drops them from a command
    substitution too). Raises ShellTemplateError for what `problems` reports.
    """
    refs, lexer = placements(text, bare_inputs=bare_inputs)
    for ref in refs:
        if (kind := lexer.problems.get(ref.start)) is not None:
            raise ShellTemplateError(f"{{{{{ref.text}}}}} {PROBLEMS[kind][0]}")
    result = ShellScript("")
    variables: dict[tuple[str, ...], str] = {}

    def variable(key: tuple[str, ...], ref: template.Ref, value: str) -> str:
        if key not in variables:
            base = PREFIX + "_".join(re.sub(r"[^A-Za-z0-9]", "_", part).upper() for part in key)
            name, n = base, 1
            while name in result.values:
                n += 1
                name = f"{base}_{n}"
            variables[key] = name
            result.values[name] = value
            result.names[name] = ref.text
        return variables[key]

    out: list[str] = []
    last = 0
    for ref in refs:
        out.append(text[last : ref.start])
        last = ref.end
        where: Placement = lexer.placements.get(ref.start, "word")
        if where == "comment":
            out.append(text[ref.start : ref.end])  # not run: nothing to deliver
            continue
        key = (ref.root, ref.name) + ((ref.field,) if ref.field else ())
        value = resolve(ref).replace("\0", "")
        if ref.start in lexer.numeric:
            number = _NUMBER.fullmatch(value)
            if number is None and ref.text not in result.not_numbers:
                result.not_numbers.append(ref.text)
            key, value = (*key, "number"), str(int(number.group(1))) if number else ""
        out.append(_FORMS[where] % variable(key, ref, value))
    out.append(text[last:])
    result.script = "".join(out)
    return result


def not_a_number(script: ShellScript) -> str:
    """Why a step whose arithmetic was given something other than a whole number does not start."""
    names = ", ".join(f"{{{{{text}}}}}" for text in script.not_numbers)
    return (
        f"{names} is used in arithmetic (such as $((...))), where bash would evaluate its value as an expression,"
        " and its value is not a whole number; the command was not run"
    )


_FORMS: dict[Placement, str] = {
    "word": '"$%s"',
    "double": "${%s}",
    "heredoc": "${%s}",
    "single": "'\"$%s\"'",  # close the quote, expand, reopen
    "ansi": "'\"$%s\"$'",  # the same in $'...', reopened as $'...'
    "arithmetic": "${%s}",
    "quoted-heredoc": "${%s}",  # never rendered: a problem (kept for completeness)
}
