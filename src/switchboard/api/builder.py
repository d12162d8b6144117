"""Workflow: build a workflow in Python and run it, over the same model and engine the YAML files use.

The builder writes the document a YAML file would hold, and `build()` reads it through the workflow loader:
one set of checks, one set of error messages. The document is saved under switchboard's data folder (named by
its content), so a run of it is journaled, listed by `switchboard runs`, and resumable like any other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

    from ..workflow.spec import Workflow as WorkflowSpec
    from ..workflow.state import AskRequest, RunStatus

# Python's names for the YAML keys that are spelled in camelCase.
_YAML_KEYS = {
    "depends_on": "dependsOn",
    "on_error": "onError",
    "api_key_env": "apiKeyEnv",
    "trust_interface_origin": "trustInterfaceOrigin",
    "card_keys": "cardKeys",
    "max_concurrency": "maxConcurrency",
}


@dataclass(frozen=True)
class RunResult:
    """How a run ended.

    Attributes:
        run_id: The run's id: `switchboard runs show RUN_ID` shows it, `switchboard run --resume RUN_ID` goes on.
        status: completed, failed, canceled, awaiting_input (a step waits and nobody answered) or interrupted.
        outputs: The workflow's outputs, by name.
        journal: The run's journal file.
    """

    run_id: str
    status: RunStatus
    outputs: dict[str, str]
    journal: Path

    @property
    def ok(self) -> bool:
        return self.status == "completed"


class Workflow:
    """A workflow built step by step; each method returns the builder, so calls chain.

    Example:
        ```python
        flow = (
            Workflow("brief")
            .input("topic", required=True)
            .agent("writer", url="http://127.0.0.1:9003/")
            .step("draft", agent="writer", task="Write about {{inputs.topic}}")
            .output("text", "{{steps.draft.output}}")
        )
        result = await flow.run(inputs={"topic": "tides"})
        ```

    Args:
        name: The workflow's name (shown in `switchboard runs` and the TUI).
        description: One line on what it does.
        max_concurrency: At most this many steps at once.
        on_error: What a failed step does to the run by default: "fail" or "continue".
    """

    def __init__(
        self, name: str, *, description: str = "", max_concurrency: int | None = None, on_error: str | None = None
    ) -> None:
        self._doc: dict[str, Any] = {"version": 1, "name": name}
        if description:
            self._doc["description"] = description
        self._doc.update(_yaml_keys({"max_concurrency": max_concurrency, "on_error": on_error}))

    def input(
        self, name: str, *, required: bool = False, default: str | None = None, description: str = ""
    ) -> Workflow:
        """Declare an input, referred to as `{{inputs.NAME}}`."""
        spec = _yaml_keys({"required": required or None, "default": default, "description": description or None})
        self._doc.setdefault("inputs", {})[name] = spec
        return self

    def agent(self, name: str, *, url: str | None = None, **options: Any) -> Workflow:
        """Declare an agent: by URL (with options as in a workflow file's inline agent: api_key_env, headers,
        binding, timeout, streaming, ...), or without one, by its name in the agents file."""
        if url is None and not options:
            self._doc.setdefault("agents", {})[name] = None
        else:
            self._doc.setdefault("agents", {})[name] = _yaml_keys({"url": url, **options})
        return self

    def step(
        self, name: str, *, agent: str, task: str, depends_on: list[str] | None = None, **options: Any
    ) -> Workflow:
        """Add a step delegated to an agent. `task` may use `{{inputs.X}}` and `{{steps.S.output}}`; options as in a
        workflow file: timeout ("2m"), retries ({"count": 2}), expect, interactive, context, on_error."""
        return self._add({"name": name, "agent": agent, "task": task, "depends_on": depends_on, **options})

    def shell(self, name: str, *, run: str, depends_on: list[str] | None = None, **options: Any) -> Workflow:
        """Add a shell step: `run` is a command line (values reach it as environment variables, never as text)."""
        return self._add({"name": name, "type": "shell", "run": run, "depends_on": depends_on, **options})

    def output(self, name: str, template: str) -> Workflow:
        """Name an output of the run, e.g. `output("brief", "{{steps.combine.output}}")`."""
        self._doc.setdefault("outputs", {})[name] = template
        return self

    def to_yaml(self) -> str:
        """The workflow as a YAML file would hold it (`switchboard run` reads it)."""
        import yaml

        return yaml.safe_dump(self._doc, sort_keys=False, allow_unicode=True)

    def build(self, *, agents_file: str | Path | None = None) -> WorkflowSpec:
        """Check the workflow as `switchboard run --validate` would and return the validated model.

        Args:
            agents_file: Where agent names without a URL are looked up (default: switchboard's own).

        Raises:
            WorkflowInvalid: Every problem, each with what to do (as for a file).
        """
        from ..agents import load_agents
        from ..paths import agents_file as default_agents_file
        from ..workflow.loader import load_workflow

        path = self._save()
        registry = load_agents(Path(agents_file).expanduser() if agents_file is not None else default_agents_file())
        return load_workflow(path, registry)

    async def run(
        self,
        inputs: Mapping[str, str] | None = None,
        *,
        answers: Mapping[str, list[str]] | None = None,
        ask: Callable[[AskRequest], Awaitable[str | None]] | None = None,
        agents_file: str | Path | None = None,
        max_concurrency: int = 8,
        http: httpx.AsyncClient | None = None,
    ) -> RunResult:
        """Run the workflow to its end.

        Args:
            inputs: The inputs' values, by name (non-text values are refused: write them as text).
            answers: Answers for steps whose agent asks (input-required), by step name, used in order.
            ask: Called when a step's agent asks and no answer is left: return the answer, or None to leave the
                step waiting (the run then ends `awaiting_input`; resume it with `switchboard run --resume`).
            agents_file: Where agent names without a URL are looked up.
            max_concurrency: At most this many steps at once.
            http: An httpx client to share (default: one of the run's own).

        Returns:
            The RunResult: the run's id, status, outputs and journal.

        Raises:
            WorkflowInvalid: The workflow or its inputs are not valid (nothing ran).
            CredentialsMissingError: A variable an agent needs is unset (nothing ran).
        """
        from ..a2a.errors import UsageError
        from ..a2a.http import new_http_client
        from ..workflow.engine import start_run

        given = dict(inputs or {})
        for key, value in given.items():
            if not isinstance(value, str):
                raise UsageError(f"input {key!r} is not text", hint=f"Pass it as text, e.g. str({value!r}).")
        workflow = self.build(agents_file=agents_file)
        steps = {step.name for step in workflow.steps}
        unknown = sorted(set(answers or {}) - steps)
        if unknown:
            raise UsageError(f"answers name no step: {', '.join(unknown)}", hint=f"Its steps: {', '.join(steps)}.")
        own = http is None
        client = http or new_http_client()
        try:
            live = start_run(
                workflow,
                given,
                ask=ask,
                http=client,
                answers={k: list(v) for k, v in (answers or {}).items()},
                max_concurrency=max_concurrency,
            )
            status = await live.wait()
            journal = live.journal.path
        finally:
            if own:
                await client.aclose()
        return RunResult(live.run_id, status, dict(live.outputs), journal)

    # --- internals -------------------------------------------------------------------------------------

    def _add(self, step: dict[str, Any]) -> Workflow:
        self._doc.setdefault("steps", []).append(_yaml_keys(step))
        return self

    def _save(self) -> Path:
        """The document on disk, named by its content: the same workflow built twice is one file."""
        from ..files import write_atomically
        from ..paths import data_dir

        text = self.to_yaml()
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in str(self._doc.get("name", "")))[:60]
        path = data_dir() / "built-workflows" / f"{safe or 'workflow'}-{digest}.yaml"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text)
        return path


def _yaml_keys(values: Mapping[str, Any]) -> dict[str, Any]:
    """Python's keyword names as the YAML spells them, without the ones left unset."""
    return {_YAML_KEYS.get(key, key): value for key, value in values.items() if value is not None}
