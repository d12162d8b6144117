"""Reading a recording for `demo --replay FILE` and `switchboard replay FILE`: a JSON transcript, checked where it
enters, every problem a usage error that says how to get a file that works."""

from __future__ import annotations

import json
from pathlib import Path

from ..a2a.errors import UsageError
from ..export.transcript import Transcript

_HOW = (
    "Record one with `switchboard send AGENT TEXT --record FILE.json`, "
    "or export a run with `switchboard export RUN --out FILE.json`."
)


def read_recording(path: Path) -> Transcript:
    """The transcript in `path`; UsageError for a missing, unreadable or foreign file."""
    from ..export.json_doc import TranscriptError, load

    if path.is_dir():
        raise UsageError(f"{path} is a directory, not a recording", hint=_HOW)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read the recording {path}: {exc.strerror or exc}", hint=_HOW) from None
    if path.suffix.lower() in (".har", ".md", ".markdown", ".html", ".htm"):
        raise UsageError(
            f"{path.name} is a {path.suffix} export; only a JSON transcript holds the events a replay plays", hint=_HOW
        )
    try:
        doc = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path} is not JSON ({exc})", hint=_HOW) from None
    try:
        return load(doc)
    except TranscriptError as exc:
        raise UsageError(f"{path} is not a recording switchboard can replay: {exc}", hint=_HOW) from None


async def replay(args) -> int:
    """`switchboard replay FILE`: the recording played again in the TUI, read-only."""
    import sys

    from ..web.session import web_session

    source = Path(args.file).expanduser()
    transcript = read_recording(source)
    if not (web_session() or (sys.stdin.isatty() and sys.stdout.isatty())):
        raise UsageError(
            "replay opens the TUI, and there is no terminal here",
            hint=f"Run it in a terminal, or serve the recording headless: switchboard demo --replay {args.file}",
        )
    from ..demo.fleet import start_in_background
    from ..demo.replay import replay_agents
    from ..tui.replay import ReplayApp, steps_of

    paced = args.pace == "original"
    agents = replay_agents(transcript, source, paced=paced)
    if not agents:
        raise UsageError(f"{args.file} holds no message sent to an agent: nothing to replay", hint=_HOW)
    fleet = start_in_background(first_port=0, agents=agents, write_file=False)
    try:
        app = ReplayApp(steps_of(transcript), [a.as_entry() for a in fleet.agents], source, paced=paced)
        await app.run_async()
    finally:
        fleet.stop()
    return app.return_code or 0
