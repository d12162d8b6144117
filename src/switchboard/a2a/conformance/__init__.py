"""`switchboard conformance`: the probe (probe.py), what each finding is judged against (requirements.py), the
report (report.py), and what is read off the wire to judge it (wire_log.py, streams.py)."""

from .probe import PROBE_TEXT, offered_interfaces, probe
from .report import Check, Outcome, Report
from .requirements import Requirement, requirement

__all__ = ["PROBE_TEXT", "Check", "Outcome", "Report", "Requirement", "offered_interfaces", "probe", "requirement"]
