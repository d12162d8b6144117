"""The conformance report: one Check per finding, each naming the requirement it was judged against, what was sent
(the operation's name on the wire, over the interface's binding and version) and what came back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .requirements import Requirement, scenario_section

Outcome = Literal["pass", "warn", "fail", "skip"]


@dataclass
class Check:
    scenario: str
    interface: str  # "JSON-RPC 1.0", "HTTP+JSON 0.3"; "" for the card
    outcome: Outcome
    detail: str
    requirement: Requirement | None = None
    sent: str = ""  # the operation as the wire names it: "GetTask", "tasks/get", "GET /tasks/{id}"
    answered: str = ""  # what came back, in brief: "error -32603", "HTTP 200 application/json", "a Task, working"
    binding: str = ""  # "JSONRPC", "HTTP+JSON", "GRPC"; "" for the card
    version: str = ""  # "1.0", "0.3"; "" for the card

    @property
    def section(self) -> str:
        return self.requirement.label if self.requirement else scenario_section(self.scenario)

    @property
    def cited(self) -> str:
        """`A2A §3.1.3 Get Task (TaskNotFoundError); MUST; TCK CORE-GET-002`."""
        req = self.requirement
        if req is None:
            return self.section
        return "; ".join(part for part in (req.label, req.level, f"TCK {req.tck}" if req.tck else "") if part)

    def as_json(self) -> dict[str, Any]:
        sent = {"method": self.sent, "binding": self.binding, "version": self.version} if self.sent else None
        return {
            "scenario": self.scenario,
            "interface": self.interface or None,
            "result": self.outcome,
            "detail": self.detail,
            "section": self.section,
            "requirement": self.requirement.as_json() if self.requirement else None,
            "sent": sent,
            "answered": self.answered or None,
        }


@dataclass
class Report:
    agent: str
    name: str = ""
    card_url: str = ""
    checks: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(c.outcome == "fail" for c in self.checks)

    def counts(self) -> dict[str, int]:
        return {o: sum(1 for c in self.checks if c.outcome == o) for o in ("pass", "warn", "fail", "skip")}

    def as_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "name": self.name,
            "cardUrl": self.card_url,
            "result": "fail" if self.failed else "pass",
            "summary": self.counts(),
            "checks": [c.as_json() for c in self.checks],
        }
