"""Benchmark 2, "UI under flood": the TUI showing an agent that streams 20,000 artifact chunks flat out.

A real official-SDK agent (built like the demo agents, served by uvicorn in its own process) streams a known
markdown document cut into 20,000 chunks with no pause. Measured, each in a fresh child process:

- floor: the same stream consumed headless by our client (a Conversation with a tap, as the TUI uses),
  time from send to the last chunk;
- ours: the TUI (headless, `run_test`) with that conversation open: the event loop's lag (a 10 ms sleep,
  how late it wakes: p50 / p95 / max), the time until the screen's transcript holds the whole document (the
  Markdown widget's source compared with the exact text the agent sent), and RSS growth over the stream.

Goals: p95 lag under 50 ms, every chunk shown, memory growth under 50 MB.

`python bench/flood.py [--quick] [--profile] [--compare]`: --profile writes a pyinstrument report of the TUI run
to bench/.cache/flood-profile.txt (pip install pyinstrument, the `bench` extra); --compare also runs the TUI with
the artifact drawn by Textual's own Markdown widget fed by its MarkdownStream, and with our pages but without
their layout-free size updates (markdown_pages.py), a row each.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import time

from common import CACHE, Row, env_with_src, run_standalone

CHUNKS = 20_000
QUICK_CHUNKS = 4_000
ARTIFACT_ID = "flood"
LAG_TICK = 0.010
SIZE = (120, 40)
WORDS = [
    *("agent", "stream", "chunk", "artifact", "token", "status", "task", "context", "message", "render"),
    *("frame", "batch", "widget", "markdown", "screen", "wire", "event", "loop", "buffer", "append", "lag"),
]


def document_chunks(count: int) -> list[str]:
    """The agent's artifact: markdown (headings, paragraphs, lists) cut into `count` chunks of 1-15
    characters at arbitrary positions; deterministic, so the screen can be compared with it exactly."""
    rng = random.Random(count)
    sizes = [rng.randint(1, 15) for _ in range(count)]
    wanted = sum(sizes)
    pieces: list[str] = []
    length, n = 0, 0
    while length < wanted:
        n += 1
        if n % 25 == 1:
            block = f"## Part {n // 25 + 1}\n\n"
        elif n % 5 == 0:
            block = "".join(f"- item {n}.{i}: {' '.join(rng.choices(WORDS, k=5))}\n" for i in range(3)) + "\n"
        else:
            block = f"Paragraph {n}: " + " ".join(rng.choices(WORDS, k=rng.randint(8, 24))) + ".\n\n"
        pieces.append(block)
        length += len(block)
    text = "".join(pieces)[:wanted]
    chunks, start = [], 0
    for size in sizes:
        chunks.append(text[start : start + size])
        start += size
    return chunks


# --- the agent (child process) ----------------------------------------------------------------------


def endless_chunk(i: int) -> str:
    """Chunk `i` of the endless stream (64 KB, numbered): a reader can rebuild any prefix of the stream."""
    return f"## block {i}\n\n" + f"{i:08d} the stream goes on and on, ✓ ünïcode included\n" * 1100 + "\n"


def serve(count: int) -> None:
    """Serve the flood agent on a free loopback port; print its URL, then serve until killed.
    `count` 0: stream 64 KB chunks without end, until the task is canceled."""
    import uvicorn

    from switchboard.demo.sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

    chunks = document_chunks(count) if count else []

    class FloodExecutor(DemoExecutor):
        async def run(self, turn: Turn) -> None:
            await turn.working("flooding")
            i = 0
            while not count:  # ends when a cancel makes turn.artifact raise
                part = text(endless_chunk(i), "text/markdown")
                await turn.artifact([part], artifact_id=ARTIFACT_ID, name="flood.md", append=i > 0, last_chunk=False)
                i += 1
            last = len(chunks) - 1
            for i, chunk in enumerate(chunks):
                await turn.artifact(
                    [text(chunk, "text/markdown")],
                    artifact_id=ARTIFACT_ID,
                    name="flood.md",
                    append=i > 0,
                    last_chunk=i == last,
                )
            await turn.complete(f"done: {len(chunks)} chunks")

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    card = agent_card(
        name="Flood",
        description="Streams one markdown artifact in many tiny chunks, as fast as it can.",
        url=url,
        output_modes=("text/markdown",),
        skills=[skill("flood", "Flood", "Streams a document in tiny chunks.", ["go"], ["streaming"])],
    )
    served = a2a_app(card, FloodExecutor())
    config = uvicorn.Config(served.app, log_level="warning", lifespan="off")
    print(url, flush=True)
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))


def start_agent(count: int) -> tuple[subprocess.Popen, str]:
    agent = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(count)],
        stdout=subprocess.PIPE,
        text=True,
        env=env_with_src(),
    )
    url = agent.stdout.readline().strip()
    if not url:
        agent.kill()
        raise RuntimeError("the flood agent did not start")
    return agent, url


# --- measurements (child process) -------------------------------------------------------------------


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def floor(url: str, count: int) -> dict:
    """Our client alone: the time from send to the last chunk, the view holding the exact text."""
    import httpx

    from switchboard.a2a.tap import Tap
    from switchboard.agents import AgentEntry
    from switchboard.conversation import Conversation
    from switchboard.link import open_link

    expected = "".join(document_chunks(count))
    async with httpx.AsyncClient(timeout=60) as http:
        tap = Tap()
        link = await open_link(AgentEntry(name="flood", url=url), http=http, tap=tap)
        conversation = Conversation(link, tap=tap)
        before = rss_mb()
        started = time.perf_counter()
        async for _ in conversation.send("go"):
            pass
        took = time.perf_counter() - started
        artifact = conversation.last.view.artifacts[ARTIFACT_ID]
        return {
            "seconds": took,
            "exact": artifact.text == expected and artifact.chunks == count,
            "growth_mb": peak_mb() - before,
        }


RENDERERS = {
    "ours": "our pages (markdown_pages.py)",
    "textual-stream": "Textual's Markdown + MarkdownStream",
    "ours-relayout": "our pages, sized with a second layout",
}


def use_renderer(renderer: str) -> None:
    """Draw artifacts as `renderer` says (before the app starts): see RENDERERS."""
    from switchboard.tui.widgets import markdown_pages, transcript

    if renderer == "ours-relayout":  # Textual's own size update, which lays out again when the size changes
        del markdown_pages.SizedByLayout._size_updated
        del markdown_pages.TranscriptScroll._size_updated
    elif renderer == "textual-stream":
        from textual.widgets import Markdown, Static

        class StreamedBox(transcript.ArtifactBox):
            """An artifact's text in one Markdown widget, appended to through Markdown.get_stream."""

            def compose(self):
                yield Static(classes="artifact-title")
                yield Markdown(classes="artifact-text")

            @property
            def source(self) -> str:
                return self.query_one(Markdown).source

            async def _sync_text(self, artifact, final: bool) -> None:
                if not hasattr(self, "_stream"):
                    self._stream = Markdown.get_stream(self.query_one(Markdown))
                end = artifact.text_length
                if self._taken < end:
                    text, self._taken = artifact.text_from(self._taken, end), end
                    await self._stream.write(text)

        transcript.ArtifactBox = StreamedBox


