"""The swept run's evals clear the accuracy bar on the head's image.

Why: throughput numbers only count when the served model is still accurate. How it is judged:
only the eval results of the workflow run that satisfies Check 1 count (provenance included, and
the head's recipe unchanged since that run); without such a run nothing evaluated the head's
recipe and Check 2 fails. Those results (the `agg_eval_all.json` rows, or the per-job lm-eval
results) must put every `exact_match,*` metric at or above the bar for the model prefix in the
thresholds file on the default branch (per-model, else default, else the fallback); zero metrics
is a FAIL, and so are failed or missing batched concurrencies, a score outside 0-1, and a
score measured on fewer samples than its task's full test set (the profile's `full_samples`;
benchmark_lib.sh honours EVAL_LIMIT, which a PR's script can export). A result that names no model
prefix cannot be tied to the changed model: it never counts toward a PASS, and one below the bar
of a changed model FAILs (it may be that model's own result). Eval artifacts carry no image, so
the image of each changed config at the eval run's commit must equal its image at the pinned
head. Unavailable results (expired, missing, malformed) FAIL and say so. To satisfy it: run evals
on the recipe's current image and keep the artifact until merge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from signoff.evidence import EvalResults
from signoff.judge import sweep_definition
from signoff.judge.checks.sweep import sweep_outcome
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, failed, passed
from signoff.rules.evals import EvalPolicy
from signoff.yamlload import load_yaml

ID = "evals"
NAME = "evals pass"
CONFIG = EvalPolicy  # its profile section, rules.<ID>.config


# Prefixes that name no model (validate_scores.py writes "unknown" when it found none).
UNTIED_PREFIXES = frozenset({"", "unknown"})


@dataclass(frozen=True)
class Score:
    prefix: str | None  # None: the result names no model, so it cannot be tied to one
    task: str
    metric: str
    value: float
    n_eff: int | None
    where: str


def evaluate(ctx: JudgeContext) -> Finding:
    # Eval results count only from the run that satisfies Check 1 in full (provenance, and the
    # head's recipe unchanged since): an older run's scores describe another recipe.
    selected = sweep_outcome(ctx).swept
    if selected is None or selected.run_id is None:
        return failed(
            "no workflow run evaluated the head's recipe (Check 1 is not satisfied), "
            "so there are no eval results to judge"
        )
    results = _results_for(ctx, selected.run_id)
    if results is None:
        return failed(f"eval results of run {selected.run_id} were not gathered")
    if not results.available:
        return failed(f"eval results of run {selected.run_id} are unavailable: {results.reason}")
    if results.head_sha and results.head_sha != selected.sha:
        return failed(
            f"eval artifacts of run {selected.run_id} are from {results.head_sha[:7]}, "
            f"not from the swept commit {selected.sha[:7]}"
        )
    thresholds = _thresholds(ctx)
    if isinstance(thresholds, str):
        return failed(thresholds)
    scores, problems = _scores(ctx, results)
    if problems:
        return failed(problems[0])
    verdict = _judge_scores(ctx, scores, thresholds)
    if verdict.status == "FAIL":
        return verdict
    unsound = _unsound(ctx, scores)  # a score that clears its bar may still prove nothing
    if unsound:
        return failed(unsound)
    image = _image_problem(ctx, selected.sha)
    if image.startswith("!"):
        return failed(image[1:])
    return passed(f"{verdict.reason}; {image}")


def _results_for(ctx: JudgeContext, run_id: int) -> EvalResults | None:
    return next((r for r in ctx.evidence.evals if r.run_id == run_id), None)


Thresholds = dict[str, dict[str, dict[str, float]]]


def _thresholds(ctx: JudgeContext) -> Thresholds | str:
    """{"default": {task: bar}, "models": {prefix: {task: bar}}} or a failure reason."""
    path = ctx.thresholds_path
    read = ctx.evidence.file(path, "default")
    if read is None or read.state != "ok" or read.text is None:
        return f"{path} on the default branch is unreadable ({ctx.unread(read)})"
    try:
        data = load_yaml(read.text)
    except Exception:
        return f"{path} is not valid YAML"
    if not isinstance(data, dict):
        return f"{path} is not a mapping"
    default = data.get("default") or {}
    models = data.get("models") or {}
    if not isinstance(default, dict) or not isinstance(models, dict):
        return f"{path}: `default` and `models` must be mappings"
    return {
        "default": {"*": _bars(default)},
        "models": {str(k): _bars(v) for k, v in models.items()},
    }


def _bars(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items() if isinstance(v, int | float)}


def _bar(ctx: JudgeContext, thresholds: Thresholds, prefix: str, task: str) -> float:
    per_model = thresholds["models"].get(prefix, {})
    if task in per_model:
        return per_model[task]
    return thresholds["default"]["*"].get(task, ctx.policy.evals.fallback_threshold)


def _scores(ctx: JudgeContext, results: EvalResults) -> tuple[list[Score], list[str]]:
    policy = ctx.policy.evals
    scores: list[Score] = []
    problems: list[str] = []
    for row in results.rows:
        prefix = _tied(row.model_prefix)
        where = (
            f"{row.hw or '?'} {row.framework or '?'} {row.precision or '?'} tp{row.tp} c{row.conc}"
        )
        named = ((policy.strict_metric, row.em_strict), (policy.flexible_metric, row.em_flexible))
        for metric, value in named:
            if value is not None:
                scores.append(Score(prefix, row.task, metric, value, row.n_eff, where))
    for job in results.jobs:
        missing = sorted(set(job.expected_concs) - set(job.completed_concs))
        if job.failed_concs or missing:
            bad = sorted(set(job.failed_concs) | set(missing))
            problems.append(f"{job.artifact}: eval concurrencies {bad} failed or are missing")
        for task, metrics in sorted(job.metrics.items()):
            for metric, value in sorted(metrics.items()):
                if metric.startswith(policy.metric_prefix) and "stderr" not in metric:
                    scores.append(
                        Score(
                            _tied(job.model_prefix),
                            task,
                            metric,
                            value,
                            job.n_eff.get(task),
                            job.artifact,
                        )
                    )
    return scores, problems


def _unsound(ctx: JudgeContext, scores: list[Score]) -> str:
    """Why a score cannot stand for its task ("" when none): it is no proportion, or it was
    measured on part of the task's samples (n_eff below the full test set, or not recorded)."""
    full = ctx.policy.evals.full_samples
    for score in sorted(scores, key=lambda s: (s.task, s.where, s.metric)):
        if not 0.0 <= score.value <= 1.0:
            return (
                f"{score.task} {score.metric} is {score.value:g} ({score.where}): an exact-match "
                "score is a proportion between 0 and 1"
            )
        size = full.get(score.task)
        if size is not None and (score.n_eff is None or score.n_eff < size):
            counted = "an unrecorded number" if score.n_eff is None else f"{score.n_eff:,}"
            return (
                f"{score.task} ({score.where}) was scored on {counted} of its {size:,} samples "
                "(a limited eval, e.g. EVAL_LIMIT); only full test sets count"
            )
    return ""


