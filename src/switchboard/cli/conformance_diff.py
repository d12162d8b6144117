"""`conformance A --against B`: where two agents behave differently, scenario by scenario and interface by
interface: the result (pass, warn, fail, skip, or absent where one agent offers no such interface) and what came
back (an error code, a task's state, a stream's opening, a version refused or served), not the wording of a detail.
Counts (events, tasks, skills, timestamps) are not behaviour: they are left out of the comparison."""

from __future__ import annotations

import re
import sys
from typing import Any

from ..conformance import Check, Report

# The sections a change is filed under, by the scenario's name (the first that matches).
SECTIONS = (
    ("versions", ("version",)),
    ("errors", ("unknown task", "ended task", "error data", "error details")),
    ("streams", ("stream", "subscribe")),
    ("cancel", ("cancel",)),
    ("capabilities", ("push config", "extended card")),
)
_ERROR = re.compile(r"error -?\d+ \w+")
_COUNT = re.compile(r"\d+")
_PARAMS = re.compile(r";\s*[\w-]+=[^\s;,]*")


def behaviour(check: Check) -> str:
    """What came back, as compared: error codes kept, every other number (a count, a status) made `#`, a media
    type's parameters left out; the card's caching headers by their presence only (their values change)."""
    if check.scenario == "card caching":
        return ""
    kept = _ERROR.findall(check.answered)
    rest = _COUNT.sub("#", _PARAMS.sub("", _ERROR.sub("", check.answered)))
    return " ".join([*kept, rest.strip()]).strip()


def section_of(scenario: str) -> str:
    return next((name for name, prefixes in SECTIONS if scenario.startswith(prefixes)), "other")


def compare(baseline: Report, candidate: Report) -> list[dict[str, str]]:
    """Scenario by scenario (and interface), where the candidate's result or behaviour differs from the
    baseline's: a change each, filed under its section."""
    skip = ("card", "card lint")
    before = {(c.scenario, c.interface): c for c in baseline.checks if c.scenario not in skip}
    after = {(c.scenario, c.interface): c for c in candidate.checks if c.scenario not in skip}
    offered = (
        {c.interface for c in baseline.checks if c.interface},
        {c.interface for c in candidate.checks if c.interface},
    )
    changes = []
    # An interface one agent offers and the other does not is one change, not one per scenario over it.
    for interface in sorted(offered[0] ^ offered[1]):
        who = "baseline" if interface in offered[0] else "candidate"
        changes.append(
            {
                "section": "interfaces",
                "scenario": "interfaces",
                "interface": interface,
                "baseline": "offered" if who == "baseline" else "absent",
                "candidate": "offered" if who == "candidate" else "absent",
                "baselineAnswered": "",
                "candidateAnswered": "",
                "detail": f"only the {who} offers {interface}",
            }
        )
    both = offered[0] & offered[1]
    for key in [*before, *(k for k in after if k not in before)]:
        if key[1] and key[1] not in both:
            continue
        old, new = before.get(key), after.get(key)
        was, now = (old.outcome if old else "absent"), (new.outcome if new else "absent")
        was_did, now_did = (behaviour(old) if old else ""), (behaviour(new) if new else "")
        if was == now and (was_did == now_did or "skip" in (was, now)):
            continue
        changes.append(
            {
                "section": section_of(key[0]),
                "scenario": key[0],
                "interface": key[1],
                "baseline": was,
                "candidate": now,
                "baselineAnswered": old.answered if old else "",
                "candidateAnswered": new.answered if new else "",
                "detail": new.detail if new else old.detail if old else "",
            }
        )
    return changes


def by_section(changes: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for change in changes:
        out.setdefault(change["section"], []).append(change)
    return out


def as_json(baseline: Report, candidate: Report, changes: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "baseline": baseline.as_json(),
        "candidate": candidate.as_json(),
        "changes": changes,
        "sections": by_section(changes),
        "differ": bool(changes),
    }


def print_changes(changes: list[dict[str, str]], one_line: Any) -> None:
    print(file=sys.stdout)
    if not changes:
        print("Changes: none (every scenario has the same result and answer)", file=sys.stdout)
        return
    print(f"Changes: {len(changes)}", file=sys.stdout)
    for section, found in by_section(changes).items():
        print(f"  {section}:", file=sys.stdout)
        for change in found:
            where = f" over {change['interface']}" if change["interface"] else ""
            said = f"    {change['scenario']}{where}: {change['baseline']} -> {change['candidate']}"
            if change["baselineAnswered"] != change["candidateAnswered"]:
                was = one_line(change["baselineAnswered"]) or "-"
                now = one_line(change["candidateAnswered"]) or "-"
                said += f"  (answered {was} / {now})"
            print(said, file=sys.stdout)
