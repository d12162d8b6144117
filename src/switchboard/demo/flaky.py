"""flaky: fails, rejects, or crashes mid-stream, as the message asks; anything else explains the choices."""

from __future__ import annotations

import re

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "Fails, rejects, or crashes mid-stream on request: how errors and bad endings look."
HELP = (
    "I misbehave on request. Send 'fail' (the task ends failed), 'reject' (the task is rejected) or 'crash' "
    "(the agent raises an exception mid-stream, after two working updates)."
)
CRASH_TEXT = "the flaky agent crashed on purpose (you asked it to)"
_MODE = re.compile(r"\b(fail|reject|crash)", re.IGNORECASE)


class CrashRequested(RuntimeError):
    """Raised inside the executor, so the SDK shows what an agent crash looks like on the wire."""


class FlakyExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        match = _MODE.search(turn.text)
        mode = match.group(1).lower() if match else None
        if mode == "fail":
            await turn.working("trying")
            await turn.pause(0.3)
            await turn.working("this is not going well")
            await turn.pause(0.3)
            await turn.fail("failed on purpose: you asked the flaky agent to fail")
        elif mode == "reject":
            await turn.reject("rejected: the flaky agent declines this request, as you asked")
        elif mode == "crash":
            await turn.working("warming up")
            await turn.pause(0.3)
            await turn.working("about to crash")
            await turn.pause(0.3)
            raise CrashRequested(CRASH_TEXT)
        else:
            await turn.reply(text(HELP))


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Flaky",
        description=DESCRIPTION + " " + HELP,
        url=url,
        skills=[
            skill(
                "misbehave",
                "Misbehave on request",
                "Send 'fail' for a task that ends failed with a message, 'reject' for a rejected task, or "
                "'crash' for an agent that raises mid-stream after two working updates. Anything else gets "
                "this help as a direct message.",
                ["fail", "reject", "crash", "what can you do?"],
                ["errors", "failed", "rejected"],
            )
        ],
    )
    return a2a_app(card, FlakyExecutor())


AGENT = DemoAgent("flaky", DESCRIPTION, build)
