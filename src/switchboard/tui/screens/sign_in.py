"""The sign-in pane: while an agent's OAuth flow waits for the person, the verification URL and the user code
(device code), or the URL the browser was sent to (authorization code), with buttons to copy them. It closes by
itself when the flow ends; hiding it leaves the flow waiting, and the palette's "Show the sign-in" brings it back
(the app keeps the sign-ins that wait: `waiting_sign_ins`)."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ...a2a.auth.oauth.types import DevicePrompt
from ...safe_text import strip_controls


class SignInScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "hide", "Hide", id="sign_in.hide")]

    def __init__(self, url: str, code: str | None = None, *, complete: str | None = None) -> None:
        super().__init__()
        self.url = strip_controls(url)
        self.code = strip_controls(code) if code else None
        self.complete = strip_controls(complete) if complete else None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog sign-in"):
            if self.code:
                yield Static("Sign in to reach this agent: open this address on any device", markup=False)
                yield Static(self.url, id="sign-in-url", markup=False)
                yield Label("and enter the code")
                yield Static(self.code, id="sign-in-code", markup=False)
                if self.complete:
                    yield Static(f"(or open {self.complete})", markup=False)
            else:
                yield Static("Sign in to reach this agent: your browser was sent to", markup=False)
                yield Static(self.url, id="sign-in-url", markup=False)
                yield Label("If it did not open, copy the address into a browser on this machine.")
            yield Static("Waiting for the sign-in…", classes="sign-in-waiting")
            with Horizontal(classes="dialog-buttons"):
                if self.code:
                    yield Button("Copy code", id="copy-code", variant="primary")
                yield Button("Copy address", id="copy-url")
                yield Button("Hide", id="hide")

    @on(Button.Pressed, "#copy-code")
    def copy_code(self) -> None:
        self.app.copy_to_clipboard(self.code or "")
        self.notify("code copied")

    @on(Button.Pressed, "#copy-url")
    def copy_url(self) -> None:
        self.app.copy_to_clipboard(self.complete or self.url)
        self.notify("address copied")

    @on(Button.Pressed, "#hide")
    def action_hide(self) -> None:
        self.dismiss(None)
        self.app.notify("the sign-in still waits: ctrl+p, Show the sign-in, brings it back", timeout=8)


class TuiInteraction:
    """The TUI's side of a sign-in that needs the person (a2a.auth.oauth.types.Interaction): the pane above."""

    open_browser = True

    def __init__(self, app: App) -> None:
        self.app = app
        self.screen: SignInScreen | None = None

    def _show(self, screen: SignInScreen) -> None:
        self.screen = screen
        waiting = waiting_sign_ins(self.app)
        if self not in waiting:
            waiting.append(self)
        self.app.push_screen(screen)

    @property
    def hidden(self) -> bool:
        """The flow waits, its pane hidden by the person."""
        return self.screen is not None and self.screen not in self.app.screen_stack

    def show_again(self) -> None:
        """The pane of a flow still waiting, once more (a hidden screen is not pushed twice: a new one)."""
        shown = self.screen
        if shown is not None and self.hidden:
            self._show(SignInScreen(shown.url, shown.code, complete=shown.complete))

    def device_code(self, prompt: DevicePrompt) -> None:
        self._show(SignInScreen(prompt.verification_uri, prompt.user_code, complete=prompt.verification_uri_complete))

    def authorization_url(self, url: str) -> None:
        self._show(SignInScreen(url))

    def done(self) -> None:
        screen, self.screen = self.screen, None
        waiting = waiting_sign_ins(self.app)
        if self in waiting:
            waiting.remove(self)
        if screen is not None and self.app.screen_stack[-1:] == [screen]:  # an app that quit has no screens
            screen.dismiss(None)

    def warn(self, text: str) -> None:
        self.app.notify(text, severity="warning")


def waiting_sign_ins(app: App) -> list[TuiInteraction]:
    """The sign-ins of `app` that wait for the person (kept on the app: a pane hidden can be shown again)."""
    waiting: list[TuiInteraction] | None = getattr(app, "waiting_sign_ins", None)
    if waiting is None:
        waiting = []
        app.waiting_sign_ins = waiting  # type: ignore[attr-defined]
    return waiting
