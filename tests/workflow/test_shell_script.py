"""A shell step's run: the script names variables and holds no byte of any value; the values arrive through the
environment (or a private file when large), byte for byte, under bash and dash, and never run."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import pytest

from switchboard.workflow import shell_script
from switchboard.workflow.shell import MAX_ENV_VALUE, run_command

SHELLS = ("/usr/bin/bash", "/usr/bin/dash")
HOSTILE = 'it\'s "quoted" $(touch PWNED) `touch PWNED` $HOME \\ ; touch PWNED #\nsecond line x[$(touch PWNED)]'


def run(text: str, values: dict[str, str], shell: str, cwd: Path) -> tuple[shell_script.ShellScript, str]:
    script = shell_script.render(text, lambda ref: values.get(ref.text, ""))
    for value in values.values():
        if value:
            assert value not in script.script
    result = asyncio.run(
        run_command(
            script.script,
            values=script.values,
            cwd=cwd,
            env=dict(os.environ),
            timeout=30,
            on_line=lambda stream, text: None,
            shell=shell,
        )
    )
    assert not (cwd / "PWNED").exists(), script.script
    return script, result.stdout


@pytest.mark.parametrize("shell", SHELLS)
def test_an_output_in_a_command_substitution_in_double_quotes_stays_a_value(shell, tmp_path):
    """The issue's first render: the old quoting saw "..." and missed the $(...) inside it."""
    script, out = run('echo "$(printf %s {{steps.a.output}})"', {"steps.a.output": "x; touch PWNED"}, shell, tmp_path)
    assert out == "x; touch PWNED\n"
    assert script.script == 'echo "$(printf %s "$SWITCHBOARD_STEPS_A_OUTPUT")"'


@pytest.mark.parametrize("shell", SHELLS)
def test_an_apostrophe_in_a_comment_does_not_move_the_quotes(shell, tmp_path):
    """The issue's second render: the old quoting took the comment's apostrophe for an opening quote."""
    text = "# it's the summary\nprintf '%s' {{inputs.text}} > out.txt"
    script, _ = run(text, {"inputs.text": "$(touch PWNED)"}, shell, tmp_path)
    assert (tmp_path / "out.txt").read_text() == "$(touch PWNED)"
    assert "printf '%s' \"$SWITCHBOARD_INPUTS_TEXT\" > out.txt" in script.script


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("printf '%s' {{steps.a.output}}", HOSTILE),
        ("printf '%s' \"{{steps.a.output}}\"", HOSTILE),
        ("printf '%s' '{{steps.a.output}}'", HOSTILE),
        ("printf '%s' \"before: {{steps.a.output}} :after\"", f"before: {HOSTILE} :after"),
        ("printf '%s' x{{steps.a.output}}y", f"x{HOSTILE}y"),
        ("printf '%s' \"$(printf '%s' {{steps.a.output}})\"", HOSTILE.rstrip("\n")),
        ("printf '%s' \"`printf '%s' \"{{steps.a.output}}\"`\"", HOSTILE),
        ("printf '%s' \"${unset_variable:-{{steps.a.output}}}\"", HOSTILE),
        ("cat <<EOF\n{{steps.a.output}}\nEOF", HOSTILE + "\n"),
        ("case {{steps.a.output}} in *) printf '%s' {{steps.a.output}};; esac", HOSTILE),
    ],
)
def test_values_arrive_byte_for_byte_wherever_they_sit(shell, text, expected, tmp_path):
    _, out = run(text, {"steps.a.output": HOSTILE}, shell, tmp_path)
    assert out == expected


@pytest.mark.parametrize("shell", SHELLS)
def test_a_value_too_large_for_the_environment_arrives_through_a_private_file(shell, tmp_path, monkeypatch):
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    big = (bytes(range(1, 256)).decode("latin-1") * 4200)[: 1024 * 1024 - 2] + "\n\n"  # 1 MiB, trailing newlines
    assert len(big.encode()) > MAX_ENV_VALUE
    text = "printf '%s' {{steps.a.output}} > big.out; stat -c %a \"$SWITCHBOARD_STEPS_A_OUTPUT_file\""
    _, out = run(text, {"steps.a.output": big}, shell, tmp_path)
    assert out == "600\n"  # only this user reads it
    assert (tmp_path / "big.out").read_bytes() == big.encode()
    assert list(private.iterdir()) == []  # the file and its folder are gone once the command ended


@pytest.mark.parametrize("shell", SHELLS)
def test_a_nul_is_dropped_from_a_value(shell, tmp_path):
    _, out = run("printf '%s' {{inputs.x}}", {"inputs.x": "a\0b"}, shell, tmp_path)
    assert out == "ab"


