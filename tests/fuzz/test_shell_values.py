"""A property test that knows shell: scripts from a grammar of real shell, references in every position, hostile
values, each run under bash and dash through the product's own path (shell_script.render, then run_command).
No value ever runs (no marker file appears), no byte of a value is in the script, and a reference used as a word
or inside "..." arrives byte for byte."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st

from switchboard.workflow import shell_script
from switchboard.workflow.shell import run_command, value_bytes

SHELLS = ("/usr/bin/bash", "/usr/bin/dash")
REFS = ("inputs.v1", "inputs.v2", "steps.a.output", "steps.b-c.output")
MARK = "@MARK@"  # replaced by the example's marker file: a value that runs creates it

HOSTILE = [
    f"$(touch {MARK})",
    f"`touch {MARK}`",
    f"x; touch {MARK}",
    f"x && touch {MARK} #",
    f"'; touch {MARK}; '",
    f'"; touch {MARK}; "',
    f"'\"$(touch {MARK})\"'",
    f"\\'; touch {MARK} #",
    f"x[$(touch {MARK})]",
    f"a[$(touch {MARK})]+1",
    f"$((x[$(touch {MARK})]))",
    f"\ntouch {MARK}\n",
    f"EOF\ntouch {MARK}\nEOF\n",
    f"${{x:-$(touch {MARK})}}",
    f") ; touch {MARK} ; (",
    f"}}; touch {MARK}; {{",
    f"*) touch {MARK};; esac; case x in x",
    f"$'\\x27'; touch {MARK}",
    "\\",
    "*",
    "~",
    "-n",
    "",
    "é ☃ 𝄞 \u202e",
    "a\n\n",
    "line one\nline two $HOME `x` \\n %s %d",
]


def hostile_values() -> st.SearchStrategy[str]:
    binary = st.binary(max_size=64).map(lambda b: b.replace(b"\0", b"").decode("utf-8", "surrogateescape"))
    long = st.sampled_from(HOSTILE).map(lambda v: "A" * 70_000 + v + "\n" + "B" * 1000)
    return st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40), binary, long)


# What bash's arithmetic runs: a subscript is expanded (command substitution included) when it is evaluated.
ARITHMETIC = [f"x[$(touch {MARK})]", f"1 + a[$(touch {MARK})]", f"b[`touch {MARK}`]", f"z=c[$(touch {MARK})]"]


def numbers() -> st.SearchStrategy[str]:
    return st.one_of(st.integers(0, 1000).map(str), st.sampled_from(ARITHMETIC), st.sampled_from(HOSTILE))


@dataclass
class Script:
    parts: list[str] = field(default_factory=list)
    checks: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # file -> (ref, before, after)
    trims: set[str] = field(default_factory=set)  # files whose value went through $(...): trailing \n dropped
    bash_only: bool = False


# A carrier: an expression that gives a reference's value as one word, exactly (but $(...) drops trailing newlines).
@st.composite
def carrier(draw: st.DrawFn, ref: str, depth: int = 0) -> tuple[str, str, str, bool]:
    """(text, before, after, trimmed): `text` yields before + value + after."""
    r = "{{" + ref + "}}"
    kinds = ["word", "double", "single", "around", "glued", "param"] + (["cmdsub", "backtick"] if depth < 2 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "word":
        return r, "", "", False
    if kind == "double":
        return f'"{r}"', "", "", False
    if kind == "single":
        return f"'{r}'", "", "", False
    if kind == "around":
        return f'"it\'s ({r}) `x`"'.replace("`x`", "\\`x\\`"), "it's (", ") `x`", False
    if kind == "glued":
        return f"'a'{r}\"b\"", "a", "b", False
    if kind == "param":
        return '"${zz_unset:-' + r + '}"', "", "", False
    if kind == "cmdsub":
        inner, before, after, _ = draw(carrier(ref, depth + 1))
        return f"\"$(printf '%s' {inner})\"", before, after, True
    return f"\"`printf '%s' {r}`\"", "", "", True


NOISE = [
    '# it\'s a comment with "quotes" and $(touch @MARK@) in it',
    'echo "it\'s" > /dev/null',
    "echo 'say \"hi\" $(not run)' > /dev/null",
    "cat > /dev/null <<'EOF'\nit's \"x\" $(touch @MARK@) `y`\nEOF",
    'cat > /dev/null <<-EOF\n\tit\'s \\$HOME $(echo ")")\n\tEOF',
    "case a in a|b) : ;; (c) : it\\'s ;; esac",
    ": $(( 1 + (2 * 3) ))",
    ': "`echo "it\'s"`"',
    "echo \\' \\\" > /dev/null",
    'f() { : "$@"; }; f 1',
    ': ${zz_unset:-"a\'b"}',
    ": $(case x in x) echo ')';; esac)",
    "x=1; y=${x#1}",
    "true && true || false",
    "echo a \\\n  b > /dev/null",
    "echo x | cat > /dev/null",
]
BASH_NOISE = [
    "[[ a == a && 'it''s' != b ]]",
    ": $'no quote in here'",
    "declare -a arr=(1 2 3); : ${arr[1]}",
]


@st.composite
def statement(draw: st.DrawFn, script: Script, index: int) -> str:
    """A statement that writes one reference's value to a file, maybe inside a shell structure."""
    ref = draw(st.sampled_from(REFS))
    text, before, after, trimmed = draw(carrier(ref))
    out = f"o{index}"
    if draw(st.booleans()):
        body = f"cat > {out} <<EOF\nit's \"({{{{{ref}}}}})\nEOF"
        script.checks[out] = (ref, "it's \"(", ")\n")
        return draw(st.sampled_from(["{}", "if true; then\n{}\nfi", "f{i}() {{\n{}\n}}; f{i}"])).format(body, i=index)
    script.checks[out] = (ref, before, after)
    if trimmed:
        script.trims.add(out)
    simple = f"printf '%s' {text} > {out}"
    wrap = draw(
        st.sampled_from(
            [
                "{}",
                "if true; then {}; fi",
                "f{i}() {{ {}; }}; f{i}",
                "case x in x) {};; esac",
                "( {} )",
                "true && {}",
                "{} | cat",
                ': "$( {} )"',
                "for i in 1; do {}; done",
                "printf '%s' \\\n  " + text + f" > {out}",
            ]
        )
    )
    return wrap.format(simple, i=index) if "{}" in wrap else wrap


