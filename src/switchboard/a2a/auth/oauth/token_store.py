"""Remembered OAuth tokens (`auth login --remember`): in the OS keyring, or, on a box without one (a headless
server: keyring raises NoKeyringError), in a file readable by its owner only (0600), with a warning naming it.
Never a silent plain file: the warning comes every time the file is written."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

SERVICE = "a2a-switchboard"
FILE_NAME = "oauth-tokens.json"


class _Keyring(Protocol):
    """What is used of the `keyring` module (which ships no type information)."""

    def get_password(self, service_name: str, username: str) -> str | None: ...

    def set_password(self, service_name: str, username: str, password: str) -> None: ...

    def delete_password(self, service_name: str, username: str) -> None: ...


class TokenStore:
    """load/save/delete by key (see TokenSource.key); `where` says where tokens went, for the person."""

    def __init__(self, config_dir: Path, warn: Callable[[str], None] | None = None) -> None:
        self.file = config_dir / FILE_NAME
        self.warn = warn or (lambda _text: None)
        self._keyring: _Keyring | None = None
        self._no_keyring = False

    def _backend(self) -> _Keyring | None:
        """The keyring module when a backend works here, else None (the file is used)."""
        if self._no_keyring:
            return None
        if self._keyring is None:
            import keyring
            from keyring.backends import fail

            if isinstance(keyring.get_keyring(), fail.Keyring):
                self._no_keyring = True
                return None
            self._keyring = keyring
        return self._keyring

    @property
    def where(self) -> str:
        return "the OS keyring" if self._backend() is not None else str(self.file)

    def load(self, key: str) -> dict[str, Any] | None:
        backend = self._backend()
        if backend is not None:
            try:
                text = backend.get_password(SERVICE, key)
            except Exception:  # a keyring that fails to unlock is the same as none here
                return None
            return _parse(text)
        return self._read().get(key)

    def save(self, key: str, token: dict[str, Any]) -> None:
        backend = self._backend()
        if backend is not None:
            try:
                backend.set_password(SERVICE, key, json.dumps(token))
                return
            except Exception:  # NoKeyringError, a locked or broken backend: fall back to the file, loudly
                self._no_keyring = True
        tokens = self._read()
        tokens[key] = token
        self._write(tokens)
        self.warn(
            f"no OS keyring here: the token is kept in {self.file} (readable by you only, mode 0600); "
            "`switchboard auth logout AGENT` removes it"
        )

    def delete(self, key: str) -> bool:
        backend = self._backend()
        if backend is not None:
            try:
                backend.delete_password(SERVICE, key)
                return True
            except Exception:
                return False
        tokens = self._read()
        if key not in tokens:
            return False
        del tokens[key]
        self._write(tokens)
        return True

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}

    def _write(self, tokens: dict[str, dict[str, Any]]) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        temp = self.file.with_name(f".{self.file.name}.tmp")
        # Created 0600 from the start: the tokens are never readable by others, not even for a moment.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(tokens, handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


def _parse(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
