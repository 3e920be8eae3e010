"""Differential test of shell front ends against real bash (not a test; not run in CI).

Issue 15 asks whether tree-sitter-bash could replace our tokenizer and parser (shell.scan,
shell.syntax). This compares three readers of each script:

- bash itself: `bash -n` for accept/reject, and bash's own printer for what it parsed. Sourcing
  a script to `declare -f` its functions would run it, so the script is wrapped whole in one
  function, `__wrap() { ...; }`, which bash defines without running anything, and
  `declare -f __wrap` prints every nested definition exactly as `declare -f NAME` would (one
  printer). Only scripts `bash -n` accepts are wrapped (a valid script cannot close the
  wrapper's brace early), in a restricted shell (`bash -r`: no output redirection, PATH fixed)
  with an empty environment, a scratch directory and a time limit.
- tree-sitter-bash: an ERROR or MISSING node rejects.
- ours (signoff.parse.shell.syntax): any problem rejects.

Compared per script: (a) accept/reject of each against `bash -n`; (b) for scripts bash accepts,
the functions defined (names in order) and, per function, the sequence of command names in its
body, bash's printed body against tree-sitter's tree and ours; (c) ours against tree-sitter:
accept/reject and the whole script's command names. Command names are the first word of each
simple command after assignments and redirections, `[`/`[[` included, arithmetic `(( ))`
excluded, commands inside `$( )`, backquotes and `<( )` excluded (bash prints those inside a
word), nested function bodies counted in their enclosing function too.

Corpora: our script corpus (tests/data/script_eval_corpus.yaml and tests/data/scripts/*.sh),
every benchmarks/**/*.sh and runners/*.sh of the InferenceX mirror at several commits (one copy
per distinct blob), and texts drawn from the shell fuzzer's pieces with a fixed seed.

    python tests/bench/diff_shell_front_end.py [--mirror GITDIR] [--commits 6] [--fuzz 2000]
        [--seed 15] [--examples 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter
import tree_sitter_bash
import yaml

from signoff.parse.shell import syntax as ours_ast

ROOT = Path(__file__).resolve().parents[2]
MIRROR = Path("/work/.mirror/SemiAnalysisAI+InferenceX/repo")
BASH = "/bin/bash"
TIMEOUT = 10  # seconds for one bash run
_SCRIPT_PATH = re.compile(r"^(benchmarks/.*|runners/[^/]*)\.sh$")

# --- readings -----------------------------------------------------------------------------------


@dataclass
class Reading:
    """What one front end made of one script."""

    accepted: bool
    error_line: int = 0  # first rejected line (1-based), 0 when unknown or accepted
    names: list[str] = field(default_factory=list)  # command names of the whole script
    functions: list[tuple[str, int, list[str]]] = field(default_factory=list)  # (name, line, names)


def _norm(word: str) -> str:
    return " ".join(word.replace("\\\n", "").split())


# --- bash: `bash -n` and the printer ------------------------------------------------------------


_NEAR = re.compile(
    rb"near unexpected token `(.*?)'|(unexpected end of file)|(delimited by end-of-file)"
)


def bash_accepts(text: str, scratch: str) -> tuple[bool, int, str]:
    """`bash -n` over the text on standard input: (accepted, line bash names or 0, what it said:
    the unexpected token, an unexpected end of file, or a heredoc closed by the end of file)."""
    run = subprocess.run(
        [BASH, "--norc", "--noprofile", "-n"],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
        timeout=TIMEOUT,
        cwd=scratch,
        env={"PATH": "/nonexistent", "LC_ALL": "C"},
        check=False,
    )
    found = re.search(rb"line (\d+):", run.stderr)
    said = _NEAR.search(run.stderr)
    note = ""
    if said is not None:
        note = f"near `{said.group(1).decode(errors='replace')}'" if said.group(1) else ""
        note = note or ("end of file" if said.group(2) else "heredoc ends at end of file")
    return run.returncode == 0, int(found.group(1)) if found else 0, note


def bash_printed(text: str, scratch: str) -> str | None:
    """The whole script as bash prints it, wrapped in one function that is never run."""
    if "\0" in text:
        return None
    wrapped = f"__wrap() {{\n{text}\n}}\ndeclare -f __wrap"
    run = subprocess.run(
        [BASH, "--norc", "--noprofile", "--restricted", "-c", wrapped],
        capture_output=True,
        timeout=TIMEOUT,
        cwd=scratch,
        env={"PATH": "/nonexistent", "LC_ALL": "C"},
        check=False,
        stdin=subprocess.DEVNULL,
    )
    out = run.stdout.decode("utf-8", "surrogateescape")
    if run.returncode != 0 or not out.startswith("__wrap () \n{"):
        return None
    return out


_OPERATORS = (";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "(", ")", "\n")
_REDIRECT = re.compile(r"\d*(?:&>>|&>|<<<|<<-|<<|>>|>\||<>|>&|<&|>|<)")
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
# `time` is left a command name: both other readers take it as one, and so it names the pipeline
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "{", "}", "!"}
)


class _PrintedLexer:
    """Tokens of bash's printed text: words (quotes and substitutions kept whole), operators,
    redirection operators; heredoc bodies skipped. Good enough for bash's own printer only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.heredocs: list[tuple[str, bool]] = []

    def tokens(self) -> Iterator[tuple[str, str]]:  # (kind, text): kind word | op | redir
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c in " \t":
                self.i += 1
            elif c == "\n":
                self.i += 1
                self._skip_heredocs()
                yield "op", "\n"
            elif text.startswith("((", self.i):  # arithmetic: one word
                self.i = self._balanced(self.i + 1, "(", ")")
                yield "word", "(("
            elif (m := _REDIRECT.match(text, self.i)) and not text.startswith(("<(", ">("), self.i):
                self.i = m.end()
                op = m.group()
                if op.lstrip("0123456789") in ("<<", "<<-"):
                    while self.i < n and text[self.i] in " \t":
                        self.i += 1
                    delim = self._word()
                    self.heredocs.append((re.sub(r"[\"'\\]", "", delim), op.endswith("-")))
                    continue
                yield "redir", op
            elif any(text.startswith(op, self.i) for op in _OPERATORS):
                op = next(op for op in _OPERATORS if text.startswith(op, self.i))
                self.i += len(op)
                yield "op", op
            else:
                yield "word", self._word()

    def _skip_heredocs(self) -> None:
        for delim, strip in self.heredocs:
            while self.i < len(self.text):
                end = self.text.find("\n", self.i)
                end = len(self.text) if end < 0 else end
                line = self.text[self.i : end]
                self.i = end + 1
                if (line.lstrip("\t") if strip else line) == delim:
                    break
        self.heredocs = []

    def _word(self) -> str:
        text, n, start = self.text, len(self.text), self.i
        while self.i < n:
            c = text[self.i]
            if c in " \t\n;&|()<>" and not (c in "<>" and text.startswith("(", self.i + 1)):
                if c == "(" and self.i > start and text[self.i - 1] in "=@?*+!":
                    self.i = self._balanced(self.i + 1, "(", ")")  # A=( ), extglob
                    continue
                break
            if c == "\\":
                self.i += 2
            elif c == "'":
                self.i = text.find("'", self.i + 1) + 1 or n
            elif c == '"':
                self.i = self._double(self.i + 1)
            elif c == "`":
                self.i = self._until_backquote(self.i + 1)
            elif c in "$<>" and text.startswith("(", self.i + 1):
                self.i = self._balanced(self.i + 2, "(", ")")
            elif c == "$" and text.startswith("{", self.i + 1):
                self.i = self._balanced(self.i + 2, "{", "}")
            else:
                self.i += 1
        return text[start : self.i]

    def _double(self, i: int) -> int:
        text, n = self.text, len(self.text)
        while i < n and text[i] != '"':
            if text[i] == "\\":
                i += 2
            elif text[i] == "$" and text.startswith(("$(", "${"), i):
                i = self._balanced(i + 2, text[i + 1], ")" if text[i + 1] == "(" else "}")
            elif text[i] == "`":
                i = self._until_backquote(i + 1)
            else:
                i += 1
        return i + 1

    def _until_backquote(self, i: int) -> int:
        while i < len(self.text) and self.text[i] != "`":
            i += 2 if self.text[i] == "\\" else 1
        return i + 1

    def _balanced(self, i: int, opener: str, closer: str) -> int:
        text, n, depth = self.text, len(self.text), 1
        while i < n and depth:
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == "'" and opener == "(":
                i = text.find("'", i + 1) + 1 or n
                continue
            if c == '"':
                i = self._double(i + 1)
                continue
            depth += (c == opener) - (c == closer)
            i += 1
        return i