def _tied(prefix: str | None) -> str | None:
    """The model prefix a result names, or None when it names none."""
    text = (prefix or "").strip()
    return None if text.lower() in UNTIED_PREFIXES else text


def _judge_scores(ctx: JudgeContext, scores: list[Score], thresholds: Thresholds) -> Finding:
    if not scores and _nothing_to_evaluate(ctx):
        return passed(
            "the PR changes no recipe (its master-config changes only remove configurations or "
            "change metadata), so there is nothing to evaluate"
        )
    if not scores:
        return failed("the eval results hold zero exact_match metrics, so accuracy is unproven")
    tied = [s for s in scores if s.prefix is not None]
    untied = [s for s in scores if s.prefix is None]
    note = f" ({_untied_note(untied)})" if untied else ""
    wanted = sorted({entry.model_prefix for entry in ctx.changed_entries})
    seen = {s.prefix for s in tied}
    absent = [p for p in wanted if p not in seen]
    if absent:
        return failed(f"the eval run has no results for model prefix {', '.join(absent)}{note}")
    if not tied:
        return failed(f"no eval result names a model prefix{note}, so none can count")
    candidates = wanted or sorted(p for p in seen if p is not None)
    ambiguous = _below_any_bar(ctx, thresholds, untied, candidates)
    if ambiguous is not None:
        return ambiguous
    below = [s for s in tied if _is_below(s, _bar(ctx, thresholds, s.prefix or "", s.task))]
    if below:
        worst = min(below, key=lambda s: (s.value, s.where, s.metric))
        bar = _bar(ctx, thresholds, worst.prefix or "", worst.task)
        return failed(
            f"{worst.task} {worst.metric} {worst.value:.3f} < {bar:.2f} "
            f"({worst.prefix}, {worst.where})"
            + (f" and {len(below) - 1} more below the bar" if len(below) > 1 else "")
        )
    summary = _summary(ctx, tied, thresholds)
    return passed(f"{summary}; {_untied_note(untied)} not counted" if untied else summary)


