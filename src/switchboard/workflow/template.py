"""Templates in workflow files: `{{inputs.x}}`, `{{steps.X.output}}`, `{{steps.X.task_id}}`, `{{steps.X.state}}`.

A template is text with references in double braces. Parsing gives the references (validation checks each
one before anything runs); rendering asks a resolver for each value. In a shell step's `run` every value is
quoted for the place it lands in: a bare word becomes one shell word, and inside '...' or "..." the value
is escaped for that kind of quote, so no output of an agent can ever become shell syntax.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

STEP_FIELDS = ("output", "task_id", "context_id", "state")
_TAG = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_NAME = r"[A-Za-z0-9_][A-Za-z0-9_-]*"
_INPUT = re.compile(rf"inputs\.({_NAME})")
_STEP = re.compile(rf"steps\.({_NAME})\.([A-Za-z_]+)")
_BARE = re.compile(rf"({_NAME})")

Quoting = Literal["none", "bare", "single", "double"]


@dataclass(frozen=True)
class Ref:
    """One reference: `inputs.NAME` (root "inputs") or `steps.NAME.FIELD` (root "steps")."""

    root: Literal["inputs", "steps"]
    name: str
    field: str | None
    text: str  # as written between the braces, for messages
    start: int
    end: int
    bare: bool = False  # written as {{NAME}} (the relay layout's input variables)


@dataclass(frozen=True)
class TemplateProblem:
    message: str
    fix: str


def parse(template: str, *, bare_inputs: bool = False) -> tuple[list[Ref], list[TemplateProblem]]:
    """The references in `template`, and what is wrong with it (unclosed braces, unknown shapes).

    `bare_inputs` reads `{{name}}` as `{{inputs.name}}`, as the relay layout writes its variables.
    """
    refs: list[Ref] = []
    problems: list[TemplateProblem] = []
    for match in _TAG.finditer(template):
        inner = match.group(1).strip()
        if m := _INPUT.fullmatch(inner):
            refs.append(Ref("inputs", m.group(1), None, inner, match.start(), match.end()))
        elif m := _STEP.fullmatch(inner):
            refs.append(Ref("steps", m.group(1), m.group(2), inner, match.start(), match.end()))
        elif bare_inputs and (m := _BARE.fullmatch(inner)):
            refs.append(Ref("inputs", m.group(1), None, inner, match.start(), match.end(), bare=True))
        elif not inner:
            problems.append(TemplateProblem("an empty {{ }}", "Put a reference inside, e.g. {{inputs.topic}}."))
        elif _BARE.fullmatch(inner):
            problems.append(
                TemplateProblem(
                    f"{{{{{inner}}}}} names nothing: references start with inputs. or steps.",
                    f"Write {{{{inputs.{inner}}}}} for an input, or {{{{steps.{inner}.output}}}} for a step's output.",
                )
            )
        else:
            problems.append(
                TemplateProblem(
                    f"{{{{{inner}}}}} is not a reference this tool knows",
                    "Use {{inputs.NAME}} or {{steps.NAME.FIELD}} with FIELD one of " + ", ".join(STEP_FIELDS) + ".",
                )
            )
    rest = _TAG.sub("", template)
    if "{{" in rest:
        problems.append(TemplateProblem("a {{ is never closed", "Close it with }}."))
    return refs, problems


def quoting_at(template: str, refs: list[Ref]) -> dict[int, Quoting]:
    """For a shell command: whether each reference (by start offset) sits bare, in '...' or in "..."."""
    where: dict[int, Quoting] = {}
    starts = {r.start: r for r in refs}
    state: Quoting = "bare"
    i = 0
    while i < len(template):
        if i in starts:
            where[i] = state
            i = starts[i].end
            continue
        ch = template[i]
        if state == "single":
            if ch == "'":
                state = "bare"
        elif ch == "\\" and i + 1 < len(template):
            i += 2
            continue
        elif state == "double":
            if ch == '"':
                state = "bare"
        elif ch == "'":
            state = "single"
        elif ch == '"':
            state = "double"
        i += 1
    return where


def shell_quote(value: str, quoting: Quoting) -> str:
    """`value` as literal text at a place in a shell command."""
    if quoting == "single":
        return value.replace("'", "'\\''")
    if quoting == "double":
        return re.sub(r'([\\$`"])', r"\\\1", value)
    if quoting == "bare":
        return shlex.quote(value)
    return value


def render(template: str, resolve: Callable[[Ref], str], *, shell: bool = False, bare_inputs: bool = False) -> str:
    """Fill in every reference with `resolve(ref)`; in a shell command each value is quoted where it lands."""
    refs, _ = parse(template, bare_inputs=bare_inputs)
    quoting = quoting_at(template, refs) if shell else {}
    out: list[str] = []
    last = 0
    for ref in refs:
        out.append(template[last : ref.start])
        out.append(shell_quote(resolve(ref), quoting.get(ref.start, "none")))
        last = ref.end
    out.append(template[last:])
    return "".join(out)
