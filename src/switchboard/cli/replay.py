"""`switchboard replay FILE`: a recording played again in the TUI. The file is read by demo.recording_file (also
for `demo --replay FILE`): bounded, checked where it enters, every problem a usage error."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..a2a.errors import UsageError
from ..demo.recording_file import HOW as _HOW
from ..demo.recording_file import read_recording

if TYPE_CHECKING:
    from .groups.replay import ReplayOptions

__all__ = ["read_recording", "replay"]


async def replay(args: ReplayOptions) -> int:
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
