"""The areas `switchboard conformance` and the official TCK are compared on: for each, the findings of ours that judge
it (a TCK requirement id, as conformance/requirements.py gives them, or a scenario's name) and the TCK tests that
judge it (a piece of their pytest node ids: tck_plugin.py keeps the TCK tests whose node id holds one).

An area's verdict on one interface of one agent, each side alike: `fail` when a finding (a test) of it broke a
MUST, else `warn` when one broke a SHOULD, else `pass` when one passed; not judged (None) when none did (ours
skipped, the TCK skipped: most often because it needs its own test agent's scripted tasks)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    name: str
    ours: tuple[str, ...]  # TCK requirement ids our findings carry, or scenario names (those without an id)
    tck: tuple[str, ...]  # pieces of the TCK's node ids


def _param(requirement: str) -> str:
    """The TCK's generic requirement test of one requirement id (test_requirements.py), on any transport."""
    return f"test_must_requirement[{requirement}-"


AREAS = (
    Area("card", ("CARD-DISC-001",), ("TestAgentCardDiscovery::",)),
    Area("card structure", ("CARD-DISC-001", "card lint"), ("TestAgentCardStructure::", "TestAgentCardProtocol::")),
    Area("card caching", ("CARD-CACHE-001",), ("TestAgentCardCacheControl::", "TestAgentCardETag::")),
    Area("send", ("CORE-SEND-001", "DM-TASK-001"), (_param("CORE-SEND-001"),)),
    Area(
        "stream: wire",
        ("JSONRPC-SSE-001", "HTTP_JSON-SSE-001"),
        (
            "TestJsonRpcStreaming::test_streaming_content_type",
            "TestRestStreaming::test_streaming_content_type",
            "TestSseStreamingFormat::test_streaming_events_have_jsonrpc_envelope",
        ),
    ),
    Area(
        "stream: events",
        ("CORE-STREAM-002", "CORE-STREAM-003", "DM-TASK-002"),
        (
            _param("CORE-STREAM-001"),
            _param("CORE-STREAM-002"),
            _param("CORE-STREAM-003"),
            "TestStreamEventOrdering::",
            "TestSseStreamingFormat::test_streaming_events_contain_stream_response",
        ),
    ),
    Area("get", ("CORE-GET-001",), ("TestGetTask::",)),
    # The TCK asks its own test agent for a text artifact by a scripted message id (tck-artifact-text-...), which
    # the spec-breaking agent follows; its file and data artifact tests need scripts no other agent follows.
    Area("artifacts", ("DM-ART-001",), ("TestTextArtifact::",)),
    Area("artifact chunks", ("artifact chunks",), ()),  # the TCK reads no artifact update
    Area("artifacts: in the task", ("artifacts: in the task",), ()),
    Area("list", ("CORE-LIST-001",), tuple(_param(f"CORE-LIST-00{n}") for n in range(1, 6))),
    Area("subscribe", ("STREAM-SUB-001",), ("test_subscribe_first_event_is_task",)),
    Area("subscribe: ended task", ("STREAM-SUB-003",), ("test_subscribe_rejects_terminal_task",)),
    Area("subscribe: until the end", ("STREAM-SUB-002",), ("test_subscribe_terminates_at_terminal_state",)),
    # Two subscriptions to one task (the TCK's other two multi-stream tests wait 10 s each on an agent whose task
    # does not end by itself, and judge what this one does: every stream sent events, closing one harmless)
    Area(
        "subscribe: two streams",
        ("STREAM-ORDER-003",),
        ("TestMultiStreamOrdering::test_streams_receive_same_events_in_order",),
    ),
    Area("cancel", ("CORE-CANCEL-001",), ("test_cancel_task_returns_updated_state",)),
    Area("cancel: ended task", ("CORE-CANCEL-002",), ("test_cancel_terminal_task_returns_error",)),
    Area("ended task: send", ("CORE-SEND-002",), ("test_send_message_to_terminal_task",)),
    Area(
        "unknown task: get",
        ("CORE-GET-002",),
        (
            _param("CORE-GET-002"),
            "TestJsonRpcErrorCodeMappings::test_task_not_found_error",
            "TestJsonRpcErrorStructure::test_a2a_error_type_mappings",
            "test_error_code_in_valid_range[GetTask-nonexistent]",
            "TestHttpJsonStatusCodes::test_task_not_found_returns_404",
        ),
    ),
    Area(
        "unknown task: cancel",
        ("CORE-CANCEL-003",),
        (
            _param("CORE-CANCEL-003"),
            "TestJsonRpcErrorCodeMappings::test_task_not_cancelable_error",
            "test_error_code_in_valid_range[CancelTask-nonexistent]",
            "TestHttpJsonStatusCodes::test_task_not_cancelable_returns_409",
        ),
    ),
    Area("unknown task: send", ("CORE-MULTI-004",), (_param("CORE-MULTI-004"),)),
    Area(
        "unknown task: subscribe",
        ("STREAM-SUB-004",),
        (_param("STREAM-SUB-004"), "TestSseSubscribeToTask::test_subscribe_nonexistent_task_returns_error"),
    ),
    Area("extended card", ("CORE-CAP-003",), ("TestCapabilityExtendedCard::", _param("CARD-EXT-00"))),
    Area(
        "version: unsupported",
        ("VER-SERVER-002",),
        (
            "TestVersionErrors::test_unsupported_version_returns_error",
            "TestJsonRpcErrorCodeMappings::test_version_not_supported_error",
            "test_error_code_in_valid_range[SendMessage-bad-version]",
            "TestHttpJsonStatusCodes::test_version_not_supported_returns_400",
        ),
    ),
    Area("version: patch", ("VER-CLIENT-002",), ()),  # the TCK has no test of it (VER-CLIENT-002: NOT TESTED)
    Area("version: empty", ("VER-SERVER-003",), ("TestVersionErrors::test_empty_version_treated_as_default",)),
    Area("push config", ("PUSH-CREATE-001",), ("TestPushNotificationCrud::",)),
    # The probe's own webhook on 127.0.0.1, pushed to by the cancel; the TCK's, by its scripted task's completion.
    Area(
        "push delivery",
        ("PUSH-DELIVER-001", "PUSH-DELIVER-002", "PUSH-DELIVER-003"),
        ("TestPushNotificationDelivery::",),
    ),
    Area("push delivery: token", ("push delivery: token",), ()),  # the TCK checks `authentication` only, not the token
    Area(
        "push config: refused",
        ("CORE-CAP-001",),
        (
            "TestCapabilityPushNotifications::",
            "TestJsonRpcErrorCodeMappings::test_push_notification_not_supported_error",
            "TestHttpJsonStatusCodes::test_push_not_supported_returns_400",
        ),
    ),
    Area("history length", ("CORE-HIST-002",), ("TestHistoryLengthLimit::",)),
    Area("timestamps", ("DM-SERIAL-003",), ("TestTimestampFormat::",)),
    Area(
        "error info",
        ("JSONRPC-ERR-003", "HTTP_JSON-ERR-002"),
        (
            "TestJsonRpcErrorInfo::",
            "TestJsonRpcErrorStructure::test_error_data_contains_error_info",
            "TestRestErrorStructure::test_a2a_error_info_in_details",
            "TestAIP193ErrorInfo::",
        ),
    ),
    Area(
        "error body",
        ("JSONRPC-ERR-001", "HTTP_JSON-ERR-001"),
        ("TestJsonRpcErrorStructure::test_error_object_structure", "TestAIP193ErrorFormat::"),
    ),
)

