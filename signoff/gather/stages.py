"""The gathering plan: what to read, in which stage, and when to stop reading.

Each stage first sends ahead every read it already knows it needs (at most `pool.WORKERS` in
flight), then takes the answers in a fixed order, so the evidence is byte-identical to a
sequential run's whatever order the answers arrive in:

1. what the PR object names: files, commits and comments (every declared page), the policy
   files on the default branch, the check runs of the pinned head;
2. what the files, the sign-off and the head's check runs name: master configs at base and
   head, changed scripts, team memberships, upstream recipe links (each PR and its files list
   together), the sign-off's edit history (GraphQL, on its own), the workflow runs the head's
   green check runs name (each run with its jobs), and their artifact list when those check runs
   look green;
3. the sweep: older commits' check runs (newest first, only while none qualified), the PR's
   diff at an older sweep commit, the eval artifacts, and the head once more.

`bench_latency.py --trace` prints the resulting rounds of requests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from github.GithubException import GithubException

from signoff.errors import GatherError
from signoff.evidence import (
    DirListing,
    EvalResults,
    Evidence,
    FileRead,
    SignOff,
    SignoffEdits,
    TeamMembership,
    UpstreamLink,
    WantRole,
)
from signoff.gather import (
    commit_runs,
    evals,
    files,
    first_reads,
    pull_request,
    signoff_edits,
    sweep_scan,
    teams,
    upstream,
    wants,
)
from signoff.gather.plan import Plan, View
from signoff.gather.signoff_body import fetch_signoff
from signoff.gather.signoff_edits import read_signoff_edits
from signoff.github.api import Api, error_status
from signoff.github.client import Connection, Deadline
from signoff.github.comments import to_comment
from signoff.parse.comment.links import RecipeLinkRef
from signoff.parse.inferencex.master_config import script_candidates
from signoff.policy import Policy
from signoff.refs import SignoffRef
from signoff.standards import Standard, iso
from signoff.sweep_families import candidate_run_ids

# Told (sign-off, conversation comments read) when the last reads go out.
LastReads = Callable[[SignOff, int], None]


def gather_evidence(
    gh: Connection,
    ref: SignoffRef,
    policy: Policy,
    *,
    standard: Standard,
    plan: Plan,
    pinned_head: str | None = None,
    pull_json: Mapping[str, object] | None = None,
    deadline: Deadline | None = None,
    workers: int = 0,
    reviewed_at: datetime | None = None,
    policy_refs: Mapping[str, str] | None = None,
    started: Api | None = None,
    last_reads: LastReads | None = None,
) -> Evidence:
    """Everything the standard's checks need for one sign-off, judged at `pinned_head` (default:
    head now) as of `reviewed_at` (default: now; an audit passes the sign-off's instant).

    `plan` says what the reads so far lead to and when the sweep scan may stop (the caller's,
    signoff/gather/plan.py); `standard` is the one the caller resolved and judges under.

    `pull_json` is the PR as already read when the head was pinned (saves one request).
    `workers`: reads in flight at once (0: `pool.WORKERS`; 1: one after another, inline).
    `started`: the session the pin and the first reads went out in (`signoff.gather.start`);
    its answers are taken, and it is closed here (`deadline` and `workers` are its own).
    `last_reads` is told, with the sign-off and the number of conversation comments read, when
    the last reads (the artifacts, the head once more) go out: a publishing run sends the
    sign-off lists it reads before writing alongside them.
    `policy_refs` reads the default-branch files at other commits (an audit judges with the
    files of an earlier instant): a path maps to the commit to read that file at, and the key
    "*" to the commit for every other default-branch read (MODELS.md, waivers, ...).
    """
    when = iso(reviewed_at if reviewed_at is not None else datetime.now(UTC))
    refs = dict(policy_refs or {})
    # File texts go out folded into GraphQL queries, except in an audit (`policy_refs`), whose
    # HTTP cache revalidates REST reads.
    folding = policy_refs is None
    with started or Api(gh, deadline, workers=workers, fold_texts=folding) as api:
        edits = _Edits(api)
        try:
            pass_args = (api, ref, policy, standard, plan, refs, edits, last_reads)
            evidence = _gather(*pass_args, pinned_head, pull_json)
            if evidence.head_moved_to and _listed_files_at_head(evidence, pinned_head, pull_json):
                # The files list answers for the PR's head at the time of the request, which
                # has moved since the pin: gather again, reading the PR's diff at the pin.
                pin = evidence.pull_request.head_sha
                evidence = _gather(*pass_args, pin, None)
        except GithubException as exc:  # anything a step did not turn into evidence
            raise GatherError(f"could not verify: GitHub answered {error_status(exc)}") from None
        history = edits.result(evidence.signoff)
    update: dict[str, object] = {
        "signoff_edits": history, "standard": standard.record(), "reviewed_at": when,
    }  # fmt: skip
    if standard.slot("pr-description") is None:
        # The description is kept only for the check that reads it (E11+ Check 15), so the
        # bundles of other standards stay as they were.
        pull_request = evidence.pull_request.model_copy(update={"body": None})
        update["pull_request"] = pull_request
    return evidence.model_copy(update=update)


class _Edits:
    """The sign-off's edit history, read once per verification on a worker of its own as soon
    as the sign-off (its node id) is known; a second pass at the pin reuses it (same comment)."""

    def __init__(self, api: Api) -> None:
        self._api = api
        self._task: Future[SignoffEdits] | None = None

    def start(self, signoff: SignOff, sent: files.Sent | None = None) -> None:
        """`sent`: the texts query its first page rides in (`signoff_edits.folded`)."""
        if self._task is None:
            self._task = self._api.start(read_signoff_edits, self._api, signoff, sent)

    @property
    def started(self) -> bool:
        return self._task is not None

    def result(self, signoff: SignOff) -> SignoffEdits:
        self.start(signoff)
        assert self._task is not None
        return self._task.result()


def _listed_files_at_head(
    evidence: Evidence, pinned_head: str | None, pull_json: Mapping[str, object] | None
) -> bool:
    """Whether the changed files came from the files list (the pin was the head when read)."""
    first_head = pull_request.head_sha(dict(pull_json)) if pull_json is not None else None
    return pinned_head is None or first_head is None or first_head == pinned_head


@dataclass
class _Pass:
    """One pass of gathering at one pinned head: where it reads and what it has so far."""

    api: Api
    ref: SignoffRef
    policy: Policy
    standard: Standard
    plan: Plan
    policy_refs: Mapping[str, str]
    pinned: str
    last_reads: LastReads | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    reads: list[FileRead] = field(default_factory=list)

    @property
    def repo(self) -> str:
        return self.ref.full_name

    def context(self) -> View:
        """What the reads so far tell (the next stage's reads depend on it)."""
        evidence = Evidence(**self.fields, files=tuple(self.reads))
        return self.plan.view(evidence, self.policy, self.standard)

    def policy_ref(self, path: str, default_branch: str) -> str:
        """Where a default-branch file is read: the branch, or the audit's commit for it."""
        return first_reads.policy_ref(path, default_branch, self.policy_refs)


def _gather(
    api: Api,
    ref: SignoffRef,
    policy: Policy,
    standard: Standard,
    plan: Plan,
    policy_refs: Mapping[str, str],
    edits: _Edits,
    last_reads: LastReads | None,
    pinned_head: str | None,
    pull_json: Mapping[str, object] | None,
) -> Evidence:
    raw_pull = dict(pull_json) if pull_json is not None else pull_request.read_pull(api, ref)
    pinned = pinned_head or pull_request.head_sha(raw_pull)
    run = _Pass(api, ref, policy, standard, plan, policy_refs, pinned, last_reads)
    _stage_one(run, raw_pull)
    memberships, links, head_reads = _stage_two(run, edits)
    _stage_three(run, head_reads)
    run.fields["memberships"] = tuple(future.result() for future in memberships)
    run.fields["upstream"] = _upstream_links(links)
    _read_wanted(run)
    now = pull_request.head_sha(pull_request.read_pull(api, ref))
    run.fields["head_moved_to"] = now if now != run.pinned else None
    return Evidence(**run.fields, files=tuple(run.reads))


def _stage_one(run: _Pass, raw_pull: dict[str, Any]) -> None:
    """What the PR object names: its lists, the policy files, the pinned head's check runs."""
    api, ref, repo = run.api, run.ref, run.repo
    default_branch = pull_request.to_repository(ref, raw_pull).default_branch
    first_reads.send(api, ref, raw_pull, run.pinned, run.policy, run.standard, run.policy_refs)
    at_head = run.pinned == pull_request.head_sha(raw_pull)
    run.fields.update(_pull_fields(api, ref, raw_pull, run.pinned, at_head))
    run.reads += [
        files.read_file(api, repo, path, run.policy_ref(path, default_branch), "default")
        for path in first_reads.policy_files(run.policy, run.standard)
    ]


def _stage_two(
    run: _Pass, edits: _Edits
) -> tuple[list[Future[TeamMembership]], _Links, list[FileRead]]:
    """What the files and the sign-off name: configs, scripts, teams, upstream, the head's runs;
    the sign-off's edit history rides in the texts query (when the api folds texts)."""
    api, repo, pinned = run.api, run.repo, run.pinned
    ctx = run.context()
    masters = ctx.changed_master_files
    base_sha = run.fields["pull_request"].base_sha
    stage_reads = [(path, pinned) for path in masters] + [(path, base_sha) for path in masters]
    stage_reads += [(path, pinned) for path in _scripts_to_read(ctx)]
    signoff = run.fields["signoff"]
    extra = signoff_edits.folded(signoff) if api.fold_texts and not edits.started else None
    # (one GraphQL query when the api folds texts)
    edits.start(signoff, files.prefetch_at(api, repo, stage_reads, extra=extra))
    memberships = _start_memberships(api, ctx, run.fields["signoff"].author)
    links = _start_upstream(api, ctx, run.policy)
    order = sweep_scan.scan_order(run.fields["commits"], pinned)
    _prefetch_head_runs(api, repo, order, run.policy)
    head_reads = files.read_all(api, repo, masters, pinned, "head")
    run.reads += files.read_all(api, repo, masters, base_sha, "base") + head_reads
    run.reads += _read_scripts(api, repo, run.context(), pinned)
    return memberships, links, head_reads


def _stage_three(run: _Pass, head_reads: list[FileRead]) -> None:
    """The sweep: the qualifying commit, the PR's diff there, its evals; the head once more."""
    api, repo, pinned, policy = run.api, run.repo, run.pinned, run.policy
    ctx = run.context()
    order = sweep_scan.scan_order(run.fields["commits"], pinned)
    found = sweep_scan.find_sweep(api, repo, order, ctx.sweep_scopes, policy, run.plan)
    sweep_sha, run_id = found.sha, found.run_id
    run.fields["commit_checks"], run.fields["workflow_runs"] = found.examined, found.workflow_runs
    run.fields["commit_checks_truncated"] = sweep_sha is None and len(order) > len(found.examined)
    pull_request.prefetch_pull(api, run.ref)  # the head at the end, read alongside the artifacts
    if run.last_reads is not None:
        run.last_reads(run.fields["signoff"], len(run.fields["comments"]))
    masters, base_sha = ctx.changed_master_files, run.fields["pull_request"].base_sha
    older = sweep_sha is not None and sweep_sha != pinned
    if older:
        assert sweep_sha is not None
        sweep_scan.prefetch_diff_at(api, repo, base_sha, sweep_sha)
        files.prefetch(api, repo, masters, sweep_sha)
        if run_id is not None:
            evals.prefetch(api, repo, run_id)
    results: Future[EvalResults] | None = None
    if sweep_sha is not None and run_id is not None:
        # On a worker of its own: the zip goes out once the artifact list is in, not after the
        # diff at an older sweep commit too (nothing else reads the list or the zip).
        results = api.start(evals.gather_evals, api, repo, run_id, sweep_sha)
    if sweep_sha == pinned:
        run.reads += files.as_role(head_reads, "eval")  # the head reads are the sweep commit's
    elif older:
        assert sweep_sha is not None
        run.fields["sweep_diff"] = sweep_scan.read_diff_at(api, repo, base_sha, sweep_sha)
        run.reads += files.read_all(api, repo, masters, sweep_sha, "eval")
    if results is not None:
        run.fields["evals"] = (results.result(),)
        if run.standard.slot("pareto-coverage") is not None:  # Check 14 (E10+) only
            assert run_id is not None
            run.fields["throughput"] = evals.gather_throughput(api, repo, run_id)


def _read_wanted(run: _Pass) -> None:
    """The extra reads the standard's checks ask for (none for checks without `wants`)."""
    base = Evidence(**run.fields, files=tuple(run.reads))
    default_branch = run.fields["repository"].default_branch
    refs: dict[WantRole, str] = {
        "default": run.policy_refs.get("*", default_branch),
        "base": run.fields["pull_request"].base_sha,
        "head": run.pinned,
    }

    def build(more: tuple[FileRead, ...], listings: tuple[DirListing, ...]) -> View:
        evidence = base.model_copy(update={"files": (*base.files, *more), "listings": listings})
        return run.plan.view(evidence, run.policy, run.standard)

    wanted, listings = wants.read_wanted(run.api, run.repo, build, refs, base)
    run.reads += wanted
    run.fields["listings"] = tuple(listings)


def _pull_fields(
    api: Api, ref: SignoffRef, raw_pull: dict[str, Any], pinned: str, at_head: bool
) -> dict[str, Any]:
    listing = pull_request.read_listing(api, ref, raw_pull, with_files=at_head)
    changed, files_truncated = listing.files, listing.files_truncated
    if not at_head:
        # The head moved after the gate pinned it: judge the PR's files as of the pinned commit
        # (one compare against the base instead of the files list; compare lists <= 300 files).
        base_sha = pull_request.to_pull_request(raw_pull, pinned).base_sha
        at_pin = sweep_scan.read_diff_at(api, ref.full_name, base_sha, pinned)
        changed, files_truncated = at_pin.files, not at_pin.complete
    raw_comments = pull_request.list_comments(api, ref)
    return {
        "repository": pull_request.to_repository(ref, raw_pull),
        "pull_request": pull_request.to_pull_request(raw_pull, pinned),
        "changed_files": changed,
        "files_truncated": files_truncated,
        "commits": listing.commits,
        "commits_truncated": listing.commits_truncated,
        "signoff": fetch_signoff(api, ref, raw_comments),
        "comments": tuple(to_comment(item) for item in raw_comments),
    }


def _prefetch_head_runs(api: Api, repo: str, order: list[str], policy: Policy) -> None:
    """The workflow runs the head's green check runs name (each with its first jobs page), and
    the artifact list of the one run when its check runs look green, sent with stage 2; when
    they do not, the next older commit's check runs instead (`sweep_scan.send_ahead`).

    Which scopes the PR needs is known only once the master configs are read, so the runs named
    for any scope go out: nearly always the one sweep run the PR's scopes name too. Its artifact
    list is read only when the sweep qualifies; check runs that look green almost always mean it
    does, and an artifact list sent for nothing costs one request on a sweep that FAILs. The
    scan of older commits waits for the configs (it needs the scopes), but not for their reads.
    """
    head_checks = commit_runs.read_commit_checks(api, repo, order[0])
    run_ids = candidate_run_ids(head_checks, tuple(sorted(policy.sweep.scopes)), policy)
    sweep_scan.send_ahead(api, repo, head_checks, run_ids, order[1:2], policy)


def _scripts_to_read(ctx: View) -> list[str]:
    """Changed scripts whose text the patch does not give (`_read_scripts` reads them)."""
    return [c.path for c in ctx.changed_scripts if files.text_of_added(c) is None]


def _read_scripts(api: Api, repo: str, ctx: View, pinned: str) -> list[FileRead]:
    """Changed scripts, then each changed entry's candidates until one exists (all at the head)."""
    reads: dict[str, FileRead] = {}
    for changed in ctx.changed_scripts:
        text = files.text_of_added(changed)
        if text is not None:
            reads[changed.path] = FileRead(path=changed.path, role="head", sha=pinned, text=text)
        else:
            reads[changed.path] = files.read_file(api, repo, changed.path, pinned, "head")
    for entry in ctx.changed_entries:
        for candidate in script_candidates(entry):
            if candidate not in reads:
                reads[candidate] = files.read_file(api, repo, candidate, pinned, "head")
            if reads[candidate].state == "ok":
                break
    return [reads[path] for path in sorted(reads)]


def _start_memberships(api: Api, ctx: View, signer: str) -> list[Future[TeamMembership]]:
    owners = ctx.codeowners
    if owners is None or not signer:
        return []
    wanted = teams.teams_to_check(owners, ctx.changed_paths, signer)
    return [api.start(teams.read_membership, api, team, signer) for team in wanted]


_Links = tuple[tuple[RecipeLinkRef, ...], list[Future[list[UpstreamLink]]]]


def _start_upstream(api: Api, ctx: View, policy: Policy) -> _Links:
    """One task per upstream target: links to the same PR or page are read one after another."""
    refs = ctx.recipe_links[: upstream.MAX_LINKS]  # the judge reads the same list
    groups: dict[tuple[str, str], list[RecipeLinkRef]] = {}
    for ref in refs:
        groups.setdefault(_target(ref), []).append(ref)
    for group in groups.values():  # sent before the tasks start, so no task waits behind them
        upstream.prefetch(api, group[0])
    return refs, [api.start(_read_links, api, group, policy) for group in groups.values()]


def _read_links(api: Api, refs: Sequence[RecipeLinkRef], policy: Policy) -> list[UpstreamLink]:
    return [upstream.read_link(api, ref, policy.recipe) for ref in refs]


def _upstream_links(links: _Links) -> tuple[UpstreamLink, ...]:
    """The links in the sign-off's order (the tasks are one per target)."""
    refs, tasks = links
    answers = [iter(task.result()) for task in tasks]
    targets = list(dict.fromkeys(_target(ref) for ref in refs))
    return tuple(next(answers[targets.index(_target(ref))]) for ref in refs)


def _target(ref: RecipeLinkRef) -> tuple[str, str]:
    return (ref.repo, str(ref.number)) if ref.kind == "pull" else (ref.kind, ref.url)
