"""A workflow run: every step with its live state, agent, time and dependencies; the selected step's stream
with the conversation widgets; a prompt pane for each step that waits for the person (queued, each marked).

A live run is driven by a worker that consumes WorkflowRun.events(); a past run (from its journal) is
shown read-only. The engine's `ask` is answered by a PromptPane resolving a Future.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...a2a.errors import SwitchboardError
from ...a2a.follow import Notice
from ...a2a.model import Message as A2AMessage
from ...a2a.model import Role
from ...a2ui.text import part_summary
from ...conversation import Turn
from ...safe_text import strip_controls
from ...workflow.state import AskRequest, RunFinished, StepEvent, StepState
from ..typed_app import switchboard_app
from .a2ui.actions_host import step_forms
from .a2ui.surface import A2uiSurface
from .prompt_pane import PromptPane
from .step_lines import depths, outputs_picture, step_line
from .throttle import FrameThrottle
from .transcript import TurnView
from .visibility import being_removed, in_shown_tab

if TYPE_CHECKING:
    from ..open_work import OpenWork

FRAME = 1 / 20
PICTURE_ROOM = 30  # rows: below, the graph makes way for a prompt
LATER = "the step waits for your answer; esc leaves it for now, enter on the step comes back to it"


class RunView(Vertical):
    app = switchboard_app  # typed: the app's own attributes (tui/typed_app.py)

    BINDINGS = [
        Binding("ctrl+g", "cancel_step", "Cancel step", id="run.cancel_step"),
        Binding("f8", "cancel_run", "Cancel run", id="run.cancel"),
        Binding("ctrl+t", "cycle_picture", "Graph/timeline", id="run.picture"),
    ]
    PICTURES = ("graph", "timeline", "hidden")

    # What the tab shows of the run, set as it starts, ends, or a step begins or stops waiting for the person
    # (the main screen watches them). `status` and `waiting` read the run itself, at once.
    busy: var[bool] = var(False, toggle_class="-running")
    asking: var[bool] = var(False, toggle_class="-waiting")
    # ctrl+g is offered only while the selected step of a live run is going (running, or waiting for the person).
    step_cancelable: var[bool] = var(False)

    def __init__(self, title: str, *, start=None, record=None, **kwargs) -> None:
        """`start(ask)` starts the live run and returns it; `record` is a past run from the journal."""
        super().__init__(classes="run-view", **kwargs)
        self.title = title
        self._start = start
        self.record = record
        # A WorkflowRun, or an AttachedRun on Temporal: the same surface, read as such (`where`, `interrupt`,
        # `timed` only where they exist).
        self.run: Any = None
        self.steps: dict[str, StepState] = dict(record.steps) if record else {}
        self._turns: dict[str, Turn] = {}
        self._questions: dict[str, tuple[AskRequest, asyncio.Future[str]]] = {}
        self._throttle = FrameThrottle(self, self.sync, FRAME)
        self._lock = asyncio.Lock()
        self._shown_step: str | None = None
        self.picture = "graph"

    @property
    def waiting(self) -> bool:
        return bool(self._questions)

    def questions(self) -> dict[str, tuple[AskRequest, asyncio.Future[str]]]:
        """The questions the run's steps wait on now, by step (the inbox lists them and answers through them)."""
        return dict(self._questions)

    @property
    def status(self) -> str:
        if self.run is not None:
            return self.run.status
        return self.record.status if self.record else "starting"

    def _state_changed(self) -> None:
        self.busy = self.status == "running"
        self.asking = self.waiting
        self.step_cancelable = self._step_going(self._shown_step)

    def watch_busy(self) -> None:
        self.refresh_bindings()  # f8 is offered while there is a run to cancel

    def watch_step_cancelable(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_run":
            return self.busy
        return self.step_cancelable if action == "cancel_step" else True

    def _step_going(self, name: str | None) -> bool:
        """The step is going in a live run (a run from the journal is only looked at)."""
        state = self.steps.get(name) if name is not None else None
        live = self.run is not None and self.status == "running"
        return live and state is not None and state.status in ("running", "waiting")

    def _gone(self) -> bool:
        """Closed, or being removed: Textual takes the children away first, and a widget mounted into a view
        being removed is never composed (its parts are not there to update)."""
        return being_removed(self) or not self.children

    def open_work(self) -> OpenWork | None:
        """A live run that has not finished: its steps' tasks go on at their agents when the tab closes."""
        from ..open_work import OpenWork

        run = self.run
        if run is None or run.status != "running" or not hasattr(run, "interrupt"):
            return None
        going_steps = [step for step in self.steps.values() if step.status in ("running", "waiting")]
        going = len(going_steps)
        return OpenWork(
            label=f"workflow run {run.run_id} ({self.title})",
            state=f"{going} step{'s' if going != 1 else ''} going",
            find=f"switchboard run --resume {run.run_id}",
            cancel=run.cancel,
            leave=run.interrupt,
            ends_with_app=any(step.agent and self.app.ends_with_app(step.agent) for step in going_steps),
        )

    def compose(self) -> ComposeResult:
        yield Static(classes="run-head")
        yield Static(classes="run-outputs")
        with ScrollableContainer(classes="run-picture"):
            yield Static(classes="run-picture-content")
        with Horizontal(classes="run-body"):
            yield OptionList(id="steps")
            with VerticalScroll(classes="step-detail"):
                yield Static(classes="step-head")
                yield Vertical(classes="step-stream")
        yield Vertical(classes="run-prompts")

    def on_mount(self) -> None:
        if self._start is not None:
            self.drive()
        else:
            self.call_after_refresh(self.sync)
        if in_shown_tab(self):  # a tab being opened is not shown yet: showing it puts the keyboard here
            self.query_one("#steps").focus()
        self.set_interval(1.0, self._schedule)  # elapsed times tick while steps run

    # --- driving a live run --------------------------------------------------------------------------

    @work(exclusive=True, group="run")
    async def drive(self) -> None:
        self.run = self._start(self.ask)
        self.steps = self.run.steps
        self._state_changed()
        async for event in self.run.events():
            if isinstance(event, StepEvent) and isinstance(event.event, Notice):
                self._turn(event.step).notices.append(event.event)
            self._schedule()
            if isinstance(event, RunFinished):
                break
        await self.sync()
        self._state_changed()

    async def ask(self, request: AskRequest) -> str | None:
        """The engine's ask: a prompt pane for the step, answered when the person sends. None (put off, as "answer
        later" is) when the view is on its way out: the step waits, and the run can be resumed."""
        if self._gone():
            return None
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._questions[request.step] = (request, future)
        offer = request.sign_in.offer if request.sign_in is not None else None
        pane = PromptPane(
            request.question,
            request.state,
            future=future,
            title=f"step {request.step}",
            later=LATER,
            sign_in=offer,
            back_to=partial(self._step_list, request.step),
            surfaces=step_forms(request) if self.app.draws_a2ui else None,
        )
        try:
            # Inside the try: an ask canceled while its pane mounts (answered elsewhere) still takes the pane away.
            await self.query_one(".run-prompts", Vertical).mount(pane)
            self._state_changed()
            self._schedule()
            return await future
        finally:
            self._questions.pop(request.step, None)
            had_keyboard = pane.is_attached and pane.has_focus_within
            if pane.is_attached:
                await pane.remove()
            if had_keyboard:
                self._keyboard_to_next_question()
            self._state_changed()
            self._schedule()

    def _step_list(self, at: str | None = None) -> OptionList | None:
        """The list of steps, its highlight on step `at`: where esc in that step's question puts the keyboard (enter
        there comes back to it)."""
        steps = next(iter(self.query("#steps").results(OptionList)), None)
        if steps is not None and at is not None:
            index = next((i for i in range(steps.option_count) if steps.get_option_at_index(i).id == at), None)
            if index is not None:
                steps.highlighted = index
        return steps

    @on(OptionList.OptionSelected, "#steps")
    def _back_to_question(self, event: OptionList.OptionSelected) -> None:
        """Enter on a step that waits for the person: the keyboard in its question (the way back after esc)."""
        pane = next((p for p in self.query(PromptPane) if p.title == f"step {event.option.id}"), None)
        if pane is not None:
            pane.take_keyboard()

    def _keyboard_to_next_question(self) -> None:
        """The question answered had the keyboard: it goes to the next one waiting (the oldest), in view with the
        title that says which step asks; with none waiting, to the list of steps. (Left to Textual it landed on a
        button: typing went nowhere, and enter said "type an answer first".)"""
        if self._gone() or not in_shown_tab(self):
            return
        waiting = [pane for pane in self.query(PromptPane) if pane.is_attached and pane.query(Input)]
        if waiting:
            waiting[0].take_keyboard()
        elif (steps := self._step_list()) is not None:
            steps.focus()

    @on(A2uiSurface.ActionTaken)
    def _form_answered(self, event: A2uiSurface.ActionTaken) -> None:
        """A step's question answered with its form: the event is the answer (its summary goes to the journal)."""
        event.stop()
        for request, future in list(self._questions.values()):
            pane = next((p for p in self.query(PromptPane) if p.future is future), None)
            if pane is not None and event.surface in pane.query(A2uiSurface) and not future.done():
                self.app.tap.redactor.add(*event.secrets)
                request.answer_parts = [event.part]
                future.set_result(part_summary(event.part) or f"form action {event.name}")

    @on(PromptPane.Answered)
    def _answered(self, event: PromptPane.Answered) -> None:
        event.stop()  # the Future carries the answer to the engine

    @on(PromptPane.SignInAsked)
    def _sign_in_asked(self, event: PromptPane.SignInAsked) -> None:
        event.stop()
        request = next((r for r, f in self._questions.values() if f is event.pane.future), None)
        if request is not None and request.sign_in is not None:
            self._sign_in(request, event.pane)

    @work(group="sign-in", exclusive=True)
    async def _sign_in(self, request: AskRequest, pane: PromptPane) -> None:
        """The flow the step's question asks for, on the step's own link (the sign-in pane shows the code or the
        address); then the step's task is told, with the new token, and goes on."""
        assert request.sign_in is not None
        try:
            await request.sign_in.run()
        except SwitchboardError as exc:
            self.notify(f"Sign-in failed: {exc.message}", title=f"step {request.step}", severity="error", markup=False)
            return
        if pane.future is not None and not pane.future.done():
            pane.future.set_result(request.sign_in.answer)

    # --- rendering -----------------------------------------------------------------------------------

    def _turn(self, name: str) -> Turn:
        if name not in self._turns:
            placeholder = A2AMessage(message_id=f"step-{name}", role=Role.USER, parts=[])
            self._turns[name] = Turn(placeholder, view=self.steps[name].view, running=False)
        turn = self._turns[name]
        turn.view = self.steps[name].view  # a retry starts a new task view
        return turn

    def _schedule(self) -> None:
        self._throttle.changed()

    def on_show(self) -> None:
        self._throttle.shown()

    async def sync(self) -> None:
        if self._gone():
            return
        if not self.steps:
            if self.run is not None:  # no step known yet (or ever: a run that cannot be watched says why here)
                self._head()
            return
        async with self._lock:
            if self._gone():
                return  # the tab closed (its children go first) while this sync was due or waiting
            try:
                self._head()
                self._picture()
                options = self.query_one("#steps", OptionList)
                highlighted = options.highlighted
                level = depths(self.steps)
                options.clear_options()
                options.add_options(
                    Option(step_line(state, level[name]), id=name) for name, state in self.steps.items()
                )
                if highlighted is not None and highlighted < options.option_count:
                    options.highlighted = highlighted
                elif options.option_count:
                    options.highlighted = 0
                await self._detail()
            except NoMatches:
                if self._gone():
                    return  # the tab began to close during the sync (a run's last sync, as it ends)
                raise

    def _head(self) -> None:
        done = sum(1 for s in self.steps.values() if s.status == "completed")
        waiting = len(self._questions)
        run_id = self.run.run_id if self.run else (self.record.run_id if self.record else "")
        bits = [
            Content.styled(strip_controls(self.title), "bold"),
            Content.styled(f"  ·  run {run_id}  ·  {done}/{len(self.steps)} steps done", "$text-muted"),
            Content.styled(f"  ·  {self.status}", "bold"),
        ]
        if waiting:
            bits.append(Content.styled(f"  ·  {waiting} waiting for you", "bold $state-input-required"))
        if self.record is not None and self.run is None:
            bits.append(Content.styled("  ·  read-only (from the journal)", "$text-muted italic"))
        if where := getattr(self.run, "where", ""):
            bits.append(Content.styled(f"  ·  {strip_controls(where)}", "$text-muted italic"))
        self.query_one(".run-head", Static).update(Content("").join(bits))
        self._outputs()

    def _picture(self) -> None:
        """The dependency graph or the timeline (ctrl+t switches, and hides it), drawn to the view's width."""
        from .run_picture import graph, timeline_picture

        box = self.query_one(".run-picture", ScrollableContainer)
        # On a terminal under PICTURE_ROOM rows the picture steps aside while a question waits: the prompt needs
        # the room, and the person is asked to act, not to look.
        asking = bool(self._questions) and self.app.size.height < PICTURE_ROOM
        box.display = self.picture != "hidden" and not asking
        if not box.display:
            return
        width = max(self.size.width - 2, 40)
        now = time.time()
        shown = (
            graph(self.steps, width, now)
            if self.picture == "graph"
            else timeline_picture(self.steps, self._bars(), width, now)
        )
        self.query_one(".run-picture-content", Static).update(shown)

    def _bars(self):
        """The timeline's spans: from the journal's records (a live run keeps them as it writes), else each
        started step's start and end."""
        from ...workflow.picture import Span, timeline

        records = getattr(self.run, "timed", None) or (self.record.records if self.record else [])
        bars = timeline(records, self.steps)
        for name, bar in bars.items():
            state = self.steps.get(name)
            if not bar.spans and state is not None and state.started_at is not None:
                bar.spans.append(Span("attempt", state.started_at, state.ended_at, max(state.attempt, 1)))
        return bars

    def action_cycle_picture(self) -> None:
        self.picture = self.PICTURES[(self.PICTURES.index(self.picture) + 1) % len(self.PICTURES)]
        self._schedule()

    @property
    def outputs(self) -> dict[str, str]:
        """The run's outputs (the workflow's `outputs:`), once it has finished."""
        outputs = getattr(self.run, "outputs", None) if self.run is not None else None
        if outputs is None and self.record is not None:
            outputs = self.record.outputs
        return dict(outputs or {})

    def _outputs(self) -> None:
        shown = self.query_one(".run-outputs", Static)
        outputs = self.outputs
        shown.display = bool(outputs)
        if outputs:
            run_id = self.run.run_id if self.run else (self.record.run_id if self.record else "")
            shown.update(outputs_picture(outputs, run_id))

    def selected_step(self) -> str | None:
        options = self.query_one("#steps", OptionList)
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    @on(OptionList.OptionHighlighted, "#steps")
    async def _highlighted(self) -> None:
        # Under the sync's lock: a sync sets the highlight (which lands here) while it may itself be showing the
        # detail from the run's worker; two at once mounted the same artifact twice, or synced one not composed.
        async with self._lock:
            try:
                if not self._gone():
                    await self._detail()
            except NoMatches:
                if not self._gone():
                    raise

    async def _detail(self) -> None:
        name = self.selected_step()
        self.step_cancelable = self._step_going(name)  # the step shown changed, or its state did
        if name is None or name not in self.steps:
            return
        state = self.steps[name]
        facts = [f"{name}: {state.status}"]
        if state.task_id:
            facts.append(f"task {state.task_id}")
        if state.correlation_id:
            facts.append(f"correlation {state.correlation_id}")
        if state.error:
            facts.append(f"{state.error_code}: {state.error}")
        if state.skipped_reason:
            facts.append(f"skipped: {state.skipped_reason}")
        self.query_one(".step-head", Static).update(Content(strip_controls("  ·  ".join(facts))))
        stream = self.query_one(".step-stream", Vertical)
        if self._shown_step != name:
            await stream.remove_children()
            self._shown_step = name
        if state.type == "shell":
            text = strip_controls(state.output or "(no output yet)")
            shown = stream.query(".shell-output")
            if shown:
                shown.first(Static).update(Content(text))
            else:
                await stream.mount(Static(Content(text), classes="shell-output"))
            return
        turn_views = stream.query(TurnView)
        if turn_views:
            view = turn_views.first(TurnView)
            view.turn = self._turn(name)
        else:
            view = TurnView(self._turn(name), self.app.settings.artifact_render_limit)
            await stream.mount(view)
        await view.sync()

    # --- actions -------------------------------------------------------------------------------------

    async def action_cancel_step(self) -> None:
        name = self.selected_step()
        if name is None or not self._step_going(name):
            return  # not offered (check_action): the step ended a frame before the footer knew
        try:
            await self.run.cancel_step(name)
        except SwitchboardError as exc:  # a run on Temporal cancels as a whole
            self.notify(f"{exc} ({exc.hint})" if exc.hint else str(exc), severity="warning")
            return
        self.notify(f"step {name} canceled")
        self._schedule()

    class CancelRunRequested(Message):
        """f8: the screen asks first (the steps' tasks at their agents cannot be taken back), then `cancel_run`."""

        def __init__(self, view: RunView, question: str) -> None:
            super().__init__()
            self.view = view
            self.question = question

    def action_cancel_run(self) -> None:
        if self.run is None or self.run.status != "running":
            return
        going = sum(1 for step in self.steps.values() if step.status in ("running", "waiting"))
        question = f"Cancel the whole run {self.run.run_id} ({strip_controls(self.title)})?"
        if going:
            question += f" The tasks of its {going} step{'s' if going != 1 else ''} still going are canceled too."
        self.post_message(self.CancelRunRequested(self, question))

    def cancel_run(self) -> None:
        """Cancel the run (the person said yes)."""
        self.run_worker(self._cancel_run(), group="cancel-run", exclusive=True)

    async def _cancel_run(self) -> None:
        if self.run is None or self.run.status != "running":
            return  # it ended while the question was open
        for _, future in list(self._questions.values()):
            if not future.done():
                future.cancel()
        try:
            await self.run.cancel()
        except SwitchboardError as exc:
            self.notify(f"{exc} ({exc.hint})" if exc.hint else str(exc), severity="error")
            return
        self.notify("run canceled")
        self._schedule()
