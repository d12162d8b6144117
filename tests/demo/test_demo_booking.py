"""The booking agent's A2UI form from the command line: `send` prints it as text, `--a2ui-action NAME --data JSON`
answers it (its checks first) in the same task, on both wire versions and in both A2UI versions; every event sent
and every message the agent sent validates against the spec's JSON Schemas."""

from __future__ import annotations

import json

import pytest
from a2ui_schemas import client_event_errors, server_message_errors
from demo_support import fields

WIRES = pytest.mark.parametrize("flags", [[], ["--a2a-version", "0.3"]], ids=["v1.0", "v0.3"])
A2UI_MIMES = {"application/a2ui+json": "v0.9.1", "application/json+a2ui": "v0.8"}


def _parts_of(message: dict) -> list[dict]:
    return [p for p in message.get("parts", []) if "data" in p and (p.get("metadata") or {}).get("mimeType")]


def _check_history(cli, task_id: str, flags: list[str]) -> tuple[list, list]:
    """Every A2UI part in the task's history validated: the client's events and the agent's messages."""
    done = cli("task", "get", "booking", task_id, "--history", "100", "-o", "json", *flags)
    assert done.returncode == 0, done.stderr
    task = json.loads(done.stdout)
    sent, said = [], []
    for message in [*task.get("history", []), task["status"].get("message") or {}]:
        for part in _parts_of(message):
            version = A2UI_MIMES[part["metadata"]["mimeType"]]
            data = part["data"]
            if isinstance(data, dict) and list(data) == ["value"]:
                part = {**part, "data": data["value"]}  # a list in a v0.3 data part, as the SDK wraps it
            if message["role"] in ("ROLE_USER", "user"):
                assert client_event_errors(part["data"], version) == []
                sent.append(part["data"])
            else:
                assert server_message_errors(part["data"], version) == []
                said.append(part["data"])
    return sent, said


@WIRES
def test_the_form_is_printed_answered_checked_and_booked(cli, flags):
    started = cli("send", "booking", "book a table", *flags)
    assert started.returncode == 0, started.stderr
    out = started.stdout
    assert "Form booking-form (A2UI v0.9" in out
    assert "Date [/booking/date]: (empty) (date YYYY-MM-DD)" in out
    assert "[ Book ] (primary) sends action book with" in out
    task_id = fields(out)["Task ID"]
    assert "--a2ui-action book|cancel" in fields(out)["Answer the form"]
    refused = cli("send", "booking", "--task-id", task_id, "--a2ui-action", "book", "--data",
                  '{"/booking/name": "Ada"}', *flags)  # fmt: skip
    assert refused.returncode == 2
    assert "date (Date): Pick a date." in refused.stderr  # the form's own check, before anything is sent
    values = json.dumps({"/booking/name": "Ada", "/booking/date": "2026-12-24", "/booking/party": 4})
    asked = cli("send", "booking", "--task-id", task_id, "--a2ui-action", "book", "--data", values, *flags)
    assert asked.returncode == 0, asked.stderr
    assert "Please confirm your booking" in asked.stdout and "Ada, 4 people, 2026-12-24 at 19:30" in asked.stdout
    booked = cli("send", "booking", "--task-id", task_id, "--a2ui-action", "confirm", *flags)
    assert booked.returncode == 0, booked.stderr
    assert fields(booked.stdout)["State"] == "completed"
    assert "[ Book another table ] sends action book_again" in booked.stdout
    sent, said = _check_history(cli, task_id, flags)
    names = [event[0]["action"]["name"] if isinstance(event, list) else event["action"]["name"] for event in sent]
    assert names == ["book", "confirm"]
    assert said  # the agent's forms came through the history too, and validate


def test_an_unknown_action_names_the_ones_the_form_offers(cli):
    started = cli("send", "booking", "book a table")
    task_id = fields(started.stdout)["Task ID"]
    wrong = cli("send", "booking", "--task-id", task_id, "--a2ui-action", "pay")
    assert wrong.returncode == 2
    assert "no form of this task offers the action 'pay'" in wrong.stderr and "book, cancel" in wrong.stderr


def test_with_a2ui_off_the_agent_asks_in_words(cli):
    started = cli("send", "booking", "book a table", "--no-a2ui")
    assert started.returncode == 0, started.stderr
    assert "Form" not in started.stdout and "When, for how many, and under what name?" in started.stdout
    task_id = fields(started.stdout)["Task ID"]
    booked = cli("send", "booking", "--task-id", task_id, "--no-a2ui", "2026-12-24 19:30 3 Grace")
    assert fields(booked.stdout)["State"] == "completed"


def test_a_v08_form_is_answered_in_v08(cli):
    started = cli("send", "booking", "book a table (v0.8)")
    assert "Form booking-form (A2UI v0.8)" in started.stdout
    task_id = fields(started.stdout)["Task ID"]
    values = json.dumps({"/booking/name": "Ada", "/booking/date": "2026-12-24"})
    asked = cli("send", "booking", "--task-id", task_id, "--a2ui-action", "book", "--data", values)
    assert asked.returncode == 0, asked.stderr
    assert "Form booking-confirm (A2UI v0.8)" in asked.stdout
    sent, said = _check_history(cli, task_id, [])
    assert [event["userAction"]["name"] for event in sent] == ["book"]
    assert len(said) >= 3  # surfaceUpdate, dataModelUpdate, beginRendering: one part each


def test_the_interviewer_offers_its_choices_as_a_form_beside_its_data_part(cli):
    # Its card declares A2UI v0.9.1, so send announces what it renders without being told to.
    started = cli("send", "interviewer", "interview me")
    task_id, context_id = fields(started.stdout)["Task ID"], fields(started.stdout)["Context ID"]
    assert "Form" not in started.stdout  # the first question, a name, stays a question in words
    asked = cli("send", "interviewer", "--task-id", task_id, "--context-id", context_id, "Ada")
    assert '"choices": [' in asked.stdout  # the data part is still there, as before
    assert (
        "Form interview-goal (A2UI v0.9)" in asked.stdout and "[ Answer ] (primary) sends action answer" in asked.stdout
    )
    # Worded for the form, whose choices have no numbers on screen (typing a number still picks one).
    assert "Pick one below or say it in your own words." in asked.stdout and "(1-3)" not in asked.stdout
    # An empty answer gets the question again, with its form again: the form is what the person answers with.
    again = cli("send", "interviewer", "--task-id", task_id, "--a2ui-action", "answer", "--data",
                '{"/goal/choice": []}')  # fmt: skip
    assert "I did not catch that. Nice to meet you, Ada." in again.stdout, again.stdout + again.stderr
    assert "Pick one below" in again.stdout and "Form interview-goal (A2UI v0.9)" in again.stdout
    done = cli("send", "interviewer", "--task-id", task_id, "--a2ui-action", "answer", "--data",
               '{"/goal/words": "build a bot"}')  # fmt: skip
    assert done.returncode == 0 and fields(done.stdout).get("State") == "completed", done.stdout + done.stderr
    assert "Ada's goal today: build a bot." in done.stdout
    first = fields(cli("send", "interviewer", "hi", "--no-a2ui").stdout)
    plain = cli("send", "interviewer", "--task-id", first["Task ID"], "--context-id", first["Context ID"], "--no-a2ui",
                "Bo")  # fmt: skip
    assert '"choices": [' in plain.stdout
    assert "Form" not in plain.stdout  # A2UI switched off: the question as before, the choices as data
    assert "Pick a choice (1-3) or say it in your own words." in plain.stdout  # numbered: a number is typed