def printed_reading(printed: str) -> Reading:
    """Command names and functions from bash's printed `__wrap` (its body is the script)."""
    body = printed.split("\n", 2)[2]  # past "__wrap () " and "{ "
    tokens = list(_PrintedLexer(body).tokens())
    reading = Reading(accepted=True)
    open_functions: list[tuple[int, int]] = []  # (index into reading.functions, brace depth)
    stack: list[str] = []  # open constructs: "{", "(", "case", "case-body"
    i, start = 0, True
    pending_function = -1

    def emit(name: str) -> None:
        reading.names.append(name)
        for index, _depth in open_functions:
            reading.functions[index][2].append(name)

    while i < len(tokens):
        kind, tok = tokens[i]
        i += 1
        if stack and stack[-1] == "case":  # patterns up to ")", or esac
            if tok == "esac" and kind == "word":
                stack.pop()
                start = False
            elif tok == ")" and kind == "op":
                stack[-1] = "case-body"
                start = True
            continue
        if kind == "op":
            if tok in (";;", ";&", ";;&") and stack and stack[-1] == "case-body":
                stack[-1] = "case"
            elif tok == "(" and start:
                stack.append("(")
            elif tok == ")" and stack and stack[-1] == "(":
                stack.pop()
                start = False
                continue
            start = tok not in (")",)
            continue
        if kind == "redir":
            i += 1  # its target
            continue
        if not start:
            continue
        if tok == "esac" and stack and stack[-1] == "case-body":
            stack.pop()
            start = False
            continue
        if tok in _RESERVED:
            if tok == "{":
                stack.append("{")
                if pending_function >= 0:
                    open_functions.append((pending_function, len(stack)))
                    pending_function = -1
            elif tok == "}":
                while open_functions and open_functions[-1][1] == len(stack):
                    open_functions.pop()
                if stack:
                    stack.pop()
                start = False
            continue
        if tok == "function":  # bash prints nested definitions as `function NAME () `
            name = tokens[i][1] if i < len(tokens) else ""
            reading.functions.append((name, 0, []))
            pending_function = len(reading.functions) - 1
            i += 3  # NAME ( )
            continue
        if tok in ("for", "select"):
            while i < len(tokens) and tokens[i] not in (("op", ";"), ("op", "\n")):
                i += 1
            continue
        if tok == "case":
            i += 2  # subject, in
            stack.append("case")
            continue
        if tok.startswith("(("):
            start = False
            continue
        if _ASSIGN.match(tok):
            continue
        emit(_norm(tok))
        start = False
        if tok == "[[":
            while i < len(tokens) and tokens[i][1] != "]]":
                i += 1
            i += 1
    return reading


