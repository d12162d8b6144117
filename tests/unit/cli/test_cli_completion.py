"""`switchboard completion bash|zsh|fish`: scripts made from the parser, driven here in a real bash (the script
sourced, COMP_WORDS and COMP_CWORD set, its function called, COMPREPLY read): commands, flags, files, and agent
names from the agents file, which are data (quoted, never run). zsh and fish are checked to get their scripts; the
tests need neither shell."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process

BASH = shutil.which("bash")
AGENTS = """\
agents:
  - {name: writer, url: "http://127.0.0.1:9/"}
  - {name: reviewer, url: "http://127.0.0.1:9/"}
  - {name: "wr $(touch PWNED) `touch PWNED2`", url: "http://127.0.0.1:9/"}
  - {name: "two\\nlines", url: "http://127.0.0.1:9/"}
  - {name: writer, url: "http://127.0.0.1:10/"}
"""
# The bash function shtab names after the program; COMPREPLY printed NUL-separated, so any name survives.
DRIVE = """
source "$0"
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
_shtab_switchboard
printf '%s\\0' "${COMPREPLY[@]}"
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("home")
    (home / "config").mkdir()
    (home / "config" / "agents.yaml").write_text(AGENTS)
    (home / "other.yaml").write_text("agents:\n  - {name: elsewhere, url: 'http://127.0.0.1:9/'}\n")
    (home / "flow.yaml").write_text("steps: []\n")
    return home


@pytest.fixture(scope="module")
def bash_script(home) -> Path:
    done = run_cli_in_process(["completion", "bash"], env={"SWITCHBOARD_HOME": str(home)})
    assert done.returncode == 0 and done.stderr == ""
    path = home / "switchboard.bash"
    path.write_text(done.stdout)
    return path


def complete(script: Path, home: Path, *words: str) -> list[str]:
    """What bash offers for the last of `words` (the line typed so far), in `home` as the working directory."""
    assert BASH, "bash is needed to test the bash completion"
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",  # the `switchboard` the script calls for names
        "SWITCHBOARD_HOME": str(home),
        "HOME": str(home),
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", DRIVE, str(script), "switchboard", *words],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [item for item in done.stdout.split("\0") if item]


def test_bash_completes_commands(bash_script, home):
    assert complete(bash_script, home, "se") == ["send", "serve"]
    assert complete(bash_script, home, "sch") == ["schema"]
    assert complete(bash_script, home, "schema", "") == ["agents", "workflow", "settings"]


def test_bash_completes_a_commands_flags(bash_script, home):
    assert complete(bash_script, home, "send", "--str") == ["--stream"]
    assert complete(bash_script, home, "task", "get", "--hist") == ["--history"]


def test_bash_completes_files_where_a_file_goes(bash_script, home):
    assert complete(bash_script, home, "run", "fl") == ["flow.yaml"]
    assert complete(bash_script, home, "send", "writer", "hi", "--record", "fl") == ["flow.yaml"]


def test_bash_completes_agent_names_from_the_agents_file(bash_script, home):
    assert complete(bash_script, home, "send", "wri") == ["writer"]
    names = complete(bash_script, home, "card", "get", "")
    assert names[:2] == ["writer", "reviewer"] and names.count("writer") == 1  # the first of a name wins
    assert complete(bash_script, home, "task", "get", "rev") == ["reviewer"]


def test_bash_takes_the_names_from_the_agents_file_named_on_the_line(bash_script, home):
    assert complete(bash_script, home, "--agents", "other.yaml", "send", "") == ["elsewhere"]
    assert complete(bash_script, home, "conformance", "--agents", "~/other.yaml", "") == ["elsewhere"]


def test_a_name_is_data_quoted_for_the_shell_and_never_run(bash_script, home):
    offered = complete(bash_script, home, "send", "wr")
    assert offered == ["writer", r"wr\ \$\(touch\ PWNED\)\ \`touch\ PWNED2\`"]
    again = subprocess.run([BASH, "-c", f"printf '%s' {offered[1]}"], capture_output=True, text=True, check=True)
    assert again.stdout == "wr $(touch PWNED) `touch PWNED2`"  # typed into a line, it is the name, whole
    assert not (home / "PWNED").exists() and not (home / "PWNED2").exists()
    assert not any("two" in name for name in complete(bash_script, home, "send", ""))  # a newline: left out


def test_the_names_helper_prints_names_and_is_quiet_about_a_broken_file(home, tmp_path):
    env = {"SWITCHBOARD_HOME": str(home)}
    done = run_cli_in_process(["completion", "--agent-names"], env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["writer", "reviewer", "wr $(touch PWNED) `touch PWNED2`"]
    broken = tmp_path / "broken.yaml"
    broken.write_text("agents: [\n")
    done = run_cli_in_process(["--agents", str(broken), "completion", "--agent-names"], env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    missing = run_cli_in_process(["completion", "--agent-names", "--agents", str(tmp_path / "no.yaml")], env=env)
    assert (missing.returncode, missing.stdout, missing.stderr) == (0, "", "")


@pytest.mark.parametrize(
    ("shell", "marks"),
    [
        ("zsh", ["#compdef switchboard", "compadd -a names", "_switchboard_agent_names"]),
        ("fish", ["complete -c switchboard", "function _switchboard_agent_names", "(_switchboard_agent_names)"]),
    ],
)
def test_zsh_and_fish_get_their_scripts_with_every_command_and_the_agent_names(shell, marks, tmp_path):
    done = run_cli_in_process(["completion", shell], env={"SWITCHBOARD_HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stderr == ""
    for mark in [*marks, "conformance", "require-signature", "completion"]:
        assert mark in done.stdout, mark


def test_completion_without_a_shell_is_a_usage_error(tmp_path):
    done = run_cli_in_process(["completion"], env={"SWITCHBOARD_HOME": str(tmp_path)})
    assert done.returncode == 2 and "needs a shell" in done.stderr and done.stdout == ""


def test_help_does_not_load_shtab():
    probe = (
        "import contextlib, io, json, sys\n"
        "from switchboard.cli import main\n"
        "for argv in (['--help'], ['completion', '--help']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        main(argv)\n"
        "    print(json.dumps('shtab' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert [json.loads(line) for line in done.stdout.splitlines()] == [False, False]
