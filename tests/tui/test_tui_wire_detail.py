"""The wire view as a list and a detail (issue 14, item 13): a line per record that says what a frame means (its
state and text, either wire version), and any record opened whole: headers, pretty JSON, every frame of its
exchange decoded, searchable and copyable, secrets redacted as the tap records them."""

from __future__ import annotations

import asyncio
import json

from scenes import CONTEXT, TASK, ScriptedLink, build_app, card, settle
from textual.widgets import Input, TextArea
from tui_support import until

from switchboard.a2a.model import Task, TaskState, TaskStatus
from switchboard.tui.screens.wire_detail import WireDetailScreen
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.wire_view import WireView
from switchboard.tui.wire_text import frame_summary

V10_MESSAGE = {"role": "ROLE_AGENT", "parts": [{"text": "Your name?"}]}
V10_STATUS = json.dumps(
    {"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {"taskId": TASK, "status": {
        "state": "TASK_STATE_INPUT_REQUIRED", "message": V10_MESSAGE}}}}
)  # fmt: skip
V03_MESSAGE = {"kind": "message", "parts": [{"kind": "text", "text": "drafting"}]}
V03_STATUS = json.dumps(
    {"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": TASK, "final": False,
     "status": {"state": "working", "message": V03_MESSAGE}}}
)  # fmt: skip


def test_a_frame_says_its_state_and_text_on_either_wire():
    assert frame_summary(V10_STATUS) == "input-required · Your name?"
    assert frame_summary(V03_STATUS) == "working · drafting"
    artifact = {"result": {"artifactUpdate": {"artifact": {"artifactId": "a", "name": "tides.md",
                                                           "parts": [{"text": "# Tides"}]}}}}  # fmt: skip
    assert frame_summary(json.dumps(artifact)) == "artifact tides.md: # Tides"
    assert frame_summary('{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}') == (
        "error -32001 Task not found"
    )
    assert frame_summary("not json") is None
    # No escape sequence reaches the screen.
    assert frame_summary(json.dumps({"result": {"statusUpdate": {"status": {"state": "x\x1b[31m"}}}})) == "x"


def lines_of(wire: WireView) -> list[str]:
    return [wire.render_line(y).text.rstrip() for y in range(wire.scrollable_content_region.height)]


async def test_a_record_opens_whole_searchable_and_copyable_with_secrets_redacted(tmp_path):
    app = build_app(tmp_path)
    app.tap.redactor.add("sk-live-4242")
    long_text = "word " * 2000  # 10,000 characters: the list cuts it, the detail has it all
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
                          "params": {"message": {"parts": [{"text": long_text}]}}})  # fmt: skip
    headers = [("A2A-Version", "1.0"), ("X-API-Key", "sk-live-4242"), ("Accept", "text/event-stream"),
               ("Content-Type", "application/json"), ("X-Trace", "t" * 80)]  # fmt: skip
    async with app.run_test(size=(130, 40)) as pilot:
        await settle(pilot, 0.2)
        exchange = app.tap.request("POST", "https://writer.agents.example/", headers, request)
        app.tap.response(exchange, 200, [("content-type", "text/event-stream")], None)
        app.tap.frame(exchange, "message", V10_STATUS)
        app.tap.frame(exchange, "message", V03_STATUS)
        await pilot.press("f2")
        await settle(pilot, 0.3)
        wire = app.screen.query_one(WireView)
        assert app.focused is wire
        shown = lines_of(wire)
        assert any("input-required · Your name?" in line for line in shown), shown
        assert any("working · drafting" in line for line in shown), shown
        # The request's line says the method, the URL and the wire version, not every header (those were cut).
        post = next(line for line in shown if "POST" in line)
        assert "https://writer.agents.example/" in post and "A2A-Version: 1.0" in post and "X-Trace" not in post

        await pilot.press("up", "up", "up", "enter")  # from the newest frame to the request
        await settle(pilot, 0.3)
        assert isinstance(app.screen, WireDetailScreen)
        area = app.screen.query_one(TextArea)
        text = area.text
        assert long_text.strip() in text.replace("\n", " ")  # the whole body, not its first 640 characters
        assert '"method": "SendStreamingMessage"' in text  # pretty JSON
        assert "X-Trace: " + "t" * 80 in text and "X-API-Key: [redacted]" in text
        assert "sk-live-4242" not in text
        assert "= input-required · Your name?" in text and "= working · drafting" in text
        assert area.cursor_location[0] == 0  # at the chosen record, the request

        await pilot.press("slash", *"drafting", "enter")
        await settle(pilot, 0.2)
        assert area.selected_text == "drafting"
        find = app.screen.query_one("#wire-find", Input)
        find.value = "no such thing"
        await pilot.press("enter")
        await settle(pilot, 0.1)
        assert find.border_subtitle == "not found"
        area.focus()
        await pilot.press("y")
        await settle(pilot, 0.1)
        assert app.clipboard == text
        await pilot.press("escape")
        await settle(pilot, 0.2)
        assert not isinstance(app.screen, WireDetailScreen)
        await pilot.press("f2")  # hidden again: the focus goes back where it was
        await settle(pilot, 0.2)
        assert app.focused is not wire


async def test_a_double_click_opens_the_record_under_the_pointer(tmp_path):
    app = build_app(tmp_path)
    async with app.run_test(size=(130, 40)) as pilot:
        await settle(pilot, 0.2)
        exchange = app.tap.request("GET", "https://writer.agents.example/.well-known/agent-card.json", [], None)
        app.tap.response(exchange, 200, [("content-type", "application/json")], '{"name": "Writer"}')
        await pilot.press("f2")
        await settle(pilot, 0.3)
        wire = app.screen.query_one(WireView)
        await pilot.click(WireView, offset=(5, 0))
        assert wire.chosen.kind == "request"
        await pilot.click(WireView, offset=(5, 1), times=2)
        await settle(pilot, 0.3)
        assert isinstance(app.screen, WireDetailScreen)
        assert '"name": "Writer"' in app.screen.query_one(TextArea).text


async def test_a_turn_that_ends_while_the_wire_view_is_read_leaves_the_focus_there(tmp_path):
    release = asyncio.Event()

    class SlowLink(ScriptedLink):
        async def follow(self, message, policy=None):
            self.sent.append(message)
            yield Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.WORKING))
            await release.wait()
            yield Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.COMPLETED))

    link = SlowLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=(130, 40)) as pilot:
        await settle(pilot, 0.2)
        await pilot.press("enter")
        await settle(pilot, 0.2)
        await pilot.press(*"hello", "enter")
        await until(lambda: link.sent)
        await pilot.press("f2")
        await settle(pilot, 0.2)
        wire = app.screen.query_one(WireView)
        assert app.focused is wire
        release.set()
        view = app.screen.query_one(ConversationView)
        await until(lambda: not view.running)
        await settle(pilot, 0.3)
        assert app.focused is wire  # the up/down/enter the person types still go to the wire view
