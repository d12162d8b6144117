"""Every shell command and Python program on the getting-started, command-line and Python API pages runs against
the demo fleet, and prints what the page shows (doc_examples.py says how a page marks them)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process
from doc_examples import TESTED_PAGES, Example, files_of, match_output, read_page

from switchboard.demo.defaults import DEFAULT_API_KEY, DEFAULT_TOKEN

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = [example for page in TESTED_PAGES for example in read_page(page)[0]]
_SHELL = re.compile(r"[|&;<>`]|\$\(")
_VARIABLE = re.compile(r"\$([A-Z][A-Z0-9_]*)")
_ASSIGNMENT = re.compile(r"^[A-Z][A-Z0-9_]*=")


def test_the_tested_pages_mark_every_block() -> None:
    """A block on these pages either runs or says why not, and each page has examples that run."""
    for page in TESTED_PAGES:
        examples, not_run, problems = read_page(page)
        assert problems == [], problems
        assert examples, f"{page} has no example that runs"
        assert all(reason.reason.strip() for reason in not_run)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_documented_example(example: Example, workspace: tuple[Path, dict[str, str]]) -> None:
    folder, env = workspace
    for name, text in files_of(example.page).items():
        (folder / name).write_text(text, encoding="utf-8")
    if example.kind == "python":
        program = folder / "example.py"
        program.write_text(example.source, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(program), "demo.yaml"],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        if example.expected is not None:
            matched, _ = match_output(example.expected, done.stdout)
            assert matched, f"{example.id} printed:\n{done.stdout}\nnot:\n" + "\n".join(example.expected)
        return
    variables: dict[str, str] = {}
    for command in example.commands:
        line = _VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(0)), command.line)
        done = _run(line, folder, env)
        printed = done.stdout + done.stderr
        assert done.returncode == command.exit_code, f"$ {line}\nexit {done.returncode}\n{printed}"
        matched, captured = match_output(command.expected, printed)
        assert matched, f"$ {line}\nprinted:\n{printed!r}\nnot:\n" + "\n".join(command.expected)
        variables.update(captured)


def _run(line: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A command as a shell would run it: in this process when it is `[VAR=value ...] switchboard ARGS`, in bash
    when it uses the shell (a pipe, a redirection)."""
    if _SHELL.search(line):
        return subprocess.run(["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    words = shlex.split(line)
    extra: dict[str, str] = {}
    while words and _ASSIGNMENT.match(words[0]):
        name, value = words.pop(0).split("=", 1)
        extra[name] = value
    if words[:1] != ["switchboard"]:
        return subprocess.run(words, cwd=folder, env={**env, **extra}, capture_output=True, text=True, timeout=120)
    return run_cli_in_process(words[1:], {**env, **extra}, cwd=folder)


def test_the_demo_secrets_the_pages_use_are_the_demo_defaults() -> None:
    """The pages set SWITCHBOARD_DEMO_KEY=demo-key and SWITCHBOARD_DEMO_TOKEN=demo-token: the fleet's own values."""
    assert (DEFAULT_API_KEY, DEFAULT_TOKEN) == ("demo-key", "demo-token")
