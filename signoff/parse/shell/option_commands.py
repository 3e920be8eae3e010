"""Commands a program runs that are given in an option's value or an address, not as its own
command line: `rsync -e CMD`, `ssh -o ProxyCommand=CMD` (also scp and sftp), tar's
`--to-command`, `--checkpoint-action=exec=`, `-I` and volume scripts, `sbatch --wrap=CMD`,
`sudo -s CMD...`, socat's `EXEC:`/`SYSTEM:` addresses, and git's settings whose value is a
command (`git -c alias.x='!CMD'`, `git config core.pager CMD`, `GIT_SSH_COMMAND`).

Each is read as `sh -c` reads its string (a value known only at run time makes the reading
incomplete there), when it would run: git's settings when they are given, as if run at once,
since any later git command may run them. `crontab` (a schedule read from a file or standard
input), `nc -e` (a program fed what the network sends) and a few more are not read:
`unread_commands`. Settings files that may run commands (`ssh -F FILE`) are files run:
`settings_files`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from signoff.parse.shell.fields import Field, joined

# ssh options (by `-o KEY=VALUE` or `-o 'KEY VALUE'`) whose value runs on this host, or on the
# remote one (read the same way, as ssh's remote command is).
_SSH_COMMAND_KEYS = frozenset(
    {"proxycommand", "localcommand", "knownhostscommand", "remotecommand"}
)
# tar's long options whose value is a command, and its short ones taking one as the next word.
_TAR_LONG = frozenset(
    {"--to-command", "--use-compress-program", "--info-script", "--new-volume-script",
     "--rsh-command"}
)  # fmt: skip
_TAR_SHORT = frozenset({"-I", "-F"})
# sudo's options that take the next word as their value, and the long ones that run a shell.
_SUDO_VALUED = frozenset({"-u", "-g", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "-h", "-R"})
_SUDO_SHELL = frozenset({"--shell", "--login"})
# git settings whose value is a command git runs (an alias only when it starts with `!`), or a
# file or directory of them (a config include, the hooks).
_GIT_COMMAND_KEYS = re.compile(
    r"core\.(?:pager|sshcommand|editor|askpass|fsmonitor|hookspath|gitproxy)|pager\..+"
    r"|sequence\.editor|diff\.external|diff\..+\.(?:command|textconv)|merge\..+\.driver"
    r"|filter\..+\.(?:clean|smudge|process)|credential(?:\..+)?\.helper|gpg(?:\..+)?\.program"
    r"|uploadpack\.packobjectshook|include\.path|includeif\..+\.path|alias\..+"
    r"|remote\..+\.(?:uploadpack|receivepack)",
    re.IGNORECASE,
)
# git's options before its subcommand that take the next word (besides `-c`).
_NETCATS = frozenset({"nc", "ncat", "netcat"})
_GIT_VALUED = frozenset({"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path"})
# `git config`'s options that take the next word.
_GIT_CONFIG_VALUED = frozenset({"--file", "-f", "--blob", "--type", "--default", "--comment"})
# Environment variables whose value is a command git (or ssh, or an interactive bash before
# each prompt) runs, or git settings.
COMMAND_VARIABLES = frozenset(
    {"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
     "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND",
     "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
     "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "PROMPT_COMMAND"}
)  # fmt: skip
# Of those, the ones that hold settings or a directory of programs rather than a command.
SETTINGS_VARIABLES = frozenset(
    {"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
     "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR"}
)  # fmt: skip


def option_command(name: str, argv: Sequence[Field]) -> Field | None:
    """The command (one per line) that `argv`, a `name` command, runs from an option or an
    address; None when it names none."""
    reader = _READERS.get(name)
    if reader is None:
        return None
    found = reader(argv)
    return joined(found, "\n") if found else None  # one per line


def unread_commands(name: str, argv: Sequence[Field]) -> str:
    """Why the command runs commands signoff cannot read ("" when it runs none of those):
    `crontab` given a schedule (a file, or `-` for standard input; not `-l`, `-r`, `-e`),
    netcat running a program on what the network sends (`nc -e /bin/sh`, `ncat -c CMD`),
    `newgrp` (a shell reading its input), `start-stop-daemon --start`, `make --eval` (make
    rules) and a git `ext::` address (a command git runs to reach a remote)."""
    if name == "crontab":
        words = argv[1:]
        if not words:  # no file: it reads the schedule from standard input
            return "crontab schedules commands signoff does not read"
        for i, word in enumerate(words):
            user = word.text == "-u" or (i > 0 and words[i - 1].text == "-u")  # `-u USER`
            if not (word.known and (user or word.text in ("-l", "-r", "-e", "-i"))):
                return "crontab schedules commands signoff does not read"
    if name in _NETCATS and any(_netcat_runs(argv, i) for i in range(1, len(argv))):
        return f"{name} runs a program on what the network sends it"
    texts = [word.text if word.known else word.prefix for word in argv[1:]]
    if name == "newgrp":  # a new shell, reading the script's input or what is fed to it
        return "newgrp starts a shell that reads commands signoff does not read"
    if name == "start-stop-daemon" and any(t in ("-S", "--start") for t in texts):
        return "start-stop-daemon starts a program signoff does not read"
    if name in ("make", "gmake") and any(t.split("=", 1)[0] == "--eval" for t in texts):
        return f"{name} --eval gives make rules signoff does not read"
    if name == "git" and any("ext::" in t for t in texts):  # `ext::sh -c CMD% ...`
        return "git runs the command an ext:: address names, which signoff does not read"
    return ""


def settings_files(name: str, argv: Sequence[Field]) -> list[Field]:
    """Files a program reads settings from that may run commands, named in its arguments:
    ssh's `-F FILE` (a `ProxyCommand`, `LocalCommand`) and tmux's `-f FILE` (`run-shell`)."""
    option = "-F" if name in ("ssh", "scp", "sftp") else "-f" if name == "tmux" else ""
    if not option:
        return []
    found = (_value(argv, i, option) for i in range(1, len(argv)))
    return [value for value in found if value is not None and value.text != "/dev/null"]


def _netcat_runs(argv: Sequence[Field], i: int) -> bool:
    text = argv[i].text if argv[i].known else ""
    return text in ("-c", "--sh-exec", "--lua-exec") or any(
        _value(argv, i, option) is not None for option in ("-e", "--exec", "--sh-exec")
    )


def _value(argv: Sequence[Field], i: int, option: str) -> Field | None:
    """The value of the option at `i`, spelled `--opt=V`, `--opt V` or (short) `-oV`/`-o V`."""
    word = argv[i]
    if not word.known:  # `--wrap="$CMD"`: a value known only at run time
        given = option.startswith("--") and word.prefix.startswith(option + "=")
        return Field(word.text, False, "", word.line, single=False) if given else None
    text = word.text
    if text == option:
        return _next(argv, i)
    if option.startswith("--") and text.startswith(option + "="):
        return _tail(word, len(option) + 1)
    if option.startswith("--") and _abbreviates(text, option):  # getopt's `--to-com=CMD`
        named, equals, _ = text.partition("=")
        return _tail(word, len(named) + 1) if equals else _next(argv, i)
    if not option.startswith("--") and text.startswith(option) and len(text) > len(option):
        return _tail(word, len(option))
    return None


def _next(argv: Sequence[Field], i: int) -> Field | None:
    return argv[i + 1] if i + 1 < len(argv) else None


def _abbreviates(text: str, option: str) -> bool:
    """`--to-com` for `--to-command`: GNU getopt takes any unambiguous prefix of a long option
    (an ambiguous one is taken too: reading more is the safe side)."""
    named = text.partition("=")[0]
    return len(named) >= 4 and named != option and option.startswith(named)


def _tail(word: Field, start: int) -> Field:
    return Field(word.text[start:], True, "", word.line)


def _ssh(argv: Sequence[Field]) -> list[Field]:
    found = []
    for i in range(1, len(argv)):
        value = _value(argv, i, "-o")
        if value is None:
            continue
        if not value.known:  # `-o "ConnectTimeout=$T"`: its key may still be known
            named = re.match(r"([A-Za-z]+)[= ]", value.prefix)
            if named is None or named[1].lower() in _SSH_COMMAND_KEYS:
                found.append(value)
            continue
        key, _, rest = value.text.replace("=", " ", 1).partition(" ")
        if key.lower() in _SSH_COMMAND_KEYS:
            found.append(Field(rest.strip(), True, "", value.line))
    return found


def _rsync(argv: Sequence[Field]) -> list[Field]:
    found = []
    for i, word in enumerate(argv[1:], start=1):
        value = _value(argv, i, "--rsh")
        if value is None and word.known and re.fullmatch(r"-[A-Za-z]*e", word.text):
            value = argv[i + 1] if i + 1 < len(argv) else None  # `-e CMD`, `-avze CMD`
        if value is not None:
            found.append(value)
    return found


def _tar(argv: Sequence[Field]) -> list[Field]:
    found = []
    for i in range(1, len(argv)):
        for option in (*_TAR_LONG, *_TAR_SHORT):
            value = _value(argv, i, option)
            if value is not None:
                found.append(value)
                break
        else:
            value = _value(argv, i, "--checkpoint-action")
            if value is not None and (not value.known or value.text.startswith("exec=")):
                found.append(_tail(value, 5) if value.known else value)
    return found


def _sbatch(argv: Sequence[Field]) -> list[Field]:
    values = (_value(argv, i, "--wrap") for i in range(1, len(argv)))
    return [v for v in values if v is not None]


def _sudo(argv: Sequence[Field]) -> list[Field]:
    """`sudo -s CMD...`, `sudo -i CMD...`: a shell runs the command words joined."""
    i, shell = 1, False
    while i < len(argv) and argv[i].known and argv[i].text.startswith("-"):
        text = argv[i].text
        if text == "--":
            i += 1
            break
        if text in _SUDO_SHELL or (not text.startswith("--") and ("s" in text or "i" in text)):
            shell = True
        i += 2 if text in _SUDO_VALUED else 1
    words = argv[i:]
    return [joined(words)] if shell and words else []


def _socat(argv: Sequence[Field]) -> list[Field]:
    found = []
    for word in argv[1:]:
        if not word.known:
            continue
        kind, colon, rest = word.text.partition(":")
        if colon and kind.upper() in ("EXEC", "SYSTEM"):
            found.append(Field(rest, True, "", word.line))
    return found


def _git(argv: Sequence[Field]) -> list[Field]:
    """`git -c KEY=VALUE ...` and `git config KEY VALUE` for a key whose value runs."""
    found: list[Field] = []
    i = 1
    while i < len(argv) and (not argv[i].known or argv[i].text.startswith("-")):
        word = argv[i]
        if word.known and word.text == "-c" and i + 1 < len(argv):
            setting = argv[i + 1]  # KEY=VALUE; the key is known when it is written out
            written = setting.text if setting.known else setting.prefix
            key, equals, _ = written.partition("=")
            value = _tail(setting, len(key) + 1) if setting.known else setting
            found += _setting(key if equals else None, value)
            i += 2
            continue
        if word.known and word.text.startswith("--config-env"):
            found.append(Field("", False, "", word.line))  # a value from the environment
        i += 2 if word.known and word.text in _GIT_VALUED else 1
    if i < len(argv) and argv[i].known and argv[i].text == "config":
        operands = _config_operands(argv[i + 1 :])
        if operands and operands[0].known and operands[0].text in ("set", "--add"):
            operands = operands[1:]  # git 2.46's `git config set KEY VALUE`
        if len(operands) >= 2:
            name = operands[0]
            found += _setting(name.text if name.known else None, operands[1])
    return found


def _config_operands(words: Sequence[Field]) -> list[Field]:
    operands, i = [], 0
    while i < len(words):
        word = words[i]
        if word.known and word.text.startswith("-"):
            i += 2 if word.text in _GIT_CONFIG_VALUED else 1
            continue
        operands.append(word)
        i += 1
    return operands


def _setting(key: str | None, value: Field) -> list[Field]:
    """The command a git setting runs: its value when the key is one whose value runs, or is
    known only at run time (then a value known only at run time may be any command)."""
    if key is not None and not _GIT_COMMAND_KEYS.fullmatch(key):
        return []  # `safe.directory "$DIR"`, `user.name bot`
    if key is None or not value.known:
        return [Field(value.text, False, "", value.line, single=False)]
    text = value.text
    if key.lower().startswith("alias.") or ".helper" in key.lower():
        if not text.startswith("!"):
            return []  # another git subcommand, or a helper git finds by its name
        text = text[1:]
    return [Field(text, True, "", value.line)]


_READERS: dict[str, Callable[[Sequence[Field]], list[Field]]] = {
    "ssh": _ssh, "scp": _ssh, "sftp": _ssh, "rsync": _rsync, "tar": _tar, "gtar": _tar,
    "bsdtar": _tar, "sbatch": _sbatch, "sudo": _sudo, "socat": _socat, "git": _git,
}  # fmt: skip
OPTION_RUNNERS = frozenset(_READERS)
