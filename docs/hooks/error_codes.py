"""The error codes the tool prints, read from its source at build time, and the check that the troubleshooting page
has a section (cause and fix) for each.

A code is printed as an error envelope's `code` (the A2A CLI spec's `A2ACLI_ERR_*`, our `SWITCHBOARD_ERR_*`, an
A2A error's name, a workflow's or a served workflow's own code) or as a failed step's code in a run. They are
found where the source declares them: an error class's `code = "..."` or `workflow_code = "..."`, the A2A error
table (`A2A_ERROR_NAMES`), a step's failure (`StepFailure("...")`, `"code": "..."`), the delegate's state table and
expect's results.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "switchboard"

_DECLARATIONS = (
    re.compile(r"\b(?:A2ACLI|SWITCHBOARD)_ERR_[A-Z_]+\b"),
    re.compile(r"""\b(?:workflow_)?code\s*=\s*"([A-Z][A-Za-z0-9_]+)\""""),
    re.compile(r"""StepFailure\(\s*"([A-Z][A-Z0-9_]+)\""""),
    re.compile(r"""["']code["']\s*:\s*"([A-Z][A-Z0-9_]+)\""""),
    re.compile(r"""return\s+"([A-Z][A-Z0-9]+_[A-Z0-9_]+)",\s"""),
    re.compile(r"""TaskState\.[A-Z_]+:\s*"((?!TASK_STATE_)[A-Z][A-Z0-9_]+)\""""),
    re.compile(r"""\belse\s+"([A-Z][A-Z0-9]+_[A-Z0-9_]+)\""""),
    re.compile(r"""-32\d\d\d:\s*"([A-Za-z]+Error)\""""),
)


def codes_in_source(src: Path = SRC) -> dict[str, list[str]]:
    """Every code the source declares, with the files (relative to src/switchboard) that declare it."""
    found: dict[str, list[str]] = {}
    for path in sorted(src.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for pattern in _DECLARATIONS:
            for match in pattern.finditer(text):
                code = match.group(1) if pattern.groups else match.group(0)
                where = str(path.relative_to(src))
                if where not in found.setdefault(code, []):
                    found[code].append(where)
    return dict(sorted(found.items()))


def anchor(code: str) -> str:
    """The id the page's heading `` `CODE` `` gets."""
    return code.lower()


def codes_without_a_section(page_markdown: str) -> list[str]:
    """The codes the source declares that the page has no `### `CODE`` heading for."""
    headings = set(re.findall(r"^#{2,4} `([A-Za-z0-9_]+)`", page_markdown, flags=re.MULTILINE))
    return [code for code in codes_in_source() if code not in headings]


def codes_index_markdown() -> str:
    """The list of every code, each linked to its section, with where the source declares it."""
    lines = ["| code | declared in |", "|---|---|"]
    for code, files in codes_in_source().items():
        lines.append(f"| [`{code}`](#{anchor(code)}) | {', '.join(f'`{f}`' for f in files)} |")
    return "\n".join(lines) + "\n"
