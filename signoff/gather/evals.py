"""The eval results of the qualifying workflow run, from its artifacts (parsed, never executed).

Preference: the `eval_results_all` aggregate (`agg_eval_all.json` rows); otherwise the per-job
`eval_*` artifacts that contain `meta_env.json` (lm-eval `results*.json` files). Zips are read in
memory: member names are never used as paths (no zip-slip), and declared and actual uncompressed
sizes are bounded (no zip bomb). The signed download URL GitHub redirects to is never logged.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from github.GithubException import GithubException
from pydantic import ValidationError

from signoff.evidence import EvalJob, EvalResults, EvalRow
from signoff.gather.api import Api, JsonObject, error_status

AGGREGATE = "eval_results_all"
AGGREGATE_FILE = "agg_eval_all.json"
MAX_ZIP_BYTES = 50 * 1024 * 1024
MAX_JSON_BYTES = 64 * 1024 * 1024  # total uncompressed JSON read from one zip
MAX_JOB_ARTIFACTS = 8


class Unavailable(Exception):
    """An artifact that exists but cannot be used; the message is the evidence reason."""


def gather_evals(api: Api, repo: str, run_id: int, sweep_sha: str) -> EvalResults:
    try:
        artifacts = api.pages(f"/repos/{repo}/actions/runs/{run_id}/artifacts", key="artifacts")
    except GithubException as exc:
        return _unavailable(run_id, sweep_sha, f"artifacts of run {run_id}: {error_status(exc)}")
    head = _run_head(artifacts) or sweep_sha
    aggregate = [a for a in artifacts if a.get("name") == AGGREGATE]
    try:
        if aggregate:
            rows = _aggregate_rows(api, repo, aggregate[0])
            return EvalResults(run_id=run_id, head_sha=head, available=True, rows=rows)
        jobs = _job_results(api, repo, artifacts)
    except Unavailable as exc:
        return _unavailable(run_id, head, str(exc))
    if not jobs:
        return _unavailable(run_id, head, f"run {run_id} has no eval artifacts")
    return EvalResults(run_id=run_id, head_sha=head, available=True, jobs=jobs)


def _unavailable(run_id: int, head: str, reason: str) -> EvalResults:
    return EvalResults(run_id=run_id, head_sha=head, available=False, reason=reason)


def _run_head(artifacts: list[JsonObject]) -> str:
    for artifact in artifacts:
        run = artifact.get("workflow_run")
        if isinstance(run, dict) and run.get("head_sha"):
            return str(run["head_sha"])
    return ""


def _aggregate_rows(api: Api, repo: str, artifact: JsonObject) -> tuple[EvalRow, ...]:
    members = _download(api, repo, artifact)
    name = str(artifact.get("name"))
    data = _load_json(members, AGGREGATE_FILE, name)
    if not isinstance(data, list):
        raise Unavailable(f"artifact {name}: {AGGREGATE_FILE} is not a list of rows")
    try:
        return tuple(EvalRow.model_validate(row) for row in data)
    except ValidationError as exc:
        raise Unavailable(
            f"artifact {name}: {AGGREGATE_FILE} has a malformed row ({exc.errors()[0]['msg']})"
        ) from None


def _job_results(api: Api, repo: str, artifacts: list[JsonObject]) -> tuple[EvalJob, ...]:
    # `eval_*` also matches eval_server_logs_* / eval_gpu_metrics_*: only meta_env.json dirs count.
    candidates = sorted(
        (a for a in artifacts if str(a.get("name", "")).startswith("eval_")),
        key=lambda a: str(a.get("name")),
    )[:MAX_JOB_ARTIFACTS]
    jobs: list[EvalJob] = []
    for artifact in candidates:
        members = _download(api, repo, artifact)
        jobs.extend(_jobs_of(str(artifact.get("name")), members))
    return tuple(jobs)


def _download(api: Api, repo: str, artifact: JsonObject) -> dict[str, bytes]:
    name = str(artifact.get("name"))
    if artifact.get("expired"):
        raise Unavailable(f"artifact {name} expired")
    if int(artifact.get("size_in_bytes") or 0) > MAX_ZIP_BYTES:
        raise Unavailable(f"artifact {name} is larger than {MAX_ZIP_BYTES // 2**20} MB")
    try:
        blob = api.stream(f"/repos/{repo}/actions/artifacts/{artifact['id']}/zip", MAX_ZIP_BYTES)
    except GithubException as exc:
        if exc.status == 410:
            raise Unavailable(f"artifact {name} expired") from None
        raise Unavailable(f"artifact {name}: download failed ({exc.status})") from None
    except ValueError as exc:
        raise Unavailable(f"artifact {name} is {exc}") from None
    return _json_members(blob, name)


def _json_members(blob: bytes, name: str) -> dict[str, bytes]:
    """The *.json members by name, read from memory with size bounds."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except zipfile.BadZipFile:
        raise Unavailable(f"artifact {name} is not a valid zip") from None
    wanted = [i for i in archive.infolist() if i.filename.endswith(".json") and not i.is_dir()]
    if sum(info.file_size for info in wanted) > MAX_JSON_BYTES:
        raise Unavailable(f"artifact {name} unpacks to more than {MAX_JSON_BYTES // 2**20} MB")
    members: dict[str, bytes] = {}
    budget = MAX_JSON_BYTES
    for info in sorted(wanted, key=lambda i: i.filename):
        with archive.open(info) as handle:
            data = handle.read(budget + 1)  # trust the actual bytes, not the declared size
        budget -= len(data)
        if budget < 0:
            raise Unavailable(f"artifact {name} unpacks to more than {MAX_JSON_BYTES // 2**20} MB")
        members[info.filename] = data
    return members


