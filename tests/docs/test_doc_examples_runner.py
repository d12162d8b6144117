"""The runner of the documented examples finds a page's examples and tells a right output from a wrong one (were it
lenient, a page could show what the tool no longer prints and the tests still pass)."""

from __future__ import annotations

from doc_examples import match_output, read_markdown

PAGE = """
Text.

```console
$ switchboard send echo "hi"
Message:
echo: hi
$ switchboard send nosuch "hi"  # exit 2
Code: A2ACLI_ERR_USAGE
```

```python
print("hello")
```

```text title="Output"
hello
```

<!-- not run: serves until Ctrl+C -->
```sh
switchboard demo
```

```sh
make run
```

```yaml title="hello.yaml"
version: 1
```
"""


def test_a_page_is_read_into_its_commands_programs_and_blocks_not_run() -> None:
    examples, not_run, problems = read_markdown("page.md", PAGE)
    console, program = examples
    assert [(c.line, c.exit_code) for c in console.commands] == [
        ('switchboard send echo "hi"', 0),
        ('switchboard send nosuch "hi"', 2),
    ]
    assert console.commands[0].expected == ["Message:", "echo: hi"]
    assert (program.source, program.expected) == ('print("hello")\n', ["hello"])
    assert [n.reason for n in not_run] == ["serves until Ctrl+C"]
    assert problems == ["page.md:25: a sh block that is neither run (console) nor says why not"]


def test_an_output_that_differs_does_not_match() -> None:
    assert match_output(["State: completed"], "State: completed\n") == (True, {})
    assert match_output(["State: completed"], "State: failed\n")[0] is False
    assert match_output(["State: completed"], "State: completed\nmore\n")[0] is False  # nothing left unsaid
    assert match_output(["State: completed", "more"], "State: completed\n")[0] is False


def test_dots_stand_for_text_in_a_line_and_a_lone_dots_line_for_any_lines() -> None:
    assert match_output(["Task ID: ..."], "Task ID: 1f13-33\n")[0]
    assert match_output(["a", "...", "z"], "a\nb\nc\nz\n")[0]
    assert match_output(["a", "  ...", "z"], "a\nz\n")[0]
    assert not match_output(["a", "...", "z"], "a\nb\n")[0]


def test_a_name_in_capitals_takes_a_value_for_the_commands_after() -> None:
    matched, captured = match_output(["Task ID: <TASK>", "State: ..."], "Task ID: 1f13-33\nState: working\n")
    assert matched and captured == {"TASK": "1f13-33"}
    assert match_output(['Resume: ... "<your reply>"'], 'Resume: switchboard send x "<your reply>"\n')[0]
