"""The message a surface posts for a link the person wants opened (an image, a video, openUrl): the screen asks
first, and opens it only on yes."""

from __future__ import annotations

from textual.message import Message


class A2uiOpenUrl(Message):
    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
