"""The Textual app: one main screen with the agents and a tab per conversation, a wire view, the palette."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from textual.app import App
from textual.binding import Binding

from ..a2a.http import new_http_client
from ..a2a.tap import Tap
from ..agent_http import known_secrets
from ..agent_status import AgentStatus, check_agent
from ..agents import AgentEntry, AgentsFile, load_agents
from ..config import load_settings, save_settings
from ..link import AgentLink, entry_credentials, open_link
from .commands import SwitchboardCommands
from .textual_private import read_escape_enter_as_alt_enter
from .themes import load_themes, state_defaults
from .widgets.wire_view import BODY_KEPT, TAP_BYTES

if TYPE_CHECKING:
    from temporalio.client import Client as TemporalClient  # the Temporal runner is an extra: imported when used

    from ..push.receiver import PushReceiver
    from .open_work import OpenWork

Checker = Callable[[AgentEntry], Awaitable[AgentStatus]]
LinkOpener = Callable[[AgentEntry], Awaitable[AgentLink]]
DEFAULT_THEME = "switchboard"
GEN0_THRESHOLD = 10_000  # allocations between young collections (Python's default is 700)


def hidden_notice(name: str) -> str:
    """What the person is told when their agents file's `name` hides the demo agent of that name."""
    return (
        f"Your agents file names {name}, as the demo fleet does: its entry is listed, the demo's {name} is not "
        "(rename one to see both)."
    )


