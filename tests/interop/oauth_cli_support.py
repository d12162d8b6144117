"""Running `switchboard` for the OAuth tests: the environment (the client secret, no keyring backend), and a
device-code login whose code is read from stderr and entered at the provider as the person would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from oidc_user import enter_device_code

REPO = Path(__file__).resolve().parents[2]
DEVICE_LINE = re.compile(r"open (\S+) and enter the code (\S+) ")


def environment(home: Path, provider) -> dict[str, str]:
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src")}
    env["SVC_SECRET"] = provider.service_secret
    # No keyring backend, as on a headless server: --remember falls back to the 0600 file.
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER"):
        env.pop(name, None)
    return env


def switchboard(home: Path, provider, *args: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), *args]
    return subprocess.run(argv, capture_output=True, text=True, env=environment(home, provider), timeout=120)


def login_with_device_code(home: Path, provider, agent: str, *extra: str) -> tuple[int, str, str]:
    """Run `auth login AGENT`, read the code from its stderr, enter it as the person, wait for the command."""
    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), "auth", "login", agent, *extra]
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(home, provider)
    )
    stderr_lines: list[str] = []
    played: list[BaseException | str] = []
    assert process.stderr is not None
    for line in process.stderr:
        stderr_lines.append(line)
        found = DEVICE_LINE.search(line)
        if found:

            def play(uri: str = found.group(1), code: str = found.group(2)) -> None:
                try:
                    played.append(enter_device_code(uri, code))
                except BaseException as exc:
                    played.append(exc)

            threading.Thread(target=play, daemon=True).start()
    stdout = process.stdout.read() if process.stdout else ""
    code = process.wait(60)
    assert played and isinstance(played[0], str), (played, stderr_lines)
    return code, stdout, "".join(stderr_lines)


SIGN_IN_URL = re.compile(r"(?:To sign in, open|if it does not open, visit): (\S+)")


def with_the_person(home: Path, provider, *args: str, deny: bool = False) -> tuple[int, str, str]:
    """Run `switchboard ARGS` and play the person for each sign-in it prints on stderr: the device code entered,
    or the authorization address visited (signed in and consented, or refused with `deny`). Exit code, stdout,
    stderr."""
    from oidc_user import authorize

    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), *args]
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(home, provider),
    )  # fmt: skip
    stderr_lines: list[str] = []
    played: list[BaseException | str] = []
    assert process.stderr is not None

    def person(act, *args: str) -> None:
        try:
            played.append(act(*args, deny=deny))
        except BaseException as exc:
            played.append(exc)

    for line in process.stderr:
        stderr_lines.append(line)
        if found := DEVICE_LINE.search(line):
            act: tuple = (enter_device_code, found.group(1), found.group(2))
        elif found := SIGN_IN_URL.search(line):
            act = (authorize, found.group(1))
        else:
            continue
        threading.Thread(target=person, args=act, daemon=True).start()
    stdout = process.stdout.read() if process.stdout else ""
    code = process.wait(60)
    assert deny or all(isinstance(p, str) for p in played), (played, stderr_lines)
    return code, stdout, "".join(stderr_lines)
