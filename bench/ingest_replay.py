"""Replaying a recorded SSE stream byte-exact, as long as the bench needs it.

A capture is what the official SDK server wrote for one burst (see ingest_agent.py): a head (the task
snapshot, the first status, the artifact's first chunk), a middle of appended chunks and working statuses,
and a tail (the last chunk, completed). The long stream repeats the middle whole, so every frame is a
recorded frame, byte for byte, and the ids and the order stay those of the capture.

    python ingest_replay.py CAPTURE.sse CARD.json ORIGIN EVENTS

serves on a free 127.0.0.1 port, prints `READY <url>`, and answers GET (any path) with the card (its
recorded ORIGIN replaced by this server's) and POST with the long stream; it stops when stdin closes.
Stdlib only, and a process of its own, so serving never takes the measured consumer's CPU or GIL.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

HEAD, TAIL = 3, 2  # frames before and after the repeated middle
WRITE_SIZE = 64 * 1024


def split_frames(raw: bytes) -> list[bytes]:
    """The SSE events of a capture, each with its terminating blank line, exactly as recorded."""
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    return [part + sep for part in raw.split(sep) if part.strip()]


def repeats_for(frames: list[bytes], events: int) -> int:
    middle = len(frames) - HEAD - TAIL
    return max(1, -(-(events - HEAD - TAIL) // middle))


def long_stream(frames: list[bytes], events: int) -> list[bytes]:
    """The capture with its middle repeated until the stream holds at least `events` events."""
    head, middle, tail = frames[:HEAD], frames[HEAD:-TAIL], frames[-TAIL:]
    return head + middle * repeats_for(frames, events) + tail


def chunked(body: bytes) -> list[bytes]:
    """HTTP/1.1 chunked transfer coding, in writes of WRITE_SIZE."""
    pieces = [body[i : i + WRITE_SIZE] for i in range(0, len(body), WRITE_SIZE)]
    return [b"%x\r\n%s\r\n" % (len(p), p) for p in pieces] + [b"0\r\n\r\n"]


async def serve(stream: bytes, card: bytes, origin: bytes) -> None:
    served_card: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            method = head.split(b" ", 1)[0]
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length:
                await reader.readexactly(length)
            if method == b"POST":
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                    b"cache-control: no-store\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n"
                )
                for piece in chunked(stream):
                    writer.write(piece)
                    await writer.drain()
            else:
                body = served_card[0]
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                    b"connection: close\r\n\r\n%s" % (len(body), body)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    served_card.append(card.replace(origin, url.encode()))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    threading.Thread(target=lambda: (sys.stdin.read(), loop.call_soon_threadsafe(stop.set)), daemon=True).start()
    print(f"READY {url}", flush=True)
    async with server:
        await stop.wait()


def main() -> None:
    capture, card, origin, events = sys.argv[1:5]
    stream = b"".join(long_stream(split_frames(Path(capture).read_bytes()), int(events)))
    asyncio.run(serve(stream, Path(card).read_bytes(), origin.encode()))


if __name__ == "__main__":
    main()
