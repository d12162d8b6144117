"""Templates in workflow files: `{{inputs.x}}`, `{{steps.X.output}}`, `{{steps.X.task_id}}`, `{{steps.X.state}}`.

A template is text with references in double braces. Parsing gives the references (validation checks each
one before anything runs); rendering asks a resolver for each value. A shell step's `run` is not rendered
here: shell_script.py turns it into a script that refers to the values, which never enter its text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

STEP_FIELDS = ("output", "task_id", "context_id", "state")
_NAME = r"[A-Za-z0-9_][A-Za-z0-9_-]*"
_INPUT = re.compile(rf"inputs\.({_NAME})")
_STEP = re.compile(rf"steps\.({_NAME})\.([A-Za-z_]+)")
_BARE = re.compile(rf"({_NAME})")


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


def _tags(template: str) -> Iterator[tuple[int, int]]:
    """Where each {{...}} starts and ends, as `\\{\\{(.*?)\\}\\}` finds them, in one pass: a regex rescans the rest
    from every {{ left unclosed, which made a file of 50,000 of them take minutes."""
    at = 0
    while (start := template.find("{{", at)) != -1:
        close = template.find("}}", start + 2)
        if close == -1:
            return  # no }} after this {{, so none after any later one either
        at = close + 2
        yield start, at


def parse(template: str, *, bare_inputs: bool = False) -> tuple[list[Ref], list[TemplateProblem]]:
    """The references in `template`, and what is wrong with it (unclosed braces, unknown shapes).

    `bare_inputs` reads `{{name}}` as `{{inputs.name}}`, as the relay layout writes its variables.
    """
    refs: list[Ref] = []
    problems: list[TemplateProblem] = []
    rest: list[str] = []  # the text between the tags, to find a {{ never closed
    last = 0
    for start, end in _tags(template):
        rest.append(template[last:start])
        last = end
        inner = template[start + 2 : end - 2].strip()
        if m := _INPUT.fullmatch(inner):
            refs.append(Ref("inputs", m.group(1), None, inner, start, end))
        elif m := _STEP.fullmatch(inner):
            refs.append(Ref("steps", m.group(1), m.group(2), inner, start, end))
        elif bare_inputs and (m := _BARE.fullmatch(inner)):
            refs.append(Ref("inputs", m.group(1), None, inner, start, end, bare=True))
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
    rest.append(template[last:])
    if "{{" in "".join(rest):
        problems.append(TemplateProblem("a {{ is never closed", "Close it with }}."))
    return refs, problems


def render(template: str, resolve: Callable[[Ref], str], *, bare_inputs: bool = False) -> str:
    """Fill in every reference with `resolve(ref)`, as it is (for a task's text or an output, never a shell)."""
    refs, _ = parse(template, bare_inputs=bare_inputs)
    out: list[str] = []
    last = 0
    for ref in refs:
        out.append(template[last : ref.start])
        out.append(resolve(ref))
        last = ref.end
    out.append(template[last:])
    return "".join(out)
