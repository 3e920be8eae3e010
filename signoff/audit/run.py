"""`signoff audit`: select the merged PRs, audit each (in parallel, bounded), write the report.

Exit codes: 0 every PR audited and none merged REJECTED or NO_SIGNOFF; 1 some did; 2 bad input;
3 stopped early (GitHub unreachable, rate limit, --max-requests): the partial report is written
and says where it stopped.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path

from github.GithubException import GithubException

from signoff import __version__
from signoff.audit.budget import FIXED, RUN, Budget, Meter, current_owner, pr_owner
from signoff.audit.cache import (
    CachingAdapter,
    HttpCache,
    installed,
    live_origin,
    replay_origin,
)
from signoff.audit.history import load_history
from signoff.audit.merge import merge_reports
from signoff.audit.merged_pull import AuditSettings, PullAudit, audit_pull
from signoff.audit.model import AuditedPull, AuditReport, Cost, PullCost, Stopped, summarize
from signoff.audit.outputs import ReportOut, claim_folder, why
from signoff.audit.progress import Reporter, reporter
from signoff.audit.rejudge import PolicyHistory, parse_standard
from signoff.audit.render_csv import render_csv
from signoff.audit.render_json import load_report, render_json
from signoff.audit.render_markdown import render_markdown
from signoff.audit.selection import MergedPull, merged_in_window, named_pulls, shard_of
from signoff.audit.window import Shard, Window, iso, parse_instant, parse_shard, parse_window
from signoff.errors import ExitCode, GatherError, InputError, SignoffError
from signoff.evidence import Evidence, dump_evidence
from signoff.gather.audit_reads import read_repository
from signoff.github.api import Api, error_status
from signoff.github.client import (
    REPLAY_TOKEN,
    Connection,
    Mode,
    connect,
    make_retry,
    read_token,
    resolve_api_url,
    token_missing,
)
from signoff.policy import Policy, load_policy
from signoff.publish.sanitize import log_line
from signoff.replay import MATCH_URI, REPLAY_API_URL, check_cassette
from signoff.replay import replay as play

MAX_JOBS = 16
HISTORY_MARGIN = timedelta(days=30)
_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$")


@dataclass(frozen=True)
class AuditRequest:
    """A validated `signoff audit` invocation."""

    repository: str
    window: Window
    since: str | None
    until: str | None
    prs: tuple[int, ...] = ()
    base: str | None = None
    standard: str = "at-the-time"
    jobs: int = 4
    shard: Shard | None = None
    max_requests: int | None = None


@dataclass
class RunResult:
    report: AuditReport
    evidence: dict[int, Evidence] = field(default_factory=dict)


def build_request(
    repository: str,
    *,
    since: str | None,
    until: str | None,
    prs: Sequence[int] = (),
    base: str | None = None,
    standard: str = "at-the-time",
    jobs: int = 4,
    shard: str | None = None,
    max_requests: int | None = None,
    policy: Policy,
) -> AuditRequest:
    """Check every argument before anything is read (bad input: exit 2, one line)."""
    if not _REPO.match(repository):
        raise InputError(f"{repository!r}: expected OWNER/REPO")
    if not 1 <= jobs <= MAX_JOBS:
        raise InputError(f"--jobs {jobs}: must be between 1 and {MAX_JOBS}")
    if max_requests is not None and max_requests < 1:
        raise InputError(f"--max-requests {max_requests}: must be at least 1")
    if any(n < 1 for n in prs):
        raise InputError(f"--pr {min(prs)}: not a pull request number")
    window = parse_window(since, until)
    return AuditRequest(
        repository=repository,
        window=window,
        since=iso(window.since) if window.since else None,
        until=iso(window.until) if window.until else None,
        prs=tuple(prs),
        base=base,
        standard=parse_standard(standard, policy),
        jobs=jobs,
        shard=parse_shard(shard),
        max_requests=max_requests,
    )


def run_audit(
    gh: Connection,
    request: AuditRequest,
    policy: Policy,
    meter: Meter,
    *,
    cache: HttpCache | None = None,
    progress: bool = False,
) -> RunResult:
    """The whole audit through one configured client (the caller installs the cache)."""
    token = current_owner.set(RUN)
    try:
        base, pulls, settings = _select(gh, request, policy)
    finally:
        current_owner.reset(token)
    if cache is not None:
        settings = replace(settings, pin_edits=cache.pin_edits)
        for pr in pulls:  # a merged PR's files and commits never change again (at its head)
            prefix = f"/repos/{request.repository}/pulls/{pr.number}"
            cache.freeze(pr.head_sha, f"{prefix}/files", f"{prefix}/commits")
    with reporter(len(pulls), meter, enabled=progress) as shown:
        budget = Budget(meter, request.max_requests, workers=request.jobs, on_wait=shown.waiting)
        worker = _Worker(gh, settings, meter, budget, cache, shown)
        if request.jobs == 1:
            for pr in pulls:
                worker(pr)
        else:
            with ThreadPoolExecutor(max_workers=request.jobs) as pool:
                list(pool.map(worker, pulls))
    return _result(request, base, pulls, worker.done, worker.stopped, meter)


@dataclass
class _Worker:
    """Audits one PR at a time on any thread; after the first stop, starts no further PR."""

    gh: Connection
    settings: AuditSettings
    meter: Meter
    budget: Budget
    cache: HttpCache | None
    shown: Reporter
    done: dict[int, PullAudit] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)

    def __call__(self, pr: MergedPull) -> None:
        if self.stopped:
            return
        why = self.budget.exhausted()
        if why:
            self.stopped.append(why)
            return
        self.budget.wait_if_low()
        try:
            self.done[pr.number] = _audit_one(self.gh, pr, self.settings)
        except GatherError as exc:
            self.stopped.append(f"GitHub could not be read for #{pr.number}: {exc}")
        except GithubException as exc:
            self.stopped.append(f"GitHub could not be read for #{pr.number}: {error_status(exc)}")
        if self.cache is not None:
            self.cache.forget(pr_owner(pr.number))
        self.shown.advance()


def _select(
    gh: Connection, request: AuditRequest, policy: Policy
) -> tuple[str, list[MergedPull], AuditSettings]:
    api, repo = Api(gh), request.repository
    default_branch = str(read_repository(api, repo).get("default_branch") or "main")
    base = request.base or default_branch
    if request.prs:
        pulls = named_pulls(api, repo, base, request.prs)
    else:
        pulls = merged_in_window(api, repo, base, request.window)
    if not pulls:
        window = f"between {request.since or 'the beginning'} and {request.until or 'now'}"
        raise InputError(f"{repo}: no pull requests merged into {base} {window}")
    # Sign-offs precede their merge; instants older than this listing cost one request each.
    # Taken over every selected PR, before sharding: each shard makes the same run-level reads.
    since = min(parse_instant(p.merged_at) for p in pulls) - HISTORY_MARGIN
    pulls = shard_of(pulls, request.shard)
    history = PolicyHistory(
        default=load_history(api, repo, default_branch, since=since),
        codeowners=load_history(api, repo, base, policy.paths.codeowners),
    )
    settings = AuditSettings(repo=repo, standard=request.standard, policy=policy, history=history)
    return base, pulls, settings


def _audit_one(gh: Connection, pr: MergedPull, settings: AuditSettings) -> PullAudit:
    token = current_owner.set(pr_owner(pr.number))
    try:
        audit = audit_pull(gh, pr, settings)
    finally:
        current_owner.reset(token)
    return audit


def _result(
    request: AuditRequest,
    base: str,
    pulls: list[MergedPull],
    done: dict[int, PullAudit],
    stopped: list[str],
    meter: Meter,
) -> RunResult:
    rows: tuple[AuditedPull, ...] = tuple(done[p.number].row for p in pulls if p.number in done)
    missing = tuple(p.number for p in pulls if p.number not in done)
    stop = Stopped(reason=stopped[0], not_audited=missing) if missing else None
    report = AuditReport(
        repository=request.repository,
        base=base,
        since=request.since,
        until=request.until,
        standard=request.standard,
        generated_by=f"signoff {__version__}",
        prs=rows,
        summary=summarize(rows),
        stopped=stop if missing or stopped else None,
        shard=str(request.shard) if request.shard else None,
        cost=cost_of(meter, rows),
    )
    evidence = {n: a.evidence for n, a in done.items() if a.evidence is not None}
    return RunResult(report, evidence)


def cost_of(meter: Meter, rows: tuple[AuditedPull, ...]) -> Cost:
    prs = tuple(PullCost(pr=row.pr, requests=meter.counted(pr_owner(row.pr))) for row in rows)
    run, fixed = meter.counted(RUN), meter.counted(FIXED)
    return Cost(
        requests=run + fixed + sum(p.requests for p in prs),
        run=run,
        fixed=fixed,
        prs=prs,
        graphql=meter.total().graphql,
    )


# --- the command ----------------------------------------------------------------------------


def render(report: AuditReport, fmt: str) -> str:
    if fmt == "json":
        return render_json(report)
    if fmt == "csv":
        return render_csv(report)
    return render_markdown(report)


def exit_code(report: AuditReport) -> int:
    if report.stopped is not None:
        return int(ExitCode.COULD_NOT_VERIFY)
    unsigned = report.summary.REJECTED + report.summary.NO_SIGNOFF
    return int(ExitCode.REJECTED if unsigned else ExitCode.PASS)


def default_cache_dir(api_url: str | None) -> Path:
    """Under the user's cache directory (XDG on Linux), one folder per API host."""
    from platformdirs import user_cache_dir

    host = re.sub(r"[^A-Za-z0-9.-]+", "_", (api_url or "api.github.com").split("://")[-1])
    return Path(user_cache_dir("signoff")) / "audit" / host.strip("_")


