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
from typing import Any

from ..a2a.recording import Recorded
from ..a2a.wire import v10
from ..a2a.wire.common import Notes, WireFormatError
from .transcript import Exchange, Transcript

FORMAT = "a2a-switchboard.transcript"
VERSION = 1


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
    """A transcript from its JSON document (parsed); TranscriptError when it is not one."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TranscriptError(f"not an {FORMAT} document")
    if doc.get("version") != VERSION:
        raise TranscriptError(f"transcript version {doc.get('version')!r}; this reads version {VERSION}")
    notes = Notes()
    try:
        exchanges = [_load_exchange(e, notes) for e in doc.get("exchanges") or []]
    except (WireFormatError, KeyError, TypeError, ValueError) as exc:
        raise TranscriptError(f"an exchange could not be read: {exc}") from None
    return Transcript(
        doc.get("kind", "conversation"),
        str(doc.get("title", "")),
        exchanges,
        agents=dict(doc.get("agents") or {}),
        exported_at=str(doc.get("exportedAt", "")),
        run=doc.get("run"),
    )


def _load_exchange(raw: dict[str, Any], notes: Notes) -> Exchange:
    message = raw.get("message")
    answers = raw.get("answers")
    return Exchange(
        int(raw["view"]),
        str(raw.get("agent", "")),
        v10.decode_message(message, notes) if message is not None else None,
        raw.get("sentAt"),
        [Recorded(str(e.get("at", "")), v10.decode_event(e["event"], notes)) for e in raw.get("events") or []],
        secret=bool(raw.get("secret")),
        answers=v10.decode_status(answers, notes) if answers is not None else None,
        notices=[str(n) for n in raw.get("notices") or []],
        error=raw.get("error"),
        step=raw.get("step"),
        attempt=raw.get("attempt"),
        complete=bool(raw.get("complete", True)),
    )