ARITHMETIC_FORMS = [
    ": $(( {{inputs.n}} + 1 ))",
    "x=$(( {{inputs.n}} )) || :",
    'echo "$(( {{inputs.n}} ))" `echo $(( {{inputs.n}} ))` > /dev/null',
    "cat > /dev/null <<EOF\n$(( {{inputs.n}} ))\nEOF",
    ": $(( $(printf '%s' {{inputs.n}}) + `echo '{{inputs.n}}'` ))",
]
BASH_ARITHMETIC_FORMS = [
    "(( {{inputs.n}} > 1 )) || :",
    "let z={{inputs.n}}+1 || :",
    "arr[{{inputs.n}}]=1; : ${arr[{{inputs.n}}]}",
    "s=abcdef; : ${s:{{inputs.n}}:1}",
    '[[ "{{inputs.n}}" -eq 3 ]] || :',
    ": $[ {{inputs.n}} ]",
    "arr=([{{inputs.n}}]=1)",
    "let y=${z:-{{inputs.n}}} || :",
    "[[ $(echo {{inputs.n}}) -gt 1 || ${z:-{{inputs.n}}} -eq 2 ]] || :",
    "for ((i = {{inputs.n}}; i < 3; i++)); do :; done",
]


@st.composite
def unchecked(draw: st.DrawFn, script: Script) -> str:
    """A reference where the value is split, globbed, compared or ignored: it must only never run."""
    r = "{{" + draw(st.sampled_from(REFS)) + "}}"
    forms = [
        f"echo {r} $(echo {r}) > /dev/null",
        f"for w in $(printf '%s' {r}); do :; done",
        f'case {r} in *"\'"*) : ;; *) : ;; esac',
        f"[ {r} = x ] || :",
        f"# summary: it's {r}",
        f'echo "$(echo "{r}")" `echo {r}` > /dev/null',
        f"cat > /dev/null <<EOF\n$(echo {r}) `echo {r}` ${{zz:-{r}}}\nEOF",
        f'y={r}; : "$y"',
    ]
    bash = [f"[[ {r} == x* ]] || :", f"printf '%s' $'a\\tb{r}' > /dev/null", *BASH_ARITHMETIC_FORMS]
    form = draw(st.sampled_from(forms + bash + ARITHMETIC_FORMS))
    script.bash_only = script.bash_only or form in bash
    return form