def _nothing_to_evaluate(ctx: JudgeContext) -> bool:
    """No entry is added or changed in what it runs, and no other benchmark-affecting file
    changes but documentation (the changelog counts: a new entry there runs configurations)
    or a workflow or program the sweep does not execute (judge/sweep_definition)."""
    if ctx.changed_entries or ctx.master_problems or ctx.evidence.files_truncated:
        return False
    masters = set(ctx.changed_master_files)
    affecting = ctx.policy.sweep.affecting_paths
    return not any(
        path not in masters
        and not path.endswith(".md")  # documentation changes no recipe
        and any(path_matches(path, glob) for glob in affecting)
        and not sweep_definition.is_not_executed(ctx, path)  # a workflow or test it never runs
        for path in ctx.changed_paths
    )


def _below_any_bar(
    ctx: JudgeContext, thresholds: Thresholds, untied: list[Score], prefixes: list[str]
) -> Finding | None:
    """A FAIL for a result without a prefix that is below the bar of a model it may belong to."""
    for score in sorted(untied, key=lambda s: (s.value, s.where, s.metric)):
        bars = {p: _bar(ctx, thresholds, p, score.task) for p in prefixes}
        prefix = max(sorted(bars), key=lambda p: bars[p])
        if _is_below(score, bars[prefix]):
            return failed(
                f"{score.task} {score.metric} {score.value:.3f} ({score.where}) names no model "
                f"prefix and is below the {bars[prefix]:.2f} bar of {prefix}, whose result it "
                "may be"
            )
    return None


def _is_below(score: Score, bar: float) -> bool:
    """Below the bar; a value that is not a finite number never clears it."""
    return not math.isfinite(score.value) or score.value < bar


def _untied_note(untied: list[Score]) -> str:
    count = len(untied)
    return f"{count} result{'s' if count != 1 else ''} without a model prefix"


def _summary(ctx: JudgeContext, scores: list[Score], thresholds: Thresholds) -> str:
    parts = []
    for task in sorted({s.task for s in scores}):
        values = [s.value for s in scores if s.task == task]
        n_eff = sorted({s.n_eff for s in scores if s.task == task and s.n_eff})
        low, high = min(values), max(values)
        span = f"{low:.3f}" if low == high else f"{low:.3f}–{high:.3f}"
        extra = f" (n_eff={n_eff[0]})" if len(n_eff) == 1 else ""
        parts.append(f"{task} {span}{extra} over {len(values)} metrics, all at or above the bar")
    return "; ".join(parts)


def _image_problem(ctx: JudgeContext, eval_sha: str) -> str:
    """ "!reason" when the eval ran on another image than the head pins, else a pass note."""
    head_sha = ctx.evidence.pull_request.head_sha
    entries = ctx.changed_entries
    if ctx.master_problems:  # which entries changed is itself unknown
        return f"!the image cannot be tied to the head: {ctx.master_problems[0]}"
    if not entries:
        return (
            "no master-config entry changed, so the image is the one already on the default branch"
        )
    role = "head" if eval_sha == head_sha else "eval"
    for entry in entries:
        readable, then = ctx.entry_at(entry, role)
        if not readable:
            return f"!{entry.file} could not be read at the eval run's commit {eval_sha[:7]}"
        if then is None:
            return f"!{entry.key} did not exist at the eval run's commit {eval_sha[:7]}"
        if then.image != entry.image:
            return f"!evals ran on {then.image} but the head pins {entry.image} for {entry.key}"
    images = sorted({e.image for e in entries})
    return f"run on the same {', '.join(images)} image the head pins"
