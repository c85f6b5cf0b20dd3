#!/usr/bin/env python3
"""chainlint.py - find test steps whose failure would go unnoticed

    chainlint.py SCRIPT...      lint the test bodies of the scripts
    chainlint.py --body         lint one body read from standard input

A test body passes when its last command succeeds, so every step must be
joined to the next by "&&" (git's t/chainlint idea, written anew for these
tests).  This reads a test script as the shell would -- quoting,
here-documents, $(...), compound commands -- and reports, in a body and
in every function of the script (or of a file it sources from $SRC) that
a body runs:

  - two commands separated by a newline or ";" instead of "&&" (or "||"
    or "|"), in the body, a subshell, a { } group, a branch of if or
    case, a loop, a function, a $(...) spanning lines; unless the first
    handles its own failure (a || return 1) or the list ends in one
    ({ echo why; exit 1; });
  - "a && b &": a and b run in the background, unchecked ({ b & } && c);
  - "a || b && c": c runs after a failed ({ a || b; } && c);
  - a for/while/until loop whose body never says "|| return 1" or
    "|| exit 1": only the last pass's status would count;
  - $TRIAGE or $FILTER (the programs under test) before a "|": a pipe
    keeps only the status of its last command.

Bodies are the last argument of test_expect_success and test_setup.
Parts of a body that the shell expands when the test is defined (an
unquoted $var between two single-quoted parts) are read as one word.
Exit status: 0 clean, 1 problems found (printed as FILE:LINE: message).
"""

import os
import re
import sys

TEST_FUNCS = ("test_expect_success", "test_setup")
# words that end a list: the parser stops there, the caller takes them
LIST_END = {"then", "elif", "else", "fi", "do", "done", "esac", "}"}
PROGRAMS = re.compile(r'^"?\$\{?(TRIAGE|FILTER)\b')
REDIRECTS = ("<", ">", ">>", "<&", ">&", "<>", ">|", "<<", "<<-")
OPS = ("&&", "||", ";;", "<<-", "<<", ">>", "<&", ">&", "<>", ">|",
       "|", "&", ";", "(", ")", "<", ">")


class Problem(Exception):
    pass


class Word:
    """a shell word: its text as written, and its value when it is
    plain (no expansion), else None; parts keeps (kind, text) pieces"""

    def __init__(self, raw, line, parts):
        self.raw = raw
        self.line = line
        self.parts = parts

    def literal(self):
        out = []
        for kind, text in self.parts:
            if kind in ("lit", "sq", "dq"):
                out.append(text)
            else:
                return None
        return "".join(out)

    def body_text(self):
        """the value a test body word has, expansions read as one word"""
        out = []
        for kind, text in self.parts:
            out.append(text if kind in ("lit", "sq", "dq", "dqexp") else "_x_")
        return "".join(out)


