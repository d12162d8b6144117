"""Reading a workflow file: the YAML, every check at once (checks.py), and the inputs a run is given."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from ..agents import AgentsFile, load_agents
from .checker import Checker, suggest
from .checks import check_workflow
from .relay import from_relay
from .source import LineDict, YamlProblem, load_yaml
from .spec import Issue, Workflow, WorkflowInvalid


def load_workflow(
    path: Path, agents: AgentsFile | None = None, *, workflow: str | None = None, env: dict[str, str] | None = None
) -> Workflow:
    """Read and validate a workflow file; raise WorkflowInvalid listing every problem, each with line and fix.

    `agents` resolves agent names (default: the agents file in the config dir). `workflow` picks one
    workflow of a relay-layout file (default: its first). Nothing runs and nothing is contacted here.
    """
    path = Path(path)
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        issue = Issue(shown, None, f"cannot read the workflow file: {exc.strerror or exc}", "Check the path.")
        raise WorkflowInvalid([issue]) from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        issue = Issue(shown, line, "the workflow file is not UTF-8 text", "Save it as UTF-8.")
        raise WorkflowInvalid([issue]) from None
    try:
        doc = load_yaml(text)
    except YamlProblem as exc:
        issue = Issue(shown, exc.line, f"not valid YAML: {exc.problem}", "Fix the YAML syntax.")
        raise WorkflowInvalid([issue]) from None
    chk = Checker(shown)
    if not isinstance(doc, LineDict):
        chk.add(getattr(doc, "line", 1) or 1, "a workflow file is a mapping", "Start with `name:` and `steps:`.")
        raise WorkflowInvalid(chk.issues)
    if agents is None:
        from ..paths import agents_file

        agents = load_agents(agents_file())
    layout: Literal["switchboard", "relay"] = "switchboard"
    if "workflows" in doc:
        doc = from_relay(doc, workflow, chk)
        layout = "relay"
        if doc is None:
            raise WorkflowInvalid(chk.issues)
    elif workflow is not None and workflow != doc.get("name"):
        chk.add(
            doc.line_of("name"),
            f"this file holds one workflow ({doc.get('name')!r}), not {workflow!r}",
            "Drop --workflow, or pass the file that holds it.",
        )
    result = check_workflow(doc, chk, agents, path, layout, env)
    if chk.issues or result is None:
        raise WorkflowInvalid(chk.issues)
    result.warnings = chk.warnings + list(agents.warnings)
    result.digest = hashlib.sha256(text.encode()).hexdigest()
    return result


def resolve_inputs(workflow: Workflow, given: dict[str, str]) -> dict[str, str]:
    """The value of every input: given, else its default. Missing or unknown ones raise WorkflowInvalid."""
    issues: list[Issue] = []
    shown = str(workflow.path)
    for name in given:
        if name not in workflow.inputs:
            known = ", ".join(workflow.inputs) or "none"
            issues.append(
                Issue(
                    shown,
                    None,
                    f"the workflow has no input {name!r}",
                    f"Its inputs: {known}.{suggest(name, list(workflow.inputs))}",
                )
            )
    values: dict[str, str] = {}
    for name, spec in workflow.inputs.items():
        if name in given:
            values[name] = given[name]
        elif spec.default is not None:
            values[name] = spec.default
        elif spec.required:
            about = f" ({spec.description})" if spec.description else ""
            issues.append(
                Issue(shown, spec.line or None, f"the input {name!r} is required{about}", f"Pass -i {name}=VALUE.")
            )
        else:
            values[name] = ""
    if issues:
        raise WorkflowInvalid(issues, what="the inputs")
    return values
