"""The eval results of the qualifying workflow run, from its artifacts (parsed, never executed).

Preference: the `eval_results_all` aggregate (`agg_eval_all.json` rows); otherwise the per-job
`eval_*` artifacts that contain `meta_env.json` (lm-eval `results*.json` files). Zips are read in
memory: member names are never used as paths (no zip-slip), and declared and actual uncompressed
sizes are bounded (no zip bomb). Only the members read here are unpacked, and what they hold is
bounded before it becomes objects: the JSON text, the number of rows and of metrics, and every
number (a PR's scripts run in the sweep's jobs and can write these files). The signed download
URL GitHub redirects to is never logged.
"""

from __future__ import annotations

import io
import json
import math
import struct
import zipfile
import zlib
from collections.abc import Callable
from typing import IO, Any

from github.GithubException import GithubException
from pydantic import ValidationError

from signoff.errors import GatherError
from signoff.evidence import EvalJob, EvalResults, EvalRow, ThroughputResults, ThroughputRow
from signoff.github.answers import ArtifactItem
from signoff.github.api import Api, JsonObject, error_status
from signoff.github.client import MALFORMED_TRIES

AGGREGATE = "eval_results_all"
AGGREGATE_FILE = "agg_eval_all.json"
# The throughput aggregate (collect-results with result-prefix "bmk"), read for Check 14.
THROUGHPUT = "results_bmk"
THROUGHPUT_FILE = "agg_bmk.json"
MAX_ZIP_BYTES = 50 * 1024 * 1024
# JSON parsed from one artifact. Real ones hold a few KB (the aggregate) to a few hundred KB
# (lm-eval results with their task configs); parsing 4 MB of `{},{},...` builds ~1.4 million
# objects (~100 MB, 0.1 s, freed before the next), so 16 artifacts stay within 2 s / 300 MB.
MAX_PARSED_BYTES = 4 * 1024 * 1024
MAX_ROWS = 10_000  # aggregate rows; a full sweep writes hundreds (configurations x tasks)
MAX_METRICS = 10_000  # metric values in one lm-eval results file; real ones hold tens
# Per-job eval artifacts read when there is no aggregate: more is not read at all (fail closed),
# never read in part. A PR's sweep runs one eval job per (model, runner, framework, precision).
MAX_JOB_ARTIFACTS = 16
# Artifacts named `eval_*` that hold no results (no meta_env.json): logs and GPU metrics.
NOT_RESULTS = ("eval_server_logs_", "eval_gpu_metrics_")
# The zip's central directory (one ~100-byte record per member). zipfile turns every record into
# an object as it opens the zip: 40 MB of empty members costs about 3 s and 300 MB before any
# name is seen. 1 MB lists ~8,000 members; a real eval artifact holds tens (SWE-bench: hundreds).
MAX_DIRECTORY_BYTES = 1024 * 1024
# zipfile's own reader of the end-of-central-directory record (zip64 included), the first thing
# ZipFile reads; typeshed does not declare it. It returns None for a blob that is not a zip.
_end_record: Callable[[IO[bytes]], list[Any] | None] = vars(zipfile)["_EndRecData"]
_DIRECTORY_SIZE = 5  # zipfile._ECD_SIZE: the central directory's length in bytes
# Any integer wider than this cannot become a float (OverflowError); no real field comes close.
MAX_INT_DIGITS = 300
META_FILE = "meta_env.json"


class Unavailable(Exception):
    """An artifact that exists but cannot be used; the message is the evidence reason."""


def prefetch(api: Api, repo: str, run_id: int) -> None:
    """Send the first page of the run's artifact list ahead (`gather_evals` takes it)."""
    api.prefetch_pages(_artifacts_path(repo, run_id), 1, key="artifacts", item=_ARTIFACT)


def gather_evals(api: Api, repo: str, run_id: int, sweep_sha: str) -> EvalResults:
    try:
        artifacts = api.pages(_artifacts_path(repo, run_id), key="artifacts", item=_ARTIFACT)
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


def gather_throughput(api: Api, repo: str, run_id: int) -> ThroughputResults:
    """The run's measured points (`results_bmk`/`agg_bmk.json`), read within the eval bounds."""
    try:
        artifacts = api.pages(_artifacts_path(repo, run_id), key="artifacts", item=_ARTIFACT)
    except GithubException as exc:
        why = f"artifacts of run {run_id}: {error_status(exc)}"
        return ThroughputResults(run_id=run_id, available=False, reason=why)
    found = [a for a in artifacts if a.get("name") == THROUGHPUT]
    if not found:
        why = f"run {run_id} has no {THROUGHPUT} artifact"
        return ThroughputResults(run_id=run_id, available=False, reason=why)
    try:
        data = _load_json(_download(api, repo, found[0]), THROUGHPUT_FILE, THROUGHPUT)
        if not isinstance(data, list) or len(data) > MAX_ROWS:
            raise Unavailable(
                f"artifact {THROUGHPUT}: {THROUGHPUT_FILE} is not a list of at most "
                f"{MAX_ROWS:,} rows"
            )
        rows = tuple(ThroughputRow.model_validate(row) for row in data)
    except Unavailable as exc:
        return ThroughputResults(run_id=run_id, available=False, reason=str(exc))
    except ValidationError as exc:
        why = f"artifact {THROUGHPUT}: malformed row ({exc.errors()[0]['msg']})"
        return ThroughputResults(run_id=run_id, available=False, reason=why)
    return ThroughputResults(run_id=run_id, available=True, rows=rows)


