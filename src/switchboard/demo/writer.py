"""writer: streams `working` updates and a long markdown artifact in many chunks.

The chunks are cut at arbitrary character positions, mid-word included, because a client must join them
exactly as sent. `compose(topic)` is the whole document the agent means to send, so tests can compare.
"""

from __future__ import annotations

import random
import re

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "Streams progress updates and a long markdown document in many small chunks."
ARTIFACT_ID = "draft"
SECTIONS = 4
DEFAULT_TOPIC = "the sea"
_PACE = re.compile(r"\bpace\s+(\d{1,5})\s*(?:ms)?\b", re.IGNORECASE)
_LEAD = re.compile(r"^(?:please\s+)?(?:write|draft|compose)(?:\s+me)?\s+", re.IGNORECASE)


def parse_request(message: str) -> tuple[str, int | None]:
    """The topic, and the pace in ms between chunks when the message says "pace N"."""
    pace = None
    if match := _PACE.search(message):
        pace = int(match.group(1))
        message = message[: match.start()] + message[match.end() :]
    topic = _LEAD.sub("", " ".join(message.split())).strip(" .,;:!?")
    if len(topic) > 80:  # keeps the document within its size, and the title on one line
        topic = topic[:80].rsplit(" ", 1)[0]
    return topic or DEFAULT_TOPIC, pace


def compose(topic: str) -> str:
    """The full markdown document about `topic` (3-6 KB): headings, lists, a quote, code and a table."""
    title = topic[0].upper() + topic[1:]
    return f"""# {title}

*A demo document from the a2a-switchboard writer agent. It reaches you as a stream of small artifact
chunks, cut anywhere (even mid-word), and your client joins them back together exactly.*

## 1. Overview

Everyone has an opinion about {topic}, and most of those opinions are formed in a hurry. This short
piece slows down a little. It looks at where the idea comes from, what people usually get wrong about
it, and what you could try tomorrow morning if you wanted to see {topic} for yourself.

- **Where it starts:** small observations, written down before they are explained.
- **What changes:** the questions get sharper long before the answers do.
- **Why it matters:** a clear picture of {topic} makes the next decision easier.

### Common mistakes

- Collecting everything and reading nothing: a pile of notes is not yet a picture.
- Trusting the first explanation because it arrived first, not because it fits best.
- Waiting for the perfect moment to begin. There is no such moment; there is only Tuesday.

## 2. Key ideas

1. Begin with what you can see, hear or measure; theory can wait for the second draft.
2. Compare two cases side by side. Differences teach faster than descriptions.
3. Keep notes short and dated, so that next month's you can still trust them.
4. Share early. Someone else will spot the obvious thing you walked past.

> "The first draft of anything is a conversation with yourself; the second is a conversation with
> everyone else." -- a writer who asked not to be named

Each of these ideas is small on its own. Together they turn a vague interest in {topic} into a habit:
look, compare, write it down, show someone. Repeat the loop a few times and the questions you ask
start to change, which is the surest sign that you are learning something real.

## 3. A worked example

Suppose you want a quick, honest summary of {topic}. A tiny script keeps you from skipping steps:

```python
def summarize(notes: list[str], limit: int = 3) -> str:
    \"\"\"Keep the freshest observations, newest first.\"\"\"
    fresh = [n.strip() for n in reversed(notes) if n.strip()]
    return "; ".join(fresh[:limit]) or "nothing observed yet"


print(summarize(["tide high at 06:10", "wind from the west", ""]))
```

Run it on a week of notes and the summary tends to surprise you: the loudest impression is rarely the
most frequent one.

## 4. At a glance

| Aspect        | What to look for                  | Effort |
|---------------|-----------------------------------|--------|
| Observation   | Patterns that repeat              | Low    |
| Comparison    | Two cases that differ in one way  | Medium |
| Explanation   | A cause you could test            | High   |
| Sharing       | One page, one picture, one claim  | Low    |

The effort column is a rough guide, not a rule. Observation is cheap but slow to pay off; explanation
is expensive but is what finally lets you predict what {topic} will do next.

## Further reading

- Your own notebook from last year (it knows more than you remember).
- Any library's shelf on {topic}: pick the thinnest book first.
- The A2A protocol docs, if you want to build an agent that writes documents like this one.

*Written for you by the writer agent. Ask again with "pace 10" to stream it faster.*
"""


def split_chunks(document: str) -> list[str]:
    """Cut the document at arbitrary positions (mid-word too) into 5-60 character chunks; deterministic."""
    rng = random.Random(len(document))
    chunks, start = [], 0
    while start < len(document):
        end = min(len(document), start + rng.randint(5, 60))
        chunks.append(document[start:end])
        start = end
    return chunks


def _section_starts(document: str) -> list[int]:
    return [m.start() for m in re.finditer(r"^## \d\.", document, re.MULTILINE)]


class WriterExecutor(DemoExecutor):
    def __init__(self, pace_ms: int) -> None:
        super().__init__()
        self.pace_ms = pace_ms

    async def run(self, turn: Turn) -> None:
        topic, pace = parse_request(turn.text)
        delay = (self.pace_ms if pace is None else pace) / 1000
        document = compose(topic)
        chunks = split_chunks(document)
        sections = _section_starts(document)
        await turn.working(f"outlining: {topic}")
        await turn.pause(delay * 5)
        offset, announced = 0, 0
        for i, chunk in enumerate(chunks):
            reached = sum(1 for s in sections if s < offset + len(chunk))
            if reached > announced:
                announced = reached
                await turn.working(f"drafting section {announced}/{SECTIONS}")
            last = i == len(chunks) - 1
            parts = [text(chunk, "text/markdown")]
            await turn.artifact(parts, artifact_id=ARTIFACT_ID, name="draft.md", append=i > 0, last_chunk=last)
            offset += len(chunk)
            await turn.pause(delay)
        await turn.working("proofreading")
        await turn.pause(delay * 5)
        await turn.complete(f"done: {len(document)} characters in {len(chunks)} chunks")


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Writer",
        description=DESCRIPTION + " Shows working status updates and artifact chunks (append / lastChunk) "
        "arriving live.",
        url=url,
        output_modes=("text/markdown", "text/plain"),
        skills=[
            skill(
                "write",
                "Write a document",
                "Give a topic; the agent reports its progress (outlining, drafting section 1/4 ...) and streams "
                "a 3-4 KB markdown document with headings, lists, code and a table in about a hundred chunks. "
                'Add "pace N" to set the milliseconds between chunks (e.g. pace 10 for fast, pace 200 for slow).',
                ["a short story about tides", "a field guide to houseplants pace 10", "the history of jazz pace 150"],
                ["streaming", "artifact", "markdown"],
            )
        ],
    )
    return a2a_app(card, WriterExecutor(settings.writer_pace_ms))


AGENT = DemoAgent("writer", DESCRIPTION, build)
