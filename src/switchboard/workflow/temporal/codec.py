"""Payloads are encrypted before they reach the Temporal server, which keeps every one in the run's history.

Inputs, step outputs, questions and answers (an auth-required answer is a credential) are data of the people
and agents of a run: the server stores them only as Fernet tokens (AES-128-CBC with HMAC-SHA256, from the
`cryptography` package). The key is SWITCHBOARD_TEMPORAL_KEY (a Fernet key: `switchboard temporal key`
prints a new one), else a key file made on first use in the data directory (0600), which is enough when
client and workers share a machine; several machines share the variable. Search attributes (workflow name,
status, the waiting steps) are not payloads: they stay readable, for `runs list`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from temporalio.api.common.v1 import Payload
from temporalio.converter import PayloadCodec

from ...a2a.errors import UsageError
from ...paths import data_dir

ENCODING = b"binary/switchboard-fernet"
KEY_ENV = "SWITCHBOARD_TEMPORAL_KEY"


def key_file() -> Path:
    return data_dir() / "temporal.key"


def load_key() -> bytes:
    """The key from SWITCHBOARD_TEMPORAL_KEY, else from the key file (made when missing)."""
    value = os.environ.get(KEY_ENV)
    if value:
        return value.strip().encode()
    path = key_file()
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = Fernet.generate_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it meanwhile
        return path.read_bytes().strip()
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


class EncryptionCodec(PayloadCodec):
    def __init__(self, key: bytes | None = None) -> None:
        key = key or load_key()
        try:
            self.fernet = Fernet(key)
        except ValueError:
            raise UsageError(
                f"{KEY_ENV} is not a Fernet key",
                hint="`switchboard temporal key` prints a new one; every client and worker of a run needs the same.",
            ) from None

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [
            Payload(metadata={"encoding": ENCODING}, data=self.fernet.encrypt(p.SerializeToString())) for p in payloads
        ]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        out = []
        for payload in payloads:
            if payload.metadata.get("encoding") != ENCODING:
                out.append(payload)
                continue
            try:
                data = self.fernet.decrypt(payload.data)
            except InvalidToken:
                raise UsageError(
                    "a payload of this run was encrypted with another key",
                    hint=f"Give every client and worker the same {KEY_ENV}.",
                ) from None
            out.append(Payload.FromString(data))
        return out