def _artifacts_path(repo: str, run_id: int) -> str:
    return f"/repos/{repo}/actions/runs/{run_id}/artifacts"


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
    if len(data) > MAX_ROWS:
        raise Unavailable(f"artifact {name}: {AGGREGATE_FILE} has more than {MAX_ROWS:,} rows")
    try:
        return tuple(EvalRow.model_validate(row) for row in data)
    except ValidationError as exc:
        raise Unavailable(
            f"artifact {name}: {AGGREGATE_FILE} has a malformed row ({exc.errors()[0]['msg']})"
        ) from None


def _job_results(api: Api, repo: str, artifacts: list[JsonObject]) -> tuple[EvalJob, ...]:
    # `eval_*` also matches eval_server_logs_* / eval_gpu_metrics_*: only meta_env.json dirs count.
    candidates = sorted(
        (a for a in artifacts if _may_hold_results(str(a.get("name", "")))),
        key=lambda a: str(a.get("name")),
    )
    if len(candidates) > MAX_JOB_ARTIFACTS:
        # Reading the first few would judge the run on part of its evals.
        raise Unavailable(
            f"the run has {len(candidates)} per-job eval artifacts and no {AGGREGATE}; at most "
            f"{MAX_JOB_ARTIFACTS} are read, so its eval results cannot all be judged"
        )
    jobs: list[EvalJob] = []
    for artifact in candidates:
        members = _download(api, repo, artifact)
        jobs.extend(_jobs_of(str(artifact.get("name")), members))
    return tuple(jobs)


def _may_hold_results(name: str) -> bool:
    return name.startswith("eval_") and not name.startswith(NOT_RESULTS)


def _download(api: Api, repo: str, artifact: JsonObject) -> dict[str, bytes]:
    """The artifact's JSON members; a download that is not a zip is asked for again.

    GitHub builds the zip itself from the uploaded files, so one that does not open was cut in
    transit: after MALFORMED_TRIES downloads the run could not be verified (exit 3).
    """
    name = str(artifact["name"])
    if artifact.get("expired"):
        raise Unavailable(f"artifact {name} expired")
    if int(artifact.get("size_in_bytes") or 0) > MAX_ZIP_BYTES:
        raise Unavailable(f"artifact {name} is larger than {MAX_ZIP_BYTES // 2**20} MB")
    path = f"/repos/{repo}/actions/artifacts/{artifact['id']}/zip"
    for _ in range(MALFORMED_TRIES):
        members = unpack(_fetch_zip(api, path, name), name)
        if members is not None:
            return members
    raise GatherError(
        f"could not verify: artifact {name} ({path}) did not download as a valid zip "
        f"({MALFORMED_TRIES} tries)"
    )


def _fetch_zip(api: Api, path: str, name: str) -> bytes:
    try:
        return api.stream(path, MAX_ZIP_BYTES)
    except GithubException as exc:
        if exc.status == 410:
            raise Unavailable(f"artifact {name} expired") from None
        raise Unavailable(f"artifact {name}: download failed ({exc.status})") from None
    except ValueError as exc:
        raise Unavailable(f"artifact {name} is {exc}") from None


def unpack(blob: bytes, name: str) -> dict[str, bytes] | None:
    """The members this module parses, from artifact `name`'s zip (None: the blob is no zip).

    Raises Unavailable when the zip is too big to index or its eval JSON to read.
    """
    archive = _open_zip(blob, name)
    return None if archive is None else _read_members(archive, name)


def _open_zip(blob: bytes, name: str) -> zipfile.ZipFile | None:
    """The zip, once its member list is known to be small (None: the blob is no zip)."""
    stream = io.BytesIO(blob)
    try:
        end = _end_record(stream)
    except (zipfile.BadZipFile, OSError, ValueError, struct.error):  # a multi-disk zip64 record
        return None
    if end is None:
        return None
    if end[_DIRECTORY_SIZE] > MAX_DIRECTORY_BYTES:
        raise Unavailable(
            f"artifact {name} lists more members than {MAX_DIRECTORY_BYTES // 2**20} MB of "
            "zip directory holds"
        )
    try:
        return zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, ValueError, OSError):
        return None
    except NotImplementedError as exc:  # "zip file version 13.1": downloading again won't help
        raise Unavailable(f"artifact {name} is a zip this reader cannot open ({exc})") from None


