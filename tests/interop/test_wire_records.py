"""What the wire tap records of a real exchange over HTTP+JSON and gRPC, and how `--verbose`, the TUI's wire view
and the HAR export show it: method and route, headers or metadata with the API key redacted, every message as
JSON, the status (gRPC's at the end, in the trailers)."""

from __future__ import annotations

import json

import pytest
from servers import AUTH_API_KEY

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import connect, new_message
from switchboard.a2a.errors import ProtocolError
from switchboard.a2a.tap import Tap, WireRecord, format_record
from switchboard.export.har import archive
from switchboard.tui.widgets.wire_view import record_text

KINDS = ["sdk13-rest", "js-rest", "sdk13-grpc", "sdk13-v03grpc", "js-grpc", "js-v03grpc"]


async def streamed_then_unknown(server) -> tuple[Tap, list[WireRecord], list[WireRecord]]:
    """A streamed turn and a get of an unknown task, each exchange's records."""
    tap = Tap()
    credentials = Credentials(api_key=server.api_key)
    async with await connect(server.url, tap=tap, credentials=credentials) as client:
        async for _ in client.stream(new_message("hi")):
            pass
        with pytest.raises(ProtocolError):
            await client.get_task("no-such-task")
    calls = [r.exchange for r in tap.records if r.kind == "request" and (r.method != "GET" or "no-such" in r.url)]
    streamed = [r for r in tap.records if r.exchange == calls[0]]
    unknown = [r for r in tap.records if r.exchange == calls[-1]]
    return tap, streamed, unknown


@pytest.mark.parametrize("kind", KINDS)
async def test_the_tap_records_each_binding_faithfully_with_the_key_redacted(server_pool, kind):
    server = server_pool.get(kind, AUTH_API_KEY)
    tap, streamed, unknown = await streamed_then_unknown(server)
    assert all(AUTH_API_KEY not in r.url + r.body + str(r.headers) for r in tap.records)
    request, response, *frames = streamed
    assert request.kind == "request" and response.kind == "response"
    assert {k.lower(): v for k, v in request.headers.items()}["x-api-key"] == "[redacted]"
    assert json.loads(request.body)["message"]  # the message sent, as JSON
    messages = [json.loads(f.body) for f in frames if f.kind == "sse"]
    assert messages and all(isinstance(m, dict) for m in messages)  # every streamed message, as JSON
    lines = [record_text(r).plain for r in streamed]
    verbose = [format_record(r).splitlines()[0] for r in streamed]
    entries = archive(tap.records, tap.wall_start)["log"]["entries"]
    (entry,) = [e for e in entries if e["_exchange"] == request.exchange]
    if server.binding == "GRPC":
        service = "lf.a2a.v1.A2AService" if server.wire_version == "1.0" else "a2a.v1.A2AService"
        assert request.method == "gRPC" and request.url == f"grpc://{server.grpc_target}/{service}/SendStreamingMessage"
        assert response.method == "gRPC" and response.status is None  # gRPC's status comes at the end
        assert all(f.method == "gRPC" for f in frames if f.kind == "sse")
        end = streamed[-1]
        assert (end.kind, end.status, end.body) == ("trailers", 0, "OK")
        assert f"gRPC grpc://{server.grpc_target}/{service}/SendStreamingMessage" in lines[0]
        assert "x-api-key" not in lines[0]  # a request's line says which call; its metadata is in the detail
        assert "gRPC headers" in lines[1] and "gRPC status 0" in lines[-1]
        assert "< gRPC message" in verbose[2] and "< gRPC status 0" in verbose[-1]
        assert (entry["request"]["method"], entry["response"]["status"]) == ("POST", 200)
        assert entry["_grpcStatus"]["code"] == 0 and entry["_sseMessages"]
        failed = unknown[-1]
        assert failed.kind == "trailers" and failed.status == 5 and failed.body.startswith("NOT_FOUND: ")
        if server.wire_version == "1.0" and server.stack == "sdk13":
            assert "TASK_NOT_FOUND" in failed.body  # the google.rpc.Status's ErrorInfo, as JSON
        assert "gRPC status 5" in record_text(failed).plain
    else:
        assert request.method == "POST" and request.url == server.endpoint_url + "/message:stream"
        assert response.status == 200
        assert f"POST {server.endpoint_url}/message:stream" in lines[0]  # the headers are in the detail
        assert "HTTP 200" in lines[1] and "text/event-stream" in lines[1]
        assert "< 200" in verbose[1] and "< sse" in verbose[2]
        assert (entry["request"]["method"], entry["response"]["status"]) == ("POST", 200)
        get, answer = unknown[0], unknown[1]
        assert get.method == "GET" and get.url.endswith("/tasks/no-such-task")
        assert answer.status == 404 and "HTTP 404" in record_text(answer).plain