async def tui(url: str, count: int, profile: bool, renderer: str = "ours") -> dict:
    """The TUI with the flood conversation open: loop lag, time to the whole document on screen, memory."""
    import tempfile
    from pathlib import Path

    from textual.widgets import Markdown

    use_renderer(renderer)

    from switchboard.a2a.model import TextPart
    from switchboard.agents import AgentEntry
    from switchboard.tui.app import SwitchboardApp
    from switchboard.tui.widgets.conversation_view import ConversationView

    expected = "".join(document_chunks(count))
    home = Path(tempfile.mkdtemp(prefix="flood-"))
    os.environ["SWITCHBOARD_HOME"] = str(home)
    app = SwitchboardApp(
        home / "agents.yaml", extra_agents=[AgentEntry(name="flood", url=url)], steady=True, tune_gc=True
    )
    lags: list[float] = []
    result: dict = {}
    pauses: list[float] = []  # the garbage collector's full collections, which stop everything
    gc_started = [0.0]

    def gc_timer(phase: str, info: dict) -> None:
        if info["generation"] == 2:
            if phase == "start":
                gc_started[0] = time.perf_counter()
            else:
                pauses.append(time.perf_counter() - gc_started[0])

    async def until(predicate, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.02)

    async def ticker() -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            lags.append(time.perf_counter() - started - LAG_TICK)

    def rendered() -> str:
        """What the artifact's widgets hold: all its pages when it is paged, else the one Markdown widget."""
        boxes = view.query(".artifact")
        if not boxes:
            return ""
        box = boxes.last()
        return box.source if hasattr(box, "source") else box.query_one(".artifact-text", Markdown).source

    def on_screen() -> bool:
        source = rendered()
        return len(source) >= len(expected) and source == expected

    async with app.run_test(size=SIZE) as pilot:
        from textual.widgets import DataTable

        table = app.screen.query_one(DataTable)
        await until(lambda: "flood" in [row.value for row in table.rows], 30)
        table.move_cursor(row=[row.value for row in table.rows].index("flood"))
        await pilot.press("enter")
        view = app.screen.query(ConversationView).last()
        await until(lambda: view.conversation is not None, 30)
        await pilot.pause(0.3)
        profiler = None
        if profile:
            from pyinstrument import Profiler

            profiler = Profiler(async_mode="disabled")
            profiler.start()
        before = rss_mb()
        gc.callbacks.append(gc_timer)
        tick = asyncio.create_task(ticker())
        started = time.perf_counter()
        view.send([TextPart(text="go")])
        await until(lambda: view.conversation.last is not None and not view.running, 1800)
        streamed = time.perf_counter() - started
        try:
            await until(on_screen, 120)
            shown = True
        except TimeoutError:
            shown = False
        on_screen_at = time.perf_counter() - started
        tick.cancel()
        gc.callbacks.remove(gc_timer)
        if profiler is not None:
            profiler.stop()
            CACHE.mkdir(exist_ok=True)
            (CACHE / "flood-profile.txt").write_text(profiler.output_text(unicode=True, show_all=False, timeline=False))
        artifact = view.conversation.last.view.artifacts[ARTIFACT_ID]
        source = rendered()
        result = {
            "streamed_seconds": streamed,
            "on_screen_seconds": on_screen_at,
            "shown": shown,
            "exact": artifact.text == expected and artifact.chunks == count,
            "shown_chars": len(source),
            "expected_chars": len(expected),
            "lags_ms": [lag * 1000 for lag in lags],
            "gc_ms": [pause * 1000 for pause in pauses],
            "cpu_seconds": time.process_time(),
            "growth_mb": peak_mb() - before,
            "rss_before_mb": before,
        }
    return result


