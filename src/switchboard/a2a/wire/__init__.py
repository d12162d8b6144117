"""Wire codecs: v0.3 and v1.0 JSON-RPC JSON <-> the normalized model."""

from . import v03, v10
from .codec import Codec, JsonRpcCodec

__all__ = ["Codec", "JsonRpcCodec", "codec_for"]


def codec_for(version: str) -> JsonRpcCodec:
    """The JSON-RPC codec for a wire version ("1.0" or "0.3")."""
    return v10 if version == "1.0" else v03