# The TCK's test files that hold the tests above: the only ones its run collects.
TCK_FILES = (
    "tests/compatibility/agent_card/test_agent_card.py",
    "tests/compatibility/agent_card/test_agent_card_caching.py",
    "tests/compatibility/core_operations/test_requirements.py",
    "tests/compatibility/core_operations/test_transport_behavior.py",
    "tests/compatibility/core_operations/test_stream_ordering.py",
    "tests/compatibility/core_operations/test_task_lifecycle.py",
    "tests/compatibility/core_operations/test_error_handling.py",
    "tests/compatibility/core_operations/test_push_notifications.py",
    "tests/compatibility/core_operations/test_task_history.py",
    "tests/compatibility/core_operations/test_data_model.py",
    "tests/compatibility/core_operations/test_artifacts.py",
    "tests/compatibility/core_operations/test_multi_stream.py",
    "tests/compatibility/jsonrpc/test_error_codes.py",
    "tests/compatibility/jsonrpc/test_error_info.py",
    "tests/compatibility/jsonrpc/test_sse_streaming.py",
    "tests/compatibility/http_json/test_http_status.py",
    "tests/compatibility/http_json/test_problem_details.py",
)


def tck_keys() -> list[str]:
    return sorted({key for area in AREAS for key in area.tck})
