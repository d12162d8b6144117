"""A served workflow with shell steps (`serve --allow-shell`), attacked as a caller would: hostile inputs in
ordinary placements. None runs on the server, and each arrives as text."""

from __future__ import annotations

import textwrap

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.model import DataPart, TaskState

PLACEMENTS = {
    "word": "printf '%s' {{inputs.text}}",
    "double": "printf '%s' \"said: {{inputs.text}}\"",
    "single": "printf '%s' '{{inputs.text}}'",
    "substitution": "printf '%s' \"$(printf '%s' {{inputs.text}})\"",
    "backticks": "printf '%s' \"`printf '%s' {{inputs.text}}`\"",
    "comment": "# it's the summary\nprintf '%s' {{inputs.text}}",
    "heredoc": "cat <<EOF\n{{inputs.text}}\nEOF",
    "case": "case {{inputs.text}} in *) printf '%s' \"{{inputs.text}}\";; esac",
    "arithmetic": "echo $(( {{inputs.text}} + 0 ))",
}


def hostile(marker: str) -> list[str]:
    touch = f"touch {marker}"
    return [
        f"$({touch})",
        f"`{touch}`",
        f"x; {touch}",
        f"x && {touch}",
        f"x | {touch}",
        f"'; {touch}; '",
        f'"; {touch}; "',
        f"'\"$({touch})\"'",
        f"\\'; {touch} #",
        f'\\"; {touch} #',
        f"x[$({touch})]",
        f"1 + a[$({touch})]",
        f"\n{touch}\n",
        f"EOF\n{touch}\nEOF",
        f"${{x:-$({touch})}}",
        f") ; {touch} ; (",
        f"*) {touch};; esac; case x in x",
        f"}}; {touch}; {{",
        f"$'\\x27'; {touch}",
        f"$(({touch}))",
        f"<(${touch})",
        f"it's; {touch}",
        f'say "it"; {touch}',
        f"#'; {touch}",
    ]


async def test_no_hostile_input_runs_in_any_placement(serve, tmp_path):
    flow = tmp_path / "placements.yaml"
    steps = "".join(
        f"  - name: {name}\n    onError: continue\n    run: |\n{textwrap.indent(command, '      ')}\n"
        for name, command in PLACEMENTS.items()
    )
    outputs = "".join(f'  {name}: "{{{{steps.{name}.output}}}}"\n' for name in PLACEMENTS)
    flow.write_text(
        "version: 1\nname: placements\ninputs:\n  text: {required: true}\nsteps:\n" + steps + "outputs:\n" + outputs
    )
    served = serve(str(flow), "--allow-shell")
    marker = tmp_path / "PWNED"
    inputs = hostile(str(marker))
    ran = 0
    async with await connect(served.url("placements")) as client:
        for text in inputs:
            task = await client.send(new_message(text))
            assert task.status.state in (TaskState.COMPLETED, TaskState.FAILED), task.status
            if marker.exists():
                ran += 1
                marker.unlink()
            data = next(p.data for a in task.artifacts for p in a.parts if isinstance(p, DataPart))
            for name in PLACEMENTS:
                expected = {"double": "said: ", "arithmetic": None}.get(name, "")
                if expected is None:
                    assert data[name] == "", data  # not a number: refused, never run
                else:
                    assert data[name] == expected + text.strip("\n"), (name, text, data[name])  # serve trims the text
    # What the issue measured on the old quoting: 17 of 36 hostile inputs ran. Now none, in any placement.
    assert ran == 0, f"{ran} of {len(inputs)} hostile inputs ran, over {len(PLACEMENTS)} placements"
