"""`switchboard schema NAME` prints the schema the models make (the same text as schemas/NAME.schema.json), its
choices are the schemas there are, and building its parser loads no model."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_runner import run_cli_in_process

from switchboard.cli.groups.schema import NAMES
from switchboard.schemas import SCHEMA_NAMES, schema_text


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_prints_the_schema_of_each_file(name, tmp_path):
    done = run_cli_in_process(["schema", name], env={"SWITCHBOARD_HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == schema_text(name)
    assert json.loads(done.stdout)["$id"].endswith(f"{name}.schema.json")


def test_the_command_offers_exactly_the_schemas_there_are(tmp_path):
    assert NAMES == SCHEMA_NAMES
    done = run_cli_in_process(["schema", "agent"], env={"SWITCHBOARD_HOME": str(tmp_path)})
    assert done.returncode == 2 and "invalid choice: 'agent'" in done.stderr and done.stdout == ""


def test_the_schema_help_loads_no_model():
    probe = (
        "import contextlib, io, json, sys\n"
        "from switchboard.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['schema', '--help'])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('pydantic', 'switchboard.schemas')))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == []
