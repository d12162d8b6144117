"""KeptQuestions: a task of an agent that ends with the app is kept in memory only, any other in the file; letting
go of one reaches the file whenever the file holds it (another process may have written a demo agent's task)."""

from __future__ import annotations

from switchboard.inbox.store import Remembered, load_remembered, remember
from switchboard.tui.inbox_kept import KeptQuestions

DEMO = "http://127.0.0.1:47103/"
OWN = "https://agents.example.com/interviewer"


def asked(url: str, task_id: str) -> Remembered:
    return Remembered("interviewer", url, task_id, "ctx", "input-required", "What is your name?", 1.0)


def test_a_task_that_ends_with_the_app_is_kept_in_memory_and_any_other_in_the_file(home):
    kept = KeptQuestions(lambda url: url.rstrip("/") == DEMO.rstrip("/"))
    kept.keep(asked(DEMO, "d1"))
    kept.keep(asked(OWN, "o1"))
    assert [e.task_id for e in load_remembered()] == ["o1"]  # the next start sees only this one
    assert sorted(e.task_id for e in kept.load().values()) == ["d1", "o1"]
    assert not (KeptQuestions(lambda url: False).load().keys() & {(DEMO.rstrip("/"), "d1")})  # another run's: none

    remember(asked(DEMO, "d2"))  # `switchboard send` to the demo agent, from another terminal
    assert sorted(e.task_id for e in kept.load().values()) == ["d1", "d2", "o1"]
    kept.let_go(DEMO, "d2")
    kept.let_go(DEMO, "d1")
    kept.let_go(OWN, "o1")
    assert kept.load() == {} and load_remembered() == []
