"""Closed tabs leave nothing behind: after conversations (replied, completed, waiting at a question, closed
mid-stream) and a workflow run are closed, no view, link, conversation, task view or widget of theirs is alive.
The real demo fleet (official a2a-sdk servers on 127.0.0.1) is the peer."""

from __future__ import annotations

import gc
import time
import weakref

import pytest
from textual.widgets import Input, TabbedContent
from textual.widgets._footer import FooterKey
from tui_support import demo_fleet, until

from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import TaskState, TextPart
from switchboard.agents import AgentsFile
from switchboard.demo.base import DemoSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.composer import MessageArea
from switchboard.tui.widgets.run_view import RunView
from switchboard.workflow.engine import start_run
from switchboard.workflow.loader import load_workflow

SIZE = (120, 40)
# A timer that asyncio has canceled stays in its queue, with the context it was made in, until it comes due: one
# set by a closed tab's worker (an HTTP read timeout) holds that worker, and so its view, until then. The app's
# HTTP timeouts are short here; the stall watch's timers carry an empty context and hold nothing.
RELEASE_TIMEOUT = 5.0
RELEASE_WAIT = 75.0
WORKFLOW = """\
version: 1
name: pair
steps:
  - name: draft
    agent: writer
    task: "release pace 1"
  - name: reply
    agent: echo
    task: "after {{steps.draft.state}}"
    dependsOn: [draft]
"""
CONVERSATIONS = [  # agent, message, how its turn stands when the tab closes
    ("echo", "hello", "replied"),
    ("writer", "release notes pace 1", "completed"),
    ("interviewer", "interview me", "asking"),
    ("writer", "a long one pace 200", "streaming"),
    ("echo", "again", "replied"),
    ("interviewer", "interview me", "asking"),
]


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(writer_pace_ms=1)) as handle:
        yield handle


def settled(view, how: str) -> bool:
    conversation = view.conversation
    last = conversation.last if conversation else None
    if last is None:
        return False
    if how == "replied":
        return last.view.reply is not None and not view.running
    if how == "completed":
        return last.view.state is TaskState.COMPLETED and not view.running
    if how == "asking":
        return view.waiting is TaskState.INPUT_REQUIRED and bool(view.query("PromptPane Input"))
    return bool(last.view.artifacts) and view.running  # streaming


def holders(obj, depth: int = 3) -> str:
    """What still refers to a survivor, a few levels up: enough to name the culprit in a failure."""
    names = []
    for referrer in gc.get_referrers(obj):
        if isinstance(referrer, list | dict) and len(gc.get_referrers(referrer)) == 0:
            continue  # the frames' own locals
        name = type(referrer).__qualname__
        if depth > 1 and not isinstance(referrer, type):
            name += f" <- ({holders(referrer, depth - 1)})"
        names.append(name)
    return ", ".join(sorted(set(names))[:8])


async def test_closed_conversation_and_run_tabs_leave_no_view_link_or_widget_alive(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    (tmp_path / "pair.yaml").write_text(WORKFLOW)
    app = SwitchboardApp(
        tmp_path / "agents.yaml",
        extra_agents=[agent.as_entry() for agent in fleet.agents],
        steady=True,
        http=new_http_client(RELEASE_TIMEOUT),
    )
    workflow = load_workflow(tmp_path / "pair.yaml", AgentsFile(None, app.agents(), []))
    kept: dict[str, weakref.ref] = {}
    # Footer keys of apps that earlier tests in this process left to the collector are not this app's.
    earlier_keys = weakref.WeakSet(o for o in gc.get_objects() if isinstance(o, FooterKey))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        statuses = screen.query_one("AgentsPane").statuses
        await until(lambda: all(name in statuses for name, _, _ in CONVERSATIONS))
        views = [await screen.open_conversation(statuses[name]) for name, _, _ in CONVERSATIONS]
        await until(lambda: all(view.conversation is not None for view in views))
        for view, (_, text, _) in zip(views, CONVERSATIONS, strict=True):
            view.send([TextPart(text=text)])
        for view, (_, _, how) in zip(views, CONVERSATIONS, strict=True):
            await until(lambda view=view, how=how: settled(view, how))

        run = RunView(workflow.name, start=lambda ask: start_run(workflow, {}, ask=ask, http=app.http, tap=app.tap))
        await screen._add_run(run)
        await until(lambda: run.status == "completed")
        await pilot.pause(0.2)

        for i, view in enumerate(views):
            kept[f"conversation view {i}"] = weakref.ref(view)
            kept[f"link {i}"] = weakref.ref(view.link)
            kept[f"conversation {i}"] = weakref.ref(view.conversation)
            kept[f"task view {i}"] = weakref.ref(view.conversation.last.view)
            kept[f"turn view {i}"] = weakref.ref(view._turn_view)
            kept[f"message box {i}"] = weakref.ref(view.query_one(MessageArea))
            for field in view.query("PromptPane Input"):
                kept[f"prompt input {i}"] = weakref.ref(field)
        kept["run view"] = weakref.ref(run)
        kept["workflow run"] = weakref.ref(run.run)
        for name, step in run.steps.items():
            kept[f"step {name} task view"] = weakref.ref(step.view)
        panes = [view.parent.id for view in views] + [run.parent.id]
        views = view = run = step = field = None  # the test lets go of them too
        assert any(isinstance(node, Input) for node in app.screen.walk_children())  # prompts are up

        tabs = screen.query_one(TabbedContent)
        for pane_id in panes:
            await tabs.remove_pane(pane_id)
            await pilot.pause()
        # The focus moves about (the footer is composed again each time): its old keys must go too.
        for _ in range(5):
            await pilot.press("f3")
            await pilot.press("f1")

        def alive() -> list[str]:
            gc.collect()
            removed_keys = [
                o for o in gc.get_objects() if isinstance(o, FooterKey) and not o.is_attached and o not in earlier_keys
            ]
            return [name for name, ref in kept.items() if ref() is not None] + (
                [f"{len(removed_keys)} removed footer keys"] if removed_keys else []
            )

        began = time.monotonic()
        try:
            await until(lambda: not alive(), timeout=RELEASE_WAIT)
        except TimeoutError:
            survivors = alive()
            held = kept.get(survivors[0], lambda: None)()
            raise AssertionError(
                f"alive after their tabs closed: {survivors}; held by {holders(held) if held else '?'}"
            ) from None
        assert any(isinstance(o, FooterKey) for o in gc.get_objects())  # the footer's own keys are there
        print(f"released {time.monotonic() - began:.1f} s after the tabs closed")
