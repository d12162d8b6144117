"""notary: an agent whose card is signed; the demo agents file trusts its key, so the card shows as verified."""

from __future__ import annotations

from .base import DemoAgent, DemoSettings, ServedApp
from .card_signing import sign_card
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "Its card is signed (JWS, ES256) with a key the demo agents file trusts: the card shows as verified."


class NotaryExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        await turn.reply(text(f"notarized: {turn.text or '(no text)'}"))


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Notary",
        description=DESCRIPTION + " `switchboard card get notary` says verified, and with which key.",
        url=url,
        versions=("1.0",),  # the SDK adds v0.3 fields to a card with a 0.3 interface as it serves it: not as signed
        skills=[
            skill(
                "notarize",
                "Notarize",
                "Type anything; it comes back stamped. The point is the card: open it (c) to see its signature.",
                ["this card is signed", "who signed you?"],
                ["signed-card", "getting-started"],
            )
        ],
    )
    return a2a_app(sign_card(card, settings.card_key), NotaryExecutor())


AGENT = DemoAgent("notary", DESCRIPTION, build, signed=True)
