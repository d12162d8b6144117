"""A served task's turns keep time: events a step makes after a turn's stream closed (another step's question
was shown) never come in the next turn's stream after that turn's own newer events."""

from __future__ import annotations

from datetime import datetime

from serve_support import WORKFLOWS, records, wait_for
from test_serve_questions import reply, turn

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.model import StatusUpdate, Task, TaskState

ANSWERS = ["Ann", "1"]  # the interviewer asks twice (a name, then a choice), then completes


def settled(journal_dir, task_id: str, answered: dict[str, int]) -> bool:
    """Every step has asked its next question, or completed once answered twice."""
    kinds = [(r["type"], r.get("step")) for r in records(journal_dir, task_id)]
    for step, count in answered.items():
        if count < len(ANSWERS) and kinds.count(("AwaitingInput", step)) != count + 1:
            return False
        if count == len(ANSWERS) and ("StepCompleted", step) not in kinds:
            return False
    return True


def said(events: list) -> list[tuple[datetime, str]]:
    """(timestamp, text) of every status the stream carried, in stream order."""
    out = []
    for event in events:
        if isinstance(event, StatusUpdate | Task) and event.status.timestamp:
            text = event.status.message.text if event.status.message else ""
            out.append((datetime.fromisoformat(event.status.timestamp.replace("Z", "+00:00")), text))
    return out


async def test_a_step_that_goes_on_while_another_asks_never_sends_its_events_late_in_the_next_turn(serve):
    served = serve(str(WORKFLOWS / "two-questions.yaml"))
    answered = {"first": 0, "second": 0}
    streams = []
    async with await connect(served.url("two-questions")) as client:
        view, events = await turn(client, new_message("go"))
        streams.append(events)
        task_id = view.task_id
        while view.state is TaskState.INPUT_REQUIRED:
            # Both steps are where they will stay until answered (a step answered last ends while the other asks).
            wait_for(lambda: settled(served.journal_dir, task_id, answered))
            step = view.status.message.metadata["step"]
            view, events = await turn(client, reply(view, ANSWERS[answered[step]]), view)
            answered[step] += 1
            streams.append(events)
    assert view.state is TaskState.COMPLETED
    assert answered == {"first": 2, "second": 2}
    for events in streams:  # within one stream, time never goes backwards
        stamps = [at for at, _ in said(events)]
        assert stamps == sorted(stamps), said(events)
    # The step answered first completed while the other's last question was shown: its completion reaches the
    # caller at the start of the last turn, before the answer that turn carries, never after it.
    last = [text for _, text in said(streams[-1])]
    answer_at = next(i for i, text in enumerate(last) if text.startswith("the answer went to step"))
    finished_first = next(s for s in answered if f"the answer went to step {s}" not in last[answer_at])
    completed = [i for i, text in enumerate(last) if text == f"step {finished_first} completed"]
    assert completed and all(i < answer_at for i in completed), last
