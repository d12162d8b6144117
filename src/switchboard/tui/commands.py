"""Command palette: talk to an agent, open its card, add one, run a workflow, show a tab, toggle the wire view.
(Themes and quit come with Textual's own commands.)

The palette is a screen of its own, opened over whatever the person was looking at (the main screen, an agent's
card, a dialog): the commands act on the main screen wherever it is in the stack, and first close what is
above it, so that what they open is what the person sees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider

from .typed_app import app_of

if TYPE_CHECKING:
    from ..agent_status import AgentStatus
    from .screens.main import MainScreen
    from .widgets.workflows_pane import WorkflowFile

Command = tuple[str, str, Callable[[], object]]


class SwitchboardCommands(Provider):
    def _main(self) -> MainScreen | None:
        from .screens.main import MainScreen

        return next((s for s in reversed(self.app.screen_stack) if isinstance(s, MainScreen)), None)

    def _on_main(self, main: MainScreen, action: Callable[[], object]) -> Callable[[], None]:
        """The palette's callback: back to the main screen (closing the card or dialog on top), then `action`."""

        async def back_then_act() -> None:
            app = self.app
            while app.screen is not main and main in app.screen_stack:
                if isinstance(app.screen, CommandPalette):
                    await app.pop_screen()  # still closing when the command is called
                else:
                    await app.screen.dismiss(None)  # as if the person had pressed escape
            result = action()
            if hasattr(result, "__await__"):
                await result

        def act() -> None:
            self.app.run_worker(back_then_act(), group="palette")

        return act

    def _commands(self) -> Iterator[Command]:
        from .exporting import choices, run_export
        from .screens.main import MainScreen

        app = app_of(self.app)
        shown = self.screen.shown_view() if isinstance(self.screen, MainScreen) else None
        for label, export in choices(app, shown):
            title = f"Export {label[0].lower()}{label[1:]}"
            yield title, "written under the exports folder, secrets redacted", partial(run_export, app, export)
        main = self._main()
        if main is None:
            return
        from .widgets.agents_pane import AgentsPane
        from .widgets.workflows_pane import WorkflowsPane

        go = self._on_main
        from .screens.sign_in import waiting_sign_ins

        for sign_in in [s for s in waiting_sign_ins(app) if s.hidden]:
            where = sign_in.screen.url if sign_in.screen else "the identity provider"
            yield "Show the sign-in", f"waiting at {where}", go(main, sign_in.show_again)
        yield "Toggle wire view", "Every request, response and SSE frame", go(main, main.toggle_wire)
        yield "Show agents", "the agents tab (f1)", go(main, main.action_show_agents)
        yield "Show workflows", "the workflows tab and past runs (f3)", go(main, main.action_show_workflows)
        yield "Show inbox", "everything waiting for your answer, oldest first (f5)", go(main, main.action_show_inbox)
        pane = main.query_one(AgentsPane)

        def show_card(status: AgentStatus) -> None:
            pane.post_message(pane.ShowCard(status))

        for status in list(pane.statuses.values()):
            name = status.entry.name
            yield f"New conversation with {name}", status.entry.url, go(main, partial(main.open_conversation, status))
            yield f"Open agent {name}", f"card of {name}", go(main, partial(show_card, status))
        yield "Add an agent", "by URL, saved to the agents file", go(main, pane.action_add)
        workflows = main.query_one(WorkflowsPane)

        def launch(item: WorkflowFile) -> None:
            workflows.post_message(workflows.Launch(item))

        for item in workflows.workflow_files():
            if item.workflow is not None:
                yield f"Run workflow {item.workflow.name}", str(item.path.name), go(main, partial(launch, item))

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
