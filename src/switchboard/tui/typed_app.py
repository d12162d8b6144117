"""`self.app` typed as the SwitchboardApp, for the widgets and screens that read its attributes.

Textual types `self.app` as a plain `App`, so `self.app.tap` or `self.app.agents()` are not checked. A class
that reads them says `app = switchboard_app`. For the type checker that is Textual's own `getters.app` with our
app's class; at run time it is Textual's `app` property itself, unchanged. (`getters.app(SwitchboardApp)` at run
time would need the app's class while the widget's class is made, and app.py imports widgets: a cycle.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import App
from textual.message_pump import MessagePump

if TYPE_CHECKING:
    from textual import getters

    from .app import SwitchboardApp

    switchboard_app = getters.app(SwitchboardApp)
else:
    switchboard_app = MessagePump.app


def app_of(app: App[object]) -> SwitchboardApp:
    """The same for what is not a widget or screen, and is given Textual's plain `App` (the palette's commands)."""
    return cast("SwitchboardApp", app)
