"""The Markdown export: the story of the exchanges, readable as plain text and rendered anywhere.

Agent text is the agent's Markdown and stays so, with two exceptions: control characters go, and raw HTML tags
are written as text (`&lt;b>`), so a viewer that renders HTML shows the agent's markup instead of obeying it.
A file sent by URL is a link; a file sent inline is an attachment written beside the export (`NAME.files/`),
or, with nowhere to write it, named with its size.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..a2a.model import DataPart, FilePart, Part, TextPart
from ..safe_text import strip_controls
from .story import AgentMessage, ArtifactBlock, Section, StateLine, Story, clock, tell
from .transcript import Transcript

_CODE = re.compile(r"(```.*?(?:```|\Z)|`[^`\n]*`)", re.DOTALL)
_TAG = re.compile(r"<(?=[A-Za-z/!?])")


@dataclass
class Rendered:
    text: str
    attachments: dict[str, bytes] = field(default_factory=dict)  # path relative to the export -> content


def plain(text: str) -> str:
    """Agent text made safe for Markdown: no control characters, HTML tags as text outside code."""
    pieces = _CODE.split(strip_controls(text))
    return "".join(p if i % 2 else _TAG.sub("&lt;", p) for i, p in enumerate(pieces))


def _inline(text: str) -> str:
    """Text for one line (a heading, a list item): its own line breaks become spaces."""
    return plain(text).replace("\n", " ").strip()


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in plain(text).rstrip("\n").split("\n"))


def _safe_file_name(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "-_." else "_" for c in strip_controls(name)).strip("._")
    return cleaned[:100] or "file"


class _Writer:
    def __init__(self, attachments_dir: str | None) -> None:
        self.lines: list[str] = []
        self.attachments: dict[str, bytes] = {}
        self.attachments_dir = attachments_dir

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def parts(self, parts: list[Part], *, quoted: bool = False) -> None:
        for part in parts:
            if isinstance(part, TextPart):
                if part.text:
                    self.add(_quote(part.text) if quoted else plain(part.text).rstrip("\n"), "")
            elif isinstance(part, FilePart):
                self.add(self.file(part), "")
            elif isinstance(part, DataPart):
                data = json.dumps(part.data, ensure_ascii=False, indent=2).replace("```", "`\u200b``")
                self.add("```json", strip_controls(data), "```", "")

    def file(self, part: FilePart) -> str:
        name = _inline(part.name or "file")
        media = f" ({_inline(part.media_type)})" if part.media_type else ""
        if part.url:
            return f"📎 [{name}](<{part.url.replace('>', '%3E').replace(' ', '%20')}>){media}"
        content = part.content
        if content is None:
            return f"📎 {name}{media}: no content"
        if self.attachments_dir is None:
            return f"📎 {name}{media}: {len(content)} bytes sent inline (not attached)"
        path = f"{self.attachments_dir}/{len(self.attachments) + 1:02d}-{_safe_file_name(part.name or 'file')}"
        self.attachments[path] = content
        return f"📎 [{name}](<{path}>){media}, {len(content)} bytes"


def _head(out: _Writer, story: Story) -> None:
    out.add(f"# {_inline(story.title)}", "")
    out.add(f"Exported {story.exported_at} by a2a-switchboard. Secrets are shown as [redacted].", "")
    if story.agents:
        out.add(*[f"- **{_inline(n)}** {f'<{u}>' if u else ''}".rstrip() for n, u in story.agents.items()], "")
    run = story.run
    if run:
        out.add(f"Run `{run.get('runId')}` of **{_inline(str(run.get('workflow', '')))}**: {run.get('status')}", "")
        for name, value in (run.get("inputs") or {}).items():
            out.add(f"- input **{_inline(name)}**: {_inline(str(value))}")
        out.add("")
        steps = run.get("steps") or {}
        if steps:
            out.add("| step | agent | status |", "| --- | --- | --- |")
            for name, step in steps.items():
                cells = [name, step.get("agent") or step.get("type", ""), step.get("status", "")]
                out.add("| " + " | ".join(_inline(str(c)).replace("|", "\\|") for c in cells) + " |")
            out.add("")


def _section(out: _Writer, section: Section) -> None:
    who = f"step {section.step}" + (f" (attempt {section.attempt})" if section.attempt else "") if section.step else ""
    title = f"{section.number}. {_inline(section.agent)}" + (f" · {_inline(who)}" if who else "")
    out.add(f"## {title}", "")
    when = clock(section.sent_at)
    if section.sent is None:
        out.add(f"*Followed the task already running{' at ' + when if when else ''}.*", "")
    else:
        label = "You answered" if section.answering else "You"
        out.add(f"**{label}**{' at ' + when if when else ''}:", "")
        if section.secret:
            out.add("> (a credential, not shown)", "")
        else:
            out.parts(section.sent, quoted=True)
    for item in section.items:
        if isinstance(item, StateLine):
            out.add(f"- `{item.state}` at {clock(item.at)}")
            if any(isinstance(p, TextPart) and p.text for p in item.parts) or len(item.parts) > 1:
                out.add("")
                out.parts(item.parts, quoted=True)
        elif isinstance(item, AgentMessage):
            out.add("", f"**{_inline(section.agent)}** at {clock(item.at)}:", "")
            out.parts(item.parts, quoted=True)
    out.add("")
    for artifact in section.artifacts:
        _artifact(out, artifact)
    if section.asked is not None:
        state, question = section.asked
        out.add(f"**{_inline(section.agent)} asks** (`{state}`):", "")
        if question:
            out.parts(question, quoted=True)
        else:
            out.add("> (no question text)", "")
    if section.error:
        out.add(f"**Error** `{_inline(section.error.get('code', ''))}`: {_inline(section.error.get('message', ''))}")
        if section.error.get("hint"):
            out.add(f"*{_inline(section.error['hint'])}*")
        out.add("")
    for notice in section.notices:
        out.add(f"- note: {_inline(notice)}")
    if section.notices:
        out.add("")
    if not section.complete:
        out.add("*The stream was larger than a recording keeps: its artifacts are shown as the task ended.*", "")
    ids = " · ".join(f"{k} `{v}`" for k, v in (("task", section.task_id), ("context", section.context_id)) if v)
    out.add(f"Outcome: **{section.outcome or 'no answer'}**" + (f" · {ids}" if ids else ""), "")


def _artifact(out: _Writer, artifact: ArtifactBlock) -> None:
    out.add(f"### Artifact: {_inline(artifact.name or artifact.artifact_id)}", "")
    if artifact.description:
        out.add(f"*{_inline(artifact.description)}*", "")
    out.parts(artifact.parts)


def render(transcript: Transcript, attachments_dir: str | None = None) -> Rendered:
    """The transcript as Markdown; inline files go to `attachments_dir` (relative to the export) when given."""
    story = tell(transcript)
    out = _Writer(attachments_dir)
    _head(out, story)
    for section in story.sections:
        _section(out, section)
    text = "\n".join(out.lines).rstrip("\n") + "\n"
    return Rendered(text, out.attachments)
