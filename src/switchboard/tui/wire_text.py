"""Wire records as a person reads them: what an SSE frame says (its task state and text, whatever the wire version),
and a whole exchange as plain text for the wire view's detail (headers, pretty JSON, each frame decoded).

Pure text, no widgets: the records are already redacted by the tap, and agent text loses its control sequences here.
"""

from __future__ import annotations

import json
from typing import Any

from ..a2a.tap import WireRecord
from ..safe_text import strip_controls

_UPDATES = ("statusUpdate", "artifactUpdate", "task", "message", "status-update", "artifact-update")


def _text_of(parts: Any) -> str:
    if not isinstance(parts, list):
        return ""
    texts = [part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return " ".join(texts)


def _object(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else an empty one: a frame is summed up whatever its shape."""
    return value if isinstance(value, dict) else {}


def _state(value: Any) -> str:
    """TASK_STATE_INPUT_REQUIRED (v1.0) and input-required (v0.3) read the same."""
    if not isinstance(value, str):
        return ""
    return value.removeprefix("TASK_STATE_").lower().replace("_", "-")


def _event(payload: Any) -> tuple[str, dict] | None:
    """The event a frame or an answer carries: (kind, object), for v1.0 (`{"result": {"statusUpdate": …}}`),
    v0.3 (`{"result": {"kind": "status-update", …}}`) and the HTTP+JSON binding (no `result`)."""
    if not isinstance(payload, dict):
        return None
    result = payload.get("result", payload)
    if not isinstance(result, dict):
        return None
    for key in _UPDATES:
        if isinstance(result.get(key), dict):
            return key, result[key]
    kind = result.get("kind")
    if isinstance(kind, str):
        return kind, result
    return None


def frame_summary(body: str) -> str | None:
    """What a frame or an answer says, in a few words: `working · drafting section 2/3`, `artifact story: …`,
    `error -32001 Task not found`; None when it is not JSON an agent would send."""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        error = payload["error"]
        return strip_controls(f"error {error.get('code', '')} {error.get('message', '')}".strip())
    found = _event(payload)
    if found is None:
        return None
    kind, obj = found
    status = obj.get("status")
    if kind in ("artifactUpdate", "artifact-update"):
        artifact = _object(obj.get("artifact"))
        name = artifact.get("name") or artifact.get("artifactId") or "?"
        summary = f"artifact {name}: {_text_of(artifact.get('parts'))}"
    elif isinstance(status, dict):
        message = _object(status.get("message"))
        words = [_state(status.get("state")), _text_of(message.get("parts"))]
        summary = " · ".join(word for word in words if word)
        if kind in ("task",):
            summary = f"task {summary}"
    elif kind == "message":
        summary = f"message: {_text_of(obj.get('parts'))}"
    else:
        return None
    return strip_controls(summary).replace("\n", " ")


def _pretty(body: str) -> str:
    """JSON indented, anything else as it came (its control sequences gone)."""
    try:
        return json.dumps(json.loads(body), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return strip_controls(body)


def record_detail(record: WireRecord) -> str:
    """One record, whole: its head line, its headers, its body pretty-printed, a frame's decoded summary."""
    took = f"  ({record.elapsed_ms:.0f} ms)" if record.elapsed_ms is not None else ""
    at = f"{record.at:.3f}s"
    if record.kind == "request":
        head = f"→ {record.method} {record.url}   at {at}"
    elif record.kind == "response":
        head = f"← HTTP {record.status}   at {at}{took}"
    elif record.kind == "sse":
        event = record.headers.get("event")
        head = f"⇠ SSE frame{' ' + event if event else ''}   at {at}{took}"
    else:
        head = f"{'✕' if record.kind == 'error' else '·'} {record.kind}   at {at}{took}"
    lines = [head]
    if record.kind in ("request", "response"):
        lines += [f"  {name}: {value}" for name, value in record.headers.items()]
    if record.kind == "sse" and (summary := frame_summary(record.body)):
        lines.append(f"  = {summary}")
    if record.body:
        lines.append("")
        lines.append(_pretty(record.body))
        if record.truncated:
            lines.append("… (cut here: the wire view keeps the start of a long body)")
    return strip_controls("\n".join(lines))


def exchange_detail(records: list[WireRecord], exchange: int) -> tuple[str, list[int]]:
    """Every record of `exchange` as text, and the line where each one starts."""
    blocks, starts, line = [], [], 0
    for record in records:
        if record.exchange != exchange:
            continue
        text = record_detail(record)
        starts.append(line)
        blocks.append(text)
        line += text.count("\n") + 2  # the blank line between records
    return "\n\n".join(blocks), starts
