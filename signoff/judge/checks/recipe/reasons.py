"""Check 3's reasons: which recipe, file and section, each differing arg with both sides, and the
configuration it came from. Text from the PR or the recipe always sits in code spans."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from signoff.evidence import UpstreamLink
from signoff.judge.checks.recipe.compare import ArgDiff, CommandResult, LaunchComparison
from signoff.judge.checks.recipe.runs import Target
from signoff.parse.benchmark.launch import ScriptRun, ServerLaunch
from signoff.parse.recipes.document import RecipeDoc

MAX_ITEMS = 8  # differences named in one reason; the rest are counted
MAX_CONFIGS = 3  # configurations named per difference
MAX_UNSET = 4  # override hooks named as read unset; the rest are counted


class Compared(NamedTuple):
    target: Target
    run: ScriptRun
    launch: ServerLaunch
    result: LaunchComparison


def code(text: str) -> str:
    """A code span that text cannot break out of."""
    return "`" + text.replace("`", "'").replace("\n", " ") + "`"


def unread_files(links: Sequence[UpstreamLink]) -> list[str]:
    """Recipe files of the linked PRs that were not read, with why."""
    out = [
        f"{code(f.path)} ({f.reason or f.state})"
        for link in links
        for f in link.files
        if f.state != "ok" or f.text is None
    ]
    out += [
        f"{link.repo}#{link.number} lists more files than were read"
        for link in links
        if not link.files_complete
    ]
    return out


def fail_reason(
    compared: Sequence[Compared],
    labels: dict[str, str],
    link_label: str,
    unread: list[str],
    docs: Sequence[RecipeDoc],
) -> str:
    """Why the recipe does not support the launches ("" when it does)."""
    items: dict[str, list[str]] = {}
    for item in compared:
        where = _config(item)
        best = item.result.best
        if best is None:
            text = f"no recipe command for {item.result.looked_for} in {link_label}"
            items.setdefault(text, []).append(where)
            continue
        head = _where(best, labels)
        for diff in best.diffs:
            items.setdefault(f"{head}: {_diff_text(diff)}", []).append(where)
    if not items:
        return ""
    parts = [f"{text} ({_configs(configs)})" for text, configs in items.items()]
    shown = parts[:MAX_ITEMS] + (
        [f"and {len(parts) - MAX_ITEMS} more"] if len(parts) > MAX_ITEMS else []
    )
    notes = _notes(unread, docs, any(i.result.best is None for i in compared))
    return "; ".join(shown) + notes + unset_note(compared)


def pass_reason(compared: Sequence[Compared], labels: dict[str, str], link_label: str) -> str:
    results = [i.result.best for i in compared if i.result.best is not None]
    wheres = sorted({_where(r, labels) for r in results})
    flags = sorted({flag for r in results for flag in r.compared})
    configs = {i.run.config for i in compared}
    counted = f"{len(configs)} configuration" + ("s" if len(configs) != 1 else "")
    args = (
        f"major args match for {counted} ({', '.join(flags)})"
        if flags
        else "no major args to compare"
    )
    head = "; ".join(wheres[:2]) + (f" and {len(wheres) - 2} more" if len(wheres) > 2 else "")
    text = f"{link_label} linked; {head}: {args}"
    extra = sorted({flag for r in results for flag in r.informational})
    if extra:
        shown = ", ".join(extra[:4]) + (f" and {len(extra) - 4} more" if len(extra) > 4 else "")
        text += f". Informational (InferenceX-specific tuning, not in the recipe): {shown}"
    decisions = sorted({d for r in results for d in r.decisions})
    if decisions:
        text += f". Equivalences applied: {'; '.join(decisions)}"
    return text + unset_note(compared)


def unset_note(compared: Sequence[Compared]) -> str:
    """Which of the scripts' override hooks the comparison read as unset ("" when none)."""
    names = sorted({name for item in compared for name in item.run.unset})
    if not names:
        return ""
    shown = ", ".join(code(name) for name in names[:MAX_UNSET])
    if len(names) > MAX_UNSET:
        shown += f" and {len(names) - MAX_UNSET} more"
    return f". {shown} read as unset: nothing exports {'it' if len(names) == 1 else 'them'}"


def _where(result: CommandResult, labels: dict[str, str]) -> str:
    command = result.command
    link = labels.get(command.source, "")
    name = command.source.rsplit("/", 1)[-1] if "://" not in command.source else command.source
    section = " > ".join(command.section) or "(top)"
    return f"{link} {code(name)}, section {code(section)}".strip()


def _diff_text(diff: ArgDiff) -> str:
    if diff.kind == "missing":
        return f"{code(diff.recipe or diff.flag)} missing (script)"
    if diff.kind == "extra":
        return f"{code(diff.script or diff.flag)} not in the recipe"
    if diff.kind == "unreadable":
        return (
            f"{code(diff.script or diff.flag)} is not a JSON object (cannot compare its settings)"
        )
    if diff.kind == "unbound":
        return f"{code(diff.script or diff.flag)} is not bound by the configuration"
    return f"script {code(diff.script or diff.flag)}, recipe {code(diff.recipe or diff.flag)}"


def _config(item: Compared) -> str:
    shown = [
        (k, v)
        for k, v in item.run.config
        if k in ("TP", "EP_SIZE", "DP_ATTENTION", "SPEC_DECODING")
    ]
    label = ", ".join(f"{k}={v}" for k, v in shown) or "no configuration bound"
    where = f"{item.run.path.rsplit('/', 1)[-1]}, {label}"
    if item.launch.reach == "undecided":  # the launch of one arm of a condition not decided
        where += f", if {item.launch.why or 'an undecided condition holds'}"
    return where


def _configs(configs: list[str]) -> str:
    unique = list(dict.fromkeys(configs))
    more = len(unique) - MAX_CONFIGS
    return "; ".join(unique[:MAX_CONFIGS]) + (f"; and {more} more" if more > 0 else "")


def _notes(unread: list[str], docs: Sequence[RecipeDoc], no_section: bool) -> str:
    notes = ""
    if unread:
        notes += f". Not read: {', '.join(unread[:4])}"
    if no_section:
        read = sorted({code(d.source.rsplit("/", 1)[-1]) for d in docs})
        notes += f". Recipe files read: {', '.join(read) or 'none'}"
        problems = [p for d in docs for p in d.problems][:2]
        if problems:
            notes += f" ({'; '.join(code(p) for p in problems)})"
    return notes
