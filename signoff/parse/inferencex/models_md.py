"""Read MODELS.md: which models, scenarios, precisions and spec-decode arms are deprecated, from
which day, and whether the deprecation has been enacted.

Sources, read through markdown-it-py (tables, headings, paragraphs), each rule keeping its line:
- `## Deprecation Notice`, dated subsections (`### Monday, August 3, 2026`): the date is the LAST
  allowed day; tables `| Model | Deprecated | ... |` name a prefix in backticks and what goes; a
  paragraph after a table saying "not yet enacted" marks that table's rows unenacted.
- `## Scenarios`: the scenario names (with ISL/OSL) and "Deprecated for all models since DATE".
- `## Model support matrix`: "None (retired DATE, ...)" retires a prefix from DATE; the
  "Deprecated scenarios" column lists what is gone for that prefix (no date: already gone).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import BaseModel, ConfigDict

_MD = MarkdownIt("commonmark").enable("table")
_ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_SEQ = re.compile(r"(\d+)\s*/\s*(\d+)")
_SHORT_SEQ = re.compile(r"\b(\d+)k(\d+)k\b", re.IGNORECASE)
_PRECISION = re.compile(r"\b(bf16|fp16|fp8|fp4|nvfp4|mxfp4|int4|int8)\b", re.IGNORECASE)
_NON_SPEC_ARM = re.compile(r"\bnon-(?:spec(?:-decode)?|mtp|eagle3?|dspark)\b", re.IGNORECASE)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Scenario(Frozen):
    name: str  # as MODELS.md names it: "Single-turn 8k1k"
    kind: str  # "fixed-seq-len" or "agentic-coding"
    isl: int | None = None
    osl: int | None = None


class Deprecation(Frozen):
    """One rule: from `first_day` on, configs matching it may not be submitted."""

    prefix: str | None  # None: every model
    scenario: Scenario | None  # None: every scenario
    precision: str | None = None
    non_spec_arm: bool = False  # only the non-speculative-decoding arm
    first_day: date
    enacted: bool = True
    line: int
    text: str  # the row, for reasons


class ModelsDoc(Frozen):
    scenarios: tuple[Scenario, ...]
    deprecations: tuple[Deprecation, ...]
    problems: tuple[str, ...]


class _Table(Frozen):
    line: int
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]  # per cell: (text, code spans)
    row_lines: tuple[int, ...]


def parse_models(text: str, path: str = "MODELS.md") -> ModelsDoc:
    """Every deprecation rule in MODELS.md; never raises (oddities become problems)."""
    try:
        sections = _sections(_MD.parse(text or ""))
    except Exception:  # a parser bug must not pass a deprecated model: report it
        return ModelsDoc(scenarios=(), deprecations=(), problems=(f"{path} could not be read",))
    scenarios = _scenarios(sections.get("scenarios", []))
    problems: list[str] = []
    rules: list[Deprecation] = []
    rules += _scenario_rules(sections.get("scenarios", []), scenarios)
    unenacted: list[Deprecation] = []
    for heading, tables in sections.items():
        day = _notice_day(heading)
        if day is not None:
            for table, enacted in tables:
                found = _notice_rules(table, day, enacted, scenarios, problems, path)
                rules += found
                unenacted += [rule for rule in found if not rule.enacted]
    rules += _matrix_rules(sections.get("model support matrix", []), scenarios, unenacted, path)
    if not any(heading.startswith("model support matrix") for heading in sections):
        problems.append(f"{path} has no `## Model support matrix` table")
    return ModelsDoc(
        scenarios=tuple(scenarios), deprecations=tuple(rules), problems=tuple(problems)
    )


# --- structure ----------------------------------------------------------------------------------


def _sections(tokens: list[Token]) -> dict[str, list[tuple[_Table, bool]]]:
    """Tables per heading (lower-case text of the nearest h2/h3), each with its enacted flag."""
    sections: dict[str, list[tuple[_Table, bool]]] = {}
    heading = ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            heading = _inline_text(tokens[i + 1]).strip().lower()
            sections.setdefault(heading, [])
        elif token.type == "table_open":
            table, i = _table(tokens, i)
            sections.setdefault(heading, []).append((table, True))
            continue
        elif token.type == "inline" and "not yet enacted" in token.content.lower():
            tables = sections.get(heading, [])
            if tables and tables[-1][1]:  # the status note follows the table it is about
                tables[-1] = (tables[-1][0], False)
        i += 1
    return sections


def _inline_text(token: Token) -> str:
    return "".join(child.content for child in token.children or [] if child.type != "softbreak")


def _table(tokens: list[Token], start: int) -> tuple[_Table, int]:
    header: list[str] = []
    rows: list[tuple[tuple[str, tuple[str, ...]], ...]] = []
    lines: list[int] = []
    row: list[tuple[str, tuple[str, ...]]] = []
    in_head = False
    i = start
    while i < len(tokens) and tokens[i].type != "table_close":
        token = tokens[i]
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
            lines.append((token.map or [0])[0] + 1)
        elif token.type == "inline":
            codes = tuple(c.content for c in token.children or [] if c.type == "code_inline")
            row.append((_inline_text(token).strip(), codes))
        elif token.type == "tr_close":
            if in_head:
                header = [cell.lower() for cell, _ in row]
                lines.pop()
            else:
                rows.append(tuple(row))
        i += 1
    first = (tokens[start].map or [0])[0] + 1
    return _Table(line=first, header=tuple(header), rows=tuple(rows), row_lines=tuple(lines)), i + 1


def _column(table: _Table, *names: str) -> int | None:
    for index, title in enumerate(table.header):
        if any(title.startswith(name) for name in names):
            return index
    return None


# --- scenarios ----------------------------------------------------------------------------------


def _scenarios(tables: list[tuple[_Table, bool]]) -> list[Scenario]:
    found: list[Scenario] = []
    for table, _ in tables:
        name_col, seq_col = _column(table, "scenario"), _column(table, "isl")
        if name_col is None:
            continue
        for row in table.rows:
            name = row[name_col][0]
            seq = _SEQ.search(row[seq_col][0]) if seq_col is not None else None
            found.append(_scenario(name, seq))
    return found


def _scenario(name: str, seq: re.Match[str] | None) -> Scenario:
    if seq is None:
        seq = _SHORT_SEQ.search(name)
        if seq is not None:
            return Scenario(
                name=name, kind="fixed-seq-len",
                isl=int(seq[1]) * 1024, osl=int(seq[2]) * 1024,
            )  # fmt: skip
    if seq is not None:
        return Scenario(name=name, kind="fixed-seq-len", isl=int(seq[1]), osl=int(seq[2]))
    return Scenario(name=name, kind="agentic-coding" if "agentic" in name.lower() else "other")


def _scenario_rules(
    tables: list[tuple[_Table, bool]], scenarios: list[Scenario]
) -> list[Deprecation]:
    """`Deprecated for all models since DATE` rows of the Scenarios table."""
    rules: list[Deprecation] = []
    for table, _ in tables:
        status_col = _column(table, "status")
        if status_col is None:
            continue
        for row, line in zip(table.rows, table.row_lines, strict=False):
            status = row[status_col][0]
            when = _ISO_DATE.search(status)
            if "deprecated" in status.lower() and when is not None:
                scenario = _named_scenario(row[0][0], scenarios)
                rules.append(
                    Deprecation(
                        prefix=None,
                        scenario=scenario,
                        first_day=date.fromisoformat(when[1]),
                        line=line,
                        text=f"{row[0][0]}: {status}",
                    )
                )
    return rules


def _named_scenario(text: str, scenarios: list[Scenario]) -> Scenario | None:
    lowered = text.lower()
    for scenario in sorted(scenarios, key=lambda s: -len(s.name)):
        if scenario.name.lower() in lowered:
            return scenario
    return None


# --- dated deprecation notices ------------------------------------------------------------------


def _notice_day(heading: str) -> date | None:
    """The last allowed day of a `### Monday, August 3, 2026` subsection."""
    try:
        return datetime.strptime(heading.strip(), "%A, %B %d, %Y").date()
    except ValueError:
        return None


def _notice_rules(
    table: _Table,
    last_day: date,
    enacted: bool,
    scenarios: list[Scenario],
    problems: list[str],
    path: str,
) -> list[Deprecation]:
    model_col = _column(table, "model")
    what_col = _column(table, "deprecated")
    if model_col is None or what_col is None:
        return []
    rules: list[Deprecation] = []
    for row, line in zip(table.rows, table.row_lines, strict=False):
        prefixes = row[model_col][1]
        what = row[what_col][0]
        if not prefixes:
            problems.append(f"{path}:{line}: no model prefix in backticks")
            continue
        for prefix in prefixes:
            rules.append(
                _rule(prefix, what, last_day + timedelta(days=1), enacted, line, scenarios)
            )
    return rules


def _rule(
    prefix: str | None, what: str, first_day: date, enacted: bool, line: int,
    scenarios: list[Scenario],
) -> Deprecation:  # fmt: skip
    lowered = what.lower()
    every = "every scenario" in lowered or "all scenarios" in lowered
    precision = _PRECISION.search(what)
    return Deprecation(
        prefix=prefix,
        scenario=None if every else _named_scenario(what, scenarios),
        precision=precision[1].lower() if precision else None,
        non_spec_arm=_NON_SPEC_ARM.search(what) is not None,
        first_day=first_day,
        enacted=enacted,
        line=line,
        text=f"{prefix or 'all models'}: {what}",
    )


# --- support matrix -----------------------------------------------------------------------------


def _matrix_rules(
    tables: list[tuple[_Table, bool]], scenarios: list[Scenario], unenacted: list[Deprecation],
    path: str,
) -> list[Deprecation]:  # fmt: skip
    rules: list[Deprecation] = []
    for table, _ in tables:
        prefix_col = _column(table, "prefix")
        active_col = _column(table, "active")
        gone_col = _column(table, "deprecated")
        if prefix_col is None or active_col is None:
            continue
        for row, line in zip(table.rows, table.row_lines, strict=False):
            for prefix in row[prefix_col][1]:
                rules += _retired(prefix, row[active_col][0], line)
                if gone_col is not None:
                    rules += _gone(prefix, row[gone_col][0], line, scenarios, unenacted)
    return rules


def _retired(prefix: str, active: str, line: int) -> list[Deprecation]:
    match = re.search(r"retired\s+(\d{4}-\d{2}-\d{2})", active)
    if not active.lower().startswith("none") or match is None:
        return []
    return [
        Deprecation(
            prefix=prefix,
            scenario=None,
            first_day=date.fromisoformat(match[1]),
            line=line,
            text=f"{prefix}: {active}",
        )
    ]


def _gone(
    prefix: str, column: str, line: int, scenarios: list[Scenario], unenacted: list[Deprecation]
) -> list[Deprecation]:
    """One rule per comma-separated item of the "Deprecated scenarios" column."""
    rules = []
    for item in _items(column):
        when = _ISO_DATE.search(item)
        first = date.fromisoformat(when[1]) if when else date.min
        rule = _rule(prefix, item, first, True, line, scenarios)
        if rule.scenario is None and rule.precision is None:
            continue  # prose that names nothing checkable
        # The notice may say this arm still runs (not yet enacted): the matrix does not overrule it.
        if any(_same(rule, other) for other in unenacted):
            rule = rule.model_copy(update={"enacted": False})
        rules.append(rule)
    return rules


def _items(column: str) -> list[str]:
    """Split on commas outside parentheses."""
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for char in column:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    items.append("".join(current).strip())
    return [item for item in items if item]


def _same(a: Deprecation, b: Deprecation) -> bool:
    return (a.prefix, a.scenario, a.precision, a.non_spec_arm) == (
        b.prefix, b.scenario, b.precision, b.non_spec_arm,
    )  # fmt: skip
