"""The command line before any network: flags, positionals, message parts, usage errors and their envelope."""

from __future__ import annotations

import base64
import io
import json

import pytest

from switchboard import __version__
from switchboard.a2a.errors import UsageError
from switchboard.a2a.model import DataPart, FilePart, TextPart
from switchboard.cli import main, parse
from switchboard.cli.commands import build_parts
from switchboard.cli.parser import ArgumentError, build_parser


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """No agents file, agent or credentials from the person running the tests."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path / "home"))
    for name in ("A2ACLI_AGENT_CARD", "A2ACLI_BEARER", "A2ACLI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def parsed(*argv: str):
    return parse(build_parser(), list(argv))


# --- parsing -----------------------------------------------------------------------------------------


def test_part_flags_keep_their_order_and_media_type_binds_to_the_flag_before_it():
    args = parsed("send", "agent", "--text", "a", "--file", "x", "--media-type", "t", "--data", "{}")
    assert args.parts == [("text", "a", None), ("file", "x", "t"), ("data", "{}", None)]
    assert args.words == ["agent"]


def test_media_type_binds_to_a_data_flag_too():
    args = parsed("send", "agent", "--data", '{"k": 1}', "--media-type", "application/vnd.x+json")
    assert args.parts == [("data", '{"k": 1}', "application/vnd.x+json")]


@pytest.mark.parametrize(
    "argv",
    [["send", "agent", "--media-type", "t", "--file", "x"], ["send", "agent", "--text", "a", "--media-type", "t"]],
    ids=["first", "after-text"],
)
def test_media_type_without_a_file_or_data_flag_before_it_is_a_parse_error(argv):
    with pytest.raises(ArgumentError, match="--media-type binds"):
        parsed(*argv)


def test_media_type_first_is_a_usage_error_with_the_json_envelope_under_o_json(capsys):
    code = main(["send", "agent", "--media-type", "text/plain", "--file", "x", "-o", "json"])
    out, err = capsys.readouterr()
    assert code == 2
    envelope = json.loads(out)
    assert envelope["error"]["code"] == "A2ACLI_ERR_USAGE"
    assert "--media-type" in envelope["error"]["message"]
    assert envelope["error"]["hint"] and envelope["error"]["a2aCode"] is None
    assert err == ""


def test_a_usage_error_in_text_mode_goes_to_stderr_only(capsys):
    code = main(["send", "agent", "--media-type", "text/plain"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "Error: --media-type binds" in err and "Code: A2ACLI_ERR_USAGE" in err


def test_positionals_after_options_land_in_words():
    args = parsed("send", "writer", "--task-id", "T-1", "my", "reply", "--context-id", "C-1", "more")
    assert args.words == ["writer", "my", "reply", "more"]
    assert (args.task_id, args.context_id) == ("T-1", "C-1")


def test_positionals_after_options_land_in_words_for_task_commands():
    args = parsed("task", "get", "--history", "3", "writer", "--wait", "T-1")
    assert args.words == ["writer", "T-1"] and args.history == 3 and args.wait


def test_a_lone_dash_after_options_is_a_word_not_a_flag():
    assert parsed("send", "agent", "--stream", "-").words == ["agent", "-"]


def test_an_unknown_flag_is_a_usage_error(capsys):
    assert main(["send", "agent", "hi", "--frobnicate"]) == 2
    assert "--frobnicate" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "meant", "where"),
    [
        (["send", "agent", "hi", "--steam"], "--stream", "switchboard send --help"),
        (["send", "agent", "--taskid", "T-1", "hi"], "--task-id", "switchboard send --help"),
        (["card", "get", "agent", "--valdate=yes"], "--validate", "switchboard card get --help"),
        (["run", "flow.yaml", "--anwser", "a=b"], "--answer", "switchboard run --help"),
        (["sned", "agent", "hi"], "send", "switchboard --help"),
        (["runs", "lsit"], "list", "switchboard runs --help"),
        (["send", "agent", "hi", "-o", "jsno"], "json", "switchboard send --help"),
    ],
    ids=["flag", "flag-before-words", "flag=value", "run-flag", "command", "subcommand", "choice"],
)
def test_a_mistyped_flag_or_command_is_a_usage_error_that_names_the_closest_one(argv, meant, where, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Code: A2ACLI_ERR_USAGE" in err
    assert f"Hint: Did you mean {meant}? `{where}` lists its " in err
    if "-o" not in argv:  # and under -o json, the same hint in the one envelope on stdout
        assert main([*argv, "-o", "json"]) == 2
        out, err = capsys.readouterr()
        envelope = json.loads(out)["error"]
        assert envelope["code"] == "A2ACLI_ERR_USAGE" and err == ""
        assert envelope["hint"].startswith(f"Did you mean {meant}? `{where}` lists its ")


def test_a_flag_nothing_is_close_to_gets_the_commands_help_and_no_guess(capsys):
    assert main(["send", "agent", "hi", "--zzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "Hint: `switchboard send --help` lists its flags." in err and "Did you mean" not in err
    assert main(["--steam"]) == 2  # the app's own flags are not like it: no far-fetched guess (--demo)
    assert "Did you mean" not in capsys.readouterr().err


def test_switchboard_alone_prints_help_and_exits_0(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: switchboard")
    assert "send" in out and "exit codes" in out


def test_version_prints_the_version(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"switchboard {__version__}"


def test_a_command_group_without_a_subcommand_is_a_usage_error(capsys):
    assert main(["task"]) == 2
    assert "needs a subcommand" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["send"], ["send", "agent-only"], ["card", "get"]])
def test_send_or_card_get_with_nothing_to_send_or_no_agent_exits_2(argv, capsys):
    assert main(argv) == 2
    assert "Code: A2ACLI_ERR_USAGE" in capsys.readouterr().err


def test_send_with_nothing_to_send_under_o_json_is_one_envelope(capsys):
    assert main(["send", "-o", "json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "A2ACLI_ERR_USAGE"


def test_svc_param_without_a_colon_exits_2_naming_it(capsys):
    assert main(["send", "http://127.0.0.1:9", "hi", "--svc-param", "X-Trace-abc"]) == 2
    err = capsys.readouterr().err
    assert "X-Trace-abc" in err and "NAME:VALUE" in err


def test_a_missing_file_exits_2_naming_the_path(tmp_path, capsys):
    missing = tmp_path / "no-such-file.bin"
    assert main(["send", "http://127.0.0.1:9", "--file", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "cannot read --file" in err


def test_an_agents_file_named_with_agents_must_exist(tmp_path, capsys):
    assert main(["send", "writer", "hi", "--agents", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml does not exist" in capsys.readouterr().err


# --- build_parts -------------------------------------------------------------------------------------


def test_build_parts_puts_the_positional_text_first_then_the_flags_in_order():
    parts = build_parts(["hello", "there"], [("data", '{"n": 1}', None), ("text", "after", None)])
    assert parts == [
        TextPart(text="hello there"),
        DataPart(data={"n": 1}, media_type="application/json"),
        TextPart(text="after"),
    ]


def test_build_parts_reads_data_from_an_at_file(tmp_path):
    path = tmp_path / "payload.json"
    path.write_text('{"rows": [1, 2.5, "x"]}', encoding="utf-8")
    [part] = build_parts([], [("data", f"@{path}", "application/vnd.rows+json")])
    assert isinstance(part, DataPart)
    assert part.data == {"rows": [1, 2.5, "x"]} and part.media_type == "application/vnd.rows+json"


def test_build_parts_reads_data_from_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO('[{"from": "stdin"}]'))
    [part] = build_parts([], [("data", "-", None)])
    assert isinstance(part, DataPart) and part.data == [{"from": "stdin"}]


def test_build_parts_rejects_data_that_is_not_json_naming_where_it_came_from(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UsageError, match=r"broken\.json is not valid JSON"):
        build_parts([], [("data", f"@{path}", None)])
    with pytest.raises(UsageError, match="--data is not valid JSON"):
        build_parts([], [("data", "{oops", None)])


def test_data_python_will_not_read_is_a_usage_error_not_an_internal_one():
    # Valid JSON, but json.loads raises a plain ValueError (too many digits) or a RecursionError (too deep).
    with pytest.raises(UsageError, match="cannot read --data: Exceeds the limit"):
        build_parts([], [("data", '{"n": ' + "1" * 5000 + "}", None)])
    with pytest.raises(UsageError, match="cannot read --data: maximum recursion depth"):
        build_parts([], [("data", "[" * 100_000 + "]" * 100_000, None)])


def test_a_missing_at_file_for_data_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot read --data file"):
        build_parts([], [("data", f"@{tmp_path / 'gone.json'}", None)])


def test_a_file_url_becomes_a_file_by_url_part_with_a_guessed_media_type():
    [part] = build_parts([], [("file", "https://files.example.com/reports/q3.pdf", None)])
    assert isinstance(part, FilePart)
    assert part.url == "https://files.example.com/reports/q3.pdf" and part.raw is None
    assert part.name == "q3.pdf" and part.media_type == "application/pdf"


def test_a_signed_file_url_takes_its_name_and_type_from_the_path_not_the_query():
    url = "https://bucket.example.com/img/photo.png?X-Amz-Signature=abc&X-Amz-Expires=60"
    [part] = build_parts([], [("file", url, None)])
    assert part.url == url
    assert part.name == "photo.png" and part.media_type == "image/png"


def test_a_file_url_without_a_file_name_has_no_name():
    [part] = build_parts([], [("file", "https://files.example.com/", None)])
    assert part.name is None and part.url == "https://files.example.com/"


def test_a_given_media_type_wins_over_the_guess():
    [part] = build_parts([], [("file", "https://h/x.pdf", "application/octet-stream")])
    assert part.media_type == "application/octet-stream"


def test_a_local_file_is_sent_inline_as_base64(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"line one\n\x00binary")
    [part] = build_parts([], [("file", str(path), None)])
    assert isinstance(part, FilePart) and part.url is None
    assert base64.b64decode(part.raw) == b"line one\n\x00binary"
    assert part.name == "notes.txt" and part.media_type == "text/plain"


def test_a_local_file_of_unknown_type_is_octet_stream(tmp_path):
    path = tmp_path / "blob.zzunknown"
    path.write_bytes(b"\x01\x02")
    [part] = build_parts([], [("file", str(path), None)])
    assert part.media_type == "application/octet-stream"
