"""Programs a benchmark script fetches from the network and then runs.

`curl -LsSf URL | sh`, `curl URL | python3 -`, `bash <(curl URL)`, `curl -o /tmp/x.py URL` then
`python3 /tmp/x.py` (or after `mv /tmp/x.py /tmp/y.py`), `git clone URL dir` then
`bash dir/x.sh`, `python3 -c "exec(urlopen(URL).read())"`: what runs is whatever the URL
serves when the sweep runs. The PR's author chose the URL and may serve anything there, and
signoff never fetches it, so such a run counts against a PASS (judge/script_files.py) unless
every URL it comes from is one the profile's `fetched_code.trusted` lists with the maintainer
decision it rests on. A fetch whose URL is known only at run time is never trusted. What the PR
did not change is baseline: a run through a run-time word the base made the same way is settled
before this is asked (judge/baseline.py), and a program saved under a known name counts only when
the PR changes the script or a file it sources.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from signoff.judge.baseline import stdin_feed
from signoff.judge.context import JudgeContext
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.benchmark.python_fetch import downloads_to, fetches_and_runs
from signoff.parse.benchmark.script import ParsedScript
from signoff.parse.shell.fields import Field
from signoff.parse.shell.records import ScriptFileRun
from signoff.parse.shell.scan import URL
from signoff.parse.shell.script_files import (
    INTERPRETERS,
    PYTHON,
    STDIN,
    basename,
    command_start,
    command_string_at,
    shell_string_behind_wrappers,
    shell_string_of,
)

_HUB_CLIS = frozenset({"hf", "huggingface-cli"})
# Options naming where curl or wget saves (`-o F`, `-sLoF`, `--output=F`, `-O F`, `-P DIR`).
_SAVE_OPTION = re.compile(r"^(?:--output(?:-document)?=|--directory-prefix=|-[a-zA-Z]*[oOP])")
# git clone's options whose value is the next word (`--branch main`, `--depth 1`).
_CLONE_VALUE_OPTIONS = frozenset(
    {"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference", "-j",
     "--jobs", "-u", "--upload-pack", "--separate-git-dir", "--template", "--shallow-since",
     "--shallow-exclude", "--reference-if-able", "--server-option", "--bundle-uri"}
)  # fmt: skip
# Saving options of a plain fetch, bundled only with plain flags (`-sLo F`, `-qO-`, `--output F`).
_PLAIN_SAVE = re.compile(r"-[LsSfq]*[oOP]|--output(?:-document)?|--directory-prefix")
_PLAIN_SAVE_JOINED = re.compile(r"(?:-[LsSfq]*[oOP]|--output(?:-document)?=|--directory-prefix=).+")
# Commands that put a file (or a directory) under another name, and their options that take a
# value; `-t DIR`/`--target-directory` moves into DIR under the same names.
_MOVERS = frozenset({"mv", "cp", "ln", "install"})
_MOVE_VALUE_OPTIONS = frozenset(
    {"-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix"}
)
_MOVE_TARGET = frozenset({"-t", "--target-directory"})
MAX_MOVE_STEPS = 10_000  # names followed through moves, per reading
# Unpacking an archive: tar's `-C DIR`/`--directory=DIR` and archive `-f F`; unzip's `-d DIR`.
_UNPACKERS = frozenset({"tar", "unzip", "bsdtar"})
_TAR_VALUE_OPTIONS = frozenset({"-C", "--directory", "-f", "--file", "-T", "--files-from", "-X",
                                "--exclude-from", "-b", "--blocking-factor", "-I",
                                "--use-compress-program"})  # fmt: skip
# git commands that put a checkout on other code than its clone fetched.
_CHECKOUT_MOVERS = frozenset(
    {"fetch", "pull", "checkout", "switch", "reset", "restore", "apply", "am", "merge", "rebase",
     "cherry-pick", "remote", "submodule", "worktree", "stash"}
)  # fmt: skip
_C_OPTION = re.compile(r"-[A-Za-z]*c")  # `-c`, or short flags bundled before it (`-uc`)
_REDIRECT = re.compile(r"""(?<![0-9&<])>>?\s*["']?([^\s;|&"'<>]+)""")


class Fetch(NamedTuple):
    """Where a program came from: the URLs of its fetch (() when known only at run time), and
    whether the fetch was plain (nothing on its command line changes where it goes or what it
    accepts: `--resolve`, `-k`, `-K cfg`, an assignment before it)."""

    urls: tuple[str, ...]
    plain: bool


# The directory an archive unpacked with none named fills: the current one, wherever it is.
HERE = "(the current directory)"


class Saved(NamedTuple):
    """A fetch of the reading that saves files: their base names, or the clone's directory."""

    fetch: Fetch
    names: frozenset[str]  # files it saves (curl/wget)
    clone: str | None  # the directory a clone or Hub download fills (None: curl or wget)


def saved_by_fetches(ctx: JudgeContext, run: ScriptRun) -> tuple[Saved, ...]:
    """What the reading's fetches save, when the PR changes the script or a file it sources
    (otherwise a program saved by name and run is baseline); read once per reading."""
    if not changed_reading(ctx, run):
        return ()
    fetch = _fetch_pattern(ctx.policy.fetched_code.fetchers)
    found: list[Saved] = []
    for _, _, body in _python_programs(run):  # Python that downloads files (urlretrieve, ...)
        written = downloads_to(body)
        if written is not None:
            found.append(Saved(Fetch(written[0], False), written[1], None))
    for command in run.commands:
        words = command.argv[command_start(command.argv) :]
        if not words or not fetch.match(" ".join(words)):
            continue
        urls = tuple(url for word in words for url in URL.findall(word))
        plain = _plain(ctx, command.argv)
        if basename(words[0]) in ("git", "gh"):
            urls = urls or _github_repository(words)
            found.append(Saved(Fetch(urls, plain), frozenset(), _clone_directory(words)))
            continue
        if basename(words[0]) in _HUB_CLIS:  # a repository of the Hugging Face Hub
            hub = _hub_download(words)
            if hub is not None:
                repository, directory = hub
                found.append(Saved(Fetch((repository,), plain), frozenset(), directory))
            continue
        names = {basename(_SAVE_OPTION.sub("", word)) for word in words[1:]}
        names |= {basename(url.split("?", 1)[0].rstrip("/")) for url in urls}
        names |= _redirect_targets(ctx, run.path, command.line)
        found.append(Saved(Fetch(urls, plain), frozenset(names - {""}), None))
    found += _unpacked(ctx, run, found)
    return _followed(found, _moves(ctx, run)) if found else ()


def _unpacked(ctx: JudgeContext, run: ScriptRun, found: list[Saved]) -> list[Saved]:
    """Directories filled by unpacking a fetched archive (`tar -xf t.tgz -C DIR`, `curl URL |
    tar -x -C DIR`, `unzip t.zip -d DIR`): like a clone's, each holds what the URL served. One
    unpacked into the current directory (wherever a `cd` left it) may have put any relative
    path there: it is `HERE`, which every relative program word lies in."""
    filled: list[Saved] = []
    fetch = _fetch_pattern(ctx.policy.fetched_code.fetchers)
    for command in run.commands:
        words = command.argv[command_start(command.argv) :]
        if not words or basename(words[0]) not in _UNPACKERS:
            continue
        archive, directory = _unpacking(words)
        name = basename(directory.rstrip("/")) if directory else HERE
        if archive is None:  # standard input: what the pipeline feeding it fetched
            parsed = ctx.parsed_script(run.path)
            feed = (
                stdin_feed(parsed, command.line)
                if parsed is not None and parsed.tree is not None
                else None
            )
            if feed is not None and fetch.search(feed):
                urls = tuple(URL.findall(feed))
                filled.append(Saved(Fetch(urls, _plain_segments(ctx, feed)), frozenset(), name))
            continue
        filled += [
            Saved(one.fetch, frozenset(), name)
            for one in found
            if one.clone is None and basename(archive) in one.names
        ]
    return filled


def _unpacking(words: tuple[str, ...]) -> tuple[str | None, str]:
    """(the archive an unpacking reads, None for standard input; the directory it unpacks
    into, "" when not named). tar's first word may bundle its mode and `f` (`xzf t.tgz`)."""
    if basename(words[0]) == "unzip":
        operands, directory, i = [], "", 1
        while i < len(words):
            if words[i] == "-d" and i + 1 < len(words):
                directory, i = words[i + 1], i + 2
                continue
            if not words[i].startswith("-"):
                operands.append(words[i])
            i += 1
        return (operands[0] if operands else ""), directory
    archive: str | None = None
    directory, i = "", 1
    while i < len(words):
        word = words[i]
        if word.startswith("--directory="):
            directory = word.split("=", 1)[1]
        elif word.startswith("--file="):
            archive = word.split("=", 1)[1]
        elif word in ("-C", "--directory") and i + 1 < len(words):
            directory, i = words[i + 1], i + 1
        elif word in ("-f", "--file") and i + 1 < len(words):
            archive, i = words[i + 1], i + 1
        elif word in _TAR_VALUE_OPTIONS:
            i += 1
        elif _bundles_file(word, i) and i + 1 < len(words):  # `-xzf t.tgz`, or a first `xzf`
            archive, i = words[i + 1], i + 1
        i += 1
    return (None if archive in (None, "-") else archive), directory


def _bundles_file(word: str, at: int) -> bool:
    """tar's short options bundled with `f` (`-xzf`), or its first word in the old style (`xzf`)."""
    return (
        not word.startswith("--") and "f" in word.lstrip("-") and (word.startswith("-") or at == 1)
    )


def _moves(ctx: JudgeContext, run: ScriptRun) -> list[tuple[frozenset[str], str]]:
    """The reading's `mv`, `cp`, `ln` and `install` to a new name, and `cat` into a redirect:
    (the base names they read, the base name they write). One into a directory (`-t DIR`)
    keeps every name."""
    moves: list[tuple[frozenset[str], str]] = []
    for command in run.commands:
        words = command.argv[command_start(command.argv) :]
        if words and basename(words[0]) == "cat":
            read = frozenset(basename(w) for w in words[1:] if not w.startswith("-"))
            targets = _redirect_targets(ctx, run.path, command.line) if read else set()
            moves += [(read, target) for target in sorted(targets)]
            continue
        if not words or basename(words[0]) not in _MOVERS:
            continue
        operands = _operands(words[1:])
        if operands is not None and len(operands) > 1:
            sources = frozenset(basename(word.rstrip("/")) for word in operands[:-1])
            moves.append((sources, basename(operands[-1].rstrip("/"))))
    return moves


def _operands(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """A move's operands without its options (None: it names its target directory)."""
    operands: list[str] = []
    i, options = 0, True
    while i < len(words):
        word = words[i]
        if options and word == "--":
            options = False
        elif options and (word in _MOVE_TARGET or word.startswith(("--target-directory=", "-t"))):
            return None
        elif options and word.startswith("-") and word != "-":
            i += 1 if word in _MOVE_VALUE_OPTIONS else 0
        else:
            operands.append(word)
        i += 1
    return tuple(operands)


def _followed(found: list[Saved], moves: list[tuple[frozenset[str], str]]) -> tuple[Saved, ...]:
    """What the fetches saved under every name the moves give it, however many moves in a row
    (a program renamed or copied before it runs is still the fetched one; so is a clone
    moved). Past `MAX_MOVE_STEPS` names followed, every name a move writes counts as fetched
    from where the first fetch was."""
    onward: dict[str, set[str]] = {}
    for sources, name in moves:
        for source in sources:
            onward.setdefault(source, set()).add(name)
    saved: list[Saved] = []
    budget = MAX_MOVE_STEPS
    for one in found:
        start = one.names if one.clone is None else frozenset({one.clone})
        reached, todo = set(start), list(start)
        while todo and budget > 0:
            budget -= 1
            for name in sorted(onward.get(todo.pop(), ())):
                if name not in reached:
                    reached.add(name)
                    todo.append(name)
        if budget <= 0:  # a reading of that many moves is read as moving anything anywhere
            every = frozenset(name for _, name in moves)
            return (*found, Saved(found[0].fetch, every, None))
        if one.clone is None:
            saved.append(one._replace(names=frozenset(reached)))
        else:
            saved += [
                one,
                *(Saved(one.fetch, frozenset(), name) for name in sorted(reached - start)),
            ]
    return tuple(saved)


class PythonFetch(NamedTuple):
    """An inline Python program of the reading that downloads code and runs it."""

    line: int
    command: str
    fetch: Fetch


def python_fetches(ctx: JudgeContext, run: ScriptRun) -> PythonFetch | None:
    """The first inline Python program (`python3 -c TEXT`, a heredoc fed to `python3`) of the
    reading that may download code and run it (parse/benchmark/python_fetch), when the PR
    changes the script or a file it sources; its URLs are its literals (a fetch is never plain
    when Python makes it: nothing here tells what else the program does with it)."""
    if not changed_reading(ctx, run):
        return None
    for line, shown, body in _python_programs(run):
        urls = fetches_and_runs(body)
        if urls is not None:
            return PythonFetch(line, shown, Fetch(urls, False))
    return None


def _python_programs(run: ScriptRun) -> list[tuple[int, str, str]]:
    """The reading's inline Python programs: (line, the command as shown, the program text)."""
    programs: list[tuple[int, str, str]] = []
    python_lines: dict[int, str] = {}
    for command in run.commands:
        words = command.argv[command_start(command.argv) :]
        if not words or not PYTHON.fullmatch(basename(words[0])):
            continue
        code_at = next((i for i, w in enumerate(words[1:], 1) if _C_OPTION.fullmatch(w)), None)
        if code_at is not None and code_at + 1 < len(words):
            programs.append((command.line, " ".join(words)[:200], words[code_at + 1]))
        elif code_at is None:
            python_lines.setdefault(command.line, " ".join(words)[:200])
    for doc in run.heredocs:
        if doc.line in python_lines:
            programs.append((doc.line, python_lines[doc.line], doc.body))
    return sorted(programs)


def changed_reading(ctx: JudgeContext, run: ScriptRun) -> bool:
    """The PR changes the script read or a file it sources."""
    changed = ctx.changed_readable
    return run.path in changed or any(path in changed for _, path in run.sourced)


def fetched_from(
    ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun, saved: tuple[Saved, ...]
) -> Fetch | None:
    """Where the program `call` runs was fetched from; None when it was not fetched.
    `saved`: `saved_by_fetches` of the reading."""
    fetch = _fetch_pattern(ctx.policy.fetched_code.fetchers)
    if call.word == STDIN:
        feed = _feed(ctx, run, call)
        if feed is None or not fetch.search(feed):
            # a string the line runs (`timeout 60 bash -c 'curl URL | sh'`), whose pipeline is
            # not the line's own (`echo x | xargs sh -c 'curl URL | sh'`): read from the line
            line = _unquoted(_line_text(ctx, run, call))
            piped = feed is None or _PIPED_INTO_PROGRAM.search(line)
            found = fetch.search(line) if piped else None
            return Fetch(tuple(URL.findall(line)), False) if found else None
        return Fetch(tuple(URL.findall(feed)), _plain_segments(ctx, feed))
    if not call.name and any(mark in call.word for mark in ("<(", "$(", "`")):
        # `bash <(curl URL)`, `python3 -c "$(curl URL)"`: a substitution prints the program
        inner = call.word.split("(", 1)[1] if "(" in call.word else call.word.lstrip("`")
        if fetch.search(inner):
            return Fetch(tuple(URL.findall(call.word)), _plain_segments(ctx, inner.rstrip(")`")))
    if not call.name:
        # `T=$(mktemp); curl URL -o "$T"; bash "$T"`: saved (or moved) under a name known only
        # at run time, and run by a word that ends the same way
        tail = basename(call.word)
        return next((f.fetch for f in saved if run_time(tail) and tail in f.names), None)
    within = _within(call)
    # a plain command name is looked up on PATH, not in the current directory
    path_lookup = "/" not in call.word and call.command.split(" ", 1)[0] == call.word
    for fetched in saved:
        if fetched.clone == HERE and path_lookup:
            continue
        if call.name in fetched.names or any(_in(fetched.clone, w) for w in (call.word, *within)):
            return fetched.fetch
    return None


# A shell or Python reading its program from a pipe (`| sh`, `| sudo bash -s`, `| python3 -`).
_PIPED_INTO_PROGRAM = re.compile(
    r"\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:\S*/)?"
    r"(?:(?:ba|da|z)?sh|python[\d.]*)(?=\s|$|[;&|)\x22\x27])"
)
# A later command of handed code that runs a program file: an interpreter given an operand
# (`bash /tmp/s.sh`, `python3 x.py`, `. f`), or a program named by a path (`/tmp/t/go.sh`,
# `./x`), behind the wrappers a one-liner puts first (`sudo -E`, `env A=1`, `exec`).
_RUNS_A_PROGRAM = re.compile(
    r"(?:;|&&|\|\||\n|\(|\bthen\b|\bdo\b)\s*"
    r"(?:(?:sudo|env|exec|nohup|time|timeout\s+\S+)\s+(?:-\S+\s+|[A-Za-z_]\w*=\S*\s+)*)*"
    r"(?:(?:\S*/)?(?:(?:ba|da|z)?sh|python[\d.]*|perl|node|source|\.)\s+(?:-\S+\s+)*[^\s-]"
    r"|[^\s;&|()]*/[^\s;&|()]*)"
)
# A fetch's output handed straight to something that runs it (`bash -c "$(curl URL)"`,
# `eval "$(wget -qO- URL)"`, `bash <<< "$(curl URL)"`, `source <(curl URL)`): what runs it, then
# the substitution's opening, then the fetch (`_substitution_pattern`).
_RUNS_A_SUBSTITUTION = (
    r"(?:-c|\beval|<<<|\bsource|(?:^|\s)\.|\b(?:ba|da|z)?sh|\bpython[\d.]*)\s*(?:\$\(|<\(|`)\s*"
)


def piped_in_a_word(ctx: JudgeContext, run: ScriptRun) -> tuple[int, str, Fetch] | None:
    """A command handed code, as one of its words, that runs a fetched program: piped into a
    shell or Python (`xargs -I{} sh -c 'curl URL | sh'`, `ssh h '...'`, `python3 -c
    "os.system('curl URL | sh')"`), saved and then run by a later command of the same code
    (`find -exec sh -c 'curl URL -o /tmp/s.sh && bash /tmp/s.sh' \\;`), or printed into a
    runner (`parallel ::: 'bash -c "$(curl URL)"'`). Whatever runs that word runs the program,
    whether or not the reader follows how (line, command, fetch); never a plain fetch."""
    if not changed_reading(ctx, run):
        return None
    fetchers = ctx.policy.fetched_code.fetchers
    fetch = _fetch_pattern(fetchers)
    names = {fetcher.split()[0] for fetcher in fetchers if fetcher.split()}
    for command in run.commands:
        read: frozenset[int] | None = None
        for i, word in enumerate(command.argv[1:], start=1):
            if not any(mark in word for mark in ("|", ";", "&", "\n", "$(", "<(", "`")):
                continue  # nearly every word: one command, so nothing runs what it fetches
            if not any(name in word for name in names):
                continue  # no fetcher named in it at all
            read = _read_as_code(command.argv) if read is None else read
            if i in read:
                continue  # the reader read it as the code it is (`srun bash -c '...'`)
            code = _unquoted(word)
            if _runs_what_it_fetches(code, fetch):
                return command.line, " ".join(command.argv), Fetch(tuple(URL.findall(word)), False)
    return None


def _read_as_code(argv: tuple[str, ...]) -> frozenset[int]:
    """The words of a command the shell reader reads as code: a shell's `-c` string, alone or
    behind wrappers that run it on this host, or what a string runner hands to `sh -c`."""
    words = [Field(word, True, word, 0) for word in argv]
    start = shell_string_behind_wrappers(words)
    if start or (words and basename(argv[0]) in INTERPRETERS):
        at = command_string_at(words[start:])
        return frozenset({start + at}) if at else frozenset()
    string = shell_string_of(words)
    if string is None:
        return frozenset()
    if string.text in argv:  # `su u -c STR`, `flock F -c STR`
        return frozenset({argv.index(string.text)})
    return frozenset(i for i, word in enumerate(argv) if word and word in string.text)


def _runs_what_it_fetches(code: str, fetch: re.Pattern[str]) -> bool:
    """Code that fetches and then runs a program: piped in, run by a later command, or the
    fetch's output given to a runner. The later command is not matched to the saved file:
    handed code is not read, so anything it runs after fetching may be what it fetched."""
    found = fetch.search(code)
    if found is None:
        return False
    if _PIPED_INTO_PROGRAM.search(code) or _RUNS_A_PROGRAM.search(code, found.end()):
        return True
    return bool(_substitution_pattern(fetch.pattern).search(code))


# Variables naming where the dynamic linker looks for the native libraries a program loads.
_LIBRARY_PATHS = ("LD_LIBRARY_PATH",)


def library_from_fetch(
    ctx: JudgeContext, run: ScriptRun, saved: tuple[Saved, ...]
) -> tuple[int, str, Fetch] | None:
    """A server launched with the dynamic linker looking in a directory a fetch of the reading
    filled (`git clone URL /tmp/l; export LD_LIBRARY_PATH=/tmp/l/lib`; an archive unpacked
    there): the engine then loads native code the URL serves (line, the entry, fetch)."""
    for launch in run.launches:
        for name in _LIBRARY_PATHS:
            for entry in launch.env.get(name, "").split(":"):
                for fetched in saved:
                    if fetched.clone and entry and _in(fetched.clone, entry.rstrip("/") + "/"):
                        return launch.line, f"{name}={entry}", fetched.fetch
    return None


def run_time(name: str) -> bool:
    """A name known only at run time (`$DEST`, `$(mktemp)`, `"${CLIENT_IMAGE}"`)."""
    return "$" in name or "`" in name


def _within(call: ScriptFileRun) -> tuple[str, ...]:
    """The files a relative program word names in the directories the last `cd` may have
    gone to (a shell's or python's file operand, `./x.sh`)."""
    if call.word.startswith(("/", "$", "~")) or call.word == STDIN:
        return ()
    return tuple(f"{directory}/{call.word}" for directory in call.directories)


def trusted(ctx: JudgeContext, run: ScriptRun, fetch: Fetch) -> bool:
    """A plain fetch whose every URL the profile trusts, by a reading that sets nothing that
    reconfigures the fetchers (a fetch from a run-time URL never is trusted)."""
    policy = ctx.policy.fetched_code
    listed = {entry.url for entry in policy.trusted}
    if not fetch.plain or not fetch.urls or not all(url in listed for url in fetch.urls):
        return False
    if _cloned(run, fetch) and _moves_a_checkout(run):
        return False  # a clone trusted at its URL may be put on any commit the remote serves
    paths = (run.path, *(p for _, p in run.sourced))
    return not any(_reconfigures(ctx, path) for path in paths)


def _reconfigures(ctx: JudgeContext, path: str) -> bool:
    """The head text at `path` names a setting that reconfigures the fetchers (searched once
    per verdict: a library every script sources is asked about at each fetch of each)."""

    def search() -> bool:
        parsed = ctx.parsed_script(path)
        settings = re.compile(ctx.policy.fetched_code.reconfigures)
        return parsed is not None and settings.search(parsed.text) is not None

    return ctx.memoized(f"fetched_code.reconfigures:{path}", search)


def _cloned(run: ScriptRun, fetch: Fetch) -> bool:
    """The fetch is a `git clone` of the reading (not a download)."""
    return any(
        "git" in map(basename, c.argv) and "clone" in c.argv and set(fetch.urls) & set(c.argv)
        for c in run.commands
    )


def _moves_a_checkout(run: ScriptRun) -> bool:
    """The reading runs a git command that puts a checkout on other code (`fetch`, `checkout`,
    `reset`, `apply`, ...): what a trusted URL's clone then holds is not what it serves."""
    for command in run.commands:
        words = command.argv[command_start(command.argv) :]
        if words and basename(words[0]) == "git":
            rest = list(words[1:])
            while rest and rest[0].startswith("-"):  # git's own options (`-C DIR`, `-c k=v`)
                rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
            if rest and rest[0] in _CHECKOUT_MOVERS:
                return True
    return False


def _plain_segments(ctx: JudgeContext, text: str) -> bool:
    """Every fetching command of a pipeline's text is plain (`_plain`)."""
    fetch = _fetch_pattern(ctx.policy.fetched_code.fetchers)
    segments = re.split(r"\|\|?|&&|;|\n", text.replace("\\\n", " "))
    return all(_plain(ctx, tuple(s.split())) for s in segments if fetch.search(s))


def _plain(ctx: JudgeContext, words: tuple[str, ...]) -> bool:
    """The fetch's words are its fetcher's, URLs, the profile's plain options and the file it
    saves to: nothing before the fetcher (an assignment, a wrapper), nothing else after."""
    policy = ctx.policy.fetched_code
    spelled = next(
        (f.split() for f in policy.fetchers if words and basename(words[0]) == f.split()[0]),
        None,
    )
    if spelled is None or list(words[1 : len(spelled)]) != spelled[1:]:
        return False
    plain = re.compile(policy.plain_options)
    i = len(spelled)
    while i < len(words):
        word = words[i].strip("\"'")
        if _PLAIN_SAVE.fullmatch(word):
            i += 2  # the file it saves to comes next
        elif URL.fullmatch(word) or plain.fullmatch(word) or _PLAIN_SAVE_JOINED.fullmatch(word):
            i += 1
        else:
            return False
    return True


@lru_cache(maxsize=8)
def _substitution_pattern(fetch: str) -> re.Pattern[str]:
    """A runner given a substitution that starts with a fetch, in one pass over the code."""
    return re.compile(_RUNS_A_SUBSTITUTION + fetch.removeprefix(r"(?:^|[\s;&|(`])"))


@lru_cache(maxsize=8)
def _fetch_pattern(fetchers: tuple[str, ...]) -> re.Pattern[str]:
    """A fetcher at a command's start (`curl`, `git clone`, options between a tool's words)."""
    between = r"\s+(?:-\S+\s+(?:[^\s-]\S*\s+)?)*"  # options, each maybe with its value
    spelled = (between.join(map(re.escape, f.split())) for f in fetchers)
    return re.compile(r"(?:^|[\s;&|(`])(?:\S*/)?(?:" + "|".join(spelled) + r")(?=\s|$)")


def _feed(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> str | None:
    """The source text of the pipeline feeding the shell at `call`, in the file whose code ran
    it (a changed file the script sources, for a call made there)."""
    parsed, line = _source_of(ctx, run, call)
    if parsed is None or parsed.tree is None or line <= 0:
        return None
    return stdin_feed(parsed, line)


def _line_text(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> str:
    """The source line of `call` in the file whose code ran it ("" when unread)."""
    parsed, line = _source_of(ctx, run, call)
    lines = parsed.lines if parsed is not None else ()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _source_of(
    ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun
) -> tuple[ParsedScript | None, int]:
    """The parsed file whose code made `call`, and the call's line in it (0: unknown)."""
    path, line = run.path, call.line
    if call.origin:
        path, _, at = call.origin.rpartition(":")
        line = int(at) if at.isdigit() else 0
    return ctx.parsed_script(path), line


def _unquoted(text: str) -> str:
    """`text` with its quote marks as spaces: a command string's words start where they did."""
    return re.sub(r"[\x22\x27]", " ", text)


def _github_repository(words: tuple[str, ...]) -> tuple[str, ...]:
    """`gh repo clone OWNER/NAME`: the repository's URL on github.com (() when not named so)."""
    after = words[words.index("clone") + 1 :] if "clone" in words else ()
    name = next((word for word in after if not word.startswith("-")), "")
    return (f"https://github.com/{name}",) if re.fullmatch(r"[\w.-]+/[\w.-]+", name) else ()


def _clone_directory(words: tuple[str, ...]) -> str | None:
    """The directory `git clone` makes: its operand after the repository, else the
    repository's name (None: no repository is named)."""
    after = words.index("clone") + 1 if "clone" in words else len(words)
    positional: list[str] = []
    i = after
    while i < len(words):
        word = words[i]
        if word.startswith("-"):
            i += 2 if word in _CLONE_VALUE_OPTIONS else 1
            continue
        positional.append(word)
        i += 1
    if not positional:
        return None
    directory = positional[1] if len(positional) > 1 else positional[0].removesuffix(".git")
    return basename(directory.rstrip("/"))


def _hub_download(words: tuple[str, ...]) -> tuple[str, str] | None:
    """`hf download REPO ... --local-dir DIR`: (the repository's URL, DIR's name), its files
    being in DIR (without `--local-dir` they go to the Hub's cache, which no path names)."""
    positional: list[str] = []
    directory = None
    i = words.index("download") + 1 if "download" in words else len(words)
    while i < len(words):
        word = words[i]
        if word == "--local-dir" and i + 1 < len(words):
            directory, i = words[i + 1], i + 2
            continue
        if word.startswith("--local-dir="):
            directory = word.split("=", 1)[1]
        elif not word.startswith("-"):
            positional.append(word)
        i += 1
    if directory is None or not positional:
        return None
    return f"https://huggingface.co/{positional[0]}", basename(directory.rstrip("/"))


def _in(directory: str | None, program: str) -> bool:
    """`program` lies in a clone's directory (named by its last path component, as resolved:
    `$DEST` when known only at run time, matching a program under `$DEST/`); in `HERE`, when
    it is a relative path."""
    if directory == HERE:
        return bool(program) and not program.startswith(("/", "$", "~"))
    return bool(directory) and f"/{directory}/" in f"/{program}"


def _redirect_targets(ctx: JudgeContext, path: str, line: int) -> set[str]:
    """Base names of the files the command at `path:line` redirects its output into."""
    parsed = ctx.parsed_script(path)
    lines = parsed.lines if parsed is not None else ()
    text = ""
    for number in range(line - 1, len(lines)) if line > 0 else ():
        text += lines[number]
        if not lines[number].endswith("\\"):  # the command goes on after a continuation
            break
    return {basename(target) for target in _REDIRECT.findall(text)}
