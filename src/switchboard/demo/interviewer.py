"""interviewer: a multi-turn task that asks two questions (input-required each time), then sums up."""

from __future__ import annotations

from .base import DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, State, Turn, a2a_app, agent_card, data, skill, text

DESCRIPTION = "Asks you two questions in a row (input-required), then completes with a summary and your answers."
QUESTION_NAME = "What is your name?"
CHOICES = ["learn how A2A works", "test my own agent", "just looking around"]


def question_goal(name: str) -> str:
    return f"Nice to meet you, {name}. What is your goal today? Pick a choice (1-3) or say it in your own words."


def read_goal(answer: str) -> str:
    """A choice number (1-3) or the choice itself picks that choice; anything else is taken as written."""
    if answer.isdigit() and 1 <= int(answer) <= len(CHOICES):
        return CHOICES[int(answer) - 1]
    return answer


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
        answer = turn.text
        name = self._names.get(turn.task_id)
        if not answer:
            await turn.ask("I did not catch that. " + (question_goal(name) if name else QUESTION_NAME))
        elif name is None:
            self._names[turn.task_id] = answer
            await turn.ask(question_goal(answer), data({"choices": CHOICES}))
        else:
            goal = read_goal(answer)
            await turn.working("writing up your answers")
            await turn.pause(0.3)
            summary = f"{name} came by to {goal}." if goal in CHOICES else f"{name}'s goal today: {goal}."
            parts = [text(f"Interview summary: {summary}"), data({"name": name, "goal": goal})]
            await turn.artifact(parts, artifact_id="interview", name="interview summary")
            self._names.pop(turn.task_id, None)
            await turn.complete("interview complete, thank you")


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Interviewer",
        description=DESCRIPTION + " Shows input-required turns, a question carrying a data part, and a "
        "completed task with text and data in its artifact.",
        url=url,
        output_modes=("text/plain", "application/json"),
        skills=[
            skill(
                "interview",
                "Short interview",
                "Say anything to start. The agent asks your name, then your goal (with a list of choices as "
                "data); answer each question in the same task. It completes with a summary and "
                '{"name", "goal"} as data.',
                ["interview me", "start"],
                ["multi-turn", "input-required", "data"],
            )
        ],
    )
    return a2a_app(card, InterviewerExecutor())


AGENT = DemoAgent("interviewer", DESCRIPTION, build)
