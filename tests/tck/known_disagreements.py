"""Where `switchboard conformance` and the official TCK judge the same area of the same agent and differ, and why.
Each is explained in docs/conformance-vs-tck.md (test_tck_agreement.py checks that every one is there); any other
disagreement fails the cross-check."""

from __future__ import annotations

_MERGED_CARD = (
    "TCK too strict: the card also carries the v0.3 fields (url, preferredTransport, protocolVersion, "
    "supportsAuthenticatedExtendedCard) beside the v1.0 ones, so one card serves v0.3 and v1.0 clients; the TCK's "
    "schema forbids any other property (a MUST fail), where §5.7 says implementations SHOULD ignore unrecognized "
    "fields. We pass it."
)

_MINOR_VERSION = (
    "TCK too lenient: it sends A2A-Version 99.0 only, which a2a-sdk 1.3 refuses; we also send 1.1, which it serves "
    "as 1.0, where §3.6.2 says an interface that does not support the Major.Minor asked MUST answer "
    "VersionNotSupportedError. We fail it."
)

_SCRIPTED_ARTIFACT = (
    "The TCK's artifact test speaks to its own test agent: a message whose id begins `tck-artifact-text` must come "
    "back as a task holding a text artifact; any other agent answers as it answers anything (this one asks for a "
    "name, input-required, no artifact yet) and the TCK fails it, 'Response contains no artifacts', which no "
    "requirement asks of a task waiting for input. We judge the artifacts the agent really streams (answering its "
    "question once) and the task read afterwards: each has an id and parts. We pass it."
)

KNOWN: dict[tuple[str, str], str] = {
    **{
        ("artifacts", column): _SCRIPTED_ARTIFACT
        for column in ("sdk13 JSON-RPC", "sdk13 HTTP+JSON", "js JSON-RPC", "js HTTP+JSON")
    },
    ("error body", "js HTTP+JSON"): (
        "TCK too strict: @a2a-js/sdk answers its HTTP+JSON errors as `application/a2a+json`, the A2A media type its "
        "successes and the binding's requests carry too; the TCK wants `application/json` exactly. Each body is the "
        "google.rpc.Status AIP-193 asks for (code, status, message, details), in JSON; we take either JSON media type "
        "and pass it."
    ),
    ("error info", "broken:error-info-once"): (
        "TCK too lenient: it reads the ErrorInfo of one error only, the TaskNotFoundError of a GetTask; this agent "
        "gives that one its ErrorInfo and none to its other A2A errors (TaskNotCancelable, UnsupportedOperation, "
        "PushNotificationNotSupported, VersionNotSupported), where §9.5 says every A2A error MUST carry one. We "
        "read every error the probe was answered, and fail it."
    ),
    ("card structure", "sdk13 JSON-RPC"): _MERGED_CARD,
    ("card structure", "js JSON-RPC"): _MERGED_CARD,
    ("card structure", "js HTTP+JSON"): _MERGED_CARD,
    ("version: unsupported", "sdk13 JSON-RPC"): _MINOR_VERSION,
    ("version: unsupported", "sdk13 HTTP+JSON"): _MINOR_VERSION,
    ("stream: events", "broken"): (
        "TCK too lenient: the stream begins with a status update, not the Task; §3.1.2 says a task's stream MUST "
        "begin with the Task. The TCK checks the first event only on SubscribeToTask. We fail it."
    ),
    ("stream: events", "broken:other-task"): (
        "TCK too lenient: the stream carries a status update for another task; the TCK checks no event's taskId. "
        "We fail it (§3.1.2: the stream is the task's)."
    ),
    ("stream: events", "broken:garbled"): (
        "The TCK's event tests stop at the first frame that is not JSON (a JSONDecodeError), so a framing breach "
        "fails them too; we judge the frames that were well-formed (the Task, then its end) and fail the framing "
        "alone ('stream: wire', where both fail)."
    ),
    ("cancel", "broken:cancel-input-required"): (
        "TCK too lenient: it checks only that the cancel answers with the task's id; the task answered is still "
        "input-required, where §3.1.5 says the cancel returns the task updated with its cancellation. We fail it."
    ),
    ("version: empty", "broken"): (
        "TCK too lenient: it sends SendMessage with an empty A2A-Version and passes any answer, result or error; "
        "we send ListTasks, which v0.3 has not, and fail an agent that serves it as 1.0, since an empty header "
        "means 0.3 (§3.6.2)."
    ),
}
