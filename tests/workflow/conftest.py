"""The workflow tests run on the session's demo fleet and a home directory per test (tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

# tests/ is not a package: make `workflow_support` importable under any pytest import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))
