"""The workflow tests run on the session's demo fleet and a home directory per test (tests/conftest.py)."""

from __future__ import annotations
