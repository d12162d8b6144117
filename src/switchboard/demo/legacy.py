"""legacy: a v0.3-only agent with the card most deployed agents still serve (a unit converter).

The SDK's v0.3 compat adapter speaks the wire; the legacy-shaped card (top-level `url`, `protocolVersion`
0.3.0, `preferredTransport`, no `supportedInterfaces`) is served here at both well-known paths, and a small
ASGI filter refuses v1.0 method names with -32601, as a real 0.3 server does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypedDict

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .base import PROVIDER, ASGIApp, DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "A v0.3-only agent with a legacy card (how most deployed agents look): a unit converter."
# The v0.3 JSON-RPC methods (the A2A 0.3 specification); everything else is unknown to a 0.3 server.
V03_METHODS = frozenset(
    {
        "message/send",
        "message/stream",
        "tasks/get",
        "tasks/cancel",
        "tasks/resubscribe",
        "tasks/pushNotificationConfig/set",
        "tasks/pushNotificationConfig/get",
        "tasks/pushNotificationConfig/list",
        "tasks/pushNotificationConfig/delete",
        "agent/getAuthenticatedExtendedCard",
    }
)

# unit -> (dimension, factor to the base unit); temperatures are converted by formula
UNITS: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "cm": ("length", 0.01),
    "mm": ("length", 0.001),
    "mi": ("length", 1609.344),
    "yd": ("length", 0.9144),
    "ft": ("length", 0.3048),
    "in": ("length", 0.0254),
    "kg": ("mass", 1.0),
    "g": ("mass", 0.001),
    "lb": ("mass", 0.45359237),
    "oz": ("mass", 0.028349523125),
    "c": ("temperature", 1.0),
    "f": ("temperature", 1.0),
    "k": ("temperature", 1.0),
}
ALIASES = {
    "meter": "m", "meters": "m", "metre": "m", "metres": "m", "kilometer": "km", "kilometers": "km",
    "centimeters": "cm", "millimeters": "mm", "mile": "mi", "miles": "mi", "yard": "yd", "yards": "yd",
    "foot": "ft", "feet": "ft", "inch": "in", "inches": "in", "kilogram": "kg", "kilograms": "kg",
    "kilo": "kg", "kilos": "kg", "gram": "g", "grams": "g", "pound": "lb", "pounds": "lb", "lbs": "lb",
    "ounce": "oz", "ounces": "oz", "celsius": "c", "°c": "c", "fahrenheit": "f", "°f": "f", "kelvin": "k",
}  # fmt: skip
_REQUEST = re.compile(r"(-?\d+(?:\.\d+)?)\s*(°?[a-z]+)(?:\s+(?:to|in|into|as)\s+(°?[a-z]+))?")
ASK_WHAT = "What should I convert? Say a number and a unit, e.g. '10 km to mi' or '72 f'."


def unit_of(word: str | None) -> str | None:
    word = (word or "").strip().lower().removeprefix("to ").strip(" .?!")
    word = ALIASES.get(word, word)
    return word if word in UNITS else None


def convert(value: float, source: str, target: str) -> float:
    if UNITS[source][0] == "temperature":
        celsius = {"c": value, "f": (value - 32) * 5 / 9, "k": value - 273.15}[source]
        return {"c": celsius, "f": celsius * 9 / 5 + 32, "k": celsius + 273.15}[target]
    return value * UNITS[source][1] / UNITS[target][1]


def same_kind(unit: str) -> list[str]:
    return [u for u, (dimension, _) in UNITS.items() if dimension == UNITS[unit][0] and u != unit]


def answer(value: float, source: str, target: str) -> str:
    return f"{value:g} {source} = {convert(value, source, target):.6g} {target}"


class LegacyExecutor(DemoExecutor):
    def __init__(self) -> None:
        super().__init__()
        self._pending: dict[str, tuple[float, str]] = {}  # task id -> the quantity waiting for a target unit

    async def run(self, turn: Turn) -> None:
        pending = self._pending.get(turn.task_id) if turn.state == State.TASK_STATE_INPUT_REQUIRED else None
        if pending is not None:
            value, source = pending
            target = unit_of(turn.text)
            if target is None or target not in same_kind(source):
                await turn.ask(f"I can convert {value:g} {source} to: {', '.join(same_kind(source))}. Which one?")
                return
            await self._finish(turn, value, source, target)
            return
        match = _REQUEST.search(turn.text.lower())
        if match is None:
            await turn.ask(ASK_WHAT)
            return
        amount, unit = float(match.group(1)), unit_of(match.group(2))
        if unit is None:
            await turn.ask(f"I do not know the unit '{match.group(2)}'. I know: {', '.join(UNITS)}. {ASK_WHAT}")
            return
        target = unit_of(match.group(3))
        if target is None or target not in same_kind(unit):
            self._pending[turn.task_id] = (amount, unit)
            await turn.ask(f"Which unit should I convert {amount:g} {unit} to? ({', '.join(same_kind(unit))})")
            return
        await self._finish(turn, amount, unit, target)

    async def _finish(self, turn: Turn, value: float, source: str, target: str) -> None:
        self._pending.pop(turn.task_id, None)
        await turn.working("converting")
        await turn.artifact([text(answer(value, source, target))], artifact_id="conversion", name="conversion")
        await turn.complete("converted")


class V03Only:
    """ASGI filter: JSON-RPC methods outside v0.3 (SendMessage, ...) get -32601, as from a real 0.3 server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable[..., Awaitable[None]]) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        request = _json_object(body)
        method = request.get("method") if request else None
        if request is not None and isinstance(method, str) and method not in V03_METHODS:
            error = {
                "error": {"code": -32601, "message": "Method not found"},
                "id": request.get("id"),
                "jsonrpc": "2.0",
            }
            await JSONResponse(error)(scope, receive, send)
            return
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _json_object(body: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(body)
    except ValueError:
        return None  # the SDK answers the parse error itself
    return value if isinstance(value, dict) else None


class _Skill(TypedDict):
    id: str
    name: str
    description: str
    examples: list[str]
    tags: list[str]


SKILL: _Skill = {
    "id": "convert",
    "name": "Convert units",
    "description": "Give a number and a unit, with or without the target unit: '10 km to mi' completes at once; "
    "'72 f' asks which unit (input-required) and completes when you answer in the same task. Lengths, masses "
    "and temperatures.",
    "examples": ["10 km to mi", "72 f", "5 kg to lb", "convert 3 feet"],
    "tags": ["v0.3", "legacy", "multi-turn"],
}


def legacy_card(url: str) -> dict[str, Any]:
    """The card as a v0.3 agent serves it: no supportedInterfaces, the wire named at the top level."""
    return {
        "name": "Legacy Converter",
        "description": DESCRIPTION + " It speaks only the v0.3 wire; v1.0 method names are refused.",
        "url": url,
        "preferredTransport": "JSONRPC",
        "protocolVersion": "0.3.0",
        "version": "0.3.1",
        "provider": {"organization": PROVIDER, "url": url},
        "capabilities": {"streaming": True, "pushNotifications": False},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [SKILL],
        "supportsAuthenticatedExtendedCard": False,
    }


def build(url: str, settings: DemoSettings) -> ServedApp:
    card_json = legacy_card(url)

    async def serve_card(request: Request) -> Response:
        return JSONResponse(card_json)

    # The SDK needs a card of its own (it checks capabilities); clients only ever see the legacy JSON.
    sdk_card = agent_card(
        name=card_json["name"],
        description=card_json["description"],
        url=url,
        versions=("0.3",),
        skills=[skill(SKILL["id"], SKILL["name"], SKILL["description"], SKILL["examples"], SKILL["tags"])],
    )
    card_routes = [
        Route("/.well-known/agent-card.json", serve_card, methods=["GET"]),
        Route("/.well-known/agent.json", serve_card, methods=["GET"]),
    ]
    served = a2a_app(sdk_card, LegacyExecutor(), extra_routes=card_routes, serve_card=False)
    served.app = V03Only(served.app)
    return served


AGENT = DemoAgent("legacy", DESCRIPTION, build)
