"""authlib's OAuth client runs on httpx whether or not httpx2 is installed (the `mcp` extra installs it): the token
requests share our transports, hooks and exceptions with every other request."""

from __future__ import annotations

import subprocess
import sys

import httpx

from switchboard.a2a.auth.oauth import grants


def test_the_oauth_client_is_an_httpx_client_though_httpx2_is_installed():
    import importlib.util

    assert importlib.util.find_spec("httpx2") is not None, "the dev install has httpx2 (the mcp extra)"
    assert issubclass(grants.AsyncOAuth2Client, httpx.AsyncClient)


def test_a_network_failure_of_a_token_request_is_the_httpx_error_callers_catch():
    script = (
        "import asyncio, httpx\n"
        "from switchboard.a2a.auth.oauth import grants\n"
        "async def main():\n"
        "    try:\n"
        "        await grants.client_credentials(\n"
        "            'http://127.0.0.1:9/token', 'id', 'secret', scope=None, resource=None, timeout=5.0\n"
        "        )\n"
        "    except httpx.TransportError as exc:\n"
        "        print('httpx', type(exc).__name__)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "httpx ConnectError", done.stderr