# --- tree-sitter-bash ---------------------------------------------------------------------------

_TS_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
_TS_NAMED = {"declaration_command", "unset_command", "test_command"}
_TS_OPAQUE = {
    "command_substitution",
    "process_substitution",
    "heredoc_body",
    "arithmetic_expansion",
}


def _ts_error_line(node: tree_sitter.Node) -> int:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            return current.start_point[0] + 1
        if current.has_error:
            stack.extend(reversed(current.children))
    return 0


def ts_reading(text: str) -> Reading:
    data = text.encode("utf-8", "surrogateescape")
    root = _TS_PARSER.parse(data).root_node
    reading = Reading(accepted=not root.has_error, error_line=_ts_error_line(root))

    def node_text(node: tree_sitter.Node) -> str:
        return data[node.start_byte : node.end_byte].decode("utf-8", "surrogateescape")

    # iterative walk; each entry: (node, indexes of enclosing functions)
    stack: list[tuple[tree_sitter.Node, tuple[int, ...]]] = [(root, ())]
    while stack:
        node, inside = stack.pop()
        if node.type in _TS_OPAQUE:
            continue
        name = ""
        if node.type == "command":
            name_node = node.child_by_field_name("name")
            name = node_text(name_node) if name_node is not None else ""
        elif node.type in _TS_NAMED and node.children:
            name = node_text(node.children[0])
        if name:
            reading.names.append(_norm(name))
            for index in inside:
                reading.functions[index][2].append(_norm(name))
        if node.type == "function_definition":
            name_node = node.child_by_field_name("name")
            fname = node_text(name_node) if name_node is not None else ""
            reading.functions.append((fname, node.start_point[0] + 1, []))
            inside = (*inside, len(reading.functions) - 1)
        stack.extend((child, inside) for child in reversed(node.children))
    return reading


