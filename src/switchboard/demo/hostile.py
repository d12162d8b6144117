"""hostile: an agent whose every string is an attack on the terminal showing it. Not part of the default fleet.

Its card (name, description, skills), its status messages and its artifacts carry Rich markup, ANSI CSI and
OSC sequences (colours, a window title, a hyperlink, clear-screen), carriage returns, backspaces, NUL, a bidi
override and a 100,000-character line. A client must show all of it as inert text. Serve it with
`start_in_background(first_port=0, agents=(hostile.AGENT,))`.
"""

from __future__ import annotations

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, data, skill, text

MARKUP = "[bold red]x[/]"
LINK_MARKUP = "[link=http://evil.example]click[/link]"
JUNK = (
    f"{MARKUP} {LINK_MARKUP} \x1b[31mred\x1b[0m \x1b]0;pwned\x07 \x1b]8;;http://evil\x07link\x1b]8;;\x07 "
    "\x1b[2J over\rwrite back\bspace nul\x00byte \u202eevil\u202c \x9b31m"
)
LONG_LINE = "L" * 100_000
ARTIFACT_ID = "hostile-artifact"
DESCRIPTION = "Every string it sends is hostile: markup, escape sequences, control characters, a 100k line."


class HostileExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        await turn.working(f"working {JUNK}")
        await turn.artifact([text(f"# {MARKUP}\n\n{JUNK}\n")], artifact_id=ARTIFACT_ID, name=JUNK, last_chunk=False)
        await turn.artifact([text(LONG_LINE + "\n")], artifact_id=ARTIFACT_ID, name=JUNK, append=True, last_chunk=False)
        await turn.artifact(
            [text(f"end {JUNK}"), data({"junk": JUNK, MARKUP: [JUNK]})],
            artifact_id=ARTIFACT_ID,
            name=JUNK,
            append=True,
        )
        await turn.status(State.TASK_STATE_COMPLETED, f"done {JUNK}", text(LONG_LINE))


def build(url: str, settings: DemoSettings) -> ServedApp:
    example = f"say {MARKUP}"
    card = agent_card(
        name=f"Hostile {MARKUP} \x1b]0;pwned\x07\x1b[31m",
        description=f"{DESCRIPTION} {JUNK} {LONG_LINE}",
        url=url,
        skills=[
            # Two skills share an example: a list keyed by example text must not trip over the duplicate.
            skill("junk", f"Junk {MARKUP}", f"Sends junk. {JUNK}", [example, JUNK], [MARKUP, "\x1b[2J"]),
            skill("more-junk", f"More {LINK_MARKUP}", JUNK, [example], ["junk"]),
        ],
    )
    return a2a_app(card, HostileExecutor())


AGENT = DemoAgent("hostile", DESCRIPTION, build)
