"""The nudge when something new starts waiting: a toast in the app, and while the app is not focused (Textual's
AppBlur/AppFocus), the terminal's bell and desktop notification (escapes from sanitized text: inbox/nudge.py)
and the person's notify command. Each one can be turned off in the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..inbox.item import InboxItem
from ..inbox.nudge import command_argv, describe, run_notify_command, terminal_escapes
from ..safe_text import strip_controls

if TYPE_CHECKING:
    from .app import SwitchboardApp


class Nudge:
    def __init__(self, app: SwitchboardApp) -> None:
        self.app = app
        self.sent: list[str] = []  # the ids nudged outside the app (the tests read it)

    def new_item(self, item: InboxItem, *, said_by_tab: bool) -> None:
        """Something new waits: a toast (unless its own tab says it), and outside the app while it is not focused."""
        settings = self.app.settings
        if settings.notify_toast and not said_by_tab:
            title, _ = describe(item)
            self.app.notify(strip_controls(item.first_line), title=title, markup=False, timeout=8)
        if self.app.app_focus:
            return
        escapes = terminal_escapes(item, bell=settings.notify_bell, desktop=settings.notify_desktop)
        if escapes:
            self.app.write_to_terminal(escapes)
        argv = command_argv(settings.notify_command)
        if argv:
            self.app.run_worker(self._run(argv, item), group="notify-command", exit_on_error=False)
        self.sent.append(item.id)

    async def _run(self, argv: list[str], item: InboxItem) -> None:
        problem = await run_notify_command(argv, item)
        if problem is not None:
            self.app.notify(problem, severity="warning", markup=False)