class Lexer:
    def __init__(self, text, line=1, script=False):
        self.script = script   # reading script code, not a test body
        self.problems = []     # (line, message)
        self.commands = set()  # the names of the simple commands read
        self.functions = {}    # name -> (text, first line) of its body
        self.s = text
        self.i = 0
        self.line0 = line
        self.heredocs = []     # pending (delimiter, strip_tabs)
        self.peeked = None

    def lineno(self, i=None):
        return self.line0 + self.s.count("\n", 0, self.i if i is None else i)

    def error(self, msg, i=None):
        raise Problem("%d: %s" % (self.lineno(i), msg))

    # -- characters ----------------------------------------------------
    def ch(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def skip_blanks(self):
        while True:
            c = self.ch()
            if c in (" ", "\t"):
                self.i += 1
            elif c == "\\" and self.ch(1) == "\n":
                self.i += 2
            elif c == "#":
                while self.ch() not in ("", "\n"):
                    self.i += 1
            else:
                return

    def read_heredocs(self):
        """after a newline: the bodies of pending here-documents"""
        for delim, strip in self.heredocs:
            start = self.i
            while True:
                if self.i >= len(self.s):
                    self.error("here-document '%s' has no end: it swallows the rest"
                               % delim, start)
                end = self.s.find("\n", self.i)
                if end < 0:
                    end = len(self.s)
                line = self.s[self.i:end]
                self.i = min(end + 1, len(self.s))
                if (line.lstrip("\t") if strip else line) == delim:
                    break
        self.heredocs = []

    # -- tokens --------------------------------------------------------
    def peek(self):
        if self.peeked is None:
            # (a $(...) in the token peeks on its own: set this after)
            start = self.i
            self.peeked = self._next()
            self.peek_start = start
        return self.peeked

    def next(self):
        t = self.peek()
        self.peeked = None
        return t

    def _next(self):
        """("op", text, line) | ("nl", "\\n", line) | ("word", Word, line)
        | ("eof", "", line)"""
        self.skip_blanks()
        line = self.lineno()
        c = self.ch()
        if c == "":
            return ("eof", "", line)
        if c == "\n":
            self.i += 1
            self.read_heredocs()
            return ("nl", "\n", line)
        for op in OPS:
            if self.s.startswith(op, self.i):
                self.i += len(op)
                return ("op", op, line)
        return ("word", self.read_word(), line)

    def read_word(self, stop=" \t\n;&|()<>"):
        start = self.i
        line = self.lineno()
        parts = []
        lit = []

        def flush():
            if lit:
                parts.append(("lit", "".join(lit)))
                del lit[:]

        while True:
            c = self.ch()
            if c == "" or c in stop:
                break
            if c == "\\":
                if self.ch(1) == "\n":
                    self.i += 2
                    continue
                lit.append(self.ch(1))
                self.i += 2
            elif c == "'":
                flush()
                end = self.s.find("'", self.i + 1)
                if end < 0:
                    self.error("unterminated single quote", self.i)
                parts.append(("sq", self.s[self.i + 1:end]))
                self.i = end + 1
            elif c == '"':
                flush()
                parts.append(self.read_dquote())
            elif c == "$":
                flush()
                parts.append(("exp", self.read_dollar()))
            elif c == "`":
                flush()
                parts.append(("exp", self.read_backquote()))
            else:
                lit.append(c)
                self.i += 1
        flush()
        return Word(self.s[start:self.i], line, parts)

    def read_dquote(self):
        """("dq", value) when nothing is expanded, else ("dqexp", the
        value with each expansion read as the word _x_)"""
        self.i += 1
        out = []
        expanded = False
        while True:
            c = self.ch()
            if c == "":
                self.error("unterminated double quote")
            if c == '"':
                self.i += 1
                break
            if c == "\\":
                n = self.ch(1)
                if n == "\n":
                    self.i += 2
                    continue
                out.append(n if n in '$`"\\' else "\\" + n)
                self.i += 2
            elif c == "$":
                start = self.i
                self.read_dollar()
                if self.s[start:self.i] != "$":
                    expanded = True
                    out.append("_x_")
                else:
                    out.append("$")
            elif c == "`":
                self.read_backquote()
                expanded = True
                out.append("_x_")
            else:
                out.append(c)
                self.i += 1
        return ("dqexp" if expanded else "dq", "".join(out))

    def read_backquote(self):
        start = self.i
        self.i += 1
        while True:
            c = self.ch()
            if c == "":
                self.error("unterminated backquote", start)
            self.i += 2 if c == "\\" else 1
            if c == "`":
                return self.s[start:self.i]

    def read_dollar(self):
        start = self.i
        self.i += 1
        c = self.ch()
        if self.s.startswith("((", self.i):
            depth = 0
            while True:
                c = self.ch()
                if c == "":
                    self.error("unterminated $((", start)
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        self.i += 1
                        break
                self.i += 1
        elif c == "(":
            self.i += 1
            saved, self.peeked = self.peeked, None
            sub = Parser(self)
            sub.parse_list("a $( ) substitution")
            closing = self.next()
            if closing[:2] != ("op", ")"):
                self.error("$( not closed", start)
            self.peeked = saved
        elif c == "{":
            depth = 0
            while True:
                c = self.ch()
                if c == "":
                    self.error("unterminated ${", start)
                if c == "\\":
                    self.i += 2
                    continue
                if c == "'":
                    # quotes inside ${...} only matter for finding the end
                    end = self.s.find("'", self.i + 1)
                    self.i = (end if end >= 0 else len(self.s) - 1) + 1
                    continue
                if c == '"':
                    self.read_dquote()
                    continue
                if c == "$" and self.ch(1) in "({":
                    self.read_dollar()
                    continue
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        self.i += 1
                        break
                self.i += 1
        else:
            m = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|[0-9@*#?$!-]").match(self.s, self.i)
            if m:
                self.i = m.end()
        return self.s[start:self.i]


class Parser:
    """a recursive-descent reader of POSIX sh, enough for test scripts"""

    def __init__(self, lexer):
        self.lx = lexer
        self.bodies = []            # (Word, title) of test bodies found
        self.list_fails = False     # the last list read ends in a failure
        self.sourced = []           # files a script sources from $SRC

    @property
    def script(self):
        return self.lx.script

    def problem(self, line, msg):
        self.lx.problems.append((line, msg))

    def tok(self):
        return self.lx.peek()

    def take(self):
        return self.lx.next()

    def at_word(self, *names):
        t = self.tok()
        return t[0] == "word" and t[1].raw in names

    def skip_newlines(self):
        while self.tok()[0] == "nl":
            self.take()

    def at_end(self):
        t = self.tok()
        if t[0] == "eof":
            return True
        if t[0] == "op" and t[1] in (")", ";;"):
            return True
        return t[0] == "word" and t[1].raw in LIST_END

    def at_failure(self):
        """at "false", "exit N" or "return N" (N not 0) alone"""
        t = self.tok()
        if t[0] != "word":
            return False
        rest = r"[ \t]*(;|\n|$|\}|\))"
        if t[1].raw == "false":
            return re.match(rest, self.lx.s[self.lx.i:]) is not None
        return t[1].raw in ("exit", "return") and re.match(
            r"[ \t]+[1-9][0-9]*" + rest, self.lx.s[self.lx.i:]) is not None

    # list: and_or (sep and_or)*; a separator other than && || | &
    # between two commands breaks the chain, unless the command before it
    # deals with its own failure (a || return 1, a || { echo; exit 1; })
    # or the list ends in a failure ({ echo why; cat log; exit 1; })
    def parse_list(self, what):
        """returns the names of the commands read, for the loop check"""
        self.skip_newlines()
        words = []
        breaks = []
        fails = False
        while not self.at_end():
            fails = self.at_failure()
            w, handled = self.parse_and_or()
            words.extend(w)
            t = self.tok()
            sep = None
            if t[0] == "op" and t[1] in (";", "&"):
                sep = t[1]
                self.take()
            elif t[0] == "nl":
                sep = "newline"
            self.skip_newlines()
            if self.at_end() or sep is None:
                break
            if self.script:
                continue
            if sep == "&":
                # "a && b &" runs a and b in the background: neither
                # can fail the test, and (exit 117) && ... goes on
                breaks.append((self.tok()[2],
                               "broken &&-chain: a \"&\" before this command in %s "
                               "(write { cmd & } && ...)" % what))
            elif not handled:
                breaks.append((self.tok()[2],
                               "broken &&-chain: a %s before this command in %s"
                               % ("\";\"" if sep == ";" else "newline", what)))
        self.list_fails = fails
        if not fails:
            self.lx.problems.extend(breaks)
        return words

    def parse_and_or(self):
        """(names of the commands, whether it ends in "|| return N",
        "|| exit N" or "|| { ...; exit N; }")"""
        words = self.parse_pipeline()
        handled = False
        alternative = False
        while self.tok()[0] == "op" and self.tok()[1] in ("&&", "||"):
            line = self.tok()[2]
            op = self.take()[1]
            # a || b && c goes on with c whatever a did (and so does
            # (exit 117) && a || b && c): { a || b; } && c says so
            if op == "&&" and alternative and not self.script:
                self.problem(line, "\"a || b && c\" runs c after a failed: "
                             "write { a || b; } && c")
                alternative = False
            elif op == "||":
                alternative = True
            self.skip_newlines()
            t = self.tok()
            handler = op == "||" and t[0] == "word" and t[1].raw in ("return", "exit", "{")
            self.list_fails = False
            words.extend(self.parse_pipeline())
            handled = handler and (t[1].raw != "{" or self.list_fails)
        return words, handled

    def parse_pipeline(self):
        words = []
        if self.at_word("!"):
            self.take()
        while True:
            line = self.tok()[2]
            first = self.parse_command()
            words.extend(first)
            if self.tok()[:2] != ("op", "|"):
                return words
            self.take()
            hidden = [w for w in first if PROGRAMS.match(w)]
            if not self.script and hidden:
                self.problem(line, "the exit status of %s is lost in a pipe: "
                             "write its output to a file first" % hidden[-1])
            self.skip_newlines()

    def parse_redirects(self):
        while True:
            t = self.tok()
            if t[0] == "op" and t[1] in REDIRECTS:
                self.take()
                target = self.take()
                if target[0] != "word":
                    self.lx.error("redirection without a target")
                if t[1] in ("<<", "<<-"):
                    delim = target[1].literal()
                    self.lx.heredocs.append((delim if delim is not None else target[1].raw,
                                             t[1] == "<<-"))
            else:
                return

    def parse_command(self):
        """returns the names of the commands it runs"""
        t = self.tok()
        if t[0] == "op" and t[1] == "(":
            self.take()
            words = self.parse_list("a ( ) subshell")
            self.expect_op(")")
            self.parse_redirects()
            return words
        if t[0] != "word":
            if t[0] == "op" and t[1] in REDIRECTS:
                return self.parse_simple()
            self.lx.error("unexpected %r" % t[1])
        w = t[1].raw
        if w == "{":
            self.take()
            words = self.parse_list("a { } group")
            self.expect_word("}")
            self.parse_redirects()
            return words
        if w == "if":
            return self.parse_if()
        if w in ("while", "until"):
            self.take()
            words = self.parse_list("a %s condition" % w)
            self.expect_word("do")
            return words + self.parse_loop_body(t[2], w)
        if w == "for":
            self.take()
            self.take()   # the name
            self.skip_newlines()
            if self.at_word("in"):
                self.take()
                while self.tok()[0] == "word":
                    self.take()
            if self.tok()[:2] == ("op", ";"):
                self.take()
            self.skip_newlines()
            self.expect_word("do")
            return self.parse_loop_body(t[2], "for")
        if w == "case":
            return self.parse_case()
        return self.parse_simple()

    def parse_loop_body(self, line, kind):
        words = self.parse_list("a %s loop" % kind)
        self.expect_word("done")
        self.parse_redirects()
        if not self.script and not any(x in ("return", "exit") for x in words):
            self.problem(line, "a %s loop without \"|| return 1\" (or exit 1): "
                         "only its last pass would count" % kind)
        return words

    def parse_if(self):
        self.take()
        words = self.parse_list("an if condition")
        while True:
            self.expect_word("then")
            words += self.parse_list("an if branch")
            if self.at_word("elif"):
                self.take()
                words += self.parse_list("an elif condition")
                continue
            if self.at_word("else"):
                self.take()
                words += self.parse_list("an else branch")
            self.expect_word("fi")
            self.parse_redirects()
            return words

    def parse_case(self):
        self.take()
        self.take()                 # the word
        self.skip_newlines()
        self.expect_word("in")
        self.skip_newlines()
        words = []
        while not self.at_word("esac"):
            if self.tok()[:2] == ("op", "("):
                self.take()
            while True:             # patterns
                t = self.take()
                if t[0] != "word":
                    self.lx.error("bad case pattern")
                if self.tok()[:2] != ("op", "|"):
                    break
                self.take()
            self.expect_op(")")
            words += self.parse_list("a case branch")
            if self.tok()[:2] == ("op", ";;"):
                self.take()
            self.skip_newlines()
        self.take()
        self.parse_redirects()
        return words

    def parse_function(self, name):
        """NAME ( ) compound-command: its text is kept, to be linted
        when a test body runs it"""
        self.take()
        self.expect_op(")")
        self.skip_newlines()
        line = self.tok()[2]
        start = self.lx.peek_start
        # read as script code in a script (linted when a test runs it),
        # as the body's own code in a body
        self.parse_command()
        end = self.lx.i
        if self.lx.peeked is not None:
            end = self.lx.peek_start
        self.lx.functions.setdefault(name, (self.lx.s[start:end], line))

    def parse_simple(self):
        words = []
        while True:
            self.parse_redirects()
            t = self.tok()
            if t[0] != "word" or (not words and t[1].raw in LIST_END):
                break
            self.take()
            words.append(t[1])
            if len(words) == 1 and self.tok()[:2] == ("op", "("):
                self.parse_function(t[1].raw)
                return []
        if not words:
            return []
        name = words[0].literal()
        if self.script and name in TEST_FUNCS and len(words) >= 3:
            self.bodies.append((words[-1], words[1].body_text()))
        if self.script and name == "." and len(words) == 2:
            m = re.match(r'^"?\$\{?SRC\}?/([^"$]*)"?$', words[1].raw)
            if m:
                self.sourced.append(m.group(1))
        # the programs it runs: the first word that is not an assignment,
        # and the program under test after a wrapper (env, at, timeout)
        progs = [w.raw for w in words if not re.match(r"^[A-Za-z_][A-Za-z_0-9]*=", w.raw)]
        for p in progs[:1]:
            self.lx.commands.add(p)
        # a function named as an argument runs too ("test_wait 10 warm",
        # "test_exit 1 fresh"): any plain word that is a function's name
        # is linted as one (lint_script keeps only the functions' names)
        for w in progs[1:]:
            if re.match(r"^[A-Za-z_][A-Za-z_0-9]*$", w):
                self.lx.commands.add(w)
        return progs[:1] + [p for p in progs[1:] if PROGRAMS.match(p)]

    def expect_op(self, op):
        t = self.take()
        if t[:2] != ("op", op):
            self.lx.error("expected %r, found %r" % (op, t[1] if t[0] != "word" else t[1].raw))

    def expect_word(self, w):
        self.skip_newlines()
        t = self.take()
        if t[0] != "word" or t[1].raw != w:
            self.lx.error("expected %r, found %r" % (w, t[1] if t[0] != "word" else t[1].raw))


def parse(lx, what):
    """read all of lx: returns the parser, problems in lx.problems"""
    p = Parser(lx)
    try:
        p.parse_list(what)
        t = lx.next()
        if t[0] != "eof":
            lx.error("unexpected %r" % (t[1] if t[0] != "word" else t[1].raw))
    except Problem as e:
        n, msg = str(e).split(": ", 1)
        lx.problems.append((int(n), msg))
    return p


def lint_body(text, line=1):
    """(problems [(line, message)], names of the commands it runs)"""
    lx = Lexer(text, line)
    parse(lx, "the test body")
    return lx.problems, lx.commands


def lint_script(path):
    """problems in the test bodies of a script, and in the functions of
    the script (or of a file it sources from $SRC) that they run:
    [(path, line, message)]"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = []
    functions = {}      # name -> (path, text, line)
    files = [path]
    bodies = []
    while files:
        f = files.pop(0)
        text = open(f, encoding="utf-8", errors="replace").read()
        lx = Lexer(text, script=True)
        p = parse(lx, "the script")
        out.extend((f, n, "cannot read the script: " + msg) for n, msg in lx.problems)
        for name, (ftext, fline) in lx.functions.items():
            functions.setdefault(name, (f, ftext, fline))
        bodies.extend((f, word, title) for word, title in p.bodies)
        files.extend(os.path.join(root, s) for s in p.sourced
                     if os.path.basename(s) != "lib.sh")
    todo = []
    for f, word, title in bodies:
        problems, commands = lint_body(word.body_text(), word.line)
        out.extend((f, n, "%s (test '%s')" % (msg, title)) for n, msg in problems)
        todo.extend(commands)
    done = set()
    while todo:
        name = todo.pop()
        if name in done or name not in functions:
            continue
        done.add(name)
        f, ftext, fline = functions[name]
        problems, commands = lint_body(ftext, fline)
        out.extend((f, n, "%s (function %s, which a test runs)" % (msg, name))
                   for n, msg in problems)
        todo.extend(commands)
    return sorted(set(out))


def main(argv):
    bad = 0
    if argv[1:2] == ["--body"]:
        problems, _ = lint_body(sys.stdin.read())
        for n, msg in problems:
            print("body line %d: %s" % (n, msg))
            bad += 1
        return 1 if bad else 0
    for path in argv[1:]:
        for f, n, msg in lint_script(path):
            lines = open(f, encoding="utf-8", errors="replace").read().split("\n")
            print("%s:%d: %s" % (f, n, msg))
            if 0 < n <= len(lines):
                print("\t%s" % lines[n - 1].strip())
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
