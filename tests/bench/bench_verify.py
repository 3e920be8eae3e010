"""Benchmark whole `signoff verify ... --replay ...` processes (not a test).

For the README demo (cassettes/demo.yaml, with --publish) and a PR at GitHub's list caps
(cassettes/large_pr.yaml: 3,000 files, 250 commits, 1,000 comments), run
`python -m signoff verify URL --replay CASSETTE` as a fresh process RUNS times each and print the
median and max wall time of the whole process (interpreter start, imports, cassette load, gather,
judge, render, publish). HTTP requests: one more child replays the same command in-process with
the cassette kept, and reports how many recorded answers were played (each at most once:
allow_playback_repeats is False) and that none was left over. Exits 1 when a target is missed.

Bytecode: `pip install .` (the README Quick start) compiles every module, but an editable dev
install under PYTHONDONTWRITEBYTECODE recompiles signoff's sources in every process (~0.15 s).
By default the children therefore use a private, pre-warmed bytecode cache (PYTHONPYCACHEPREFIX
in a temporary directory; the source tree is not written to); `--as-is` runs them with the
environment unchanged.

    python tests/bench/bench_verify.py [--runs 5] [--as-is]

Targets (wall time: the median of the runs; the max is printed too): demo <= 27 requests (20
before the 7 integrity reads: 17 reads of the evidence, among them the upstream recipe at its
merge commit and the artifact's download redirect, `GET /user` and the two writes; the 7: the
sweep run and its jobs, the sign-off's GraphQL edit history, the three sign-off lists read right
before writing, the re-read that converges after a creation) and <= 1.5 s; large PR <= 5 s. Every recorded request must be played, and the exit code must match
the recorded verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CASSETTES = ROOT / "cassettes"


class Case:
    def __init__(self, name: str, max_requests: int | None, max_seconds: float) -> None:
        self.name, self.max_requests, self.max_seconds = name, max_requests, max_seconds
        self.info: dict[str, Any] = json.loads(
            (CASSETTES / f"{name}.json").read_text(encoding="utf-8")
        )

    def argv(self) -> list[str]:
        args = [self.info["signoff_url"], "--replay", str(CASSETTES / f"{self.name}.yaml")]
        return [*args, "--publish"] if self.info.get("publish") else args


CASES = [Case("demo", 27, 1.5), Case("large_pr", None, 5.0)]


CHILD_ENV: dict[str, str] = {}


def child_env(bytecode_cache: str | None) -> dict[str, str]:
    """The environment of a person running the README command: no token, API URL or bot login."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GITHUB_", "SIGNOFF_", "INPUT_", "RUNNER_"))
    }
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode_cache
    return env


def time_run(case: Case) -> tuple[float, int]:
    command = [sys.executable, "-m", "signoff", "verify", *case.argv()]
    start = time.perf_counter()
    done = subprocess.run(command, env=CHILD_ENV, cwd=ROOT, capture_output=True, check=False)
    return time.perf_counter() - start, done.returncode


def count_requests(case: Case) -> dict[str, Any]:
    """Replay once in a child that keeps the cassette and reports what was played."""
    command = [sys.executable, __file__, "--count", case.name]
    done = subprocess.run(command, env=CHILD_ENV, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"counting child failed for {case.name}:\n{done.stderr}")
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def counting_child(name: str) -> int:
    """`--count NAME`: run the verify command in-process with a spy on the replayed cassette."""
    from collections.abc import Iterator
    from contextlib import contextmanager, redirect_stdout
    from io import StringIO

    import signoff.replay as replay_module
    import signoff.verify_command as verify_module
    from signoff.replay import replay

    case = next(c for c in CASES if c.name == name)
    kept: list[Any] = []

    @contextmanager
    def spy(path: str) -> Iterator[Any]:
        with replay(path) as cassette:
            kept.append(cassette)
            yield cassette

    vars(replay_module)["replay"] = spy  # what run_verify_command replays through
    args = case.argv()
    with redirect_stdout(StringIO()):
        code = verify_module.run_verify_command(
            args[0], replay=args[2], publish="--publish" in args
        )
    (cassette,) = kept
    played = [r for i, r in enumerate(cassette.requests) if cassette.play_counts[i]]
    report = {
        "exit": code,
        "recorded": len(cassette),
        "played": cassette.play_count,
        "all_played": bool(cassette.all_played),
        # A GraphQL POST is a query (a read), not a write.
        "writes": sum(r.method != "GET" and not r.path.endswith("/graphql") for r in played),
    }
    print(json.dumps(report))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--as-is", action="store_true", help="no private bytecode cache")
    parser.add_argument("--count", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.count:
        return counting_child(args.count)
    with tempfile.TemporaryDirectory(prefix="signoff-bench-pyc-") as cache:
        CHILD_ENV.update(child_env(None if args.as_is else cache))
        return measure(args.runs, "as-is" if args.as_is else "warmed private bytecode cache")


def measure(runs: int, bytecode: str) -> int:
    ok = True
    print(f"python {sys.version.split()[0]}, {runs} fresh processes per cassette, {bytecode}")
    for case in CASES:
        counted = count_requests(case)  # also warms the bytecode cache
        time_run(case)  # warm-up, not counted
        times, codes = [], set()
        for _ in range(runs):
            seconds, code = time_run(case)
            times.append(seconds)
            codes.add(code)
        median, worst = statistics.median(times), max(times)
        size = (CASSETTES / f"{case.name}.yaml").stat().st_size / 1e6
        expected_exit = 0 if case.info["verdict"] == "PASS" else 1
        request_ok = counted["all_played"] and counted["played"] == counted["recorded"]
        if case.max_requests is not None:
            request_ok = request_ok and counted["played"] <= case.max_requests
        time_ok = median <= case.max_seconds  # the median: one noisy neighbour is not a miss
        exit_ok = codes == {expected_exit} and counted["exit"] == expected_exit
        limit = f" (target <= {case.max_requests})" if case.max_requests is not None else ""
        print(
            f"{case.name:9} {case.info['verdict']:8} exit {sorted(codes)}  "
            f"requests {counted['played']}/{counted['recorded']} played, "
            f"{counted['writes']} writes{limit}  cassette {size:.2f} MB\n"
            f"{'':9} wall median {median:.3f} s, max {worst:.3f} s "
            f"(target: median <= {case.max_seconds} s)  "
            f"runs: {', '.join(f'{t:.3f}' for t in times)}  "
            f"-> {'met' if request_ok and time_ok and exit_ok else 'MISSED'}"
        )
        ok = ok and request_ok and time_ok and exit_ok
    print("all targets met" if ok else "some targets MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
