"""Fuzz: the files a person gives the tool (agents files, workflow files in both layouts) and the templates in them.

A person's own files are trusted not to be hostile, but not to be right: any bytes (the examples and the demo
agents file broken at the YAML structure or the byte level, YAML's own traps: alias bombs, recursive anchors,
nesting ten thousand deep, tags naming Python objects, dates and binary where text belongs, invalid UTF-8, a
byte order mark, NUL) are read into our model or refused with the documented error (a UsageError naming the file
for an agents file, WorkflowInvalid listing each problem for a workflow), in time, and what is shown of the
problems holds no terminal control. `template.parse` gives references and problems for any text, never raises.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import yaml
from fuzz_inputs import HOSTILE_TEXT, bounded, damaged, documented, has_terminal_controls, shown_clean
from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st
from properties_support import mutated, writable_odd_values

from switchboard.agents import AgentEntry, AgentsFile, load_agents
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.spec import WorkflowInvalid
from switchboard.workflow.template import parse

ROOT = Path(__file__).resolve().parent.parent.parent
AGENTS_TEXT = (ROOT / "examples" / "agents.demo.yaml").read_text()
WORKFLOW_TEXTS = [path.read_text() for path in sorted((ROOT / "examples" / "workflows").glob("*.yaml"))]
# The agents the example workflows name, so that a file that is right loads.
REGISTRY = AgentsFile(
    None,
    [
        AgentEntry(name, f"http://127.0.0.1:{47101 + i}/")
        for i, name in enumerate(["echo", "writer", "interviewer", "researcher", "legacy"])
    ],
    [],
)


def _laughs(key: str) -> str:
    lines = ['l0: &l0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join(lines) + f"\n{key}: *l8\n"


YAML_TRAPS = (
    _laughs("steps"),  # 387 million values once expanded
    _laughs("agents"),
    "agents: &a [*a]\n",
    "steps: &s {x: *s}\n",
    "[" * 10_000 + "]" * 10_000,
    "a:\n" + "".join(" " * i + "- \n" for i in range(1, 400)),
    "!!python/object/apply:os.system ['touch PWNED']\n",
    "name: !!python/name:os.system\n",
    "name: !!binary aGk=\nsteps: !!timestamp 2001-12-14\n",
    "? [a, b]\n: c\n",
    "name: 1e999999\nsteps: .nan\n",
    "name: " + "9" * 5000 + "\n",
    "\ufeffname: w\n",
    "name: w\x00\n",
    "name:\tw\n\tsteps: []\n",
    "name: '" + "A" * 100_000 + "'\n",
    "<<: *nothing\n",
    "name: w\nname: w2\nsteps: []\nsteps: {}\n",
    "%YAML 1.1\n---\nname: w\n---\nname: second document\n",
)


def _yaml(document: object) -> str:
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


@st.composite
def file_bytes(draw: st.DrawFn, texts: list[str]) -> bytes:
    """A real file broken at its YAML structure or its bytes, a trap, or a mix of them."""
    text = draw(st.sampled_from(texts))
    kind = draw(st.sampled_from(["structure", "structure", "bytes", "trap", "splice", "noise"]))
    if kind == "structure":
        document = draw(mutated(yaml.safe_load(text), max_mutations=4, values=writable_odd_values))
        return _yaml(document).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return draw(damaged(text.encode()))
    if kind == "trap":
        return draw(st.sampled_from(YAML_TRAPS)).encode("utf-8", "surrogatepass")
    if kind == "splice":
        at = draw(st.integers(0, len(text)))
        inserted = draw(st.sampled_from(YAML_TRAPS + HOSTILE_TEXT))
        return (text[:at] + inserted + text[at:]).encode("utf-8", "surrogatepass")
    return draw(st.binary(max_size=200))


def _agents_file(folder: Path, body: bytes) -> Path:
    path = folder / "agents.yaml"
    path.write_bytes(body)
    return path


@fuzz(examples=100)
@given(body=file_bytes([AGENTS_TEXT]))
@example(body=YAML_TRAPS[4].encode())  # found: RecursionError out of PyYAML's composer
@example(body=b"agents:\n  - name: " + b"9" * 5000 + b"\n")  # found: ValueError of int's 4300-digit limit
@example(body=_laughs("agents").encode())
@example(body=b"agents: !!timestamp x\n")  # found by the long run: PyYAML's timestamp constructor, AttributeError
def test_any_agents_file_is_read_or_refused_with_a_usage_error(tmp_path_factory, body):
    path = _agents_file(tmp_path_factory.mktemp("agents"), body)

    async def read() -> None:
        try:
            registry = load_agents(path, env={"SWITCHBOARD_DEMO_KEY": "k"})
        except Exception as exc:
            error = documented(exc)
            assert error.code == "A2ACLI_ERR_USAGE", error.code
            shown_clean(error)
            return
        for entry in registry.agents:
            assert isinstance(entry.name, str) and isinstance(entry.url, str)
        shown_clean(None, registry.warnings)

    bounded(read)


@fuzz(examples=80)
@given(body=file_bytes(WORKFLOW_TEXTS), pick=st.sampled_from([None, "convert", "nope"]))
@example(body=_laughs("steps").encode(), pick=None)  # found: 387 million values built one by one (a hang)
@example(body=YAML_TRAPS[4].encode(), pick=None)  # found: RecursionError
@example(body=b"\x00", pick=None)
@example(body=b"name: !!timestamp x\n", pick=None)
@example(  # found by the long run: a regex re cannot compile for depth (RecursionError) or a count (OverflowError)
    body=b"name: w\nsteps:\n  - name: s\n    run: echo\n    expect: {regex: '" + b"(" * 2000 + b"'}\n", pick=None
)  # found by the long run: AttributeError
@example(
    body=b"workflows:\n  w:\n    onError: [a]\n    steps:\n      - {name: s, type: [a]}\n", pick=None
)  # TypeError  # found: yaml.ReaderError raised before the parse's try
@example(body=b"\x80", pick=None)  # found: UnicodeDecodeError
@example(body=b"name: " + b"9" * 5000 + b"\n", pick=None)  # found: ValueError
def test_any_workflow_file_is_read_or_refused_with_every_problem_listed(tmp_path_factory, body, pick):
    path = tmp_path_factory.mktemp("workflow") / "workflow.yaml"
    path.write_bytes(body)

    async def read() -> None:
        try:
            workflow = load_workflow(path, copy.deepcopy(REGISTRY), workflow=pick, env={})
        except Exception as exc:
            error = documented(exc)
            assert isinstance(error, WorkflowInvalid), type(error)
            assert error.issues and all(issue.message for issue in error.issues)
            shown_clean(error)
            return
        assert workflow.steps
        shown_clean(None, workflow.warnings)

    bounded(read)


def test_the_example_workflows_load_so_the_fuzzed_ones_start_from_files_that_are_right(tmp_path):
    for index, text in enumerate(WORKFLOW_TEXTS):
        path = tmp_path / f"w{index}.yaml"
        path.write_text(text)
        assert load_workflow(path, REGISTRY, env={}).steps


templates = st.text(max_size=60) | st.lists(
    st.sampled_from(
        [
            "{{",
            "}}",
            "{",
            "}",
            "inputs.",
            "steps.",
            "a",
            ".output",
            " ",
            "\n",
            "{{inputs.x}}",
            "{{steps.s.output}}",
            *list(HOSTILE_TEXT),
        ]
    ),
    max_size=20,
).map("".join)


@fuzz(examples=300)
@given(template=templates, bare=st.booleans())
@example(template="{{" + "a" * 100_000 + "}}", bare=True)
@example(template="{{" * 50_000, bare=False)  # a regex scan took four minutes over this; one pass takes none
def test_any_template_parses_into_references_and_problems(template, bare):
    refs, problems = bounded(_async(parse, template, bare_inputs=bare))
    for ref in refs:
        assert template[ref.start : ref.end].startswith("{{") and template[ref.start : ref.end].endswith("}}")
        assert ref.root in ("inputs", "steps")
    for problem in problems:
        assert problem.message and problem.fix
        assert not has_terminal_controls(f"{problem.message} {problem.fix}") or has_terminal_controls(template)


@fuzz(examples=300)
@given(template=templates)
def test_the_tags_parse_finds_are_the_ones_the_reference_pattern_finds(template):
    # The one-pass scan stands in for `\{\{(.*?)\}\}`: the same spans, and the same verdict on an unclosed {{.
    pattern = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
    refs, problems = parse(template, bare_inputs=True)
    spans = [(m.start(), m.end()) for m in pattern.finditer(template)]
    assert {(r.start, r.end) for r in refs} <= set(spans)
    per_tag = [p for p in problems if p.message != "a {{ is never closed"]
    assert len(refs) + len(per_tag) == len(spans)  # each tag is a reference or one problem
    unclosed = "{{" in pattern.sub("", template)
    assert unclosed == any(p.message == "a {{ is never closed" for p in problems)


def _async(function, *args, **kwargs):
    async def run():
        return function(*args, **kwargs)

    return run
