"""The message box refuses an empty or blank message, as `send` and workflows do: a notice says why, nothing
is sent."""

from __future__ import annotations

import pytest
from scenes import ScriptedLink, build_app, card, settle
from tui_support import open_highlighted

SIZE = (120, 40)


@pytest.mark.parametrize("text", ["", "   ", " \n "])
async def test_a_blank_message_is_refused_with_a_notice_and_nothing_is_sent(tmp_path, text):
    link = ScriptedLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = await open_highlighted(pilot)  # talk to the first agent: writer
        await settle(pilot, 0.2)
        area = view.query_one("#message")
        area.text = text
        area.focus()
        await pilot.press("enter")
        await settle(pilot, 0.2)
        notices = [n.message for n in app._notifications]
    assert link.sent == []
    assert any(n.startswith("the message is") and "not sent" in n for n in notices), notices
