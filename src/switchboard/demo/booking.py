"""booking: a table booking as an A2UI form (input-required), a confirmation card with buttons, then a booked card.

Speaks A2UI v0.9.1 (or v0.8, when the client announces only v0.8, or says "v0.8" in its message) to a client that
announces it can render (`a2uiClientCapabilities` in the message's metadata, or the extension activated); to any
other client it asks the same in words. The card declares both extensions.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from a2a.helpers.proto_helpers import new_data_part

from . import booking_surfaces as ui
from .a2ui_parts import EXTENSION_V08, EXTENSION_V091, MIME_V08, MIME_V091, a2ui_part, a2ui_version, incoming_action
from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, pb, skill, text

DESCRIPTION = "Books a table: an A2UI form (date, time, party size, seating), then a confirmation card with buttons."
ASK_IN_WORDS = "When, for how many, and under what name? For example: 2026-12-24 19:30 4 Ada"
_WORDS = re.compile(r"(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})\s+(\d{1,2})\s+(.+)")


def checked(values: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The booking as sent, checked again here (the client's checks are a courtesy, not a guarantee)."""
    booking = {key: values.get(key, ui.DEFAULTS[key]) for key in ui.FIELDS}
    problems = []
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(booking["date"] or "")):
        problems.append("a date as YYYY-MM-DD")
    if not re.fullmatch(r"\d{1,2}:\d{2}", str(booking["time"] or "")):
        problems.append("a time as HH:MM")
    party = booking["party"]
    if not isinstance(party, int | float) or not 1 <= party <= 12:
        problems.append("a party of 1 to 12")
    else:
        booking["party"] = int(party)
    if not str(booking["name"] or "").strip():
        problems.append("a name")
    if isinstance(booking["seating"], str):
        booking["seating"] = [booking["seating"]]
    return booking, problems


class BookingExecutor(DemoExecutor):
    def __init__(self) -> None:
        super().__init__()
        self._versions: dict[str, str | None] = {}  # task id -> the A2UI version it speaks (None: words)
        self._bookings: dict[str, dict[str, Any]] = {}

    def _surface(self, task_id: str, surface_id: str, components: list, data: dict | None) -> list[pb.Part]:
        """v0.9.1: one part holding the list of messages; v0.8: one part per message (its data is one object)."""
        if self._versions.get(task_id) == "v0.8":
            return [a2ui_part(m, MIME_V08) for m in ui.surface_v08(surface_id, components, data)]
        return [a2ui_part(ui.surface_v091(surface_id, components, data), MIME_V091)]

    def _delete(self, task_id: str, surface_id: str) -> pb.Part:
        if self._versions.get(task_id) == "v0.8":
            return a2ui_part(ui.delete_v08(surface_id), MIME_V08)
        return a2ui_part([ui.delete_v091(surface_id)], MIME_V091)

    async def _ask_form(self, turn: Turn, booking: dict[str, Any], said: str, *extra: pb.Part) -> None:
        if self._versions.get(turn.task_id) is None:
            await turn.ask(f"{said} {ASK_IN_WORDS}".strip())
            return
        form = self._surface(turn.task_id, ui.FORM, ui.form_components(), {"booking": booking})
        await turn.ask(said or "Book a table: fill in the form.", *extra, *form)

    async def run(self, turn: Turn) -> None:
        action = incoming_action(turn)
        if turn.state != State.TASK_STATE_INPUT_REQUIRED:
            self._versions[turn.task_id] = a2ui_version(turn) if action is None else action[2]
            await turn.working("opening the booking book")
            await self._ask_form(turn, dict(ui.DEFAULTS), "")
            return
        if action is None:
            await self._answer_in_words(turn)
            return
        name, context, _ = action
        booking = self._bookings.get(turn.task_id, dict(ui.DEFAULTS))
        if name == "cancel":
            await turn.complete("No table booked. Come back any time.")
        elif name == "book":
            booking, problems = checked(context)
            self._bookings[turn.task_id] = booking
            if problems:
                await self._ask_form(turn, booking, "Almost: the booking needs " + ", ".join(problems) + ".")
                return
            card = self._surface(turn.task_id, ui.CONFIRM, ui.confirm_components(booking), None)
            await turn.ask(f"Confirm: {ui.summary(booking)}?", self._delete(turn.task_id, ui.FORM), *card)
        elif name == "change":
            await self._ask_form(turn, booking, "Change what you like.", self._delete(turn.task_id, ui.CONFIRM))
        elif name == "confirm":
            await self._book(turn, checked(context)[0] if context else booking)
        else:
            await self._ask_form(turn, booking, f"This form has no {name!r}.")

    async def _answer_in_words(self, turn: Turn) -> None:
        match = _WORDS.fullmatch(turn.text)
        if match is None:
            await turn.ask("I did not catch that. " + ASK_IN_WORDS)
            return
        date, time, party, name = match.groups()
        booking, problems = checked(
            {"date": date, "time": time, "party": int(party), "name": name, "seating": ["indoor"]}
        )
        if problems:
            await turn.ask("Almost: the booking needs " + ", ".join(problems) + ". " + ASK_IN_WORDS)
            return
        await self._book(turn, booking)

    async def _book(self, turn: Turn, booking: dict[str, Any]) -> None:
        reference = uuid.uuid4().hex[:6].upper()
        await turn.artifact(
            [text(f"Table booked ({reference}): {ui.summary(booking)}."),
             new_data_part({"reference": reference, **booking}, media_type="application/json")],
            artifact_id="booking", name="booking",
        )  # fmt: skip
        extra = []
        if self._versions.get(turn.task_id) is not None:
            card = self._surface(turn.task_id, ui.BOOKED, ui.booked_components(booking, reference), None)
            extra = [self._delete(turn.task_id, ui.CONFIRM), *card]
        self._bookings.pop(turn.task_id, None)
        await turn.status(State.TASK_STATE_COMPLETED, f"Booked, reference {reference}.", *extra)


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Booking",
        description=DESCRIPTION + " Renders as a form where the client speaks A2UI (v0.9.1 or v0.8); asks in "
        "words otherwise.",
        url=url,
        output_modes=("text/plain", "application/json", MIME_V091, MIME_V08),
        skills=[
            skill(
                "book",
                "Book a table",
                "Say anything to start: the form asks for a date, a time, the party size, the seating and a name. "
                "Book shows a confirmation card; Confirm books it. Say v0.8 to get the form in A2UI v0.8.",
                ["book a table", "book a table (v0.8)"],
                ["a2ui", "form", "input-required"],
            )
        ],
    )
    for uri, version in ((EXTENSION_V091, "v0.9.1"), (EXTENSION_V08, "v0.8")):
        extension = card.capabilities.extensions.add(uri=uri, description=f"Renders its forms in A2UI {version}")
        extension.params.update({"supportedCatalogIds": [ui.CATALOG_V091 if version == "v0.9.1" else
                                 "https://a2ui.org/specification/v0_8/standard_catalog_definition.json"]})  # fmt: skip
    return a2a_app(card, BookingExecutor())


AGENT = DemoAgent("booking", DESCRIPTION, build)
