"""Whether a step's result passes its `expect`: the one rule both runners (run.py, temporal/) apply."""

from __future__ import annotations

import re

from .spec import Step


def expect_problem(step: Step, output: str, exit_code: int | None = None) -> tuple[str, str] | None:
    """(code, why) when `output` (and a shell step's `exit_code`) fail the step's `expect`; None when they pass.

    A shell step must exit 0 unless `expect.exit_code` says otherwise (SHELL_FAILED); output checks give
    EXPECT_FAILED.
    """
    if step.type == "shell":
        wanted = step.expect.exit_code if step.expect.exit_code is not None else 0
        if exit_code != wanted:
            return "SHELL_FAILED", f"the command exited with {exit_code}, expected {wanted}"
    for needle in step.expect.output_contains:
        if needle not in output:
            return "EXPECT_FAILED", f"the output does not contain {needle!r}"
    if step.expect.regex is not None and not re.search(step.expect.regex, output):
        return "EXPECT_FAILED", f"the output does not match /{step.expect.regex}/"
    return None