# --- ours ---------------------------------------------------------------------------------------


def ours_reading(text: str) -> Reading:
    parsed = ours_ast.parse(text)
    reading = Reading(
        accepted=not parsed.problems,
        error_line=min((line for line, _ in parsed.problems), default=0),
    )
    stack: list[tuple[Any, tuple[int, ...]]] = [(parsed.script, ())]
    while stack:
        node, inside = stack.pop()
        children: list[Any] = []
        if isinstance(node, ours_ast.Seq):
            children = list(node.items)
        elif isinstance(node, ours_ast.AndOr):
            children = [node.first, *(pipe for _, pipe in node.rest)]
        elif isinstance(node, ours_ast.Pipeline):
            children = list(node.commands)
        elif isinstance(node, ours_ast.Simple):
            if node.words and not node.words[0].raw.startswith("(("):
                name = _norm(node.words[0].raw)
                reading.names.append(name)
                for index in inside:
                    reading.functions[index][2].append(name)
        elif isinstance(node, ours_ast.If):
            children = [part for arm in node.arms for part in arm]
            children += [node.orelse] if node.orelse is not None else []
        elif isinstance(node, ours_ast.Case):
            children = [arm.body for arm in node.arms]
        elif isinstance(node, ours_ast.Loop):
            children = [node.cond, node.body] if node.cond is not None else [node.body]
        elif isinstance(node, ours_ast.Group):
            children = [node.body]
        elif isinstance(node, ours_ast.Func):
            reading.functions.append((node.name, node.line, []))
            inside = (*inside, len(reading.functions) - 1)
            children = [node.body]
        stack.extend((child, inside) for child in reversed(children))
    return reading


# --- corpora ------------------------------------------------------------------------------------


def script_corpus() -> Iterator[tuple[str, str]]:
    cases = yaml.safe_load((ROOT / "tests" / "data" / "script_eval_corpus.yaml").read_text())
    for number, case in enumerate(cases):
        if isinstance(case, dict) and isinstance(case.get("script"), str):
            yield f"corpus#{number}", case["script"]
    for path in sorted((ROOT / "tests" / "data" / "scripts").glob("*.sh")):
        yield f"tests/data/scripts/{path.name}", path.read_text(encoding="utf-8")


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={mirror}", *args], capture_output=True, text=True, check=True
    ).stdout


def mirror_corpus(mirror: Path, commits: int) -> Iterator[tuple[str, str]]:
    """Every benchmark and runner script at `commits` commits spread over first-parent history."""
    history = _git(mirror, "rev-list", "--first-parent", "HEAD").split()
    step = max(1, len(history) // max(1, commits))
    seen: set[str] = set()
    for commit in history[::step][:commits]:
        for row in _git(mirror, "ls-tree", "-r", commit).splitlines():
            meta, path = row.split("\t", 1)
            blob = meta.split()[2]
            if meta.split()[1] != "blob" or not _SCRIPT_PATH.match(path) or blob in seen:
                continue
            seen.add(blob)
            text = _git(mirror, "cat-file", "blob", blob)
            yield f"{path}@{commit[:9]}", text


def fuzz_corpus(count: int, seed: int) -> Iterator[tuple[str, str]]:
    """The shell fuzzer's two shapes: joined pieces, and short arbitrary text (fixed seed)."""
    sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
    from fuzz_parsers import SHELL

    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(32, 127)] + ["\n", "\t", "\u00e9"]
    for number in range(count):
        if number % 4 == 0:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        else:
            text = "".join(rng.choice(SHELL) for _ in range(rng.randrange(1, 40)))
        yield f"fuzz#{number}", text