def make_adapter(cache: HttpCache, meter: Meter, jobs: int, mode: Mode) -> CachingAdapter:
    """The transport every client of the run shares: the cache, accounting and PyGithub's
    retry policy from `signoff.github.client` (the same as `verify` uses). Test mode replays a
    recording, one request at a time."""
    pool = jobs + 2
    return CachingAdapter(
        cache,
        meter,
        serial=mode == "test",
        max_retries=make_retry(mode),
        pool_connections=pool,
        pool_maxsize=pool,
    )


@dataclass
class Outputs:
    """The places a run writes, each claimed before the first request (bad input: exit 2)."""

    out: ReportOut | None
    evidence_dir: Path | None

    @classmethod
    def claim(cls, out: str | None, evidence_dir: str | None) -> Outputs:
        report = ReportOut.claim(out) if out is not None else None
        try:
            folder = claim_folder(evidence_dir, "--evidence-dir") if evidence_dir else None
        except InputError:
            if report is not None:
                report.abandon()
            raise
        return cls(report, folder)

    def abandon(self) -> None:
        if self.out is not None:
            self.out.abandon()


def write_outputs(result: RunResult, fmt: str, outputs: Outputs) -> None:
    if outputs.evidence_dir is not None:
        for number in sorted(result.evidence):
            text = dump_evidence(result.evidence[number])
            path = outputs.evidence_dir / f"pr-{number}.json"
            try:
                path.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise GatherError(
                    f"{path}: could not write the evidence bundle ({why(exc)})"
                ) from None
    text = render(result.report, fmt)
    if outputs.out is not None:
        outputs.out.write(text)
    else:
        sys.stdout.write(text)