@pytest.mark.parametrize("shell", SHELLS)
def test_arithmetic_gets_a_whole_number_or_nothing(shell, tmp_path):
    script, out = run("echo $(( {{inputs.n}} + 1 ))", {"inputs.n": " 041\n"}, shell, tmp_path)
    assert out == "42\n" and script.not_numbers == []
    hostile = shell_script.render("echo $(( {{inputs.n}} ))", lambda ref: "x[$(touch PWNED)]")
    assert hostile.not_numbers == ["inputs.n"] and hostile.values == {"SWITCHBOARD_INPUTS_N_NUMBER": ""}
    assert "is used in arithmetic" in shell_script.not_a_number(hostile)


@pytest.mark.parametrize(
    "text",
    [
        "echo $(( {{inputs.n}} ))",
        "(( {{inputs.n}} > 1 ))",
        "echo $[ {{inputs.n}} ]",
        "a[{{inputs.n}}]=1",
        "echo ${a[{{inputs.n}}]}",
        "echo ${s:{{inputs.n}}:2}",
        "let y={{inputs.n}}+1",
        'let "y={{inputs.n}}"',
        '[[ "{{inputs.n}}" -eq 3 ]]',
        'echo "$(( {{inputs.n}} ))"',
        "cat <<EOF\n$(( {{inputs.n}} ))\nEOF",
        "x=`echo $(( {{inputs.n}} ))`",
        "a=([{{inputs.n}}]=1)",
        "echo $(( $(printf %s {{inputs.n}}) ))",  # what a command substitution prints is evaluated there
        "echo $(( `echo '{{inputs.n}}'` ))",
        "let y=${z:-{{inputs.n}}}",
        "[[ ${z:-{{inputs.n}}} -eq 1 ]]",
        "[[ $(echo {{inputs.n}}) -gt 1 ]]",
        "[[ -v {{inputs.n}} ]]",  # a name: its subscript is evaluated
        "for ((i = {{inputs.n}}; i < 3; i++)); do :; done",
    ],
)
def test_every_place_bash_evaluates_arithmetic_gets_the_number_only_variable(text):
    script = shell_script.render(text, lambda ref: "x[$(touch PWNED)]")
    assert "SWITCHBOARD_INPUTS_N_NUMBER" in script.script and script.not_numbers == ["inputs.n"]


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("echo {{inputs.x}}", '"$SWITCHBOARD_INPUTS_X"'),
        ('echo "{{inputs.x}}"', "${SWITCHBOARD_INPUTS_X}"),
        ("echo '{{inputs.x}}'", "'\"$SWITCHBOARD_INPUTS_X\"'"),
        ("echo $'{{inputs.x}}'", "'\"$SWITCHBOARD_INPUTS_X\"$'"),
        ("echo hi # {{inputs.x}}", "{{inputs.x}}"),
        ("echo a#{{inputs.x}}", '"$SWITCHBOARD_INPUTS_X"'),
        ("[[ {{inputs.x}} == a ]]", '"$SWITCHBOARD_INPUTS_X"'),
        ("echo $(echo ')' {{inputs.x}})", '"$SWITCHBOARD_INPUTS_X"'),
    ],
)
def test_each_placement_has_its_form(text, form):
    assert form in shell_script.render(text, lambda ref: "v").script


def test_variable_names_are_readable_and_never_collide():
    text = "echo {{steps.a-b.output}} {{steps.a_b.output}} {{inputs.n_number}} $(( {{inputs.n}} )) {{inputs.n}}"
    script = shell_script.render(text, lambda ref: ref.text)
    assert list(script.values) == [
        "SWITCHBOARD_STEPS_A_B_OUTPUT",
        "SWITCHBOARD_STEPS_A_B_OUTPUT_2",
        "SWITCHBOARD_INPUTS_N_NUMBER",
        "SWITCHBOARD_INPUTS_N_NUMBER_2",
        "SWITCHBOARD_INPUTS_N",
    ]
    assert script.names["SWITCHBOARD_STEPS_A_B_OUTPUT_2"] == "steps.a_b.output"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cat <<'EOF'\n{{inputs.x}}\nEOF", "quoted here-document"),
        ('cat <<"EOF"\n{{inputs.x}}\nEOF', "quoted here-document"),
        ("cat <<\\EOF\n{{inputs.x}}\nEOF", "quoted here-document"),
        ("echo \\{{inputs.x}}", "backslash"),
        ("cat <<{{inputs.x}}\nEOF", "delimiter"),
    ],
)
def test_what_cannot_be_delivered_is_a_problem_with_a_fix(text, message):
    problems = shell_script.problems(text)
    assert len(problems) == 1 and message in problems[0].message and problems[0].fix
    with pytest.raises(shell_script.ShellTemplateError):
        shell_script.render(text, lambda ref: "v")
    assert shell_script.problems("cat <<EOF\n{{inputs.x}}\nEOF\necho '\\{{inputs.x}}'") == []


def test_shell_nested_beyond_reading_is_a_problem_not_a_crash():
    text = '"$(' * 3000 + "{{inputs.x}}" + ')"' * 3000
    problems = shell_script.problems(text)
    assert len(problems) == 1 and "nested too deeply" in problems[0].message
