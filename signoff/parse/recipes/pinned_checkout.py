"""Which repository a pinned `git checkout <sha>` in a launcher checks out (pure).

Launchers clone an orchestrator repository and pin it in the same branch of an `if`:
`git clone --branch main https://github.com/NVIDIA/srt-slurm.git "$DIR"`, `cd "$DIR"`,
`git checkout <sha>`. The checkout is that clone's only when, reading up from it inside the
patch's own lines (context and added, head side), the nearest `git clone` comes before any line
that ends or starts a branch, and every `cd` between goes into the clone's directory (or the
checkout names it with `-C`). Anything else is unknown: the pin then counts as external code.
"""

from __future__ import annotations

import re
import shlex

from signoff.parse.diff import HUNK_HEADER

_WINDOW = 15  # lines read up from the checkout
_BRANCH_EDGE = re.compile(r"^(?:elif|else|fi|then|esac|;;|done|\}|function\s|\w+\s*\(\))\b|;;\s*$")
_CLONE = re.compile(r"\bgit\s+clone\b")
_CHECKOUT_DIR = re.compile(r"\bgit\s+-C\s+(\S+)\s+checkout\b")
_URL = re.compile(r"^(?:https?://|git@|ssh://)")
# A GitHub repository URL, host first (`https://evil.example/github.com/...` is no GitHub URL).
_GITHUB = re.compile(
    r"^(?:https://(?:[^@/\s]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)"
    r"([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$"
)


def head_lines(patch: str) -> dict[int, str]:
    """The head-side lines a patch shows (context and added), by line number."""
    lines: dict[int, str] = {}
    new = 0
    in_hunk = False
    for raw in patch.split("\n"):
        header = HUNK_HEADER.match(raw)
        if header is not None:
            new, in_hunk = int(header[3]), True
        elif not in_hunk or raw.startswith(("-", "\\")):
            continue
        else:
            lines[new] = raw[1:]
            new += 1
    return lines


def cloned_repo(lines: dict[int, str], at: int) -> str | None:
    """`owner/name` of the GitHub repository the checkout at line `at` works in, or None."""
    checkout = lines.get(at, "")
    named_dir = _CHECKOUT_DIR.search(checkout)
    cds: list[str] = []
    number, read = at - 1, 0
    while number > 0 and read < _WINDOW:
        if number not in lines:
            return None  # outside what the patch shows
        code = lines[number].strip()
        if code and not code.startswith("#"):
            read += 1
            if _CLONE.search(code):
                return _repo_if_here(code, cds, named_dir[1] if named_dir else None)
            if _SIBLING.match(code):
                # an `else`/`elif` branch: the earlier branches of its `if` did not run on this
                # path, but what came before the `if` did
                opening = _opening_if(lines, number)
                if opening is None:
                    return None
                number = opening
            elif _BRANCH_EDGE.search(code):
                return None
            elif re.match(r"^(?:cd|pushd)\s", code):
                cds.append(code)
        number -= 1
    return None


_SIBLING = re.compile(r"^(?:elif|else)\b")
_IF = re.compile(r"^if\b")
_FI = re.compile(r"^fi\b")
_ONE_LINE_IF = re.compile(r"[;&|]\s*fi\s*(?:[;&|#]|$)")


def _opening_if(lines: dict[int, str], at: int) -> int | None:
    """The line of the `if` whose `else`/`elif` is at line `at` (None: not in `lines`)."""
    depth = 0
    for number in range(at - 1, 0, -1):
        if number not in lines:
            return None
        code = lines[number].strip()
        if _FI.match(code):
            depth += 1
        elif _IF.match(code) and not _ONE_LINE_IF.search(code):
            if depth == 0:
                return number
            depth -= 1
    return None


def _repo_if_here(clone: str, cds: list[str], named_dir: str | None) -> str | None:
    words = _words(clone)
    if words is None:
        return None
    start = next((i for i, w in enumerate(words) if w == "clone"), len(words))
    # option values (`--branch main`) are not operands: drop the word after a valued option
    operands = _drop_option_values(words[start + 1 :])
    if not operands or not _URL.match(operands[0]):
        return None
    directory = operands[1] if len(operands) > 1 else _default_dir(operands[0])
    wanted = {_unquoted(directory)}
    if named_dir is not None:
        if _unquoted(named_dir) not in wanted or cds:
            return None
    elif not cds or any(_cd_target(cd) not in wanted for cd in cds):
        return None  # the checkout may run in another directory than the clone's
    match = _GITHUB.match(operands[0])
    return f"{match[1]}/{match[2]}" if match else None


# `git clone` options whose value is the next word
_VALUED = frozenset(
    {"--branch", "-b", "--depth", "--origin", "-o", "--config", "-c", "--reference", "--jobs",
     "-j", "--separate-git-dir", "--filter", "--upload-pack", "-u"}
)  # fmt: skip


def _drop_option_values(words: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif word in ("||", "&&", ";", "|"):
            break
        elif not word.startswith("-"):
            out.append(word)
    return out


def _cd_target(line: str) -> str:
    words = _words(line) or []
    target = words[1] if len(words) > 1 else ""
    return _unquoted(target)


def _default_dir(url: str) -> str:
    name = url.rstrip("/").rsplit("/", 1)[-1]
    return name[:-4] if name.endswith(".git") else name


def _unquoted(word: str) -> str:
    return word.strip("\"'")


def _words(line: str) -> list[str] | None:
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        return None


# git commands after a pin that can move the checked-out tree off the pinned commit
_MOVES = re.compile(
    r"\bgit\s+(?:-[Cc]\s+\S+\s+|--\S+\s+)*(?:pull|merge|rebase|cherry-pick|reset|switch|checkout"
    r"|restore|fetch|am|apply|revert|stash|submodule|worktree|update-ref|read-tree)\b"
)


def moved_after(lines: dict[int, str], at: int) -> bool:
    """Whether a git command the patch shows after the pin at line `at`, before the next
    branch edge, may move the tree off the pinned commit (`git pull`, `git checkout main`,
    `git reset --hard x`, ...). Every added line is shown; lines the patch does not show are
    the base's and are read past (a `fi` among them only makes this stricter)."""
    for number in sorted(n for n in lines if n > at):
        code = lines[number].strip()
        if code.startswith("#"):
            continue
        if _BRANCH_EDGE.search(code):
            return False
        if _MOVES.search(code):
            return True
    return False


_FULL_PIN = re.compile(r"\bgit\s+(?:-C\s+\S+\s+)?checkout\s+(?:-\S+\s+)*([0-9a-f]{40})\b")


def full_pin(line: str) -> str | None:
    """The 40-hex commit a `git checkout` line pins (a short SHA names no one commit)."""
    found = _FULL_PIN.search(line)
    return found[1] if found else None


def pins_in(text: str) -> set[tuple[str, str]]:
    """Every (lower-case `owner/name`, commit) a launcher text checks out at a full commit SHA
    tied to its clone, as `cloned_repo` ties them."""
    lines = {number: line for number, line in enumerate(text.split("\n"), start=1)}
    pins: set[tuple[str, str]] = set()
    for number, line in lines.items():
        sha = full_pin(line)
        repo = cloned_repo(lines, number) if sha else None
        if sha and repo:
            pins.add((repo.lower(), sha))
    return pins
