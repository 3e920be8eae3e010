"""Time and peak memory of reading hostile eval artifacts (gather/evals.py), one process per case.

A PR's benchmark scripts run inside the sweep's jobs and can write any file the eval job
uploads, so every case is an artifact such a script could produce within GitHub's limits (zips
up to the 50 MB download cap). Each case's zip is built here, written to a temporary file, and
read in a child process by `gather_evals` through a stand-in for the API (two calls: the list of
artifacts and the download), so the child's peak RSS is the reader's own. Target per case:
<= 2 s and <= 300 MB. Run: `python tests/bench/bench_artifacts.py`.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from signoff.gather.evals import gather_evals

TARGET_SECONDS = 2.0
TARGET_MB = 300
CHILD_MEMORY_CAP = 4 * 2**30
CHILD_TIMEOUT_SECONDS = 120
AGGREGATE = "eval_results_all"
ROW = json.dumps({"model_prefix": "dsv4", "task": "gsm8k", "em_strict": 0.95, "n_eff": 1319})


def _zip(files: dict[str, str | bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def _many(count: int, unit: str) -> str:
    return "[" + ",".join([unit] * count) + "]"


def _results(tasks: int) -> str:
    metrics = ",".join(f'"t{i}": {{"exact_match,strict-match": 0.95}}' for i in range(tasks))
    return f'{{"lm_eval_version": "0.4.9", "results": {{{metrics}}}}}'


def _members(count: int) -> bytes:
    return _zip({f"{i:x}": b"" for i in range(count)}, zipfile.ZIP_STORED)


# name -> (artifact names, zip builder); every artifact of a case gets the same zip.
CASES: dict[str, tuple[tuple[str, ...], Callable[[], bytes]]] = {
    "aggregate-64mb-of-rows": (
        (AGGREGATE,),
        lambda: _zip({"agg_eval_all.json": _many(700_000, ROW)}),
    ),
    "aggregate-64mb-of-empty-objects": (
        (AGGREGATE,),
        lambda: _zip({"agg_eval_all.json": _many(21_000_000, "{}")}),
    ),
    "aggregate-at-the-bound-of-empty-objects": (
        (AGGREGATE,),
        lambda: _zip({"agg_eval_all.json": _many(1_390_000, "{}")}),
    ),
    "aggregate-1m-deep-nesting": (
        (AGGREGATE,),
        lambda: _zip({"agg_eval_all.json": "[" * 1_000_000}),
    ),
    "16-job-artifacts-at-the-bound": (
        tuple(f"eval_job{i}" for i in range(16)),
        lambda: _zip({"meta_env.json": "{}", "results_1.json": _results(9_000) + " " * 3_600_000}),
    ),
    "job-results-80k-metrics": (
        ("eval_job0",),
        lambda: _zip({"meta_env.json": "{}", "results_1.json": _results(80_000)}),
    ),
    "zip-of-500k-empty-members": ((AGGREGATE,), lambda: _members(500_000)),
}


class ZipApi:
    """The two reads gather_evals makes: the run's artifact list and each artifact's download."""

    def __init__(self, names: tuple[str, ...], blob: bytes) -> None:
        self.names, self.blob = names, blob

    def pages(self, path: str, key: str, item: Any) -> list[dict[str, Any]]:
        size = len(self.blob)
        return [
            {"id": i + 1, "name": name, "size_in_bytes": size, "expired": False}
            for i, name in enumerate(self.names)
        ]

    def stream(self, path: str, limit: int) -> bytes:
        if len(self.blob) > limit:
            raise ValueError(f"larger than {limit} bytes")
        return self.blob


def run_case(name: str, blob_path: Path) -> dict[str, Any]:
    names, _ = CASES[name]
    blob = blob_path.read_bytes()
    start = time.perf_counter()
    results = gather_evals(ZipApi(names, blob), "o/r", 1, "0" * 40)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    return {
        "case": name,
        "zip_kb": round(len(blob) / 1024),
        "seconds": round(elapsed, 3),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "outcome": "available" if results.available else f"unavailable: {results.reason}",
    }


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_CAP, CHILD_MEMORY_CAP))


def _child(name: str, blob_path: Path) -> dict[str, Any] | str:
    try:
        child = subprocess.run(
            [sys.executable, __file__, "--case", name, "--zip", str(blob_path)],
            capture_output=True,
            text=True,
            timeout=CHILD_TIMEOUT_SECONDS,
            preexec_fn=_cap_memory,
        )
    except subprocess.TimeoutExpired:
        return f"stopped after {CHILD_TIMEOUT_SECONDS} s"
    if child.returncode != 0:
        return "failed: " + (child.stderr.strip().splitlines() or ["no output"])[-1]
    row: dict[str, Any] = json.loads(child.stdout)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--case", choices=sorted(CASES), help="run one case in this process")
    parser.add_argument("--zip", type=Path, help="the case's zip (with --case)")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.zip)))
        return
    print(f"{'case':42} {'zip KB':>7} {'seconds':>8} {'RSS MB':>7}  outcome")
    missed = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, (_, build) in CASES.items():
            blob_path = Path(scratch) / f"{name}.zip"
            blob_path.write_bytes(build())
            row = _child(name, blob_path)
            if isinstance(row, str):
                print(f"{name:42} {row}")
                missed.append(name)
                continue
            print(
                f"{name:42} {row['zip_kb']:>7} {row['seconds']:>8.3f} {row['rss_mb']:>7.1f}  "
                f"{row['outcome'][:90]}"
            )
            if row["seconds"] > TARGET_SECONDS or row["rss_mb"] > TARGET_MB:
                missed.append(name)
    print(f"target per case: <= {TARGET_SECONDS} s and <= {TARGET_MB} MB")
    print("missed: " + (", ".join(missed) if missed else "none"))


if __name__ == "__main__":
    main()
