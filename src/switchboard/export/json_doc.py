"""The JSON export: every exchange with its message and events in the protocol's v1.0 shapes (the StreamResponse
wrapper, as `send --stream -o json` prints them), with ids and the time each arrived. `load` reads one back, and
`transcript.replay` folds it into the same task views the exchanges built.

    {"format": "a2a-switchboard.transcript", "version": 1, "kind": "conversation", "title": ..., "exportedAt": ...,
     "agents": {"writer": "http://..."}, "run": {...} (a run only),
     "exchanges": [{"view": 1, "agent": "writer", "sentAt": ..., "message": {v1.0 Message},
                    "answers": {v1.0 TaskStatus}, "secret": false, "complete": true,
                    "events": [{"at": "2026-...Z", "event": {v1.0 StreamResponse}}], "notices": [], "error": null}]}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from ..a2a.recording import Recorded
from ..a2a.wire import v10
from ..a2a.wire.common import Notes, WireFormatError
from .transcript import Exchange, Transcript

FORMAT = "a2a-switchboard.transcript"
VERSION = 1
KINDS = ("conversation", "run", "send")
T = TypeVar("T")


class TranscriptError(ValueError):
    """The document is not a transcript this version reads."""


def document(transcript: Transcript) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "kind": transcript.kind,
        "title": transcript.title,
        "exportedAt": transcript.exported_at,
        "agents": dict(transcript.agents),
    }
    if transcript.run is not None:
        doc["run"] = transcript.run
    doc["exchanges"] = [_exchange(e) for e in transcript.exchanges]
    return doc


def _exchange(exchange: Exchange) -> dict[str, Any]:
    out: dict[str, Any] = {"view": exchange.view, "agent": exchange.agent}
    if exchange.step is not None:
        out["step"] = exchange.step
    if exchange.attempt is not None:
        out["attempt"] = exchange.attempt
    out["sentAt"] = exchange.sent_at
    out["message"] = v10.encode_message(exchange.message) if exchange.message is not None else None
    if exchange.answers is not None:
        out["answers"] = v10.encode_status(exchange.answers)
    out["secret"] = exchange.secret
    out["complete"] = exchange.complete
    out["events"] = [{"at": r.at, "event": v10.encode_event(r.event)} for r in exchange.events]
    out["notices"] = list(exchange.notices)
    out["error"] = exchange.error
    return out


def render(transcript: Transcript) -> str:
    return json.dumps(document(transcript), ensure_ascii=False, indent=2) + "\n"


def load(doc: Any) -> Transcript:
    """A transcript from its JSON document (parsed); TranscriptError, naming the field, when it is not one.

    Every field is checked for its type (a recording may come from someone else): unknown fields are ignored,
    a field of the wrong type is refused, never carried on to fail later."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TranscriptError(f"not an {FORMAT} document")
    version = doc.get("version")
    if type(version) is not int or version != VERSION:
        raise TranscriptError(f"transcript version {_brief(version)}; this reads version {VERSION}")
    kind = _typed(doc, "kind", str, "", default="conversation")
    if kind not in KINDS:
        raise TranscriptError(f"kind is {_brief(kind)}; one of {', '.join(KINDS)} expected")
    agents = _typed(doc, "agents", dict, "", default={})
    for name, url in agents.items():
        if not isinstance(url, str):
            raise TranscriptError(f"agents.{name} should be a URL (a string), got {_brief(url)}")
    notes = Notes()
    exchanges = []
    for number, raw in enumerate(_typed(doc, "exchanges", list, "", default=[])):
        where = f"exchanges[{number}]"
        if not isinstance(raw, dict):
            raise TranscriptError(f"{where} should be an object, got {_brief(raw)}")
        exchanges.append(_load_exchange(raw, where, notes))
    return Transcript(
        kind,
        _typed(doc, "title", str, "", default=""),
        exchanges,
        agents=dict(agents),
        exported_at=_typed(doc, "exportedAt", str, "", default=""),
        run=_typed(doc, "run", dict, ""),
    )


def _brief(value: Any) -> str:
    """A JSON value in a few characters, for an error: its type for a container, its start for the rest."""
    if isinstance(value, dict | list):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    return "null" if value is None else f"{value!r:.40}"


def _typed(o: dict[str, Any], key: str, kind: type, where: str, *, default: Any = None) -> Any:
    """o[key] when it is a `kind` (absent or null: `default`); TranscriptError naming the field when it is not."""
    value = o.get(key)
    if value is None:
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        name = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}
        raise TranscriptError(f"{where + '.' if where else ''}{key} should be {name[kind]}, got {_brief(value)}")
    return value


def _load_exchange(raw: dict[str, Any], where: str, notes: Notes) -> Exchange:
    view = raw.get("view")
    if type(view) is not int:
        raise TranscriptError(f"{where}.view should be a whole number, got {_brief(view)}")
    error = _typed(raw, "error", dict, where)
    if error is not None and not all(isinstance(v, str) for v in error.values()):
        raise TranscriptError(f"{where}.error should hold strings (code, message, hint)")
    notices = _typed(raw, "notices", list, where, default=[])
    if not all(isinstance(n, str) for n in notices):
        raise TranscriptError(f"{where}.notices should be a list of strings")
    events = []
    for number, item in enumerate(_typed(raw, "events", list, where, default=[])):
        at = f"{where}.events[{number}]"
        if not isinstance(item, dict):
            raise TranscriptError(f"{at} should be an object, got {_brief(item)}")
        if "event" not in item:
            raise TranscriptError(f"{at} has no event")
        events.append(
            Recorded(
                _typed(item, "at", str, at, default=""), _decoded(v10.decode_event, item["event"], f"{at}.event", notes)
            )
        )
    message = raw.get("message")
    answers = raw.get("answers")
    return Exchange(
        view,
        _typed(raw, "agent", str, where, default=""),
        _decoded(v10.decode_message, message, f"{where}.message", notes) if message is not None else None,
        _typed(raw, "sentAt", str, where),
        events,
        secret=_typed(raw, "secret", bool, where, default=False),
        answers=_decoded(v10.decode_status, answers, f"{where}.answers", notes) if answers is not None else None,
        notices=list(notices),
        error=dict(error) if error is not None else None,
        step=_typed(raw, "step", str, where),
        attempt=_typed(raw, "attempt", int, where),
        complete=_typed(raw, "complete", bool, where, default=True),
    )


def _decoded(decode: Callable[[Any, Notes], T], value: Any, where: str, notes: Notes) -> T:
    """`value` decoded as the protocol's v1.0 JSON; TranscriptError naming the field when it is not that."""
    try:
        return decode(value, notes)
    except (WireFormatError, ValueError, TypeError) as exc:
        raise TranscriptError(f"{where}: {exc}") from None
