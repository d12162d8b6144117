"""The inbox's answering half (mixed into InboxWatch, which finds the items): the prompt pane an item opens, the
same as where the question lives (a run step's carries its ask's future, a tab's its sign-in offer, a question
with an A2UI form that form), and the answer, in words or a form's action, routed to what asked."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeGuard

from textual.widgets import TabPane

from ..a2a.auth.sign_in_offer import SignInOffer, oauth_source
from ..a2a.errors import SwitchboardError
from ..a2a.model import Part, TextPart
from ..inbox.item import InboxItem
from ..inbox.store import Remembered
from .widgets.inbox_pane import InboxPane, question_pane
from .widgets.prompt_pane import PromptPane

if TYPE_CHECKING:
    from .inbox_kept import KeptQuestions
    from .widgets.conversation_view import ConversationView


# A remembered task the agent would not show without a sign-in: the card's scopes, then the task is read again.
READ_AGAIN = SignInOffer((), None, "then the task is read again")


class InboxAnswering:
    if TYPE_CHECKING:  # InboxWatch's
        screen: Any
        app: Any
        handles: dict[str, Any]
        _opened: dict[str, Any]
        _answered: set[tuple[str, str]]
        _reread: dict[tuple[str, str], InboxItem | None]
        _remembered: dict[tuple[str, str], Remembered]
        _last_temporal: float
        kept: KeptQuestions

        async def _link_for(self, entry: Remembered) -> Any: ...

        def _write(self, change: Any, *args: Any) -> None: ...

        async def _reread_one(self, entry: Remembered) -> None: ...

        def refresh(self) -> None: ...

    def sign_in(self, event: InboxPane.SignInAsked) -> None:
        """The person asked to sign in from an item's pane: the flow runs where the question lives."""
        handle = self.handles.get(event.item.id)
        if isinstance(handle, tuple):  # a run's step: its view runs the flow on the step's link
            view, _, (request, _) = handle
            view._sign_in(request, event.pane)
        elif isinstance(handle, Remembered):  # a remembered task its agent would not show without a sign-in
            self.screen.run_worker(self._sign_in_remembered(handle, event.offer), group="inbox-sign-in", exclusive=True)
        elif handle is not None and hasattr(handle, "_sign_in"):
            handle._sign_in(event.pane, event.offer)

    def tab_of(self, item: InboxItem) -> str | None:
        """The id of the tab an item lives in, if it has one here."""
        handle = self.handles.get(item.id)
        view = handle[0] if isinstance(handle, tuple) else handle
        pane = getattr(view, "parent", None)
        return pane.id if isinstance(pane, TabPane) and pane.id else None

    def pane_for(self, item: InboxItem) -> PromptPane:
        """The prompt pane for the item: a run step's carries its ask's future; a tab's its sign-in offer."""
        handle = self.handles.get(item.id)
        self._opened = {item.id: handle} if handle is not None else {}  # one question open at a time
        # A form's action reaches a task (a tab's, a remembered one) or a run step's ask, not a run resumed by text.
        forms = self.app.draws_a2ui and (isinstance(handle, tuple | Remembered) or is_view(handle))
        if isinstance(handle, tuple):
            request, future = handle[2]
            offer = request.sign_in.offer if request.sign_in is not None else None
            return question_pane(item, future=future, sign_in=offer, forms=forms)
        if is_view(handle):
            offer = next((p.sign_in for p in handle.query(PromptPane) if p.sign_in is not None), None)
            return question_pane(item, sign_in=offer, forms=forms)
        from ..inbox.sources import NEEDS_SIGN_IN

        if isinstance(handle, Remembered) and item.note == NEEDS_SIGN_IN:
            return question_pane(item, sign_in=READ_AGAIN, forms=forms)
        return question_pane(item, forms=forms)

    async def _sign_in_remembered(self, entry: Remembered, offer: SignInOffer) -> None:
        """Sign in on the link the inbox reads the task with (the same flow and sign-in pane as a conversation's),
        then read the task again: its row shows what the agent says now (asking, or gone when it no longer waits)."""
        source = oauth_source(await self._link_for(entry))
        if source is None:  # the agent's entry has no OAuth client: nothing switchboard can sign in with
            self.app.notify("no OAuth sign-in for this agent: answer it instead", title=entry.agent, markup=False)
            return
        try:
            await offer.sign_in(source)
        except SwitchboardError as exc:
            self.app.notify(f"Sign-in failed: {exc.message}", title=entry.agent, severity="error", markup=False)
            return
        for pane in self.screen.query(InboxPane):  # none when the app quit during the sign-in
            await pane.close_question()
        await self._reread_one(entry)
        self.refresh()

    async def answer(self, event: InboxPane.AnswerGiven) -> None:
        """Route the answer to what the item's pane was opened for (by the time the answer comes, a run view's ask
        may be gone from the tabs and its run seen in the run index instead: never resumed a second time)."""
        item = event.item
        handle = self._opened.pop(item.id, None) or self.handles.get(item.id)
        self._answered.add((item.id, item.question))
        parts: list[Part] = list(event.parts) or [TextPart(text=event.text)]
        self.app.tap.redactor.add(*event.secrets)  # typed in a form's masked field: never shown, never kept
        if isinstance(handle, tuple) and event.parts:  # a run step's form: its ask takes the action's event
            request, future = handle[2]
            request.answer_parts = parts
            if not future.done():
                future.set_result(event.text)
        elif event.pane.future is not None or isinstance(handle, tuple):
            pass  # the pane's future carried the answer to the run's ask
        elif is_view(handle):
            handle.send(parts, secret=event.secret or (None if event.parts else False))
        elif isinstance(handle, Remembered):
            self.screen.run_worker(self._answer_remembered(handle, item, parts, event.secret), group="inbox-answer")
        elif item.kind == "run" and item.live_elsewhere:
            self.app.notify(f"the run {item.run_id} is running in another process: answer it there", markup=False)
        elif item.kind == "run":
            await self.screen.resume_run_with(item.run_id, item.step, event.text)
        elif item.kind == "temporal":
            self.screen.run_worker(self._answer_temporal(item, event.text), group="inbox-answer")
        self.refresh()

    async def _answer_remembered(self, entry: Remembered, item: InboxItem, parts: list[Part], secret: bool) -> None:
        from ..inbox.answering import answer_task

        try:
            link = await self._link_for(entry)
            view = await answer_task(link, entry.task_id, parts, secret=secret, tap=self.app.tap)
        except SwitchboardError as exc:
            self._answered.discard((item.id, item.question))
            self.app.notify(f"not answered: {exc.message}", title=entry.agent, severity="error", markup=False)
            return
        self._reread.pop(entry.key, None)
        again = None
        if view.state is not None and view.state.is_interrupted:
            from ..inbox.sources import task_item

            task = view.to_task()
            again = task_item(entry, task) if task is not None else None
        if again is not None:
            kept = replace(entry, question=self.app.tap.redactor.text(again.question), state=again.state,
                           since=self.app.clock())  # fmt: skip
            self._write(self.kept.keep, kept)
            self._remembered[entry.key] = kept
            self._reread[entry.key] = replace(again, since=kept.since)
        else:
            self._write(self.kept.let_go, *entry.key)
            self._remembered.pop(entry.key, None)
            said = view.state.value if view.state else "answered"
            self.app.notify(f"task {said}: {view.output_text[:200]}", title=entry.agent, markup=False)
        self.refresh()

    async def _answer_temporal(self, item: InboxItem, text: str) -> None:
        from ..workflow.temporal import client as runs

        try:
            client = await self.app.temporal_client()
            await runs.answer(client, item.run_id, item.step, text, item.ask_id or None)
        except SwitchboardError as exc:
            self._answered.discard((item.id, item.question))
            self.app.notify(exc.message, title=item.who, severity="warning", markup=False)
        self._last_temporal = 0.0  # read again at the next tick


def is_view(handle: Any) -> TypeGuard[ConversationView]:
    """A conversation's view (by name: its module is imported when the first conversation opens)."""
    return handle is not None and type(handle).__name__ == "ConversationView"
