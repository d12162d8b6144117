"""Benchmark 1, stream ingest: one long recorded SSE stream, three consumers, on each SSE binding and version.

The stream: a burst of working statuses and artifact chunks recorded from the official SDK servers
(a2a-sdk 1.3 for the v1.0 wire over JSON-RPC and over HTTP+JSON, the native a2a-sdk 0.3.26 server for v0.3
over JSON-RPC; ingest_agent.py), its middle
repeated byte-exact to 100,000 events (20,000 with --quick) and served from 127.0.0.1 by a process of its
own (ingest_replay.py). Each round runs, each in a fresh process (ingest_consumer.py), in an order that
rotates from round to round:
  floor  httpx-sse and json.loads of each frame, nothing else;
  ours   follow_turn over Transport.stream (the CLI's and the TUI's path), every event through the turn
         reducer (TaskView.apply) as `switchboard send` folds it;
  peer   the official a2a-sdk client on the same stream and binding (1.3 for v1.0, 0.3.26 for v0.3).
The medians are reported, as events per second of wall time and per CPU-second of the consumer (the goal's
measure: the machine's other work does not inflate it), with each consumer's peak RSS.
Goal: ours at least 0.7x the floor's events per CPU-second, as the median of each round's own ratio (the three
consumers of a round run back to back, so a busy moment lands on all of them).
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
from common import CACHE, ROOT, Row, env_with_src, run_standalone
from ingest_replay import HEAD, TAIL, long_stream, repeats_for, split_frames

HERE = Path(__file__).resolve().parent
CAPTURES = CACHE / "ingest"
CAPTURE_NAME = "burst100"  # ingest_agent.py's default burst: 505 events; change the name when the burst changes
# The streams: JSON-RPC at v1.0 and v0.3, and HTTP+JSON ("rest", v1.0: frames are bare StreamResponses).
WIRES = ("1.0", "0.3", "rest")
MODES = ("floor", "ours", "sdk")
PEER_NAMES = {"1.0": "a2a-sdk 1.3", "0.3": "a2a-sdk 0.3.26", "rest": "a2a-sdk 1.3"}
BENCH_NAMES = {"1.0": "ingest v1.0", "0.3": "ingest v0.3", "rest": "ingest HTTP+JSON v1.0"}
GOAL_FLOOR = 0.7  # ours' events per CPU-second at least this share of the floor's (issue 33)


def a2a03_python() -> str:
    return os.environ.get("SWITCHBOARD_A2A03_PYTHON") or str(ROOT / ".venv-a2a03" / "bin" / "python")


def python_for(wire: str) -> str:
    """The SDK whose server recorded this wire, and whose client is the peer on it."""
    return a2a03_python() if wire == "0.3" else sys.executable


def _tag(wire: str) -> str:
    return {"1.0": "v10", "0.3": "v03", "rest": "rest10"}[wire]


def _start(argv: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    line = process.stdout.readline()
    if not line.startswith("READY "):
        _stop(process)
        raise RuntimeError(f"{' '.join(argv)} did not start (said {line!r})")
    return process, line.split()[1]


def _stop(process: subprocess.Popen[str]) -> None:
    process.stdin.close()  # both servers stop when stdin closes
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def record(wire: str) -> tuple[Path, Path, str]:
    """The capture, the card and the origin they were recorded at; recorded once, then cached."""
    stem = CAPTURES / f"{CAPTURE_NAME}-{_tag(wire)}"
    capture, card, origin = stem.with_suffix(".sse"), stem.with_suffix(".card.json"), stem.with_suffix(".origin")
    if capture.exists() and card.exists() and origin.exists():
        return capture, card, origin.read_text()
    CAPTURES.mkdir(parents=True, exist_ok=True)
    agent, url = _start([python_for(wire), str(HERE / "ingest_agent.py")])
    try:
        post_to = url
        if wire == "0.3":
            message = {"kind": "message", "messageId": str(uuid.uuid4()), "role": "user"}
            message["parts"] = [{"kind": "text", "text": "go"}]
            body, headers = {"jsonrpc": "2.0", "id": 1, "method": "message/stream", "params": {"message": message}}, {}
        else:
            message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": "go"}]}
            body = {"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": {"message": message}}
            headers = {"A2A-Version": "1.0"}
            if wire == "rest":
                body, post_to = {"message": message}, url + "rest/message:stream"
        with httpx.Client(timeout=60) as http:
            card_bytes = http.get(url + ".well-known/agent-card.json").raise_for_status().content
            headers["Accept"] = "text/event-stream"
            with http.stream("POST", post_to, json=body, headers=headers) as response:
                response.raise_for_status()
                raw = b"".join(response.iter_raw())  # no content-encoding: these are the bytes as sent
    finally:
        _stop(agent)
    check_capture(wire, split_frames(raw))
    capture.write_bytes(raw)
    card.write_bytes(card_bytes)
    origin.write_text(url)
    return capture, card, url


def _event(wire: str, frame: bytes) -> tuple[str, dict]:
    """("status" | "chunk" | "task", the inner object) of one recorded frame."""
    payload = json.loads(frame.decode().removeprefix("data:"))
    result = payload if wire == "rest" else payload["result"]
    if wire != "0.3":
        (key, inner), *_ = result.items()
        return {"statusUpdate": "status", "artifactUpdate": "chunk"}.get(key, key), inner
    return {"status-update": "status", "artifact-update": "chunk"}.get(result.get("kind"), "task"), result


def check_capture(wire: str, frames: list[bytes]) -> None:
    """The shape the replay relies on: head, a middle of appends and working statuses, the last chunk, done."""
    kinds = [_event(wire, f) for f in frames]
    middle = kinds[HEAD:-TAIL]
    problems = []
    if [k for k, _ in kinds[:HEAD]] != ["task", "status", "chunk"] or kinds[HEAD - 1][1].get("append"):
        problems.append("head is not task, status, first chunk")
    if not all((k == "chunk" and e.get("append")) or k == "status" for k, e in middle):
        problems.append("middle holds something other than appended chunks and statuses")
    if kinds[-2][0] != "chunk" or not kinds[-2][1].get("lastChunk") or kinds[-1][0] != "status":
        problems.append("tail is not last chunk, final status")
    if problems:
        raise RuntimeError(f"the {wire} capture cannot be replayed: {'; '.join(problems)}")


def expected(wire: str, frames: list[bytes], events: int) -> tuple[int, str]:
    """How many events the long stream holds, and the digest of its artifact text, computed from the JSON."""
    stream = long_stream(frames, events)
    texts = {}
    for frame in frames:  # decode each distinct frame once; the stream repeats them
        kind, inner = _event(wire, frame)
        if kind == "chunk":
            texts[frame] = "".join(p.get("text", "") for p in inner["artifact"]["parts"])
    text = "".join(texts.get(f, "") for f in stream)
    return len(stream), hashlib.sha256(text.encode()).hexdigest()


def consume(mode: str, wire: str, url: str) -> dict:
    python = python_for(wire) if mode == "sdk" else sys.executable
    done = subprocess.run(
        [python, str(HERE / "ingest_consumer.py"), mode, wire, url],
        capture_output=True,
        text=True,
        env=env_with_src(),
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{mode} consumer on {wire} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(quick: bool = False) -> list[Row]:
    events = 20_000 if quick else 100_000
    rounds = 3 if quick else 5
    servers, urls, wanted = [], {}, {}
    try:
        for wire in WIRES:
            capture, card, origin = record(wire)
            frames = split_frames(capture.read_bytes())
            wanted[wire] = expected(wire, frames, events)
            process, urls[wire] = _start(
                [sys.executable, str(HERE / "ingest_replay.py"), str(capture), str(card), origin, str(events)]
            )
            servers.append(process)
            print(
                f"  {BENCH_NAMES[wire]}: {len(frames)} recorded frames, middle x{repeats_for(frames, events)} -> "
                f"{wanted[wire][0]} events",
                file=sys.stderr,
            )
        results: dict[tuple[str, str], list[dict]] = {(w, m): [] for w in WIRES for m in MODES}
        for r in range(rounds):
            order = MODES[r % 3 :] + MODES[: r % 3]
            for wire in WIRES:
                for mode in order:
                    result = consume(mode, wire, urls[wire])
                    n, digest = wanted[wire]
                    if result["events"] != n:
                        raise RuntimeError(f"{mode} on {wire} saw {result['events']} events, the stream has {n}")
                    if result["digest"] is not None and result["digest"] != digest:
                        raise RuntimeError(f"{mode} on {wire} built an artifact text that differs from the chunks")
                    results[(wire, mode)].append(result)
                    rate, cpu_rate = result["events"] / result["seconds"], result["events"] / result["cpu"]
                    print(
                        f"  round {r + 1} {wire:4} {mode:5} {rate:10,.0f} events/s {cpu_rate:10,.0f} events/CPU-s",
                        file=sys.stderr,
                    )
    finally:
        for process in servers:
            _stop(process)

    return rows_for(results, wanted, rounds)


def rows_for(results: dict[tuple[str, str], list[dict]], wanted: dict[str, tuple[int, str]], rounds: int) -> list[Row]:
    rows = []
    for wire in WIRES:
        runs = {m: results[(wire, m)] for m in MODES}
        rates = {m: [x["events"] / x["seconds"] for x in runs[m]] for m in MODES}
        cpu_rates = {m: [x["events"] / x["cpu"] for x in runs[m]] for m in MODES}
        common = {"bench": BENCH_NAMES[wire], "peer_name": PEER_NAMES[wire], "floor_name": "httpx-sse+json"}
        for measure, per_run, note in (
            ("events/s", rates, f"{wanted[wire][0]:,} events, median of {rounds} rounds, each in a fresh process"),
            ("events/CPU-s", cpu_rates, "events per CPU-second of the consumer: steadier on a busy machine"),
        ):
            ours, peer, floor = (statistics.median(per_run[m]) for m in ("ours", "sdk", "floor"))
            spread = "; ".join(f"{m} {[round(r) for r in per_run[m]]}" for m in MODES)
            paired = statistics.median(o / f for o, f in zip(per_run["ours"], per_run["floor"], strict=True))
            on_cpu = measure == "events/CPU-s"
            rows.append(
                Row(
                    measure=measure,
                    ours=ours,
                    peer=peer,
                    floor=floor,
                    goal=f">= {GOAL_FLOOR:g}x floor" if on_cpu else "",
                    met=paired >= GOAL_FLOOR if on_cpu else None,
                    notes=[
                        note,
                        f"runs in round order ({measure}): {spread}; ours / floor per round, median {paired:.2f}x",
                    ],
                    **common,
                )
            )
        rows.append(
            Row(
                measure="MB peak",
                ours=statistics.median(x["rss_mb"] for x in runs["ours"]),
                peer=statistics.median(x["rss_mb"] for x in runs["sdk"]),
                floor=statistics.median(x["rss_mb"] for x in runs["floor"]),
                higher_is_better=False,
                notes=["peak RSS of the consumer's whole process (interpreter and imports included)"],
                **common,
            )
        )
    return rows


if __name__ == "__main__":
    run_standalone(main, "ingest")
