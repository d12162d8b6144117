"""What one request to a served workflow may hold, and how long a client may take to send it.

Each bound is far above what a caller of a workflow needs (a message that starts a run, or answers one of its
questions) and far below what would let one caller tie up the server's memory, CPU or connections. The docs page
"Serving a workflow as an agent" (docs/serve.md) lists them; tests/serve/test_serve_bad_input.py proves each one.
"""

from __future__ import annotations

MAX_BODY = 1 << 20  # 1 MiB per request body: the SDK would read and parse any size
MAX_DEPTH = 32  # JSON nesting: A2A's own objects are ~6 deep; the rest is a caller's data or metadata
MAX_NUMBER_DIGITS = 40  # a number's characters: past what a double holds (I-JSON), and Python's int() slows down
MAX_PARTS = 100  # parts in one message: a workflow reads its inputs from the first data part and the text
MAX_TEXT = 256 * 1024  # characters in one text part (a workflow input, not a document store)
MAX_METADATA = 16 * 1024  # bytes of a metadata object as compact JSON (trace ids and flags, not payloads)
MAX_STRING = 8 * 1024  # characters in any other string: an id, a URL, a token, a media type, a file name
MAX_LIST = 64  # entries in any other list (extensions, referenceTaskIds, acceptedOutputModes)
MAX_QUERY = 4096  # bytes of a query string (GetTask's historyLength, ListTasks' filters)

BODY_TIMEOUT = 30.0  # seconds to send a whole body once the headers are in: a trickling client is answered 408
HEADER_TIMEOUT = 10.0  # seconds from connecting (or the last response) to a request's complete headers
KEEP_ALIVE = 5  # seconds an idle kept-alive connection stays open (uvicorn's timeout_keep_alive)
MAX_HEADER_BYTES = 16 * 1024  # request line and headers (h11's incomplete-event bound): over it gets 400
MIN_CONNECTIONS = 256  # open connections (and requests) at once, at least; 503 past it (uvicorn's limit_concurrency)
CONNECTIONS_PER_RUN = 4  # ...or this many per run the server may hold (--max-runs): a stream, a get, a cancel