def _is_read(filename: str) -> bool:
    """Whether a member is one this module parses (SWE-bench and sample files are never read)."""
    base = filename.rsplit("/", 1)[-1]
    return base in (AGGREGATE_FILE, META_FILE, THROUGHPUT_FILE) or (
        base.startswith("results") and base.endswith(".json")
    )


def _read_members(archive: zipfile.ZipFile, name: str) -> dict[str, bytes]:
    """The members this module parses, by name, read from memory within MAX_PARSED_BYTES."""
    wanted = [i for i in archive.infolist() if _is_read(i.filename) and not i.is_dir()]
    too_big = f"artifact {name}: its eval JSON files hold more than {MAX_PARSED_BYTES // 2**20} MB"
    if sum(info.file_size for info in wanted) > MAX_PARSED_BYTES:
        raise Unavailable(too_big)
    members: dict[str, bytes] = {}
    budget = MAX_PARSED_BYTES
    for info in sorted(wanted, key=lambda i: i.filename):
        data = _member(archive, info, budget, name)
        budget -= len(data)
        if budget < 0:  # the declared sizes lied
            raise Unavailable(too_big)
        members[info.filename] = data
    return members


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int, name: str) -> bytes:
    """One member's bytes, at most `budget` + 1 (trust the actual bytes, not the declared size)."""
    try:
        with archive.open(info) as handle:
            return handle.read(budget + 1)
    except (
        zipfile.BadZipFile,  # a bad CRC or local header
        zipfile.LargeZipFile,
        NotImplementedError,  # a compression method zipfile lacks
        RuntimeError,  # encrypted ("password required")
        zlib.error,  # a deflate stream damaged inside
        EOFError,  # a compressed stream that ends early
        ValueError,
        OSError,
    ):
        raise Unavailable(f"artifact {name}: {info.filename} cannot be unpacked") from None


def _load_json(members: dict[str, bytes], filename: str, artifact: str) -> Any:
    key = next((m for m in members if m.rsplit("/", 1)[-1] == filename), None)
    if key is None:
        raise Unavailable(f"artifact {artifact} has no {filename}")
    try:
        return json.loads(
            members[key].decode("utf-8"),
            parse_constant=_no_constant,
            parse_float=_finite,
            parse_int=_bounded_int,
        )
    except NotANumber as exc:
        raise Unavailable(f"artifact {artifact}: {key} holds {exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Unavailable(f"artifact {artifact}: {key} is not valid JSON") from None


class NotANumber(ValueError):
    """A JSON number no score or count can be: NaN, an infinity, or too wide for a float."""


def _no_constant(name: str) -> float:
    """NaN and Infinity are not JSON; a NaN score would compare as above any bar."""
    raise NotANumber(f"{name}, which is not a number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses to infinity
        raise NotANumber(f"{text[:20]}, which is not a finite number")
    return value


def _bounded_int(text: str) -> int:
    """An integer a float can hold (float() of a 400-digit integer raises OverflowError)."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NotANumber(f"an integer of {len(text)} digits")
    return int(text)


def _jobs_of(artifact: str, members: dict[str, bytes]) -> list[EvalJob]:
    if not any(m.rsplit("/", 1)[-1] == META_FILE for m in members):
        return []
    meta = _load_json(members, META_FILE, artifact)
    meta = meta if isinstance(meta, dict) else {}
    jobs = []
    for member in sorted(members):
        base = member.rsplit("/", 1)[-1]
        if not base.startswith("results") or member.endswith(META_FILE):
            continue
        data = _load_json({member: members[member]}, base, artifact)
        if isinstance(data, dict) and "lm_eval_version" in data:
            jobs.append(_to_job(artifact, member, data, meta))
    return jobs


def _to_job(artifact: str, member: str, data: JsonObject, meta: JsonObject) -> EvalJob:
    metrics: dict[str, dict[str, float]] = {}
    for task, values in _mapping(data.get("results")).items():
        if isinstance(values, dict):
            metrics[str(task)] = {
                str(k): float(v) for k, v in values.items() if _is_number(v) and math.isfinite(v)
            }
    if sum(len(values) for values in metrics.values()) > MAX_METRICS:
        raise Unavailable(f"artifact {artifact}: {member} has more than {MAX_METRICS:,} metrics")
    n_eff = {
        str(task): info["effective"]
        for task, info in _mapping(data.get("n-samples")).items()
        if isinstance(info, dict)
        and _is_number(info.get("effective"))
        and isinstance(info["effective"], int)
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


def _mapping(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _ints(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, list):
        return ()
    return tuple(n for n in (_opt_int(v) for v in value) if n is not None)


_ARTIFACT = ArtifactItem.model_validate
