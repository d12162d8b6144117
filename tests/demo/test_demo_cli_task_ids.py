"""A wait cut short (--timeout) names the task the agent made, and the command that picks it up: the task goes
on at the agent, and its id is the way back to it. Against the demo fleet."""

from __future__ import annotations

import json
import shlex

from demo_support import TOKEN, fields


def pick_up_command(hint: str) -> list[str]:
    """The `... task get AGENT TASK_ID --wait` in a hint, as argv after the program and --agents FILE."""
    command = shlex.split(hint.split("`")[1])
    return command[command.index("task") :]


def test_a_send_cut_short_by_timeout_names_its_task_in_text(cli):
    run = cli("send", "researcher", "solar sails", "--timeout", "2")
    assert run.returncode == 5, run.stderr
    said = fields(run.stderr)
    assert said["Code"] == "A2ACLI_ERR_TIMEOUT"
    task_id, context_id = said["Task ID"], said["Context ID"]
    assert task_id and context_id
    assert f"task get researcher {task_id} --wait" in said["Hint"]
    # The printed command picks the task up: it is still there, still working.
    again = cli(*pick_up_command(said["Hint"])[:-1])  # without --wait: one look
    assert again.returncode == 0, again.stderr
    got = fields(again.stdout)
    assert got["Task ID"] == task_id and got["Context ID"] == context_id and got["State"] == "working"
    assert cli("task", "cancel", "researcher", task_id).returncode == 0


def test_a_send_cut_short_by_timeout_names_its_task_in_the_json_envelope(cli):
    run = cli("send", "researcher", "solar sails", "--timeout", "2", "-o", "json")
    assert run.returncode == 5, run.stderr
    error = json.loads(run.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_TIMEOUT"
    assert error["taskId"] and error["contextId"]
    assert f"task get researcher {error['taskId']} --wait" in error["hint"]
    assert cli("task", "cancel", "researcher", error["taskId"]).returncode == 0


def test_a_streamed_send_cut_short_names_its_task_too(cli):
    run = cli("send", "researcher", "solar sails", "--timeout", "2", "--stream")
    assert run.returncode == 5
    task_id = fields(run.stderr)["Task ID"]
    assert task_id == fields(run.stdout)["Task ID"]
    assert cli("task", "cancel", "researcher", task_id).returncode == 0


def test_a_rest_task_api_send_cut_short_names_its_task(cli):
    run = cli("send", "tasks", "book a table for two", "--timeout", "0.3", env={"SWITCHBOARD_DEMO_TOKEN": TOKEN})
    assert run.returncode == 5, run.stderr
    said = fields(run.stderr)
    assert said["Task ID"] and f"/tasks/{said['Task ID']}" in said["Hint"]


def test_a_send_that_finishes_within_its_timeout_prints_the_result(cli):
    run = cli("send", "legacy", "10 km in miles", "--timeout", "60")
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "completed" and "6.21371 mi" in run.stdout
