"""The parts of a message to an agent, from a tool's validated arguments or an elicitation's answer."""

from __future__ import annotations

from typing import Any

from ..a2a.model import DataPart, FilePart, Part, TextPart
from ..a2a.user_input import check_message_texts
from .arguments import FileArgument

ANSWER_FIELD = "answer"


def message_parts(text: str | None, data: dict[str, Any] | None, files: list[FileArgument] | None = None) -> list[Part]:
    """The text, then the data, then the files, as the host gave them (texts checked as typed messages are)."""
    parts: list[Part] = []
    if text:
        check_message_texts([text])
        parts.append(TextPart(text=text))
    if data is not None:
        parts.append(DataPart(data=data))
    for file in files or []:
        if file.uri is not None:
            parts.append(FilePart(url=file.uri, name=file.name, media_type=file.media_type))
        else:
            parts.append(FilePart(raw=file.bytes, name=file.name, media_type=file.media_type))
    return parts


def answer_schema(question: str, choices: list[str]) -> dict[str, Any]:
    """The form put to the person: one answer, a choice among the agent's when its question offers some."""
    answer: dict[str, Any] = {"type": "string", "title": "Your answer", "description": question[:1000]}
    if choices:
        answer["enum"] = choices
    return {"type": "object", "properties": {ANSWER_FIELD: answer}, "required": [ANSWER_FIELD]}


def answer_parts(content: dict[str, Any] | None) -> list[Part]:
    """The person's answer as a message: its text (a form's other fields, if any, as data)."""
    content = dict(content or {})
    answer = content.pop(ANSWER_FIELD, None)
    text = answer if isinstance(answer, str) else ("" if answer is None else str(answer))
    return message_parts(text or None, content or None) or [TextPart(text="")]
