"""A caller's first message as the workflow's inputs, or why it cannot start a run.

Inputs come from the first data part holding a JSON object: `{"inputs": {...}}`, or the object itself. A
string value is taken as is; any other JSON value as its compact JSON text, keys sorted and whole numbers
without ".0" (protobuf carries an object as a map, keeping no order, and every number as a double). When the
workflow has exactly one required input, the message's text fills it (when the data did not). A missing
required input or an unknown one rejects the request: the caller learns every name at once and sends again,
and no run (nor server slot) waits for someone who may never come back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict

from ..workflow.spec import Workflow
from .card import input_schema, required_inputs, text_input


@dataclass
class InputProblem:
    """Why a message cannot start a run: every missing and unknown input, in one sentence."""

    missing: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    invalid: str | None = None  # the message is not usable at all (e.g. a data part that is not an object)

    def text(self, workflow: Workflow) -> str:
        bits = []
        if self.invalid:
            bits.append(self.invalid)
        if self.missing:
            described = [
                f"{name} ({workflow.inputs[name].description})" if workflow.inputs[name].description else name
                for name in self.missing
            ]
            bits.append(f"missing required input{'s' if len(self.missing) > 1 else ''}: {', '.join(described)}")
        if self.unknown:
            known = ", ".join(workflow.inputs) or "none"
            bits.append(
                f"unknown input{'s' if len(self.unknown) > 1 else ''}: {', '.join(self.unknown)} (known: {known})"
            )
        example = {name: "..." for name in required_inputs(workflow)}
        how = f"Send them as a data part {json.dumps({'inputs': example})}"
        single = text_input(workflow)
        if single:
            how += f", or {single} alone as text"
        return "; ".join(bits) + f". {how}."

    def data(self, workflow: Workflow) -> dict[str, Any]:
        return {"missing": self.missing, "unknown": self.unknown, "inputSchema": input_schema(workflow)}


def _whole(value: Any) -> Any:
    """Whole numbers back to ints, at any depth (protobuf carries every number as a double)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(_whole(value), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def message_text(message: pb.Message | None) -> str:
    """The text parts, joined as sent, stripped at the ends."""
    if message is None:
        return ""
    return "".join(p.text for p in message.parts if p.HasField("text")).strip()


def message_data(message: pb.Message | None) -> list[Any]:
    if message is None:
        return []
    return [MessageToDict(p.data) for p in message.parts if p.HasField("data")]


def read_inputs(workflow: Workflow, message: pb.Message | None) -> tuple[dict[str, str], InputProblem | None]:
    """The inputs the message gives (defaults are the engine's job), or the problem with them."""
    given: dict[str, str] = {}
    objects = [d for d in message_data(message) if isinstance(d, dict)]
    if objects:
        raw = objects[0]
        values = raw["inputs"] if isinstance(raw.get("inputs"), dict) and len(raw) == 1 else raw
        given = {str(k): _as_text(v) for k, v in values.items()}
    elif message_data(message):
        return {}, InputProblem(invalid="the data part is not a JSON object of inputs")
    single = text_input(workflow)
    text = message_text(message)
    if single is not None and single not in given and text:
        given[single] = text
    problem = InputProblem(
        missing=[name for name in required_inputs(workflow) if name not in given],
        unknown=sorted(name for name in given if name not in workflow.inputs),  # a Struct keeps no order
    )
    if problem.missing or problem.unknown:
        return given, problem
    return given, None
