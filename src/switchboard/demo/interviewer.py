"""interviewer: a multi-turn task that asks two questions (input-required each time), then sums up.

Its second question carries the choices as data and, to a client that renders A2UI v0.9.1 (`a2uiClientCapabilities`
in the message's metadata, or the extension activated), as an A2UI form beside that data part too. Its card declares
the extension, so the TUI (which announces where a card declares it) draws that question as a form with a choice
picker; the first question, a name, stays a plain text question."""

from __future__ import annotations

from google.protobuf.json_format import MessageToDict

from .a2ui_parts import EXTENSION_V091, MIME_V091, a2ui_part, incoming_action
from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, data, skill, text

DESCRIPTION = "Asks you two questions in a row (input-required), then completes with a summary and your answers."
QUESTION_NAME = "What is your name?"
CATALOG_V091 = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"
CHOICES = ["learn how A2A works", "test my own agent", "just looking around"]


def question_goal(name: str, *, form: bool = False) -> str:
    """The second question: worded for the form when it goes with one (its choices carry no numbers on screen),
    else with the choices' numbers (a text-only client types one; the data part lists them)."""
    pick = "Pick one below" if form else f"Pick a choice (1-{len(CHOICES)})"
    return f"Nice to meet you, {name}. What is your goal today? {pick} or say it in your own words."


def read_goal(answer: str) -> str:
    """A choice number (1-3) or the choice itself picks that choice; anything else is taken as written."""
    if answer.isdigit() and 1 <= int(answer) <= len(CHOICES):
        return CHOICES[int(answer) - 1]
    return answer


def goal_form() -> list[dict]:
    """The choices as an A2UI form (v0.9 messages, the v0.9.1 media type): pick one, or write your own."""
    path = {"choice": {"path": "/goal/choice"}, "words": {"path": "/goal/words"}}
    components = [
        {"id": "root", "component": "Column", "children": ["choice", "words", "answer"]},
        {"id": "choice", "component": "ChoicePicker", "label": "Your goal today", "variant": "mutuallyExclusive",
         "options": [{"label": c, "value": c} for c in CHOICES], "value": path["choice"]},
        {"id": "words", "component": "TextField", "label": "or in your own words", "value": path["words"]},
        {"id": "answer-label", "component": "Text", "text": "Answer"},
        {"id": "answer", "component": "Button", "variant": "primary", "child": "answer-label",
         "action": {"event": {"name": "answer", "context": path}}},
    ]  # fmt: skip
    surface = "interview-goal"
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": CATALOG_V091}},
        {"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": surface, "value": {"goal": {"choice": [CHOICES[0]],
                                                                                        "words": ""}}}},
    ]  # fmt: skip


def _renders_v091(turn: Turn) -> bool:
    """The client said it renders A2UI v0.9(.1): v0.9's capabilities in the metadata, or the extension activated (a
    client that renders only v0.8 gets the question in words and the data part)."""
    message = turn.context.message
    metadata = MessageToDict(message.metadata) if message is not None and message.HasField("metadata") else {}
    caps = metadata.get("a2uiClientCapabilities")
    return (isinstance(caps, dict) and "v0.9" in caps) or EXTENSION_V091 in turn.context.requested_extensions


def _answer(turn: Turn) -> str:
    """The text of the answer, or what the goal form sent (its own words, else the choice)."""
    action = incoming_action(turn)
    if action is None:
        return turn.text
    context = action[1]
    words, choice = context.get("words"), context.get("choice")
    if isinstance(words, str) and words.strip():
        return words.strip()
    return str(choice[0] if isinstance(choice, list) and choice else choice or "")


class InterviewerExecutor(DemoExecutor):
    def __init__(self) -> None:
        super().__init__()
        self._names: dict[str, str] = {}  # task id -> the name given in the first answer

    async def run(self, turn: Turn) -> None:
        if turn.state != State.TASK_STATE_INPUT_REQUIRED:
            await turn.working("preparing two questions")
            await turn.pause(0.3)
            await turn.ask(QUESTION_NAME)
            return
        answer = _answer(turn)
        name = self._names.get(turn.task_id)
        if not answer:
            if name is None:
                await turn.ask("I did not catch that. " + QUESTION_NAME)
            else:
                await self._ask_goal(turn, name, "I did not catch that. ")
        elif name is None:
            self._names[turn.task_id] = answer
            await self._ask_goal(turn, answer)
        else:
            goal = read_goal(answer)
            await turn.working("writing up your answers")
            await turn.pause(0.3)
            summary = f"{name} came by to {goal}." if goal in CHOICES else f"{name}'s goal today: {goal}."
            parts = [text(f"Interview summary: {summary}"), data({"name": name, "goal": goal})]
            await turn.artifact(parts, artifact_id="interview", name="interview summary")
            self._names.pop(turn.task_id, None)
            await turn.complete("interview complete, thank you")

    async def _ask_goal(self, turn: Turn, name: str, before: str = "") -> None:
        """The goal question with its choices as data, and as a form to a client that draws one (asked again, the
        same: the form is what the person answers with)."""
        form = _renders_v091(turn)
        parts = [a2ui_part(goal_form(), MIME_V091)] if form else []
        await turn.ask(before + question_goal(name, form=form), data({"choices": CHOICES}), *parts)


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Interviewer",
        description=DESCRIPTION + " Shows input-required turns, a question carrying a data part, and a "
        "completed task with text and data in its artifact.",
        url=url,
        output_modes=("text/plain", "application/json", MIME_V091),
        skills=[
            skill(
                "interview",
                "Short interview",
                "Say anything to start. The agent asks your name, then your goal (with a list of choices as "
                "data, and as an A2UI form where the client renders A2UI); answer each question in the same "
                "task. It completes with a summary and "
                '{"name", "goal"} as data.',
                ["interview me", "start"],
                ["multi-turn", "input-required", "data"],
            )
        ],
    )
    extension = card.capabilities.extensions.add(uri=EXTENSION_V091, description="Offers its choices as an A2UI form")
    extension.params.update({"supportedCatalogIds": [CATALOG_V091]})
    return a2a_app(card, InterviewerExecutor())


AGENT = DemoAgent("interviewer", DESCRIPTION, build)
