"""The demo fleet's trust and sign-in agents, as a new user meets them: notary's signed card verifies with the key
the demo agents file names; sso sits behind the demo identity provider (oidc-provider, started by the fleet), and
`send` signs in with a device code (entered at the provider over HTTP, as the person would) before it answers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time

import httpx
from demo_support import demo_env
from oidc_user import enter_device_code

DEVICE_LINE = re.compile(r"open (\S+) and enter the code (\S+) ")


def test_notary_card_is_verified_with_the_demo_key(cli, demo):
    done = cli("card", "get", "notary", "-o", "json")
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)["x-switchboard"]["signature"]
    assert outcome["status"] == "verified", outcome
    assert "card-signing-key.pub.pem" in outcome["detail"]
    assert "cardKeys:" in demo.agents_file.read_text()


def _issuer_ready(token_url: str) -> None:
    """The provider starts in the background with the fleet: wait (bounded) until it answers."""
    issuer = token_url.rsplit("/", 1)[0]
    for _ in range(200):
        try:
            if httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)  # an external process's start-up: nothing to await from here
    raise AssertionError(f"the demo identity provider at {issuer} never answered")


def test_sso_signs_in_with_a_device_code_then_answers(cli, demo, tmp_path):
    card = json.loads(cli("card", "get", "sso", "-o", "json").stdout)
    flows = card["securitySchemes"]["demo-sso"]["oauth2SecurityScheme"]["flows"]
    _issuer_ready(flows["deviceCode"]["tokenUrl"])
    argv = [sys.executable, "-m", "switchboard", "--agents", str(demo.agents_file), "send", "sso", "hello"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=demo_env(tmp_path))
    played: list[BaseException | str] = []
    lines: list[str] = []
    assert process.stderr is not None
    for line in process.stderr:
        lines.append(line)
        found = DEVICE_LINE.search(line)
        if found:

            def play(uri: str = found.group(1), code: str = found.group(2)) -> None:
                try:
                    played.append(enter_device_code(uri, code))
                except BaseException as exc:
                    played.append(exc)

            threading.Thread(target=play, daemon=True).start()
    stdout = process.stdout.read() if process.stdout else ""
    assert process.wait(60) == 0, "".join(lines)
    assert played and isinstance(played[0], str), played
    assert "signed in and heard: hello" in stdout
