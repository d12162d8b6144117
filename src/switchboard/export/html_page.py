"""The HTML export: one self-contained page. Nothing on it loads from a network (its Content-Security-Policy
forbids it: styles are inline, images only data: URLs), and every text the agent wrote is escaped, so its
markup shows as text. A file sent inline is a download link holding the file (a data: URL); a file sent by URL
is a plain link, followed only if the reader clicks it.
"""

from __future__ import annotations

import json
from html import escape

from ..a2a.model import DataPart, FilePart, Part, TextPart
from ..safe_text import strip_controls
from .story import AgentMessage, ArtifactBlock, Section, StateLine, Story, clock, tell
from .transcript import Transcript

INCOMPLETE = "The stream was larger than a recording keeps: its artifacts are shown as the task ended."
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #1d2329; background: #fbfbfa; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; border-top: 1px solid #d8dde3; padding-top: 1rem; }
h3 { font-size: 1rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; }
.sent, .said { border-left: 3px solid #4a7bd0; padding: .2rem .8rem; background: #eef3fb; }
.said { border-color: #7a6fc4; background: #f2f0fb; }
.asked { border-left: 3px solid #c98a12; padding: .2rem .8rem; background: #fbf4e6; }
.artifact { border: 1px solid #d8dde3; padding: .5rem .8rem; background: #fff; }
.state { font-family: ui-monospace, monospace; font-size: .9em; padding: 0 .3rem; border-radius: 3px;
         background: #e6e9ed; }
.state.completed { background: #d9f0dc; } .state.failed, .state.rejected { background: #f7dada; }
.state.input-required, .state.auth-required { background: #fbeccb; }
.muted { color: #66707a; font-size: .9em; } .error { color: #a31d1d; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.picture { overflow-x: auto; } .picture text { font-family: system-ui, sans-serif; }
table { border-collapse: collapse; } td, th { border: 1px solid #d8dde3; padding: .2rem .5rem; text-align: left; }
"""


def _e(text: str) -> str:
    return escape(strip_controls(text), quote=True)


def _parts(parts: list[Part]) -> str:
    out = []
    for part in parts:
        if isinstance(part, TextPart):
            if part.text:
                out.append(f'<div class="text">{_e(part.text)}</div>')
        elif isinstance(part, FilePart):
            out.append(f"<p>{_file(part)}</p>")
        elif isinstance(part, DataPart):
            out.append(f"<pre>{_e(json.dumps(part.data, ensure_ascii=False, indent=2))}</pre>")
    return "".join(out)


def _file(part: FilePart) -> str:
    name = _e(part.name or "file")
    media = f' <span class="muted">({_e(part.media_type)})</span>' if part.media_type else ""
    if part.url:
        return f'📎 <a href="{_e(part.url)}" rel="noreferrer noopener">{name}</a>{media}'
    if part.raw is None or part.content is None:
        return f"📎 {name}{media}: no content"
    # The media type only names the file: a download never runs in this page.
    href = f"data:application/octet-stream;base64,{_e(part.raw)}"
    return f'📎 <a download="{name}" href="{href}">{name}</a>{media} <span class="muted">{part.size} bytes</span>'


def _state(state: str) -> str:
    return f'<span class="state {_e(state)}">{_e(state)}</span>'


def _head(story: Story) -> list[str]:
    out = [f"<h1>{_e(story.title)}</h1>"]
    out.append(f'<p class="muted">Exported {_e(story.exported_at)} by a2a-switchboard. Secrets show as [redacted].</p>')
    if story.agents:
        items = "".join(f"<li><b>{_e(n)}</b> <span class='muted'>{_e(u)}</span></li>" for n, u in story.agents.items())
        out.append(f"<ul>{items}</ul>")
    run = story.run
    if run:
        out.append(
            f"<p>Run <code>{_e(str(run.get('runId')))}</code> of <b>{_e(str(run.get('workflow', '')))}</b>: "
            f"{_state(str(run.get('status', '')))}</p>"
        )
        inputs = run.get("inputs") or {}
        if inputs:
            out.append("<ul>" + "".join(f"<li>input <b>{_e(k)}</b>: {_e(str(v))}</li>" for k, v in inputs.items()))
            out.append("</ul>")
        steps = run.get("steps") or {}
        if steps:
            rows = "".join(
                f"<tr><td>{_e(n)}</td><td>{_e(str(s.get('agent') or s.get('type', '')))}</td>"
                f"<td>{_state(str(s.get('status', '')))}</td></tr>"
                for n, s in steps.items()
            )
            out.append(f"<table><tr><th>step</th><th>agent</th><th>status</th></tr>{rows}</table>")
            out += _picture(steps, run.get("timeline") or {})
    return out


def _picture(steps: dict, timeline: dict) -> list[str]:
    """The run's dependency graph and timeline, as inline SVG."""
    from .run_svg import graph_svg, timeline_svg

    out = ["<h2>The run</h2>", f'<div class="picture">{graph_svg(steps)}</div>']
    drawn = timeline_svg(steps, timeline)
    if drawn:
        out.append(f'<h3>Timeline</h3><div class="picture">{drawn}</div>')
    return out


def _section(section: Section) -> list[str]:
    who = f" · step {_e(section.step)}" if section.step else ""
    if section.attempt:
        who += f" (attempt {section.attempt})"
    out = [f'<section id="exchange-{section.number}"><h2>{section.number}. {_e(section.agent)}{who}</h2>']
    when = f' <span class="muted">at {_e(clock(section.sent_at))}</span>' if section.sent_at else ""
    if section.sent is None:
        out.append(f'<p class="muted">Followed the task already running{when}.</p>')
    else:
        label = "You answered" if section.answering else "You"
        body = '<div class="text">(a credential, not shown)</div>' if section.secret else _parts(section.sent)
        out.append(f'<div class="sent"><b>{label}</b>{when}{body}</div>')
    lines = []
    for item in section.items:
        if isinstance(item, StateLine):
            lines.append(f"<li>{_state(item.state)} <span class='muted'>at {_e(clock(item.at))}</span>")
            lines.append(f"{_parts(item.parts)}</li>")
        elif isinstance(item, AgentMessage):
            lines.append(
                f'<li><div class="said"><b>{_e(section.agent)}</b> <span class="muted">at {_e(clock(item.at))}'
                f"</span>{_parts(item.parts)}</div></li>"
            )
    if lines:
        out.append("<ul>" + "".join(lines) + "</ul>")
    for artifact in section.artifacts:
        out += _artifact(artifact)
    if section.asked is not None:
        state, question = section.asked
        out.append(
            f'<div class="asked"><b>{_e(section.agent)} asks</b> {_state(state)}'
            f"{_parts(question) or '<div class=text>(no question text)</div>'}</div>"
        )
    if section.error:
        hint = f"<br><i>{_e(section.error['hint'])}</i>" if section.error.get("hint") else ""
        out.append(
            f'<p class="error"><b>Error</b> <code>{_e(section.error.get("code", ""))}</code>: '
            f"{_e(section.error.get('message', ''))}{hint}</p>"
        )
    if section.notices:
        out.append("<ul class='muted'>" + "".join(f"<li>note: {_e(n)}</li>" for n in section.notices) + "</ul>")
    if not section.complete:
        out.append(f'<p class="muted">{INCOMPLETE}</p>')
    ids = " · ".join(
        f"{k} <code>{_e(v)}</code>" for k, v in (("task", section.task_id), ("context", section.context_id)) if v
    )
    out.append(f"<p>Outcome: {_state(section.outcome or 'no answer')} <span class='muted'>{ids}</span></p></section>")
    return out


def _artifact(artifact: ArtifactBlock) -> list[str]:
    out = [f'<div class="artifact"><h3>Artifact: {_e(artifact.name or artifact.artifact_id)}</h3>']
    if artifact.description:
        out.append(f'<p class="muted">{_e(artifact.description)}</p>')
    out.append(_parts(artifact.parts) + "</div>")
    return out


def render(transcript: Transcript) -> str:
    story = tell(transcript)
    body = _head(story)
    for section in story.sections:
        body += _section(section)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(story.title)}</title>\n<style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
