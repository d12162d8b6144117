"""Where the inbox keeps the tasks it remembers: the file (inbox/store.py), across restarts and shared with other
processes; but a task of an agent that ends with the app (the demo fleet `switchboard --demo` runs in its own
process, on new ports at each start) only in memory, for as long as the app runs. Written down, it would come back
at the next start as a task its agent no longer knows, and the leave dialog says it ends with the app."""

from __future__ import annotations

from collections.abc import Callable

from ..inbox.store import Remembered, forget, load_remembered, remember


class KeptQuestions:
    def __init__(self, ends_with_app: Callable[[str], bool]) -> None:
        """`ends_with_app(url)`: the agent at that address stops when the app quits (its tasks with it)."""
        self._ends_with_app = ends_with_app
        self._for_this_run: dict[tuple[str, str], Remembered] = {}

    def load(self) -> dict[tuple[str, str], Remembered]:
        """Every remembered task: the file's, then this run's own."""
        return {**{entry.key: entry for entry in load_remembered()}, **self._for_this_run}

    def keep(self, entry: Remembered) -> None:
        """Remember `entry` (replacing what was kept of its task); OSError when the file cannot be written."""
        if self._ends_with_app(entry.agent_url):
            self._for_this_run[entry.key] = entry
        else:
            remember(entry)

    def let_go(self, agent_url: str, task_id: str) -> None:
        """Forget the task (answered, ended, dismissed); OSError when the file cannot be written. The file is
        looked at for this run's own agents too: another process (`switchboard send` to a demo agent) may have
        written one of their tasks there."""
        key = (agent_url.rstrip("/"), task_id)
        if self._for_this_run.pop(key, None) is None or any(entry.key == key for entry in load_remembered()):
            forget(agent_url, task_id)
