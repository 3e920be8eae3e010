"""The hook through which the layer above the reader says what the programs a script runs are.

The reader knows bash: builtins, functions, expansions, control flow, `source` of the files it
may read. What an external program is (a server launch, a benchmark client, a command that runs
a file) and which library a script sources without its text being read belong to what the
reader is used for; the evaluator asks its `CommandHook` and records nothing of that itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from signoff.parse.shell.fields import Field
    from signoff.parse.shell.simple import SimpleCommands
    from signoff.parse.shell.values import Scope


class CommandHook(Protocol):
    def library_functions(self, name: str) -> Iterable[str] | None:
        """The functions a sourced file that is not read defines, by the file's base name
        (their bodies are external); None: not a library the hook knows, so sourcing it
        makes the reading incomplete."""
        ...

    def client(self, reader: SimpleCommands, argv: list[Field], scope: Scope) -> bool:
        """Record `argv` when it calls a function the hook owns (one `library_functions`
        defines): True when it did, and the command's status is unknown."""
        ...

    def external(
        self,
        reader: SimpleCommands,
        argv: list[Field],
        prefix: dict[str, str],
        scope: Scope,
        *,
        heredoc: bool = False,
    ) -> None:
        """Record a program the script runs that is no builtin, function or quiet utility
        (`prefix`: the assignments written before it on the command line; `heredoc`: the
        command is given a heredoc, its standard input)."""
        ...