class SwitchboardApp(App):
    a2ui_off = False  # `switchboard --no-a2ui`: no forms this session, whatever the settings say
    TITLE = "switchboard"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {SwitchboardCommands}
    # Below 22 rows a screen is `-short` (app.tcss): what can go goes, so the transcript and the fields keep room.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (22, "-tall")]
    BINDINGS = [
        Binding("f2", "toggle_wire", "Wire", id="toggle_wire"),
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
        # Priority: the focus moves when the app reads the key, so keys typed right after a Tab go to the next
        # field. Left to the focused widget, they were already queued to it (a URL got the name typed after it).
        Binding("tab", "focus_next", "Next field", id="focus.next", show=False, priority=True),
        Binding("shift+tab", "focus_previous", "Previous field", id="focus.previous", show=False, priority=True),
    ]

    def __init__(
        self,
        agents_path: Path,
        *,
        settings_path: Path | None = None,
        checker: Checker | None = None,
        link_opener: LinkOpener | None = None,
        http: httpx.AsyncClient | None = None,
        subtitle: str = "",
        steady: bool = False,
        extra_agents: list[AgentEntry] | None = None,
        tune_gc: bool = False,
        temporal: str | None = None,
        clock: Callable[[], float] | None = None,
        runs_extra_agents: bool = False,
    ) -> None:
        """`checker` and `link_opener` stand in for the network (scenes, tests); `steady` turns off cursor
        blinking so screenshots are the same every time. `extra_agents` (the demo fleet) are listed after the
        agents file's own, and never written to it; `runs_extra_agents` says this process runs them (the fleet
        `--demo` started stops when the app quits, and their tasks end with it). `clock` (epoch seconds; scenes
        fix it) is what the inbox measures waiting against. `tune_gc` (the real start, and the benchmarks): see
        `_tune_gc`; tests leave the collector of the process they share alone."""
        super().__init__()
        read_escape_enter_as_alt_enter()  # a new line in the message box under tmux too (textual_private.py)
        self.agents_path = agents_path
        self.settings_path = settings_path
        self.settings, self.startup_warnings = load_settings(settings_path)
        self.registry: AgentsFile = load_agents(agents_path)
        self.startup_warnings += self.registry.warnings
        # The wire view is the only reader of the app's tap: bodies are kept as far as it reads them.
        self.tap = Tap(max_records=self.settings.wire_records, max_body=BODY_KEPT, max_bytes=TAP_BYTES)
        self.http = http or new_http_client()
        self._checker = checker
        self._link_opener = link_opener
        self.steady = steady
        self.extra_agents = list(extra_agents or [])
        self.runs_extra_agents = runs_extra_agents
        self._tune = tune_gc
        self.clock = clock or time.time
        self.temporal_address = self._temporal_address(temporal or self.settings.temporal)
        self._temporal_client: TemporalClient | None = None
        self._push_receiver: PushReceiver | None = None
        self._push_lock = asyncio.Lock()
        self._register_secrets()
        self.startup_warnings += [hidden_notice(name) for name in self.hidden_extras()]
        self.sub_title = subtitle or str(agents_path)

    # --- a Temporal server's runs ----------------------------------------------------------------------

    def _temporal_address(self, given: str | None) -> str | None:
        """The Temporal server whose runs the Workflows tab lists too: checked here, a bad one said at start."""
        if not given:
            return None
        from ..workflow.temporal import check_address

        try:
            address = check_address(given)
        except ValueError as exc:
            self.startup_warnings.append(f"temporal: {exc}; only local runs are listed")
            return None
        if importlib.util.find_spec("temporalio") is None:
            self.startup_warnings.append(
                f"temporal: {address} is set, but the Temporal runner is not installed "
                '(pip install "a2a-switchboard[temporal]"); only local runs are listed'
            )
            return None
        return address

    async def temporal_client(self) -> TemporalClient:
        """The client of the Temporal server (connected once); TemporalUnreachable when it cannot be reached."""
        if self._temporal_client is None:
            from ..workflow.temporal.client import connect

            assert self.temporal_address is not None
            self._temporal_client = await connect(self.temporal_address, self.settings.temporal_namespace)
        return self._temporal_client

    # --- theme and keys ------------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Asked again whenever the theme changes: a light theme of Textual's own gets the darker state colours.
        theme = self.get_theme(self.theme) if getattr(self, "theme", None) else None
        return state_defaults(theme.dark if theme is not None else True)

    def on_mount(self) -> None:
        themes, warnings = load_themes()
        for theme in themes:
            self.register_theme(theme)
        self.startup_warnings += warnings
        own = {theme.name for theme in themes}
        wanted = self.settings.theme
        if wanted not in own:
            self.startup_warnings.append(
                f"theme {wanted} is not one of switchboard's or yours: {DEFAULT_THEME} is used"
            )
        self.theme = wanted if wanted in own else DEFAULT_THEME
        # The theme list holds the shipped themes and the person's own (the README's): Textual's twenty-odd, never
        # checked against this app's colours, go once one of ours is set (Textual falls back on them until then).
        for name in [name for name in self.available_themes if name not in own]:
            self.unregister_theme(name)
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)
        from .screens.main import MainScreen

        self.push_screen(MainScreen())
        for warning in self.startup_warnings:
            self.notify(warning, severity="warning", timeout=8)
        if self._tune:
            self.call_after_refresh(self._tune_gc)

    def _tune_gc(self) -> None:
        """Once the first screen is up: the objects alive then (Textual, the models' schemas, the first
        widgets; a few hundred thousand) are moved out of the collector's reach, and young collections run
        less often. A full collection walks every tracked object: under a flood of events they came every
        second or so and each stopped the screen for up to a second, most of it walking start-up objects
        that never become garbage."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(GEN0_THRESHOLD, *gc.get_threshold()[1:])

    def watch_theme(self, theme: str) -> None:
        """Remember the chosen theme for the next start."""
        if getattr(self, "settings", None) is None or self.settings.theme == theme:
            return
        self.settings = self.settings.model_copy(update={"theme": theme})
        try:
            save_settings(self.settings, self.settings_path)
        except OSError as exc:
            self.notify(f"could not save the theme choice: {exc}", severity="warning")

    # --- agents --------------------------------------------------------------------------------------

    async def check(self, entry: AgentEntry) -> AgentStatus:
        if self._checker is not None:
            return await self._checker(entry)
        return await check_agent(entry, self.http, self.tap)

    async def open_link(self, entry: AgentEntry) -> AgentLink:
        if self._link_opener is not None:
            return await self._link_opener(entry)
        from .screens.sign_in import TuiInteraction

        credentials = entry_credentials(entry, interaction=TuiInteraction(self))  # OAuth sign-ins show a pane
        return await open_link(entry, http=self.http, tap=self.tap, credentials=credentials, a2ui=self.draws_a2ui)

    @property
    def draws_a2ui(self) -> bool:
        """A2UI surfaces drawn as forms (and announced to agents): the setting, unless --no-a2ui said otherwise."""
        return self.settings.a2ui and not self.a2ui_off

    def agents(self) -> list[AgentEntry]:
        """The agents file's entries, then the extra (demo) agents whose names it does not use: the person's own
        file wins, and hidden_extras() names the agents it hides."""
        own = {entry.name for entry in self.registry.agents}
        return self.registry.agents + [entry for entry in self.extra_agents if entry.name not in own]

    def hidden_extras(self) -> list[str]:
        """The extra (demo) agents not listed because the agents file has an entry of the same name."""
        own = {entry.name for entry in self.registry.agents}
        return [entry.name for entry in self.extra_agents if entry.name in own]

    def _register_secrets(self) -> None:
        """Every secret the agents lead to goes to the redactor before the first request (cards quote them)."""
        for entry in self.registry.agents + self.extra_agents:
            self.tap.redactor.add(*known_secrets(entry))

    def is_extra(self, name: str) -> bool:
        return self.registry.find(name) is None and any(e.name == name for e in self.extra_agents)

    def ends_with_app(self, name: str) -> bool:
        """The agent is one of the demo fleet this app started: it stops (and its tasks end) when the app quits."""
        return self.runs_extra_agents and self.is_extra(name)

    def ends_with_app_at(self, url: str) -> bool:
        """The address is that of an agent of the demo fleet this app started: its tasks end when the app quits."""
        url = url.rstrip("/")
        return self.runs_extra_agents and any(entry.url.rstrip("/") == url for entry in self.extra_agents)

    def reload_registry(self, registry: AgentsFile) -> None:
        hidden = set(self.hidden_extras())
        self.registry = registry
        self._register_secrets()
        for name in self.hidden_extras():
            if name not in hidden:  # an agent added under a demo agent's name
                self.notify(hidden_notice(name), severity="warning", timeout=10, markup=False)

    async def action_quit(self) -> None:
        """Quit; with tasks still open at their agents (or runs going), ask first: cancel, leave, or stay."""
        from .screens.leave import LeaveWorkScreen
        from .screens.main import MainScreen

        if isinstance(self.screen, LeaveWorkScreen):
            return  # already asking
        main = next((s for s in self.screen_stack if isinstance(s, MainScreen)), None)
        work = main.open_work() if main is not None else []
        if not work:
            self.exit()
            return

        def chosen(choice: str | None) -> None:
            if choice in ("cancel", "leave"):
                self.run_worker(self._quit_letting_go(work, choice), group="quit")

        self.push_screen(LeaveWorkScreen(work, quitting=True), chosen)

    async def _quit_letting_go(self, work: list[OpenWork], choice: str) -> None:
        from .screens.leave import cancel_all, leave_all

        if choice == "cancel":
            self.notify("canceling before quitting… (the agents' answers may take a while)", timeout=30)
            outcome = await cancel_all(work)
        else:
            outcome = await leave_all(work, quitting=True)
        self.exit(message="\n".join(outcome))  # printed once the screen is given back to the shell

    def action_toggle_wire(self) -> None:
        from .screens.main import MainScreen

        if isinstance(self.screen, MainScreen):
            self.screen.toggle_wire()

    def write_to_terminal(self, data: str) -> None:
        """Raw bytes for the terminal itself (the inbox's bell and notification escapes; the caller sanitized
        every untrusted character in them)."""
        if self._driver is not None:
            self._driver.write(data)
            self._driver.flush()

    async def push_receiver(self) -> PushReceiver:
        """The receiver of this app's push configs (push/receiver.py), on 127.0.0.1: started when a tab first needs one,
        shared by every tab (each config has its own token), closed with the app."""
        async with self._push_lock:
            if self._push_receiver is None:
                from ..push.receiver import PushReceiver

                receiver = PushReceiver(redactor=self.tap.redactor)
                await receiver.start()
                self._push_receiver = receiver
            return self._push_receiver

    async def on_unmount(self) -> None:
        if self._push_receiver is not None:
            await self._push_receiver.aclose()
        await self.http.aclose()
