"""Templates: references parsed for validation, values filled in (a shell step's run: test_shell_script.py)."""

from __future__ import annotations

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