def _load_json(members: dict[str, bytes], filename: str, artifact: str) -> Any:
    key = next((m for m in members if m.rsplit("/", 1)[-1] == filename), None)
    if key is None:
        raise Unavailable(f"artifact {artifact} has no {filename}")
    try:
        return json.loads(members[key].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Unavailable(f"artifact {artifact}: {key} is not valid JSON") from None


def _jobs_of(artifact: str, members: dict[str, bytes]) -> list[EvalJob]:
    if not any(m.rsplit("/", 1)[-1] == "meta_env.json" for m in members):
        return []
    meta = _load_json(members, "meta_env.json", artifact)
    meta = meta if isinstance(meta, dict) else {}
    jobs = []
    for member in sorted(members):
        base = member.rsplit("/", 1)[-1]
        if not base.startswith("results") or member.endswith("meta_env.json"):
            continue
        data = _load_json({member: members[member]}, base, artifact)
        if isinstance(data, dict) and "lm_eval_version" in data:
            jobs.append(_to_job(artifact, member, data, meta))
    return jobs


def _to_job(artifact: str, member: str, data: JsonObject, meta: JsonObject) -> EvalJob:
    metrics: dict[str, dict[str, float]] = {}
    for task, values in (data.get("results") or {}).items():
        if isinstance(values, dict):
            metrics[str(task)] = {
                str(k): float(v)
                for k, v in values.items()
                if isinstance(v, int | float) and not isinstance(v, bool)
            }
    n_eff = {
        str(task): int(info["effective"])
        for task, info in (data.get("n-samples") or {}).items()
        if isinstance(info, dict) and isinstance(info.get("effective"), int)
    }
    return EvalJob(
        artifact=artifact,
        file=member,
        model_prefix=_opt_str(meta.get("infmax_model_prefix")),
        framework=_opt_str(meta.get("framework")),
        precision=_opt_str(meta.get("precision")),
        hw=_opt_str(meta.get("hw")),
        conc=_opt_int(meta.get("conc")),
        metrics=metrics,
        n_eff=n_eff,
        expected_concs=_ints(meta.get("eval_concs")),
        completed_concs=_ints(meta.get("completed_eval_concs")),
        failed_concs=_ints(meta.get("failed_eval_concs")),
    )


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def _ints(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, list):
        return ()
    return tuple(n for n in (_opt_int(v) for v in value) if n is not None)