def child(mode: str, url: str, count: int, profile: bool) -> None:
    result = asyncio.run(floor(url, count) if mode == "floor" else tui(url, count, profile, mode))
    print(json.dumps(result))


def measure(mode: str, url: str, count: int, profile: bool = False) -> dict:
    """`mode`: "floor", or a TUI renderer (RENDERERS)."""
    args = [sys.executable, __file__, "--child", mode, url, str(count)] + (["--profile"] if profile else [])
    done = subprocess.run(args, capture_output=True, text=True, env=env_with_src(), timeout=2400)
    if done.returncode != 0:
        raise RuntimeError(f"flood {mode} run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(quick: bool = False, profile: bool = False, compare: bool = False) -> list[Row]:
    count = QUICK_CHUNKS if quick else CHUNKS
    agent, url = start_agent(count)
    others: dict[str, dict] = {}
    try:
        base = measure("floor", url, count)
        ours = measure("ours", url, count, profile)
        for renderer in [name for name in RENDERERS if name != "ours"] if compare else []:
            others[renderer] = measure(renderer, url, count)
    finally:
        agent.terminate()
        agent.wait(10)
    lags = ours["lags_ms"] or [0.0]
    p50, p95, worst = statistics.median(lags), percentile(lags, 95), max(lags)
    name = f"flood {count:,} chunks"
    notes = [
        f"loop lag ms p50 {p50:.1f} / p95 {p95:.1f} / max {worst:.1f} over {len(lags)} ticks of 10 ms",
        f"stream over (all events in) after {ours['streamed_seconds']:.2f} s; whole document on screen after "
        f"{ours['on_screen_seconds']:.2f} s ({ours['shown_chars']:,} of {ours['expected_chars']:,} characters)",
        f"headless client alone: {base['seconds']:.2f} s, text exact: {base['exact']}, "
        f"growth {base['growth_mb']:.1f} MB",
    ]
    gcs = ours["gc_ms"]
    notes.append(
        f"full garbage collections during the stream: {len(gcs)}, longest {max(gcs, default=0):.0f} ms; "
        f"TUI process CPU {ours['cpu_seconds']:.1f} s; load average at the end {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    every = ours["shown"] and ours["exact"]
    compared = [
        Row(
            f"{name} ({RENDERERS[renderer]})",
            "s to last chunk on screen",
            other["on_screen_seconds"],
            peer=ours["on_screen_seconds"],
            peer_name=RENDERERS["ours"],
            higher_is_better=False,
            goal="every chunk shown",
            met=other["shown"] and other["exact"],
            notes=[
                f"loop lag ms p95 {percentile(other['lags_ms'] or [0.0], 95):.1f} / max "
                f"{max(other['lags_ms'] or [0.0]):.1f}; CPU {other['cpu_seconds']:.1f} s; "
                f"growth {other['growth_mb']:.1f} MB"
            ],
        )
        for renderer, other in others.items()
    ]
    return [
        *compared,
        Row(name, "ms p95 loop lag", p95, higher_is_better=False, goal="< 50 ms", met=p95 < 50, notes=notes),
        Row(name, "ms max loop lag", worst, higher_is_better=False),
        Row(
            name,
            "s to last chunk on screen",
            ours["on_screen_seconds"],
            floor=base["seconds"],
            floor_name="headless client",
            higher_is_better=False,
            goal="every chunk shown",
            met=every,
        ),
        Row(
            name, "MB RSS growth", ours["growth_mb"], higher_is_better=False, goal="< 50 MB", met=ours["growth_mb"] < 50
        ),
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
    elif sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), "--profile" in sys.argv)
    else:
        run_standalone(lambda quick: main(quick, "--profile" in sys.argv, "--compare" in sys.argv), "flood")
