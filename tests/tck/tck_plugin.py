"""A pytest plugin loaded into the vendored TCK's own pytest run (`-p tck_plugin`, never into ours): it keeps the TCK
tests the cross-check compares (their node ids contain one of the keys in $TCK_SELECT, a JSON list), and writes
each kept test's verdict to $TCK_OUT (JSON): its pytest outcome, the level of the requirement it records (the
TCK fails a SHOULD as an xfail or as a failure recorded at SHOULD level), and the reason it gives."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

_verdicts: dict[str, dict[str, str]] = {}  # of this session: tck_driver.py runs several in one process


def pytest_configure(config: pytest.Config) -> None:
    _verdicts.clear()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keys = json.loads(os.environ["TCK_SELECT"])
    kept = [item for item in items if any(key in item.nodeid for key in keys)]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" and report.outcome == "passed":
        return  # a setup or teardown that passed says nothing
    if report.nodeid in _verdicts and _verdicts[report.nodeid]["outcome"] != "passed":
        return  # the first thing that went wrong is the verdict (a teardown error after a failure is not)
    outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
    elif outcome == "xfailed":
        reason = str(report.wasxfail)
    else:
        reason = report.longreprtext.strip().splitlines()[-1] if report.failed and report.longreprtext else ""
    _verdicts[report.nodeid] = {"outcome": outcome, "reason": reason[:300]}


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    levels: dict[str, str] = {}
    for plugin in session.config.pluginmanager.get_plugins():
        key = getattr(plugin, "_collector_key", None)  # the TCK's conftest keeps its collector on the config
        collector: Any = session.config.stash.get(key, None) if key is not None else None
        for result in collector.get_results() if collector is not None else ():
            if result.level != "MUST" and not result.skipped:
                levels[result.test_id] = result.level
    for nodeid, verdict in _verdicts.items():
        verdict["level"] = levels.get(nodeid, "MUST")
    with open(os.environ["TCK_OUT"], "w", encoding="utf-8") as out:
        json.dump(_verdicts, out, indent=1)
