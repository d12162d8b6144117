"""`switchboard conformance`'s logic, a command's logic on top of the client (a2a/), not part of the protocol: the
probe (probe.py) runs the scenarios a client relies on over every binding and version a card offers, one
interface_probe.Probe each (its scenarios: task_scenarios.py, stream_scenarios.py, unknown_tasks.py,
extended_card.py, version_header.py, with error_codes.py's codes); each finding
is judged against a requirement (requirements.py: the spec's section, MUST or SHOULD, the TCK's id), from what was
read off the wire (wire_log.py; streams.py, artifacts.py and error_bodies.py judge the bytes as sent), from several
subscriptions at once (subscriptions.py) and from what a webhook of its own received (push_delivery.py), besides
deeper.py's scenarios, into a report (report.py) the command line renders (cli/conformance.py).
"""

from .probe import PROBE_TEXT, offered_interfaces, probe
from .report import Check, Outcome, Report
from .requirements import Requirement, requirement

__all__ = ["PROBE_TEXT", "Check", "Outcome", "Report", "Requirement", "offered_interfaces", "probe", "requirement"]
