"""What a task view shows, and the HAR schema: shared by the export tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v10

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "har-schema"


def shown(view: TaskView) -> dict[str, Any]:
    """Everything a task view shows: ids, status, timeline, history, artifacts (whole and whether closed), reply."""
    return {
        "task": view.task_id,
        "context": view.context_id,
        "status": v10.encode_status(view.status) if view.status else None,
        "timeline": [v10.encode_status(s) for s in view.timeline],
        "history": [v10.encode_message(m) for m in view.history],
        "artifacts": {
            key: {
                "name": a.name,
                "description": a.description,
                "parts": [v10.encode_part(p) for p in a.to_artifact().parts],
                "closed": a.closed,
            }
            for key, a in view.artifacts.items()
        },
        "reply": v10.encode_message(view.reply) if view.reply else None,
        "answered": v10.encode_status(view.answered) if view.answered else None,
    }


def har_errors(document: Any) -> list[str]:
    """What the HAR 1.2 schema finds wrong with `document` (empty: valid)."""
    from jsonschema import Draft6Validator
    from referencing import Registry, Resource

    resources = []
    for path in SCHEMA_DIR.glob("*.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    validator = Draft6Validator({"$ref": "har.json#"}, registry=registry, format_checker=Draft6Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
