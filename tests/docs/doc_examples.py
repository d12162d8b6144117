"""The documented examples, read from the pages and run: a small runner (pytest-examples checks Python only, and
its formatting rules would rewrite the pages).

What a page holds and how it is read:

- A ```` ```console ```` block is a terminal session: each line starting with `$ ` is a command, the lines after it
  (up to the next command) are what it prints, stdout then stderr. A command ending in `# exit N` must exit N,
  any other must exit 0.
- A ```` ```python ```` block is a program (or `--8<-- "path"`: that file of the repository), run with `demo.yaml` as
  its argument; the ```` ```text ```` block right after it, when its title is "Output",
  is what it prints.
- A block with a file name for a title (```` ```yaml title="hello.yaml" ````) is a file the reader writes: it is
  in the folder every example of the page runs in.
- A block that cannot run in a test (it opens the TUI, or serves until Ctrl+C) is a ```` ```sh ```` block preceded
  by `<!-- not run: WHY -->`; on the pages whose examples are tested, any other ```` ```sh ```` block is an error.

In the expected output `...` stands for any text within a line, and a line that is only `...` (indented or not)
for any number of lines. `<NAME>` (capitals) takes that part of the line and sets `$NAME` for the commands after
it, as a person copies an id from one command's output into the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
TESTED_PAGES = ("getting-started.md", "cli.md", "python-api.md")

_FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_NOT_RUN = re.compile(r"<!-- not run: (.+?) -->\s*$")
_CAPTURE = re.compile(r"<([A-Z][A-Z0-9_]*)>")
_EXIT = re.compile(r"\s+# exit (\d+)$")
_FILE_TITLE = re.compile(r'title="([\w.-]+\.\w+)"')


@dataclass
class Command:
    line: str  # as written after `$ `, without its `# exit N`
    expected: list[str]
    exit_code: int = 0


@dataclass
class Example:
    page: str
    line: int  # of the block's opening fence, for the test's id
    kind: str  # "console" or "python"
    commands: list[Command] = field(default_factory=list)
    source: str = ""
    expected: list[str] | None = None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass
class NotRun:
    page: str
    line: int
    reason: str
    source: str


def files_of(page: str) -> dict[str, str]:
    """The files a page has the reader write (name -> text)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    files = {}
    for block in _FENCE.finditer(text):
        named = _FILE_TITLE.search(block.group(2))
        if named and block.group(1) not in {"console", "python", "text"}:
            files[named.group(1)] = block.group(3)
    return files


def read_page(page: str) -> tuple[list[Example], list[NotRun], list[str]]:
    """The examples of one page, the blocks it says are not run (with why), and its problems (a shell block with no
    reason, a console block with no command)."""
    return read_markdown(page, (DOCS / page).read_text(encoding="utf-8"))


def read_markdown(page: str, text: str) -> tuple[list[Example], list[NotRun], list[str]]:
    """As read_page, for a page's text."""
    examples: list[Example] = []
    not_run: list[NotRun] = []
    problems: list[str] = []
    blocks = list(_FENCE.finditer(text))
    for index, block in enumerate(blocks):
        kind, info, body = block.group(1), block.group(2), block.group(3)
        line = text.count("\n", 0, block.start()) + 1
        before = text[: block.start()].rstrip().rsplit("\n", 1)[-1]
        if kind == "console":
            example = Example(page, line, "console", commands=_session(body))
            if not example.commands:
                problems.append(f"{page}:{line}: a console block without a `$ ` command")
            examples.append(example)
        elif kind == "python":
            expected = None
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            between = text[block.end() : following.start()] if following else ""
            if following and following.group(1) == "text" and 'title="Output"' in following.group(2):
                if between.strip():
                    problems.append(f"{page}:{line}: text between a program and its Output block")
                expected = following.group(3).splitlines()
            examples.append(Example(page, line, "python", source=_included(body), expected=expected))
        elif _FILE_TITLE.search(info) and kind != "text":
            continue  # a file the page has the reader write (files_of)
        elif kind in {"sh", "bash", "shell"}:
            reason = _NOT_RUN.search(before)
            if reason:
                not_run.append(NotRun(page, line, reason.group(1), body))
            else:
                problems.append(f"{page}:{line}: a {kind} block that is neither run (console) nor says why not")
    return examples, not_run, problems


def _included(body: str) -> str:
    """A program the page takes from a file of the repository (`--8<-- "path"`, pymdownx.snippets) is that file."""
    found = re.fullmatch(r'\s*--8<-- "([^"]+)"\s*', body)
    return (DOCS.parent / found.group(1)).read_text(encoding="utf-8") if found else body


def _session(body: str) -> list[Command]:
    commands: list[Command] = []
    for raw in body.splitlines():
        if raw.startswith("$ "):
            line = raw[2:]
            exit_code = 0
            found = _EXIT.search(line)
            if found:
                exit_code, line = int(found.group(1)), line[: found.start()]
            commands.append(Command(line.strip(), [], exit_code))
        elif commands:
            commands[-1].expected.append(raw)
    return commands


def _line_pattern(expected: str) -> re.Pattern[str]:
    """One expected line as a pattern: `...` any text, `<NAME>` a captured word."""
    pattern = ""
    for piece in re.split(r"(\.\.\.|<[A-Z][A-Z0-9_]*>)", expected):
        if piece == "...":
            pattern += ".*?"
        elif _CAPTURE.fullmatch(piece):
            pattern += f"(?P<{piece[1:-1]}>\\S+?)"
        else:
            pattern += re.escape(piece)
    return re.compile(pattern + r"\s*")


def match_output(expected: list[str], actual: str) -> tuple[bool, dict[str, str]]:
    """Whether `actual` is what `expected` describes (line by line, a lone `...` for any lines), and the values the
    `<NAME>`s took."""
    lines = actual.rstrip("\n").split("\n") if actual.strip() else []
    wanted = [line.rstrip() for line in expected]
    while wanted and not wanted[-1]:
        wanted.pop()
    captured: dict[str, str] = {}

    def walk(i: int, j: int) -> bool:
        if i == len(wanted):
            return j == len(lines)
        if wanted[i].strip() == "...":
            return any(walk(i + 1, k) for k in range(j, len(lines) + 1))
        if j == len(lines):
            return False
        found = _line_pattern(wanted[i]).fullmatch(lines[j].rstrip())
        if not found:
            return False
        saved = dict(captured)
        captured.update({k: v for k, v in found.groupdict().items() if v is not None})
        if walk(i + 1, j + 1):
            return True
        captured.clear()
        captured.update(saved)
        return False

    return walk(0, 0), captured
