"""`switchboard conformance`: every reference server in the matrix (a2a-sdk 1.3 and 0.3.26, the JavaScript SDK, over
JSON-RPC and HTTP+JSON, at 1.0 and 0.3) passes; a deliberately broken agent fails, each failure naming its
requirement (the spec's section, its level, the TCK's id) and saying what was sent and what came back, one broken
mode at a time; `--against` lists what changed between two agents."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from broken_agent import MODES, PROBE_ONLY_MODES, broken_agent
from cli_runner import run_cli_in_process

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.cards import BINDING_NAMES
from switchboard.a2a.http import new_http_client
from switchboard.conformance.probe import probe

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def broken() -> Iterator[str]:
    with broken_agent() as url:
        yield url


def _cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), **(env or {})}
    return run_cli_in_process(["conformance", *args], environment, timeout=180)


def _by_scenario(report) -> dict[str, str]:
    return {c.scenario: c.outcome for c in report.checks if c.scenario != "card lint"}


# What the official SDKs break, found by the probe, each a MUST of the v1.0 specification: (stack, interface or
# None for every v1.0 interface, scenario).
KNOWN_BREACHES = {
    # a2a-sdk 1.3 serves A2A-Version 1.1 as 1.0; §3.6.2: a version the interface does not support (1.0 only, matched
    # on Major.Minor) is VersionNotSupportedError.
    ("sdk13", None, "version: minor"),
    # @a2a-js/sdk refuses A2A-Version 1.0.3 (VersionNotSupportedError); §3.6: a patch number MUST NOT be considered.
    ("js", None, "version: patch"),
    # @a2a-js/sdk answers a cancel of a task it already canceled with the task; §3.1.5: TaskNotCancelableError.
    ("js", None, "cancel: again"),
    # @a2a-js/sdk's REST handler serves a request with an empty A2A-Version as 1.0; §3.6.2: empty means 0.3 (its
    # JSON-RPC handler refuses it, as a2a-sdk's handlers do).
    ("js", "HTTP+JSON 1.0", "version: empty"),
    # @a2a-js/sdk's card declares its extended card only in v0.3's supportsAuthenticatedExtendedCard, and serves it
    # to v1.0 callers; §3.3.4: without capabilities.extendedAgentCard, UnsupportedOperationError (found by the TCK).
    *(("js", f"{binding} 1.0", "extended card") for binding in ("JSON-RPC", "HTTP+JSON", "gRPC")),
}


def known(stack: str, check) -> bool:
    return (stack, check.interface, check.scenario) in KNOWN_BREACHES or (stack, None, check.scenario) in KNOWN_BREACHES


async def test_every_reference_server_passes(reference_server):
    async with new_http_client() as http:
        report = await probe(reference_server.url, http=http)
    failures = [c for c in report.checks if c.outcome == "fail" and not known(reference_server.stack, c)]
    assert not failures, failures
    # Each server's card leads to the interface the matrix names; it is among those probed, with every scenario.
    label = BINDING_NAMES[reference_server.binding]
    probed = {c.interface for c in report.checks if c.interface and c.outcome != "skip"}
    assert f"{label} {reference_server.wire_version}" in probed
    mine = {c.scenario: c.outcome for c in report.checks if c.interface == f"{label} {reference_server.wire_version}"}
    assert mine["send"] == mine["get"] == mine["cancel"] == mine["unknown task: get"] == "pass"
    assert mine["stream"] == "pass"
    # a2a-sdk 0.3 has nothing to re-attach to once a task waits for input (v0.3 left that open): a warning.
    assert mine["subscribe"] == ("warn" if reference_server.stack == "sdk03" else "pass")
    assert mine["list"] == ("pass" if reference_server.wire_version == "1.0" else "skip")
    version_probed = reference_server.wire_version == "1.0" and reference_server.binding != "GRPC"
    assert mine["version"] == ("pass" if version_probed else "skip")
    # Push configs are spoken at 1.0 on every binding, and at 0.3 over JSON-RPC (0.3's REST push is partial).
    push_spoken = reference_server.wire_version == "1.0" or reference_server.binding == "JSONRPC"
    # a2a-sdk 0.3 refuses an undeclared push config with InternalError, not PushNotificationNotSupported: a warning.
    refused_as = "warn" if reference_server.stack == "sdk03" else "pass"
    assert mine["push config"] == (refused_as if push_spoken else "skip")
    # What the cancel pushed reached the probe's own webhook (a2a-sdk's agents declare push notifications).
    delivered = reference_server.stack == "sdk13" and push_spoken
    assert mine["push delivery"] == ("pass" if delivered else "skip")
    # At 1.0 it came with the Authorization the config's authentication named (PUSH-DELIVER-001).
    authorized = [c.outcome for c in report.checks if c.interface == f"{label} {reference_server.wire_version}"
                  and c.requirement and c.requirement.tck == "PUSH-DELIVER-001"]  # fmt: skip
    assert authorized == (["pass"] if delivered and reference_server.wire_version == "1.0" else [])


AUTH_API_KEY = "conformance-key-123"


async def test_an_agent_behind_a_key_passes_with_it_and_is_not_judged_without(server_pool):
    server = server_pool.get("sdk13-v10", AUTH_API_KEY)
    async with new_http_client() as http:
        keyed = await probe(server.url, http=http, credentials=Credentials(api_key=AUTH_API_KEY))
        bare = await probe(server.url, http=http)
    assert not [c for c in keyed.checks if c.outcome == "fail" and not known("sdk13", c)]
    assert _by_scenario(keyed)["send"] == "pass"
    assert not bare.failed and _by_scenario(bare)["interfaces"] == "skip"
    assert "requires credentials" in next(c.detail for c in bare.checks if c.scenario == "interfaces")
    assert AUTH_API_KEY not in json.dumps(keyed.as_json())


async def test_a_broken_agent_fails_and_each_failure_names_its_section(broken):
    async with new_http_client() as http:
        report = await probe(broken, http=http)
    outcomes = _by_scenario(report)
    assert report.failed
    assert outcomes["send"] == "pass"
    failed = {c.scenario: c for c in report.checks if c.outcome == "fail"}
    assert set(failed) == {
        "stream",
        "subscribe",
        "unknown task: get",
        "unknown task: cancel",
        "version",
        "extended card",  # served though not declared: a MUST (§3.3.4), no longer a warning
        "push config",  # refused as MethodNotFound, not PushNotificationNotSupported: a MUST (§3.3.4)
        "unknown task: send",
        "unknown task: subscribe",
        "ended task: send",
        "cancel",  # a completed task answered canceled, not TaskNotCancelableError (§3.1.5)
        "cancel: again",
        "version: empty",
        "version: minor",
        "version: patch",
    }  # its A2A errors lack ErrorInfo too, but its unknown task is an InternalError: no A2A error to judge
    assert not [c for c in report.checks if c.outcome == "warn"]
    assert "§3.6.2" in failed["version"].section
    assert "§3.1.2" in failed["stream"].section and "statusUpdate" not in failed["stream"].detail
    assert "began with a StatusUpdate" in failed["stream"].detail
    assert "§3.1.3" in failed["unknown task: get"].section and "InternalError" in failed["unknown task: get"].detail
    assert "§3.1.5" in failed["unknown task: cancel"].section
    for check in failed.values():  # each names its requirement, what was sent, and what came back
        assert check.requirement is not None and check.requirement.level == "MUST" and check.requirement.tck
        assert check.sent and check.answered and check.binding == "JSONRPC" and check.version == "1.0"
    extended = failed["extended card"]
    assert (extended.sent, extended.requirement.tck) == ("GetExtendedAgentCard", "CORE-CAP-003")
    assert failed["push config"].answered == "error -32601 MethodNotFoundError"
    assert failed["push config"].requirement.tck == "CORE-CAP-001"


# Each mode of the broken agent breaks one requirement (a MUST, or a SHOULD: chunk-after-last), which passed before.
BROKEN_MODES = {
    "json-stream": ("stream: wire", "JSONRPC-SSE-001", "application/json"),  # and the stream (ALSO_BROKEN)
    "pondering": ("stream: states", "DM-TASK-002", "TASK_STATE_PONDERING"),
    "backwards": ("stream", "CORE-STREAM-003", "after the task ended completed"),
    "other-task": ("stream", "CORE-STREAM-003", "events for another task"),
    "garbled": ("stream: wire", "JSONRPC-SSE-001", "11 of 13 SSE frame(s) are not JSON-RPC responses"),
    "cancel-input-required": ("cancel", "CORE-CANCEL-001", "still input-required"),
    "push-internal": ("push config", "CORE-CAP-001", "InternalError"),
    "no-error-info": ("error data", "JSONRPC-ERR-003", "no google.rpc.ErrorInfo in error.data"),
    "local-time": ("timestamps", "DM-SERIAL-003", "'2026-11-27T12:00:00+02:00'"),
    "history-ignored": ("history length", "CORE-HIST-002", "3 messages, more than asked for"),
    "subscription-closes": ("subscribe: until the end", "STREAM-SUB-002", "closed without showing the task's end"),
    "error-info-once": ("error data", "JSONRPC-ERR-003", "CreateTaskPushNotificationConfig answered -32003: no google"),
    "wrong-reason": ("error data", "JSONRPC-ERR-003", "reason 'UNIMPLEMENTED'"),
    "artifact-no-id": ("artifacts", "DM-ART-001", "an artifact without an artifactId"),
    "chunk-after-last": ("artifact chunks", "", "a chunk after its lastChunk"),  # a SHOULD: a warning
    "artifact-lost": ("artifacts: in the task", "", "not in the task (first: 'report-1')"),
    "first-stream-only": ("subscribe: two streams", "STREAM-ORDER-003", "the second (and a third closed after"),
    "push-payload": ("push delivery", "PUSH-DELIVER-003", "the push was no StreamResponse of the task"),
    "push-unsigned": ("push delivery: token", "", "without the config's token"),  # a SHOULD: a warning
    "push-no-auth": ("push delivery", "PUSH-DELIVER-001", "without the Authorization the config's authentication"),
    "push-silent": ("push delivery", "PUSH-DELIVER-002", "nothing reached the webhook within 0.3 s"),
}
# The webhook's wait for a push that never comes (push-silent): short, as the probe lets a test ask; the modes that
# push are given the default bound (their push comes within milliseconds of the cancel, but the host may be busy).
SILENT_WAIT = 0.3


# One breach that breaks a second requirement: a "stream" answered as one JSON document carries no event, so the
# stream itself fails too (it passed as a one-event stream before; the TCK found no event in it).
ALSO_BROKEN = {"json-stream": ("stream", "CORE-STREAM-003", "no event stream")}


@pytest.mark.parametrize("mode", (*MODES, *PROBE_ONLY_MODES))
async def test_each_broken_mode_fails_on_its_one_requirement(broken, mode):
    scenario, tck, said = BROKEN_MODES[mode]
    wait = {"push_wait": SILENT_WAIT} if mode in PROBE_ONLY_MODES else {}
    async with new_http_client() as http:
        report = await probe(f"{broken}{mode}/", http=http, **wait)
    failed = [c for c in report.checks if c.outcome in ("fail", "warn")]
    expected = [(scenario, tck)] + ([ALSO_BROKEN[mode][:2]] if mode in ALSO_BROKEN else [])
    assert [(c.scenario, c.requirement.tck if c.requirement else None) for c in failed] == expected, failed
    if mode in ALSO_BROKEN:
        assert ALSO_BROKEN[mode][2] in failed[1].detail, failed[1]
    assert said in failed[0].detail + failed[0].answered, failed[0]
    # a MUST broken is a fail, a SHOULD a warning
    assert [c.outcome for c in failed] == [{"MUST": "fail", "SHOULD": "warn"}[c.requirement.level] for c in failed]


async def test_a_push_that_never_comes_fails_saying_what_was_sent_and_how_long_it_waited(broken):
    """push-silent takes the push config (create, get, list, delete all answer right) and never POSTs: the probe's
    webhook waits `push_wait` after the cancel (an event or the bound, never a fixed sleep) and fails delivery."""
    async with new_http_client() as http:
        report = await probe(f"{broken}push-silent/", http=http, push_wait=SILENT_WAIT)
    by_scenario = {c.scenario: c for c in report.checks}
    assert by_scenario["push config"].outcome == "pass"  # the config was accepted: only the delivery is missing
    delivery = by_scenario["push delivery"]
    assert (delivery.outcome, delivery.answered, delivery.sent) == (
        "fail",
        "no POST",
        "CreateTaskPushNotificationConfig",
    )
    assert delivery.requirement.level == "MUST" and "§4.3.3" in delivery.section
    assert "for task task-1 (config switchboard-conformance-" in delivery.detail
    assert (
        "webhook http://127.0.0.1:" in delivery.detail and "then CancelTask: the task was canceled" in delivery.detail
    )
    assert delivery.detail.endswith("nothing reached the webhook within 0.3 s")


async def test_a_v10_card_declaring_its_extended_card_only_the_v03_way_fails_at_10_and_passes_at_03(server_pool):
    """@a2a-js/sdk's merged card has supportsAuthenticatedExtendedCard (v0.3) and no capabilities.extendedAgentCard
    (v1.0): a v1.0 caller is told there is none, yet it is served (§3.3.4). The TCK fails it; the probe passed it."""
    async with new_http_client() as http:
        report = await probe(server_pool.get("js-v10").url, http=http)
    extended = {c.interface: c for c in report.checks if c.scenario == "extended card"}
    for label in ("JSON-RPC 1.0", "HTTP+JSON 1.0"):
        assert extended[label].outcome == "fail", extended[label]
        assert "only in v0.3's supportsAuthenticatedExtendedCard" in extended[label].detail
        assert extended[label].requirement.tck == "CORE-CAP-003"
    assert extended["JSON-RPC 0.3"].outcome == extended["HTTP+JSON 0.3"].outcome == "pass"


def test_the_command_prints_a_table_exits_1_on_a_failure_and_speaks_json(broken, tmp_path):
    text = _cli(tmp_path, broken)
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "Agent: Broken Agent"
    stream = next(line for line in lines if line.startswith("fail") and " stream " in line)
    assert "JSON-RPC 1.0" in stream and "[A2A §3.1.2 Send Streaming Message; MUST; TCK CORE-STREAM-003]" in stream
    sent = lines[lines.index(stream) + 1]
    assert sent == "      sent SendStreamingMessage over JSON-RPC 1.0; answered a StatusUpdate first"
    assert lines[-1].startswith("Result: fail (")
    assert "\x1b" not in text.stdout
    doc = json.loads(_cli(tmp_path, broken, "-o", "json").stdout)
    assert doc["result"] == "fail" and doc["summary"]["fail"] == 15
    check = next(c for c in doc["checks"] if c["scenario"] == "unknown task: get")
    assert check == {
        "scenario": "unknown task: get",
        "interface": "JSON-RPC 1.0",
        "result": "fail",
        "detail": check["detail"],
        "section": "A2A §3.1.3 Get Task (TaskNotFoundError)",
        "requirement": {"spec": "1.0", "section": "§3.1.3 Get Task (TaskNotFoundError)", "level": "MUST",
                        "tck": "CORE-GET-002"},
        "sent": {"method": "GetTask", "binding": "JSONRPC", "version": "1.0"},
        "answered": "error -32603 InternalError",
    }  # fmt: skip


def test_a_passing_agent_exits_0_and_against_lists_the_changes(server_pool, broken, tmp_path):
    alone = _cli(tmp_path, server_pool.get("sdk03-native").url, "-o", "json")
    assert alone.returncode == 0, alone.stderr
    assert json.loads(alone.stdout)["result"] == "pass"
    good = server_pool.get("sdk13-v10").url  # its one failure is a2a-sdk's own (KNOWN_BREACHES)
    both = _cli(tmp_path, good, "--against", broken, "-o", "json")
    assert both.returncode == 1
    doc = json.loads(both.stdout)
    assert doc["candidate"]["result"] == "fail"
    changed = {(c["scenario"], c["interface"]): (c["baseline"], c["candidate"]) for c in doc["changes"]}
    assert changed[("stream", "JSON-RPC 1.0")] == ("pass", "fail")
    assert changed[("unknown task: get", "JSON-RPC 1.0")] == ("pass", "fail")
    assert changed[("interfaces", "JSON-RPC 0.3")] == ("offered", "absent")  # one change, not one per scenario
    assert doc["differ"] and {"streams", "errors", "versions", "interfaces"} <= set(doc["sections"])
    text = _cli(tmp_path, good, "--against", broken)
    assert "Changes: " in text.stdout and "stream over JSON-RPC 1.0: pass -> fail" in text.stdout


def test_against_shows_how_the_two_official_sdks_differ_and_exits_1(server_pool, tmp_path):
    """The differences a curl finds between a2a-sdk and @a2a-js/sdk, and nothing else: no count, no wording."""
    python, javascript = server_pool.get("sdk13-v10").url, server_pool.get("js-v10").url
    done = _cli(tmp_path, python, "--against", javascript, "-o", "json")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    changed = {(c["scenario"], c["interface"]): c for c in doc["changes"]}
    empty = changed[("version: empty", "JSON-RPC 1.0")]  # both pass, answering differently
    assert (empty["baselineAnswered"], empty["candidateAnswered"]) == (
        "error -32009 VersionNotSupportedError",
        "error -32601 MethodNotFoundError",
    )
    assert changed[("version: minor", "JSON-RPC 1.0")]["candidateAnswered"] == "error -32009 VersionNotSupportedError"
    assert changed[("cancel: again", "JSON-RPC 1.0")]["candidateAnswered"] == "a Task, canceled"
    assert ("interfaces", "HTTP+JSON 1.0") in changed
    # the JavaScript card declares its extended card the v0.3 way only (KNOWN_BREACHES); at 0.3 both serve it
    assert changed[("extended card", "JSON-RPC 1.0")]["candidate"] == "fail"
    assert ("extended card", "JSON-RPC 0.3") not in changed
    assert not [k for k in changed if k[0] in ("stream", "get", "list", "send")], changed
    assert set(doc["sections"]) <= {"interfaces", "versions", "cancel", "capabilities", "other", "streams", "errors"}


def test_an_agent_against_itself_has_no_changes_and_exits_0(server_pool, tmp_path):
    url = server_pool.get("sdk03-native").url
    done = _cli(tmp_path, url, "--against", url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Changes: none" in done.stdout


def test_an_agent_that_is_not_there_exits_3(tmp_path):
    done = _cli(tmp_path, "http://127.0.0.1:9/")
    assert done.returncode == 3 and "Traceback" not in done.stderr
