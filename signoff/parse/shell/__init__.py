"""The shell reader: a bash script parsed and its control flow evaluated, never run.

Public API:
- `parse(text) -> Parsed`: the syntax tree (syntax.py), with the problems the parse met.
- `Evaluator(parsed, hook, budget, ...)`: `run(scope)` walks the tree with a `Scope` bound
  (values.py: `Scope`, `Option`, `Text`), deciding what it can from the bound values; what it
  recorded is in `records` (records.py: `Records` by `Kind`, each record with how surely it
  runs), with `notes` and `problems`.
- `CommandHook` (hooks.py): what the layer above says about programs the shell does not define
  (a launch, a client call, a library sourced without being read). The reader knows bash; the
  benchmark layer (parse/benchmark/commands.py) knows what a benchmark script runs.
- `Sources` (sources.py): the files `source` may read, and `Field` (fields.py): one expanded word.

Modules: scan -> syntax (parse); values, fields, expand (+ brace, escapes, arith, wildcards,
printf, awk, conditionals) for words; reader -> calls -> simple (+ builtins) -> evaluator for
the evaluation; script_files: which command lines run a script file.
"""

from signoff.parse.shell.evaluator import Evaluator
from signoff.parse.shell.fields import Field
from signoff.parse.shell.hooks import CommandHook
from signoff.parse.shell.records import (
    HEREDOCS,
    SCRIPT_FILES,
    HeredocUse,
    Kind,
    Ran,
    Reach,
    Records,
    ScriptFileRun,
    reach_of,
)
from signoff.parse.shell.sources import Sources
from signoff.parse.shell.syntax import Parsed, parse
from signoff.parse.shell.values import Option, Scope, Text

__all__ = [
    "HEREDOCS",
    "SCRIPT_FILES",
    "CommandHook",
    "Evaluator",
    "Field",
    "HeredocUse",
    "Kind",
    "Option",
    "Parsed",
    "Ran",
    "Reach",
    "Records",
    "Scope",
    "ScriptFileRun",
    "Sources",
    "Text",
    "parse",
    "reach_of",
]
