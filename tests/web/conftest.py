"""The browser tests' fixtures (web_support is on the path through pytest's `pythonpath`)."""

from __future__ import annotations
