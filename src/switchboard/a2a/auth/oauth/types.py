"""The light types of OAuth sign-in, for code that passes them along without running a flow (the workflow engine,
the command line, the TUI): how a flow talks to the person (`Interaction`, shown a `DevicePrompt`), and where
remembered tokens live (`TokenStore`). Importing this loads neither httpx nor authlib."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Interaction(Protocol):
    """How a flow that needs the person talks to them: the CLI prints to stderr, the TUI shows a pane."""

    open_browser: bool

    def device_code(self, prompt: DevicePrompt) -> None: ...

    def authorization_url(self, url: str) -> None: ...

    def done(self) -> None: ...


class TokenStore(Protocol):
    """Where remembered tokens live (token_store.py): the OS keyring, or a 0600 file."""

    def load(self, key: str) -> dict[str, Any] | None: ...

    def save(self, key: str, token: dict[str, Any]) -> None: ...

    def delete(self, key: str) -> bool: ...


@dataclass(frozen=True)
class DevicePrompt:
    verification_uri: str
    user_code: str
    verification_uri_complete: str | None
    expires_in: int
