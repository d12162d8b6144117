"""Codec: what a wire module gives the transports, so a transport names the protocol, not a module.

v10, v03 and v03rest each implement it as a module (mypy checks a module against a Protocol where one is
assigned to it): a transport picks one by the endpoint's wire version and writes its params and reads its
results through it. Listing tasks and push configs exist at 1.0 only, so they are v10's alone and the
transports call v10 for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..model import Message, StreamEvent, Task
from .common import Notes


class Codec(Protocol):
    """One wire version of one binding's bodies: v10 (1.0, every binding), v03 (0.3 JSON-RPC), v03rest (0.3
    HTTP+JSON and gRPC)."""

    @property
    def VERSION(self) -> str: ...

    # Decoders raise WireFormatError on what the model cannot do without; oddities become notes.
    def decode_event(self, o: Any, notes: Notes, /) -> StreamEvent: ...

    def decode_send_result(self, o: Any, notes: Notes, /) -> Task | Message: ...

    def decode_task(self, o: Any, notes: Notes, /) -> Task: ...

    def decode_message(self, o: Any, notes: Notes, /) -> Message: ...

    def encode_message(self, m: Message, /) -> dict[str, Any]: ...

    def encode_task(self, t: Task, /) -> dict[str, Any]: ...

    # `tenant` is named at 1.0 only (0.3 has none; its codecs take and ignore it so one call serves both).
    def send_params(
        self,
        message: Message,
        *,
        blocking: bool,
        history_length: int | None,
        accepted_output_modes: list[str] | None,
        metadata: dict[str, Any] | None,
        tenant: str | None = None,
    ) -> dict[str, Any]: ...

    def get_params(self, task_id: str, history_length: int | None, tenant: str | None = None) -> dict[str, Any]: ...

    def id_params(self, task_id: str, tenant: str | None = None) -> dict[str, Any]: ...


class JsonRpcCodec(Codec, Protocol):
    """A codec of the JSON-RPC binding (v10, v03): also the method names, and the stream events as they are
    written inside the envelope."""

    @property
    def METHODS(self) -> Mapping[str, str]: ...

    def encode_event(self, e: StreamEvent, /) -> dict[str, Any]: ...