def summary_line(report: AuditReport, out: str | None) -> str:
    """The line a terminal keeps once the progress bar is gone: counts, and where the report is."""
    s = report.summary
    counts = ", ".join(
        f"{n} {name}"
        for name, n in (
            ("PASS", s.PASS),
            ("REJECTED", s.REJECTED),
            ("UNVERIFIABLE", s.UNVERIFIABLE),
            ("NO_SIGNOFF", s.NO_SIGNOFF),
            ("NOT_GATED", s.NOT_GATED),
        )
    )
    where = f"report written to {out}" if out else "report on standard output"
    partial = " (partial)" if report.stopped is not None else ""
    return (
        f"signoff: audited {len(report.prs)} merged PRs{partial}: {counts}; "
        f"{s.disagreements} disagreements; {report.cost.requests} requests; {where}"
    )


def run_audit_command(
    repository: str,
    *,
    since: str | None = None,
    until: str | None = None,
    prs: Sequence[int] = (),
    base: str | None = None,
    standard: str = "at-the-time",
    fmt: str = "markdown",
    out: str | None = None,
    evidence_dir: str | None = None,
    cache_dir: str | None = None,
    jobs: int = 4,
    shard: str | None = None,
    max_requests: int | None = None,
    progress: bool = True,
    api_url: str | None = None,
    token_env: str | None = None,
    profile: str | None = None,
    replay: str | None = None,
) -> int:
    """`signoff audit OWNER/REPO ...`; `replay` plays a recorded cassette instead of GitHub.

    A replay never touches the user's cache: without `--cache-dir` it runs on a temporary one,
    and with it every entry is keyed by the recording (see `signoff.audit.cache`).
    """
    outputs: Outputs | None = None
    try:
        policy = load_policy(profile)
        request = build_request(
            repository,
            since=since,
            until=until,
            prs=prs,
            base=base,
            standard=standard,
            jobs=jobs,
            shard=shard,
            max_requests=max_requests,
            policy=policy,
        )
        if token_env is not None and not token_env.strip():
            raise InputError("--token-env needs the name of an environment variable")
        token = read_token(token_env, api_url)[1] or (REPLAY_TOKEN if replay else "")
        if not token:
            missing = token_missing(token_env, api_url)
            raise InputError(f"{missing} (a token that can read {repository})")
        origin = _origin(replay, api_url)
        outputs = Outputs.claim(out, evidence_dir)
        with _cache_folder(cache_dir, replay, api_url) as folder:
            cache = HttpCache(folder, origin)
            meter = Meter()
            mode: Mode = "test" if replay else "production"
            with _replaying(replay), installed(make_adapter(cache, meter, jobs, mode)):
                gh = connect(token, REPLAY_API_URL if replay else api_url, mode=mode)
                result = run_audit(gh, request, policy, meter, cache=cache, progress=progress)
        write_outputs(result, fmt, outputs)
    except SignoffError as exc:
        if outputs is not None and exc.exit_code == ExitCode.BAD_INPUT:
            outputs.abandon()
        print(f"signoff: {log_line(str(exc))}", file=sys.stderr)
        return int(exc.exit_code)
    if result.report.stopped is not None:
        print(f"signoff: partial report: {log_line(result.report.stopped.reason)}", file=sys.stderr)
    if progress and sys.stderr.isatty():
        print(summary_line(result.report, out), file=sys.stderr)
    return exit_code(result.report)


