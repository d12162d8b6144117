"""Wire codecs: v0.3 and v1.0 JSON-RPC JSON <-> the normalized model."""

from types import ModuleType

from . import v03, v10


def codec_for(version: str) -> ModuleType:
    """The codec module for a wire version ("1.0" or "0.3")."""
    return v10 if version == "1.0" else v03