# --- comparison ---------------------------------------------------------------------------------


@dataclass
class Tally:
    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: collections.defaultdict(list))
    keep: int = 3

    def add(self, kind: str, example: str) -> None:
        self.counts[kind] += 1
        if len(self.examples[kind]) < self.keep:
            self.examples[kind].append(example)


def _first_difference(a: list[str], b: list[str]) -> str:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"#{index}: {x!r} vs {y!r}"
    return f"lengths {len(a)} vs {len(b)}"


def compare(label: str, text: str, scratch: str, tally: Tally) -> None:
    ts, ours = ts_reading(text), ours_reading(text)
    accepted, bash_line, said = bash_accepts(text, scratch)
    tally.add("scripts", label)
    tally.add("bash accepts" if accepted else "bash rejects", label)
    for who, reading in (("tree-sitter", ts), ("ours", ours)):
        if reading.accepted != accepted:
            verdict = "accepts" if reading.accepted else "rejects"
            where = reading.error_line or bash_line
            why = f" ({said})" if said else ""
            tally.add(f"(a) {who} {verdict}, bash does not{why}", f"{label}:{where}")
    if ts.accepted != ours.accepted:
        tally.add(
            "(c) ours and tree-sitter differ on accept/reject",
            f"{label}:{ts.error_line or ours.error_line}",
        )
    elif ts.accepted and ts.names != ours.names:
        tally.add(
            "(c) ours and tree-sitter differ on command names",
            f"{label}: {_first_difference(ours.names, ts.names)}",
        )
    if not accepted:
        return
    printed = bash_printed(text, scratch)
    if printed is None:
        tally.add("bash accepts, its printer gave nothing (empty or unclosable text)", label)
        return
    truth = printed_reading(printed)
    tally.counts["function definitions (bash)"] += len(truth.functions)
    for who, reading in (("tree-sitter", ts), ("ours", ours)):
        if not reading.accepted:
            continue
        if reading.names != truth.names:
            tally.add(
                f"(b) {who}: script command names differ from bash's",
                f"{label}: {_first_difference(reading.names, truth.names)}",
            )
        if [f[0] for f in reading.functions] != [f[0] for f in truth.functions]:
            tally.add(
                f"(b) {who}: function names differ from bash's",
                f"{label}: {[f[0] for f in reading.functions]} vs {[f[0] for f in truth.functions]}",
            )
            continue
        for (name, line, names), (_, _, bash_names) in zip(
            reading.functions, truth.functions, strict=True
        ):
            if names != bash_names:
                tally.add(
                    f"(b) {who}: a function body's command names differ from bash's",
                    f"{label}:{line} {name}: {_first_difference(names, bash_names)}",
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=MIRROR)
    parser.add_argument("--commits", type=int, default=6)
    parser.add_argument("--fuzz", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    corpora = {"script corpus": script_corpus(), "fuzz": fuzz_corpus(args.fuzz, args.seed)}
    if args.mirror.is_dir():
        corpora["InferenceX"] = mirror_corpus(args.mirror, args.commits)
    else:
        print(f"no InferenceX mirror at {args.mirror}: its scripts are not compared\n")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        os.chmod(scratch, 0o700)
        for name, corpus in corpora.items():
            tally = Tally(keep=args.examples)
            for label, text in corpus:
                compare(label, text, scratch, tally)
            results[name] = {"counts": dict(tally.counts), "examples": dict(tally.examples)}
            print(f"## {name}")
            for kind, count in sorted(tally.counts.items()):
                print(f"{count:6d}  {kind}")
                if kind.startswith("("):
                    for example in tally.examples[kind]:
                        print(f"          {example}")
            print(flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
