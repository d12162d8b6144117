"""The README stays short, links only to what exists, and its Python and its workflow run against the demo fleet as
it says (its command-line taste is the getting-started page's, which tests/docs runs line by line)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from cli_runner import run_cli_in_process

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _block(language: str) -> str:
    found = re.search(rf"^```{language}\n(.*?)^```$", README, flags=re.MULTILINE | re.DOTALL)
    assert found, f"the README has no {language} block"
    return found.group(1)


def test_the_readme_is_under_200_lines_and_its_links_lead_somewhere() -> None:
    assert len(README.splitlines()) < 200
    targets = re.findall(r"\]\(((?!https?://)[^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/getting-started.md" in targets
    assert [target for target in targets if not (REPO / target).exists()] == []


def test_the_readme_python_runs_on_the_demo_fleet(workspace: tuple[Path, dict[str, str]]) -> None:
    folder, env = workspace
    (folder / "readme.py").write_text(_block("python"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "readme.py"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "completed - Interview summary: Ada came by to learn how A2A works.",
        "completed echo: hello Ada",
    ]


def test_the_readme_workflow_checks_and_runs_on_the_demo_fleet(workspace: tuple[Path, dict[str, str]]) -> None:
    folder, env = workspace
    (folder / "briefing.yaml").write_text(_block("yaml"), encoding="utf-8")
    checked = run_cli_in_process(["--agents", "demo.yaml", "run", "briefing.yaml", "--validate"], env, cwd=folder)
    assert checked.returncode == 0 and "Valid: yes" in checked.stdout, checked.stderr
    ran = run_cli_in_process(
        ["--agents", "demo.yaml", "run", "briefing.yaml", "-i", "topic=solar sails"], env, cwd=folder
    )
    assert ran.returncode == 0, ran.stderr
    assert "State: completed" in ran.stdout and "Output summary:" in ran.stdout


def test_every_command_the_readme_shows_parses_with_the_real_parser() -> None:
    """The README's taste of the command line is not run (the getting-started page's is), but a flag or command
    it shows that the parser no longer has fails here."""
    from switchboard.cli.parser import build_parser

    lines = [
        line.removeprefix("$ ") for line in README.splitlines() if line.startswith(("switchboard ", "$ switchboard "))
    ]
    assert len(lines) >= 8
    for line in lines:
        words = shlex.split(line, comments=True)
        build_parser().parse_args(words[1:])  # raises ArgumentError (our Parser.error) on a flag it lacks