@st.composite
def scripts(draw: st.DrawFn) -> Script:
    script = Script()
    for index in range(draw(st.integers(1, 6))):
        choice = draw(st.sampled_from(["check", "check", "unchecked", "arithmetic", "noise", "bash-noise"]))
        if choice == "check":
            part = draw(statement(script, index))
        elif choice == "unchecked":
            part = draw(unchecked(script))
        elif choice == "arithmetic":
            part = draw(st.sampled_from(ARITHMETIC_FORMS + BASH_ARITHMETIC_FORMS))
            script.bash_only = script.bash_only or part in BASH_ARITHMETIC_FORMS
        elif choice == "noise":
            part = draw(st.sampled_from(NOISE))
        else:
            script.bash_only = True
            part = draw(st.sampled_from(BASH_NOISE))
        script.parts.append(part)
        script.parts.append(
            draw(st.sampled_from(["\n", "; ", "\n\n"]))
            if not part.endswith("EOF") and not part.startswith("#")
            else "\n"
        )
    return script


def run(script: Script, values: dict[str, str], shell: str, folder: Path) -> tuple[int, str]:
    text = "".join(script.parts)
    rendered = shell_script.render(text, lambda ref: values[ref.text if ref.text in values else "inputs.n"])
    for value in values.values():
        if len(value) > 3 and value not in text:  # (a short value, or one the grammar wrote, may be text)
            assert value not in rendered.script  # no byte of a value is in the script
    if rendered.not_numbers:
        return -1, ""  # the product fails the step before it starts
    done = asyncio.run(
        run_command(
            rendered.script,
            values=rendered.values,
            cwd=folder,
            env={"PATH": os.environ["PATH"], "LC_ALL": "C.UTF-8"},
            timeout=30,
            on_line=lambda stream, line: None,
            shell=shell,
        )
    )
    return done.exit_code, done.stderr


@fuzz(examples=80)
@given(script=scripts(), values=st.fixed_dictionaries({r: hostile_values() for r in REFS}), number=numbers())
def test_no_value_ever_runs_and_words_arrive_byte_for_byte(script, values, number):
    folder = Path(tempfile.mkdtemp(prefix="shell-fuzz-"))
    try:
        marker = folder / "MARK"
        values = {ref: value.replace(MARK, str(marker)) for ref, value in values.items()}
        values["inputs.n"] = number.replace(MARK, str(marker))
        for shell in SHELLS[:1] if script.bash_only else SHELLS:
            code, stderr = run(script, values, shell, folder)
            if code == -1:  # refused, as the product refuses it: the rest of the script runs with a number
                code, stderr = run(script, {**values, "inputs.n": "7"}, shell, folder)
            assert not marker.exists(), (shell, "".join(script.parts), values)
            for out, (ref, before, after) in script.checks.items():
                expected = before.encode() + value_bytes(values[ref]) + after.encode()
                if out in script.trims:
                    expected = expected.rstrip(b"\n")
                got = (folder / out).read_bytes() if (folder / out).exists() else None
                assert got == expected, (shell, out, "".join(script.parts), stderr[-2000:])
                (folder / out).unlink()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


SHELL_BITS = [*list("'\"`$(){}[]#\\\n ;|&<>-=:+?%/!*@0a"), "<<", "<<-", "<<'E'", "E", "$((", "$(", "${", "$[", "))"]
SHELL_BITS += ["case", "in", "esac", ";;", "let", "[[", "]]", "-eq", "$'", "{{inputs.v1}}", "{{steps.a.output}}"]


@fuzz(examples=400)
@given(text=st.lists(st.sampled_from(SHELL_BITS), max_size=40).map("".join))
def test_any_run_text_renders_or_is_a_problem_and_never_holds_a_value(text):
    """The lexer takes any text a workflow file may hold (unclosed quotes, stray parentheses): it places every
    reference or reports a problem, and never fails otherwise."""
    value = "VALUE$(touch M)"
    problems = shell_script.problems(text)
    try:
        rendered = shell_script.render(text, lambda ref: value)
    except shell_script.ShellTemplateError:
        assert problems
        return
    assert not problems and value not in rendered.script
