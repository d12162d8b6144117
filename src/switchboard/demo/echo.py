"""echo: answers every message with a direct Message, so no task is ever created."""

from __future__ import annotations

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, data, skill, text

DESCRIPTION = "Answers at once with a direct message (no task): the simplest A2A exchange."


class EchoExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        message = turn.context.message
        said = turn.text or "(no text)"
        others = [p for p in message.parts if not p.HasField("text")] if message else []
        if not others:
            await turn.reply(text(f"echo: {said}"))
            return
        # Files and data come back described, so a client can see what arrived.
        kinds = [p.WhichOneof("content") for p in others]
        summary = {"received": kinds, "files": [p.filename for p in others if p.filename], "data": turn.data}
        await turn.reply(text(f"echo: {said} (plus {len(others)} non-text part(s))"), data(summary))


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Echo",
        description=DESCRIPTION + " Whatever you send comes straight back, prefixed with 'echo:'.",
        url=url,
        output_modes=("text/plain", "application/json"),
        skills=[
            skill(
                "echo",
                "Echo",
                "Type anything; the agent replies with the same text in a single message, without creating a "
                "task. Attach a file or data and it tells you what arrived.",
                ["hello there", "is anybody out there?"],
                ["message", "no-task", "getting-started"],
            )
        ],
    )
    return a2a_app(card, EchoExecutor())


AGENT = DemoAgent("echo", DESCRIPTION, build)
