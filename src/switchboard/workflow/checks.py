"""Validation of a workflow document (already in the switchboard layout): sections, steps, graph, templates.

Every check adds its issues and goes on, so a file with five mistakes shows all five at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..agents import AgentsFile
from . import shell_script, template
from .check_agents import agents_section
from .check_steps import steps_section
from .checker import NAME_PATTERN, Checker, suggest
from .file_model import INPUT_KEYS, TOP_KEYS, InputDecl, WorkflowFileSpec
from .source import LineDict, LineList
from .spec import InputSpec, Workflow


def check_workflow(
    doc: LineDict, chk: Checker, registry: AgentsFile, path: Path, layout: str, env: dict[str, str] | None
) -> Workflow | None:
    chk.unknown_keys(doc, TOP_KEYS, "the workflow")
    top = _top(doc, chk)
    name = top.name or path.stem
    description = top.description or ""
    inputs = _inputs(doc, chk)
    agents, streaming, agent_timeouts = agents_section(doc, chk, registry, env)
    default_on_error, max_concurrency = top.on_error, top.max_concurrency
    steps = steps_section(doc, chk, agents, registry, agent_timeouts, default_on_error, env)
    for agent_name in {s.agent for s in steps if s.agent}:
        streaming.setdefault(agent_name, None)
    outputs = _outputs(doc, chk)
    workflow = Workflow(
        name=name,
        description=description.strip(),
        inputs=inputs,
        agents=agents,
        steps=steps,
        outputs=outputs,
        path=path,
        layout=layout,  # type: ignore[arg-type]
        max_concurrency=max_concurrency,
        streaming=streaming,
    )
    if "steps" not in doc:
        chk.add(doc.line or 1, "the workflow has no steps", "Add a steps: list.")
    elif not doc["steps"]:  # steps the checks dropped were reported there, each with its own problem
        chk.add(doc.line_of("steps"), "the workflow has no steps", "Add at least one step under steps:.")
    _graph(workflow, doc, chk)
    _references(workflow, doc, chk)
    return workflow


# What the workflow says when a top-level value is not what WorkflowFileSpec declares: (message, fix).
_TOP_WRONG = {
    "version": ("version {value!r} is not one this tool reads", "Write version: 1."),
    "name": ("name must be text", "Write name: my-workflow."),
    "description": ("description must be text", "Quote it."),
    "onError": ("onError {value!r} is unknown", "Use fail or continue."),
    "maxConcurrency": ("maxConcurrency must be a whole number from 1", "Write 4."),
}


def _top(doc: LineDict, chk: Checker) -> WorkflowFileSpec:
    """The file's own values (not its sections) as WorkflowFileSpec declares them; a wrong one is reported at its
    line and its default stands in."""
    given = {k: doc[k] for k in _TOP_WRONG if k in doc and (doc[k] or k not in ("name", "description"))}
    try:
        return WorkflowFileSpec.model_validate({**given, "steps": []})
    except ValidationError as exc:
        wrong = {str(error["loc"][0]) for error in exc.errors()}
    for key in [k for k in _TOP_WRONG if k in wrong]:
        text, fix = _TOP_WRONG[key]
        chk.add(doc.line_of(key, value=True), text.format(value=doc[key]), fix)
    return WorkflowFileSpec.model_validate({**{k: v for k, v in given.items() if k not in wrong}, "steps": []})


# --- sections ----------------------------------------------------------------------------------------


def _inputs(doc: LineDict, chk: Checker) -> dict[str, InputSpec]:
    raw = doc.get("inputs")
    if raw is None:
        return {}
    if not isinstance(raw, LineDict):
        chk.add(
            doc.line_of("inputs", value=True), "inputs must be a mapping", "Write inputs: {topic: {required: true}}."
        )
        return {}
    out: dict[str, InputSpec] = {}
    for name, spec in raw.items():
        line = raw.line_of(name)
        if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
            chk.add(line, f"the input name {name!r} is not usable in templates", "Use letters, digits, - and _.")
            continue
        if spec is None:
            out[name] = InputSpec(required=True, line=line)
        elif isinstance(spec, LineDict):
            chk.unknown_keys(spec, INPUT_KEYS, f"the input {name}")
            decl = _input(spec, name, chk)
            out[name] = InputSpec(
                required=("default" not in spec) if decl.required is None else decl.required,
                default=None if decl.default is None else _text(decl.default),
                description=decl.description or "",
                line=line,
            )
        elif isinstance(spec, LineList):
            chk.add(line, f"input {name}: a list is not an input", "Write {required: true} or a default value.")
        else:
            out[name] = InputSpec(required=False, default=_text(spec), line=line)
    return out


_INPUT_WRONG = {
    "required": ("required must be true or false", "Write required: true."),
    "default": ("the default must be one value", "Quote it."),
}


def _input(spec: LineDict, name: str, chk: Checker) -> InputDecl:
    """An input written as a mapping, as InputDecl declares it; a wrong value is reported at its line."""
    given = {k: spec[k] for k in INPUT_KEYS if k in spec}
    if "description" in given:
        given["description"] = str(given["description"] or "")  # any value reads as its text, as it always has
    wrong = {"required"} if "required" in given and given["required"] is None else set()  # written, not answered
    try:
        decl = InputDecl.model_validate({k: v for k, v in given.items() if k not in wrong})
    except ValidationError as exc:
        wrong |= {str(error["loc"][0]) for error in exc.errors()}
        decl = InputDecl.model_validate({k: v for k, v in given.items() if k not in wrong})
    for key in [k for k in _INPUT_WRONG if k in wrong]:
        text, fix = _INPUT_WRONG[key]
        chk.add(spec.line_of(key, value=True), f"input {name}: {text}", fix)
    return decl


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _outputs(doc: LineDict, chk: Checker) -> dict[str, str]:
    raw = doc.get("outputs")
    if raw is None:
        return {}
    if not isinstance(raw, LineDict):
        chk.add(
            doc.line_of("outputs", value=True),
            "outputs must be a mapping",
            'Write outputs: {report: "{{steps.last.output}}"}.',
        )
        return {}
    out: dict[str, str] = {}
    for name, value in raw.items():
        if isinstance(value, LineDict | LineList) or value is None:
            chk.add(
                raw.line_of(name, value=True), f"the output {name} must be a template", 'Write "{{steps.NAME.output}}".'
            )
            continue
        out[str(name)] = str(value)
    return out


# --- the graph and the references --------------------------------------------------------------------


def _step_items(doc: LineDict) -> dict[str, LineDict]:
    raw = doc.get("steps")
    items: dict[str, LineDict] = {}
    if isinstance(raw, LineList):
        for item in raw:
            if isinstance(item, LineDict) and isinstance(item.get("name"), str):
                items.setdefault(item["name"], item)
    return items


def _graph(workflow: Workflow, doc: LineDict, chk: Checker) -> None:
    items = _step_items(doc)
    names = [s.name for s in workflow.steps]
    for step in workflow.steps:
        item = items.get(step.name)
        line = item.line_of("dependsOn", value=True) if item else step.line
        for dep in list(step.depends_on):
            if dep == step.name:
                chk.add(line, f"step {step.name} depends on itself", f"Remove {dep} from its dependsOn.")
                step.depends_on.remove(dep)
            elif dep not in names:
                chk.add(
                    line,
                    f"step {step.name} depends on {dep}, which is not a step",
                    "Name a step of this file." + suggest(dep, names),
                )
                step.depends_on.remove(dep)
    deps = {s.name: s.depends_on for s in workflow.steps}
    state: dict[str, int] = {}  # 1 visiting, 2 done
    reported: set[frozenset[str]] = set()

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for dep in deps[name]:
            if state.get(dep) == 1:
                cycle = [*trail[trail.index(dep) :], dep] if dep in trail else [name, dep]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    first = items.get(cycle[0])
                    chk.add(
                        first.line_of("dependsOn", value=True) if first else None,
                        "the steps depend on each other in a cycle: " + " -> ".join(reversed(cycle)),
                        "Remove one of these dependsOn entries so that the steps can run in some order.",
                    )
            elif state.get(dep) is None:
                visit(dep, [*trail, dep])
        state[name] = 2

    for name in names:
        if state.get(name) is None:
            visit(name, [name])
    contexts: dict[str, str | None] = {}
    for step in workflow.steps:
        if step.context is None:
            continue
        agent = contexts.setdefault(step.context, step.agent)
        if agent != step.agent:
            item = items.get(step.name)
            chk.add(
                item.line_of("context", value=True) if item else step.line,
                f"step {step.name} shares context {step.context!r} with a step on another agent ({agent})",
                "A context belongs to one agent: use another context key, or the same agent.",
            )


def _references(workflow: Workflow, doc: LineDict, chk: Checker) -> None:
    items = _step_items(doc)
    names = [s.name for s in workflow.steps]
    for step in workflow.steps:
        key = "task" if step.type == "a2a" else "run"
        text = step.task if step.type == "a2a" else step.run
        if text is None:
            continue
        item = items.get(step.name)
        line = item.line_of(key, value=True) if item else step.line
        _check_template(
            workflow,
            chk,
            text,
            line,
            f"step {step.name}",
            names,
            upstream=workflow.upstream(step.name),
            own=step.name,
            shell=step.type == "shell",
        )
    outputs = doc.get("outputs")
    for name, text in workflow.outputs.items():
        output_line = outputs.line_of(name, value=True) if isinstance(outputs, LineDict) else None
        _check_template(workflow, chk, text, output_line, f"output {name}", names, upstream=None, own=None)


def _check_template(
    workflow: Workflow,
    chk: Checker,
    text: str,
    line: int | None,
    what: str,
    names: list[str],
    *,
    upstream: set[str] | None,
    own: str | None,
    shell: bool = False,
) -> None:
    refs, problems = template.parse(text, bare_inputs=workflow.bare_inputs)
    if shell and not problems:
        problems = shell_script.problems(text, bare_inputs=workflow.bare_inputs)
    for problem in problems:
        chk.add(line, f"{what}: {problem.message}", problem.fix)
    for ref in refs:
        if ref.root == "inputs":
            if ref.name not in workflow.inputs:
                if ref.bare:  # the relay layout's variables are inputs by use
                    workflow.inputs[ref.name] = InputSpec(required=True, line=line or 0)
                    continue
                chk.add(
                    line,
                    f"{what}: {{{{{ref.text}}}}} names an input that is not declared",
                    f"Declare it: inputs: {{{ref.name}: {{required: true}}}}."
                    + suggest(ref.name, list(workflow.inputs)),
                )
            continue
        if ref.name not in names:
            chk.add(
                line,
                f"{what}: {{{{{ref.text}}}}} names no step of this workflow",
                "Name a step of this file." + suggest(ref.name, names),
            )
        elif ref.field not in template.STEP_FIELDS:
            chk.add(
                line,
                f"{what}: {{{{{ref.text}}}}}: a step has no {ref.field}",
                "Use one of: " + ", ".join(template.STEP_FIELDS) + ".",
            )
        elif ref.name == own:
            chk.add(
                line,
                f"{what}: {{{{{ref.text}}}}} refers to the step itself",
                "A step can use earlier steps' values only.",
            )
        elif upstream is not None and ref.name not in upstream:
            chk.add(
                line,
                f"{what}: {{{{{ref.text}}}}} uses step {ref.name}, which it does not depend on",
                f"Add {ref.name} to its dependsOn, so it runs first.",
            )
