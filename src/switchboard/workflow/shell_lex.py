"""Where each `{{...}}` of a shell step's `run` sits, as the shell will read it: a small lexer of shell syntax.

It follows bash's grammar where bash and dash differ (bash is the shell whose arithmetic can run a value;
dash's cannot), with a stack of contexts: plain code, "...", '...', $'...', $(...), backticks (whose text is
unescaped and read again, as the shell does), ${...}, arithmetic ($((...)), ((...)), $[...], array
subscripts, ${v:offset}, `let`, `[[ ... -eq ... ]]`), comments and here-documents. The placement only
decides how a reference is written (shell_script.py); every form it can choose is a variable reference,
never a value, so a wrong guess changes a value and cannot run it. Where bash might evaluate arithmetic,
the guess errs towards arithmetic (a whole-number-only variable), and that includes a $(...) or backticks
inside arithmetic, whose output bash evaluates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Placement = Literal["word", "double", "single", "ansi", "comment", "heredoc", "quoted-heredoc", "arithmetic"]
Problem = Literal["backslash", "quoted-heredoc", "delimiter", "nesting"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# [[ ... ]] operators whose operands bash evaluates: arithmetic, and a variable's name (with its [subscript]).
_ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"})
# Words after which the next word is again a command (so `let`, `[[` and `case` are keywords there).
_LEADING = frozenset({"then", "do", "else", "elif", "if", "while", "until", "!", "{", "time", "builtin", "command"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")


@dataclass
class _Heredoc:
    delimiter: str
    quoted: bool
    strip_tabs: bool


@dataclass
class _Frame:
    """One code context ($(...), backticks, the script): its words, parentheses and case statements."""

    closer: str  # ")" for $(...), "}" for the word of ${...}, "" for the script or a backtick's text
    param_word: bool = False  # the word of ${x:-word}: no comments, keywords or here-documents
    depth: int = 0
    word: str = ""
    plain: bool = True  # the word so far is unquoted literal text (so it may be a keyword)
    word_start: bool = True
    command_start: bool = True
    cases: list[str] = field(default_factory=list)  # per open case: "subject", "pattern" or "body"
    let: bool = False  # inside a `let` command: its arguments are arithmetic
    test: list[int] | None = None  # inside [[ ... ]]: the references seen there
    test_arithmetic: bool = False


class ShellLexer:
    """Finds the placement of each reference (by its start offset) in `text`, and what cannot be rendered."""

    def __init__(self, text: str, starts: dict[int, int]) -> None:
        self.text = text
        self.starts = starts  # a reference's start -> its end
        self.placements: dict[int, Placement] = {}
        self.numeric: set[int] = set()  # references whose value bash may evaluate: given as whole numbers only
        self.problems: dict[int, Problem] = {}
        self.arithmetic = 0  # > 0 while inside an arithmetic context (of this code frame)
        # Inside a $(...) or backticks that sit in arithmetic: the command's output is evaluated there.
        self.output_evaluated = False
        self.tests: list[list[int]] = []  # the open [[ ... ]] around here, innermost last
        self.pending: list[_Heredoc] = []

    def run(self) -> None:
        self._code(0, _Frame(""), len(self.text))

    # --- references -----------------------------------------------------------------------------------

    def _place(self, i: int, placement: Placement) -> int:
        if self.arithmetic or self.output_evaluated:
            self.numeric.add(i)
            if self.arithmetic and placement in ("word", "double", "heredoc"):
                placement = "arithmetic"
        self.placements[i] = placement
        for refs in self.tests:
            refs.append(i)
        return self.starts[i]

    def _escaped_ref(self, i: int) -> bool:
        """A backslash right before a reference would escape the reference's first character."""
        if i + 1 in self.starts:
            self.problems[i + 1] = "backslash"
            return True
        return False

    # --- code ------------------------------------------------------------------------------------------

    def _code(self, i: int, frame: _Frame, end: int) -> int:
        text = self.text
        saved = self.arithmetic, self.tests, self.output_evaluated
        if not frame.param_word:  # a command of its own; what it prints may still land in arithmetic
            self.output_evaluated = self.output_evaluated or self.arithmetic > 0
            self.arithmetic, self.tests = 0, list(self.tests)
        try:
            while i < end:
                c = text[i]
                if i in self.starts:
                    i = self._place(i, "word")
                    frame.word_start, frame.plain = False, False
                    continue
                if frame.closer == "}" and c == "}" and frame.depth == 0:
                    self._end_word(frame)
                    return i + 1
                if c == "\\":
                    if self._escaped_ref(i):
                        i += 1
                        continue
                    frame.word_start, frame.plain = False, frame.plain and text[i + 1 : i + 2] == "\n"
                    i += 2
                    continue
                if c == "#" and frame.word_start and not frame.param_word:
                    i = self._comment(i)
                    continue
                if c == "'":
                    i = self._single(i + 1)
                    frame.word_start, frame.plain = False, False
                    continue
                if c == '"':
                    i = self._double(i + 1, '"', end)
                    frame.word_start, frame.plain = False, False
                    continue
                if c == "`":
                    i = self._backtick(i + 1, in_double=False)
                    frame.word_start, frame.plain = False, False
                    continue
                if c == "$":
                    i = self._dollar(i, in_code=True, end=end)
                    frame.word_start, frame.plain = False, False
                    continue
                if c in " \t":
                    self._end_word(frame)
                    i += 1
                    continue
                if c == "\n":
                    self._end_word(frame)
                    self._end_command(frame)
                    i += 1
                    if self.pending and not frame.param_word:
                        i = self._heredoc_bodies(i, end)
                    continue
                if c in ";&|":
                    self._end_word(frame)
                    two = text[i : i + 2]
                    if frame.cases and frame.cases[-1] == "body" and two in (";;", ";&"):
                        frame.cases[-1] = "pattern"
                        i += 3 if text[i : i + 3] == ";;&" else 2
                    else:
                        i += 2 if two in ("&&", "||", ";;") else 1
                    self._end_command(frame)
                    continue
                if c == "(":
                    self._end_word(frame)
                    if text[i + 1 : i + 2] == "(" and not frame.param_word:
                        i = self._arithmetic(i + 2, "))", end)
                        continue
                    if frame.cases and frame.cases[-1] == "pattern" and frame.depth == 0:
                        i += 1  # a pattern's optional opening parenthesis
                        continue
                    frame.depth += 1
                    frame.command_start = True
                    i += 1
                    continue
                if c == ")":
                    self._end_word(frame)
                    if frame.cases and frame.cases[-1] == "pattern" and frame.depth == 0:
                        frame.cases[-1] = "body"
                        frame.command_start = True
                        i += 1
                        continue
                    if frame.depth > 0:
                        frame.depth -= 1
                    elif frame.closer == ")":
                        return i + 1
                    self._end_command(frame)
                    i += 1
                    continue
                if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i) and not frame.param_word:
                    self._end_word(frame)
                    i = self._heredoc_operator(i + 2)
                    continue
                if c == "[" and frame.word_start and not frame.param_word and text[i + 1 : i + 2] not in ("[", ""):
                    if text[i + 1].isspace():
                        frame.word += c  # the [ command
                        frame.word_start = False
                        i += 1
                        continue
                    i = self._arithmetic(i + 1, "]", end)  # [sub]=value in an array assignment
                    frame.word_start, frame.plain = False, False
                    continue
                if c == "[" and frame.plain and _IDENT.fullmatch(frame.word) and not frame.param_word:
                    i = self._arithmetic(i + 1, "]", end)  # name[subscript]
                    frame.plain = False
                    continue
                if c in "<>":
                    self._end_word(frame)
                    frame.word_start = True
                    i += 1
                    continue
                if c == "{" and frame.closer == "}":
                    frame.depth += 1
                elif c == "}" and frame.closer == "}" and frame.depth:
                    frame.depth -= 1
                frame.word += c
                frame.word_start = False
                i += 1
            self._end_word(frame)
            return i
        finally:
            self.arithmetic, self.tests, self.output_evaluated = saved

    def _end_word(self, frame: _Frame) -> None:
        word, plain, was_start = frame.word, frame.plain, frame.command_start
        if not word and plain:
            frame.word_start = True
            return
        frame.word, frame.plain, frame.word_start = "", True, True
        if frame.param_word:
            return
        frame.command_start = False
        if not plain:
            return
        if frame.test is not None:
            if word == "]]":
                if frame.test_arithmetic:
                    self.numeric.update(frame.test)
                self.tests.remove(frame.test)
                frame.test, frame.test_arithmetic = None, False
            elif word in _ARITH_TESTS:
                frame.test_arithmetic = True
            return
        if frame.cases and frame.cases[-1] == "subject" and word == "in":
            frame.cases[-1] = "pattern"
        elif frame.cases and word == "esac" and frame.cases[-1] in ("pattern", "body"):
            frame.cases.pop()
        elif was_start and word == "case":
            frame.cases.append("subject")
        elif was_start and word == "let":
            frame.let = True
            self.arithmetic += 1
        elif was_start and word == "[[":
            frame.test = []
            self.tests.append(frame.test)
        elif was_start and (word in _LEADING or _ASSIGNMENT.match(word)):
            frame.command_start = True

    def _end_command(self, frame: _Frame) -> None:
        if frame.let:
            frame.let = False
            self.arithmetic -= 1
        frame.command_start, frame.word_start = True, True

    # --- quotes, comments, substitutions ----------------------------------------------------------------

    def _comment(self, i: int) -> int:
        while i < len(self.text) and self.text[i] != "\n":
            if i in self.starts:
                self.placements[i] = "comment"
                i = self.starts[i]
                continue
            i += 1
        return i

    def _single(self, i: int) -> int:
        while i < len(self.text) and self.text[i] != "'":
            if i in self.starts:
                i = self._place(i, "single")
                continue
            i += 1
        return i + 1

    def _ansi_c(self, i: int) -> int:
        """$'...' (bash): backslash escapes, a reference in it is written as in '...'."""
        while i < len(self.text) and self.text[i] != "'":
            if i in self.starts:
                i = self._place(i, "ansi")
            elif self.text[i] == "\\":
                i += 1 if self._escaped_ref(i) else 2
            else:
                i += 1
        return i + 1

    def _double(self, i: int, closer: str, end: int, placement: Placement = "double") -> int:
        """Inside "..." (closer '"'), the word of a ${...} in it (closer "}"), or a here-document's body
        (closer "", up to `end`)."""
        text = self.text
        braces = 0
        while i < end:
            c = text[i]
            if i in self.starts:
                i = self._place(i, placement)
                continue
            if closer and c == closer and not braces:
                return i + 1
            if c == "\\":
                i += 1 if self._escaped_ref(i) else 2
            elif c == "$":
                i = self._dollar(i, in_code=False, end=end)
            elif c == "`":
                i = self._backtick(i + 1, in_double=closer == '"')
            else:
                if closer == "}":
                    braces += {"{": 1, "}": -1}.get(c, 0)
                i += 1
        return i

    def _dollar(self, i: int, *, in_code: bool, end: int) -> int:
        text = self.text
        if i + 1 in self.starts:
            return i + 1  # `$` before a reference is a literal $ (our forms start with " or $)
        two = text[i : i + 3]
        if two == "$((":
            return self._arithmetic(i + 3, "))", end)
        if two.startswith("$("):
            return self._code(i + 2, _Frame(")"), end)
        if two.startswith("$["):
            return self._arithmetic(i + 2, "]", end)
        if two.startswith("${"):
            return self._parameter(i + 2, in_code, end)
        if in_code and two.startswith("$'"):
            return self._ansi_c(i + 2)
        if in_code and two.startswith('$"'):
            return self._double(i + 2, '"', end)
        return i + 1

    def _parameter(self, i: int, in_code: bool, end: int) -> int:
        """${...}: the name, a [subscript] and a :offset:length are arithmetic; the word of :- # % / ... is
        a word in the quoting around the ${...}."""
        text = self.text
        self.arithmetic += 1  # the name part: a reference here would name a variable
        try:
            if text[i : i + 1] in ("#", "!") and text[i + 1 : i + 2] not in ("}", ""):
                i += 1  # ${#v} (length), ${!v} (indirection)
            if i in self.starts:
                i = self._place(i, "word")
            elif name := _IDENT.match(text, i):
                i = name.end()
            elif text[i : i + 1].isdigit():
                while text[i : i + 1].isdigit():
                    i += 1
            elif text[i : i + 1] and text[i] in "@*#?-$!":
                i += 1
            if text[i : i + 1] == "[":
                i = self._arithmetic(i + 1, "]", end)
            if text[i : i + 1] == ":" and text[i + 1 : i + 2] not in ("-", "=", "?", "+"):
                return self._arithmetic(i + 1, "}", end)  # ${v:offset:length}
        finally:
            self.arithmetic -= 1
        if text[i : i + 1] == "}":
            return i + 1
        if in_code:
            return self._code(i, _Frame("}", param_word=True), end)
        return self._double(i, "}", end)

    def _arithmetic(self, i: int, closer: str, end: int) -> int:
        """$((...)), ((...)) (closer "))"), $[...] and [subscripts] ("]"), ${v:offset} ("}")."""
        text = self.text
        depth = 0
        self.arithmetic += 1
        try:
            while i < end:
                c = text[i]
                if i in self.starts:
                    i = self._place(i, "arithmetic")
                    continue
                if c in "([":
                    depth += 1
                elif c in ")]}" and depth:
                    depth -= 1
                elif closer == "))" and text.startswith("))", i):
                    return i + 2
                elif c == closer[0] and closer != "))":
                    return i + 1
                elif c == "\\":
                    i += 1 if self._escaped_ref(i) else 2
                    continue
                elif c == '"':
                    i = self._double(i + 1, '"', end)
                    continue
                elif c == "'":
                    i = self._single(i + 1)
                    continue
                elif c == "$":
                    i = self._dollar(i, in_code=False, end=end)
                    continue
                elif c == "`":
                    i = self._backtick(i + 1, in_double=False)
                    continue
                i += 1
            return i
        finally:
            self.arithmetic -= 1

    def _backtick(self, i: int, *, in_double: bool) -> int:
        """`...`: the shell unescapes \\` \\$ \\\\ (and \\" inside "...") and reads the result as a script."""
        text = self.text
        escapable = '`$\\"' if in_double else "`$\\"
        inner: list[str] = []
        where: list[int] = []  # inner offset -> offset in text
        start = i
        while i < len(text) and text[i] != "`":
            if text[i] == "\\" and text[i + 1 : i + 2] in tuple(escapable) and i + 1 not in self.starts:
                i += 1
            inner.append(text[i])
            where.append(i)
            i += 1
        where.append(i)
        inner_text = "".join(inner)
        back: dict[int, int] = {}
        for n in range(len(where) - 1, -1, -1):  # every offset -> the inner offset of the next kept character
            for p in range(where[n - 1] + 1 if n else start, where[n] + 1):
                back[p] = n
        starts = {back[s]: back[e] for s, e in self.starts.items() if start <= s < i and e in back}
        sub = ShellLexer(inner_text, starts)
        sub.output_evaluated = self.output_evaluated or self.arithmetic > 0
        sub.run()
        self.placements.update({where[n]: p for n, p in sub.placements.items()})
        self.numeric.update(where[n] for n in sub.numeric)
        self.problems.update({where[n]: p for n, p in sub.problems.items()})
        for refs in self.tests:
            refs.extend(where[n] for n in sub.placements)
        return i + 1

    # --- here-documents ------------------------------------------------------------------------------------

    def _heredoc_operator(self, i: int) -> int:
        text = self.text
        strip = text[i : i + 1] == "-"
        i += 1 if strip else 0
        while text[i : i + 1] in (" ", "\t"):
            i += 1
        word: list[str] = []
        quoted = False
        while i < len(text) and text[i] not in " \t\n;&|<>()":
            if i in self.starts:
                self.problems[i] = "delimiter"
                self.placements[i] = "word"
                i = self.starts[i]
                continue
            c = text[i]
            if c in "'\"":
                quoted = True
                close = text.find(c, i + 1)
                close = len(text) if close < 0 else close
                word.append(text[i + 1 : close])
                i = close + 1
                continue
            if c == "\\":
                quoted = True
                word.append(text[i + 1 : i + 2])
                i += 2
                continue
            word.append(c)
            i += 1
        self.pending.append(_Heredoc("".join(word), quoted, strip))
        return i

    def _heredoc_bodies(self, i: int, end: int) -> int:
        """The bodies of the here-documents opened on the line just ended, one after the other."""
        pending, self.pending = self.pending, []
        for doc in pending:
            body_start = i
            while i < end:
                line_end = self.text.find("\n", i, end)
                line_end = end if line_end < 0 else line_end
                line = self.text[i:line_end]
                if (line.lstrip("\t") if doc.strip_tabs else line) == doc.delimiter:
                    self._body(body_start, i, doc)
                    i = min(line_end + 1, end)
                    break
                i = line_end + 1
            else:
                self._body(body_start, end, doc)
                i = end
        return i

    def _body(self, start: int, stop: int, doc: _Heredoc) -> None:
        if doc.quoted:
            for s in self.starts:
                if start <= s < stop:
                    self.placements[s] = "quoted-heredoc"
                    self.problems[s] = "quoted-heredoc"
            return
        saved = self.arithmetic
        self.arithmetic = 0
        self._double(start, "", stop, "heredoc")
        self.arithmetic = saved
