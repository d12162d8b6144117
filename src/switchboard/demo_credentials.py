"""The demo fleet's credentials: the variables its agents file names, and what they hold when unset.

The demo serves with these values unless the variables are set when it starts; every client (the command line,
the TUI, the workflow engine, `serve`) reads the same value for a variable that is not in its environment at all,
so the gatekeeper and the tasks agent answer with nothing exported, wherever the demo runs. A variable set (even
empty) is read as set. Nothing is imported here: `switchboard --help` reads the names.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping

API_KEY_ENV = "SWITCHBOARD_DEMO_KEY"
TOKEN_ENV = "SWITCHBOARD_DEMO_TOKEN"
DEFAULT_API_KEY = "demo-key"
DEFAULT_TOKEN = "demo-token"
DEFAULTS = {API_KEY_ENV: DEFAULT_API_KEY, TOKEN_ENV: DEFAULT_TOKEN}


def with_demo_defaults(env: Mapping[str, str]) -> Mapping[str, str]:
    """`env`, with the demo's value for each of its variables that `env` does not hold. A view, not a copy: copying
    os.environ decodes every variable, and a served run reads a few names through it several times."""
    return ChainMap(env, DEFAULTS)  # type: ignore[arg-type]  # read only: never written through
