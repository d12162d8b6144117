"""The HTML export opened in the same headless browser: it loads nothing, runs nothing the agent wrote, and shows
the agent's markup as text."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import sync_playwright
from web_support import launch, local_only

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    DataPart,
    FilePart,
    Message,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.recording import Recorded
from switchboard.a2a.redact import Redactor
from switchboard.export import export_transcript
from switchboard.export.transcript import Exchange, Transcript

HOSTILE = (
    '<script>window.pwned = 1</script><b id="injected">bold</b>'
    '<img src="http://evil.example/x.png" onerror="window.pwned = 2">'
)

RAW = base64.b64encode(HOSTILE.encode()).decode()


def hostile_transcript() -> Transcript:
    said = Message(message_id="m-agent", role=Role.AGENT, parts=[TextPart(text="working on " + HOSTILE)])

    def status(state: TaskState, message: Message | None = None) -> StatusUpdate:
        return StatusUpdate(task_id="t", context_id="c", status=TaskStatus(state=state, message=message))

    events = [
        Recorded("2026-03-15T10:15:01.000Z", status(TaskState.WORKING, said)),
        Recorded(
            "2026-03-15T10:15:02.000Z",
            ArtifactUpdate(
                task_id="t",
                context_id="c",
                artifact=Artifact(
                    artifact_id="a",
                    name='report<i id="named">.md',
                    parts=[
                        TextPart(text="# Report\n" + HOSTILE),
                        DataPart(data={"html": HOSTILE}),
                        FilePart(raw=RAW, name="x.html", media_type="text/html"),
                        FilePart(url="http://evil.example/y.png", name="y.png", media_type="image/png"),
                    ],
                ),
                last_chunk=True,
            ),
        ),
        Recorded("2026-03-15T10:15:03.000Z", status(TaskState.COMPLETED)),
    ]
    message = Message(message_id="m-1", role=Role.USER, parts=[TextPart(text="show me <u id='mine'>this</u>")])
    exchange = Exchange(1, 'agent<s id="agentname">x</s>', message, "2026-03-15T10:15:00.000Z", events)
    return Transcript("conversation", f"Conversation with {HOSTILE}", [exchange])


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def test_the_page_shows_agent_markup_as_text_and_loads_nothing(browser, tmp_path):
    page_file = tmp_path / "export.html"
    page_file.write_text(export_transcript(hostile_transcript(), "html", Redactor()).text)
    context = browser.new_context()
    blocked = local_only(context)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    assert page.evaluate("window.pwned") is None  # no script the agent wrote ran, no handler fired
    for injected in ("#injected", "#named", "#agentname", "#mine", "img", "script"):
        assert page.query_selector(injected) is None, injected
    text = page.inner_text("body")
    assert HOSTILE in text  # shown, character for character
    assert 'report<i id="named">.md' in text and "show me <u id='mine'>this</u>" in text
    assert "working" in text and "completed" in text
    download = page.query_selector("a[download]")
    assert download.get_attribute("download") == "x.html"
    assert download.get_attribute("href").startswith("data:application/octet-stream;base64,")
    assert page.query_selector('a[href="http://evil.example/y.png"]') is not None  # a link, not a load
    assert requests == [page_file.as_uri()] and blocked == []
    page.screenshot(path=str(tmp_path / "export.png"), full_page=True)
    context.close()
