"""researcher: a long task with progress each second; cancel it, re-subscribe to it, get files back.

The result has a file part with inline bytes (a CSV) and a file part by URL: a report the demo itself serves
from the researcher's own port, so the URL really downloads.
"""

from __future__ import annotations

import csv
import io
import re
from collections import OrderedDict

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, file_bytes, file_url, skill, text

DESCRIPTION = "Researches for ~30 s with progress every second (say 'quick' for ~5 s); cancel it or re-attach."
ARTIFACT_ID = "research"
DEFAULT_TOPIC = "the telephone switchboard"
KEEP_REPORTS = 200
_QUICK = re.compile(r"\bquick(?:ly)?\b[:,]?", re.IGNORECASE)


def parse_request(message: str) -> tuple[str, bool]:
    """The topic, and whether the message asked for a quick run."""
    quick = bool(_QUICK.search(message))
    topic = " ".join(_QUICK.sub(" ", message).split()).strip(" .,;:!?")
    topic = re.sub(r"^(?:research|look into|find out about)\s+", "", topic, flags=re.IGNORECASE)
    return (topic[:80] or DEFAULT_TOPIC), quick


PHASES = ("searching sources", "reading sources", "writing the report")


def progress(tick: int, ticks: int) -> str:
    """What the researcher says at `tick` (1-based) of `ticks`: a third each searching, reading, writing."""
    phase = (tick - 1) * len(PHASES) // ticks
    in_phase = [t for t in range(1, ticks + 1) if (t - 1) * len(PHASES) // ticks == phase]
    step = -(-(in_phase.index(tick) + 1) * 10 // len(in_phase))  # whole numbers: 10/10, never 11/10
    return f"{PHASES[phase]} {step}/10"


def sources_csv(topic: str) -> bytes:
    rows = [
        ("rank", "title", "kind", "relevance"),
        (1, f"A short history of {topic}", "book", 0.92),
        (2, f"{topic}: a field survey", "article", 0.81),
        (3, f"Ten questions about {topic}", "interview", 0.67),
        (4, f"Notes on {topic}, collected", "archive", 0.55),
    ]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode()


def report_markdown(topic: str) -> str:
    return (
        f"# Research report: {topic}\n\n"
        "Prepared by the a2a-switchboard researcher agent (a demo: the sources are made up).\n\n"
        "## Findings\n\n"
        f"- Four sources mention {topic}; the book is the most relevant.\n"
        "- The article and the interview disagree on dates; the archive settles it.\n\n"
        "## Sources\n\nSee sources.csv, attached to the same artifact.\n"
    )


class ResearcherExecutor(DemoExecutor):
    cancel_text = "research canceled by request; no report this time"

    def __init__(self, base_url: str, settings: DemoSettings) -> None:
        super().__init__()
        self.base_url = base_url
        self.settings = settings
        self.reports: OrderedDict[str, str] = OrderedDict()  # task id -> report.md, served under /files/

    async def run(self, turn: Turn) -> None:
        topic, quick = parse_request(turn.text)
        seconds = self.settings.quick_research_seconds if quick else self.settings.research_seconds
        ticks = max(1, round(seconds))
        for tick in range(1, ticks + 1):
            await turn.working(progress(tick, ticks))
            await turn.pause(seconds / ticks)
        self.reports[turn.task_id] = report_markdown(topic)
        while len(self.reports) > KEEP_REPORTS:
            self.reports.popitem(last=False)
        parts = [
            text(f"Research on {topic}: 4 sources found, report attached."),
            file_bytes(sources_csv(topic), "sources.csv", "text/csv"),
            file_url(f"{self.base_url}files/{turn.task_id}/report.md", "report.md", "text/markdown"),
        ]
        await turn.artifact(parts, artifact_id=ARTIFACT_ID, name="research results")
        await turn.complete("report ready")

    async def serve_report(self, request: Request) -> Response:
        report = self.reports.get(request.path_params["task_id"])
        if report is None:
            return PlainTextResponse("no such report\n", status_code=404)
        return PlainTextResponse(report, media_type="text/markdown")


def build(url: str, settings: DemoSettings) -> ServedApp:
    executor = ResearcherExecutor(url, settings)
    card = agent_card(
        name="Researcher",
        description=DESCRIPTION + " Shows a long-running task, cancel, resubscribe, and file parts (inline "
        "bytes and a URL you can download).",
        url=url,
        output_modes=("text/plain", "text/csv", "text/markdown"),
        skills=[
            skill(
                "research",
                "Research a topic",
                "Give a topic. The task reports progress every second (searching sources 3/10 ...) for about "
                "30 s, or about 5 s when the message says 'quick'. Cancel it midway, or drop the stream and "
                "re-subscribe. The result holds sources.csv (inline bytes) and report.md (a URL served by the "
                "demo).",
                ["the history of the telephone switchboard", "quick: solar sails", "quick tide tables"],
                ["long-running", "cancel", "resubscribe", "files"],
            )
        ],
    )
    report_route = Route("/files/{task_id}/report.md", executor.serve_report, methods=["GET"])
    return a2a_app(card, executor, extra_routes=[report_route])


AGENT = DemoAgent("researcher", DESCRIPTION, build)
