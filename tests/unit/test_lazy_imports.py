"""Start-up stays fast: each command imports only what it needs (checked in a fresh interpreter), and the
HTTP client loads certificates only for https."""

from __future__ import annotations

import json
import ssl
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest

import switchboard
from switchboard.a2a.http import LazyTLSTransport

SOURCE = str(Path(switchboard.__file__).parents[1])  # the tree under test, not whatever the venv installed

PROBE = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from switchboard.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(sys.argv[1:])
        except SystemExit as exc:
            code = exc.code
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
    """
)


def imported_by(tmp_path, *argv: str) -> tuple[int, set[str]]:
    env = {"SWITCHBOARD_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": SOURCE}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    result = json.loads(done.stdout)
    return result["code"], set(result["modules"])  # a package's own name is there once any of it is imported


def test_help_imports_neither_textual_nor_the_network_stack(tmp_path):
    code, modules = imported_by(tmp_path, "--help")
    assert code == 0
    assert not modules & {"textual", "rich", "httpx", "pydantic", "a2a", "yaml", "uvicorn", "asyncio", "temporalio"}
    assert not modules & {"jwt", "rfc8785", "cryptography", "ssl"}
    assert "grpc" not in modules
    assert not modules & {"authlib", "keyring"}
    assert not modules & {"mcp", "mcp_types", "switchboard.mcp_bridge"}


# What `switchboard --help` may import beyond what argparse's own help needs: these modules of ours, nothing else
# (no typing, json, dataclasses, nor any module of a command). A command's module is imported when it runs.
HELP_MODULES = {
    "switchboard",
    "switchboard.a2a",
    "switchboard.a2a.errors",
    "switchboard.cli",
    "switchboard.cli.guard",
    "switchboard.cli.output",
    "switchboard.cli.parser",
    "switchboard.safe_text",
    "httpx._main",  # the stand-in that defers httpx's own command line (cli/__init__.py), not httpx
    "__future__",  # `from __future__ import annotations`: a few constants
    "importlib",  # import_module, to import a command's module when it runs (frozen: nothing read)
    "importlib._bootstrap",
    "importlib._bootstrap_external",
}
HELP_PROBE = textwrap.dedent(
    """
    import os, sys
    import argparse
    argparse.ArgumentParser().format_help()  # what argparse's help itself imports (shutil, gettext...): the floor
    floor = set(sys.modules)
    sys.stdout = open(os.devnull, "w")
    from switchboard.cli import main
    try:
        code = main(["--help"])
    except SystemExit as exc:
        code = exc.code
    sys.stdout = sys.__stdout__
    print(code, " ".join(sorted(set(sys.modules) - floor)))
    """
)


def test_help_imports_only_its_own_few_modules_beyond_argparse(tmp_path):
    env = {"SWITCHBOARD_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": SOURCE}
    done = subprocess.run(
        [sys.executable, "-c", HELP_PROBE], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    code, *modules = done.stdout.split()
    assert code == "0"
    # A new command adds its Command line to cli/parser.py, never an import on this path: --help stays within
    # 3x of `python -c pass` (bench/startup.py).
    assert set(modules) == HELP_MODULES


def test_runs_list_reads_the_index_without_the_event_loop_the_model_or_the_network(tmp_path):
    code, modules = imported_by(tmp_path, "runs", "list", "--limit", "5")
    assert code == 0 and "sqlite3" in modules
    assert not modules & {"asyncio", "pydantic", "httpx", "textual", "rich", "yaml", "switchboard.workflow.journal"}
    assert "switchboard.workflow.runs" not in modules


@pytest.mark.parametrize("argv", [["card", "get", "http://127.0.0.1:9"], ["send", "http://127.0.0.1:9", "hi"]])
def test_a_card_or_send_command_imports_no_tui_no_workflow_engine_and_not_httpx_own_cli(tmp_path, argv):
    code, modules = imported_by(tmp_path, *argv, "--timeout", "5")
    assert code == 3  # nothing listens on port 9: unreachable, after the client stack was loaded and used
    assert "httpx" in modules
    assert not modules & {"textual", "rich", "click", "pygments", "a2a", "uvicorn", "switchboard.workflow", "authlib"}
    assert not modules & {"mcp", "mcp_types", "switchboard.mcp_bridge"}
    assert "grpc" not in modules


def test_card_get_imports_neither_the_link_nor_what_renders_a_task(tmp_path):
    # The card's path only: no transports, follow loop or A2UI negotiation (link.py), no A2UI renderers (render.py).
    code, modules = imported_by(tmp_path, "card", "get", "http://127.0.0.1:9", "--timeout", "5")
    assert code == 3 and {"switchboard.agent_http", "switchboard.cli.render_card"} <= modules
    assert not modules & {"switchboard.link", "switchboard.cli.render", "switchboard.a2ui", "switchboard.a2a.follow"}
    assert not modules & {"switchboard.a2a.client", "switchboard.a2a.transports", "switchboard.a2a.cancel"}


def test_httpx_command_line_still_loads_when_called(tmp_path):
    probe = "import switchboard.cli, httpx, sys; print(httpx.main.__qualname__, 'click' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["_defer_httpx_cli.<locals>.main", "False"]
    call = "import switchboard.cli, httpx, sys\nsys.argv = ['httpx', '--help']\nhttpx.main()"
    done = subprocess.run([sys.executable, "-c", call], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "Usage: httpx <URL>" in done.stdout


async def test_certificates_are_loaded_on_the_first_https_request_and_verified_there():
    transport = LazyTLSTransport()
    async with httpx.AsyncClient(transport=transport, timeout=5) as http:
        with pytest.raises(httpx.ConnectError):
            await http.get("http://127.0.0.1:9/")  # nothing listens on port 9
        assert transport.tls is None  # plain http never built the TLS side
        with pytest.raises(httpx.ConnectError):
            await http.get("https://127.0.0.1:9/")
        assert transport.tls is not None
        context = transport.tls._pool._ssl_context  # httpcore's: what every https connection uses
        assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