def _origin(replay: str | None, api_url: str | None) -> str:
    if replay is None:
        return live_origin(resolve_api_url(api_url))
    check_cassette(Path(replay))
    try:
        return replay_origin(replay)
    except OSError as exc:
        raise InputError(f"{replay}: cannot read the cassette ({why(exc)})") from None


@contextmanager
def _cache_folder(cache_dir: str | None, replay: str | None, api_url: str | None) -> Iterator[Path]:
    """`--cache-dir`, else a replay's own temporary folder, else the user's cache folder."""
    if cache_dir is not None:
        yield claim_folder(cache_dir, "--cache-dir", 0o700)
    elif replay is not None:
        with tempfile.TemporaryDirectory(prefix="signoff-replay-cache-") as folder:
            yield Path(folder)
    else:
        yield claim_folder(str(default_cache_dir(api_url)), "the cache folder", 0o700)


def _replaying(cassette: str | None) -> AbstractContextManager[object]:
    return nullcontext() if cassette is None else play(cassette, MATCH_URI)


def run_merge_command(paths: Sequence[str], *, fmt: str = "json", out: str | None = None) -> int:
    """`signoff audit merge REPORT.json ...`"""
    try:
        merged = merge_reports([(path, load_report(path)) for path in paths])
        report_out = ReportOut.claim(out) if out is not None else None
        text = render(merged, fmt)
        if report_out is not None:
            report_out.write(text)
        else:
            sys.stdout.write(text)
    except SignoffError as exc:
        print(f"signoff: {log_line(str(exc))}", file=sys.stderr)
        return int(exc.exit_code)
    return exit_code(merged)
