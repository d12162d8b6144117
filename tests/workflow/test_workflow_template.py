"""Templates: references parsed for validation, values filled in, and quoted for the shell where they land."""

from __future__ import annotations

import subprocess

import pytest

from switchboard.workflow import template

HOSTILE = 'it\'s "quoted" $(touch pwned) `id` $HOME \\ ; rm -rf / #\nsecond line'


def values(ref: template.Ref) -> str:
    return {"inputs.topic": "tides", "steps.a.output": HOSTILE, "steps.a.state": "completed"}.get(
        ref.text, f"<{ref.text}>"
    )


def test_references_are_parsed_with_their_shape():
    refs, problems = template.parse("{{inputs.topic}} {{ steps.fetch-1.output }} {{steps.b.task_id}}")
    assert problems == []
    assert [(r.root, r.name, r.field) for r in refs] == [
        ("inputs", "topic", None),
        ("steps", "fetch-1", "output"),
        ("steps", "b", "task_id"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{}}", "an empty {{ }}"),
        ("{{topic}}", "{{topic}} names nothing"),
        ("{{steps.a}}", "is not a reference"),
        ("{{ 1 + 2 }}", "is not a reference"),
        ("hello {{inputs.x", "never closed"),
    ],
)
def test_malformed_references_are_problems_with_fixes(text, message):
    _, problems = template.parse(text)
    assert any(message in p.message for p in problems) and all(p.fix for p in problems)


def test_bare_names_are_inputs_in_the_relay_layout():
    refs, problems = template.parse("{{topic}} and {{steps.a.output}}", bare_inputs=True)
    assert problems == [] and (refs[0].root, refs[0].name, refs[0].bare) == ("inputs", "topic", True)


def test_a_task_gets_values_exactly_as_they_are():
    assert template.render("about {{inputs.topic}}: {{steps.a.output}}", values) == f"about tides: {HOSTILE}"
    assert template.render("no references", values) == "no references"


@pytest.mark.parametrize(
    "command",
    [
        "printf '%s' {{steps.a.output}}",  # a bare word
        "printf '%s' \"{{steps.a.output}}\"",  # inside double quotes
        "printf '%s' '{{steps.a.output}}'",  # inside single quotes
        "printf '%s' \"before: {{steps.a.output}} :after\"",
        "printf '%s' x{{steps.a.output}}y",
    ],
)
def test_shell_values_arrive_as_literal_text_wherever_they_land(command, tmp_path):
    rendered = template.render(command, values, shell=True)
    result = subprocess.run(["/bin/sh", "-c", rendered], capture_output=True, text=True, cwd=tmp_path, check=True)
    expected = {
        "printf '%s' \"before: {{steps.a.output}} :after\"": f"before: {HOSTILE} :after",
        "printf '%s' x{{steps.a.output}}y": f"x{HOSTILE}y",
    }.get(command, HOSTILE)
    assert result.stdout == expected
    assert not (tmp_path / "pwned").exists()


def test_quoting_follows_the_command_around_each_reference():
    text = "echo '{{inputs.topic}}' \"{{inputs.topic}}\" {{inputs.topic}} \\'{{inputs.topic}}"
    refs, _ = template.parse(text)
    assert list(template.quoting_at(text, refs).values()) == ["single", "double", "bare", "bare"]
