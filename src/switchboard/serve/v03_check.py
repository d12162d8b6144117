"""A v0.3 JSON-RPC request's params against the SDK's own v0.3 models: the first wrong field, in our words.

The SDK's compat adapter validates with these pydantic models and answers a failure with -32600 and
pydantic's report in `data`. Here the same models decide, and the answer is -32602 naming one field, with a
sentence of our own. A part is one of three models (text, file, data) tried in turn; the error reported is
the one of the kind the part says it is (its `kind`, else the key it has).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import pydantic

from .refusal import INVALID_PARAMS, INVALID_REQUEST, Refusal

PART_KINDS = {"text": "TextPart", "file": "FilePart", "data": "DataPart"}
_FILE_KINDS = ("FileWithBytes", "FileWithUri")
_PHRASES = {
    "missing": "is required",
    "string_type": "expected a string",
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "int_from_float": "expected an integer",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "dict_type": "expected an object",
    "model_type": "expected an object",
    "model_attributes_type": "expected an object",
    "list_type": "expected an array",
}


def check_v03(body: dict[str, Any], model: type[pydantic.BaseModel]) -> None:
    """Raise Refusal naming the first field of a v0.3 request that `model` (the SDK's) does not accept."""
    params = body.get("params")
    message = params.get("message") if isinstance(params, dict) else None
    if isinstance(message, dict) and isinstance(message.get("parts"), list):
        for index, part in enumerate(message["parts"]):
            _known_kind(part, f"params.message.parts[{index}]")
    try:
        model.model_validate(body)
    except pydantic.ValidationError as exc:
        errors = exc.errors()
        chosen = next((e for e in errors if _on_its_branch(e["loc"], body)), errors[0])
        raise _refusal(chosen) from None
    if isinstance(message, dict):
        for index, part in enumerate(message.get("parts") or []):
            _file_bytes(part, f"params.message.parts[{index}].file.bytes")


def _file_bytes(part: dict[str, Any], where: str) -> None:
    """A file's bytes are base64: the SDK decodes them after validating, and its error was an internal one."""
    file = part.get("file") if part.get("kind", "file") == "file" else None
    data = file.get("bytes") if isinstance(file, dict) else None
    if isinstance(data, str):
        try:
            base64.b64decode(data)
        except (binascii.Error, ValueError):
            raise Refusal(INVALID_PARAMS, "expected base64", where) from None


def _known_kind(part: Any, where: str) -> None:
    if not isinstance(part, dict):
        raise Refusal(INVALID_PARAMS, "expected an object", where)
    kind = part.get("kind")
    if kind is None and not any(name in part for name in PART_KINDS):
        raise Refusal(INVALID_PARAMS, "a part needs a kind: text, file or data", where)
    if kind is not None and (not isinstance(kind, str) or kind not in PART_KINDS):
        raise Refusal(INVALID_PARAMS, "expected one of text, file, data", f"{where}.kind")


def _branch_of(node: Any) -> str | None:
    if not isinstance(node, dict):
        return None
    kind = node.get("kind")
    if isinstance(kind, str):
        return PART_KINDS.get(kind)
    return next((PART_KINDS[name] for name in PART_KINDS if name in node), None)


def _on_its_branch(loc: tuple[int | str, ...], body: Any) -> bool:
    """Whether each union branch named in `loc` is the one the data at that point says it is."""
    node = body
    for step in loc:
        if step in PART_KINDS.values():
            if _branch_of(node) != step:
                return False
        elif step in _FILE_KINDS:
            if ("FileWithBytes" if isinstance(node, dict) and "bytes" in node else "FileWithUri") != step:
                return False
        elif isinstance(node, dict) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            node = None
    return True


def _refusal(error: Any) -> Refusal:
    loc = [step for step in error["loc"] if isinstance(step, int) or _is_field(step)]
    field = ""
    for step in loc:
        field += f"[{step}]" if isinstance(step, int) else (f".{step}" if field else step)
    kind = error["type"]
    if kind in ("literal_error", "enum"):
        expected = str((error.get("ctx") or {}).get("expected", "")).replace("'", "")
        sentence = f"expected {expected}" if expected else "is not one of the allowed values"
    else:
        sentence = _PHRASES.get(kind, "is not valid here")
    code = INVALID_PARAMS if loc and loc[0] == "params" else INVALID_REQUEST
    return Refusal(code, sentence, field or None)


def _is_field(step: str) -> bool:
    """A field name, not a union branch's model name or a validator's tag (e.g. `function-after[...]`)."""
    return bool(step) and not step[0].isupper() and "[" not in step and "-" not in step
