"""The gathering sequence: what to read, in which order, and when to stop reading."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from github import Github
from github.GithubException import GithubException

from signoff.client import Deadline
from signoff.errors import GatherError
from signoff.evidence import DirListing, Evidence, FileRead, TeamMembership, UpstreamLink
from signoff.gather import check_runs, evals, files, pull, teams, upstream, wants
from signoff.gather.api import Api, error_status
from signoff.gather.signoff_body import fetch_signoff
from signoff.gather.signoff_edits import read_signoff_edits
from signoff.judge.context import JudgeContext
from signoff.judge.model import WantRole
from signoff.parse.master_config import script_candidates
from signoff.policy import Policy
from signoff.refs import SignoffRef
from signoff.standards import Standard, iso, resolve_standard


def gather_evidence(
    gh: Github,
    ref: SignoffRef,
    policy: Policy,
    *,
    pinned_head: str | None = None,
    pull_json: Mapping[str, object] | None = None,
    deadline: Deadline | None = None,
    standard: Standard | None = None,
    reviewed_at: datetime | None = None,
    policy_refs: Mapping[str, str] | None = None,
) -> Evidence:
    """Everything the standard's checks need for one sign-off, judged at `pinned_head` (default:
    head now) as of `reviewed_at` (default: now; an audit passes the sign-off's instant).

    `pull_json` is the PR as already read when the head was pinned (saves one request).
    `policy_refs` reads the default-branch files at other commits (an audit judges with the
    files of an earlier instant): a path maps to the commit to read that file at, and the key
    "*" to the commit for every other default-branch read (MODELS.md, waivers, ...).
    """
    api = Api(gh, deadline)
    chosen = standard if standard is not None else resolve_standard(None, policy)
    when = iso(reviewed_at if reviewed_at is not None else datetime.now(UTC))
    refs = dict(policy_refs or {})
    try:
        evidence = _gather(api, ref, policy, chosen, pinned_head, pull_json, refs)
        if evidence.head_moved_to and _listed_files_at_head(evidence, pinned_head, pull_json):
            # The files list answers for the PR's head at the time of the request, which has
            # moved since the pin: gather again, reading the PR's diff at the pinned commit.
            pin = evidence.pull_request.head_sha
            evidence = _gather(api, ref, policy, chosen, pin, None, refs)
        edits = read_signoff_edits(gh, evidence.signoff, api.deadline)
        update = {"signoff_edits": edits, "standard": chosen.record(), "reviewed_at": when}
        return evidence.model_copy(update=update)
    except GithubException as exc:  # anything a step did not turn into evidence
        raise GatherError(f"could not verify: GitHub answered {error_status(exc)}") from None


def _listed_files_at_head(
    evidence: Evidence, pinned_head: str | None, pull_json: Mapping[str, object] | None
) -> bool:
    """Whether the changed files came from the files list (the pin was the head when read)."""
    first_head = pull.head_sha(dict(pull_json)) if pull_json is not None else None
    return pinned_head is None or first_head is None or first_head == pinned_head


def _gather(
    api: Api,
    ref: SignoffRef,
    policy: Policy,
    standard: Standard,
    pinned_head: str | None,
    pull_json: Mapping[str, object] | None,
    policy_refs: Mapping[str, str],
) -> Evidence:
    repo = ref.full_name
    raw_pull = dict(pull_json) if pull_json is not None else pull.read_pull(api, ref)
    pinned = pinned_head or pull.head_sha(raw_pull)
    fields = _pull_fields(api, ref, raw_pull, pinned)
    paths = policy.paths
    default_branch = fields["repository"].default_branch
    thresholds = standard.switches.thresholds or paths.thresholds
    policy_files = [paths.codeowners, paths.template, thresholds]
    default_ref = policy_refs.get("*", default_branch)
    reads = [
        files.read_file(api, repo, path, policy_refs.get(path, default_ref), "default")
        for path in policy_files
    ]

    ctx = JudgeContext(Evidence(**fields, files=tuple(reads)), policy, standard)
    masters = ctx.changed_master_files
    base_sha = fields["pull_request"].base_sha
    head_reads = files.read_all(api, repo, masters, pinned, "head")
    reads += files.read_all(api, repo, masters, base_sha, "base") + head_reads

    ctx = JudgeContext(Evidence(**fields, files=tuple(reads)), policy, standard)
    reads += _read_scripts(api, repo, ctx, pinned)
    ctx = JudgeContext(Evidence(**fields, files=tuple(reads)), policy, standard)

    order = check_runs.scan_order(fields["commits"], pinned)
    found = check_runs.find_sweep(api, repo, order, ctx.sweep_scopes, policy)
    sweep_sha, run_id = found.sha, found.run_id
    fields["commit_checks"], fields["workflow_runs"] = found.examined, found.workflow_runs
    fields["commit_checks_truncated"] = sweep_sha is None and len(order) > len(found.examined)
    if sweep_sha == pinned:
        reads += files.as_role(head_reads, "eval")  # the head reads are the sweep commit's
    elif sweep_sha is not None:
        fields["sweep_diff"] = check_runs.read_diff_at(api, repo, base_sha, sweep_sha)
        reads += files.read_all(api, repo, masters, sweep_sha, "eval")
    if sweep_sha is not None and run_id is not None:
        fields["evals"] = (evals.gather_evals(api, repo, run_id, sweep_sha),)

    fields["memberships"] = _read_memberships(api, ctx, fields["signoff"].author)
    fields["upstream"] = _read_upstream(api, ctx, policy)
    refs: dict[WantRole, str] = {"default": default_ref, "base": base_sha, "head": pinned}
    wanted, fields["listings"] = _read_wanted(api, repo, policy, standard, fields, reads, refs)
    reads += wanted
    now = pull.head_sha(pull.read_pull(api, ref))
    fields["head_moved_to"] = now if now != pinned else None
    return Evidence(**fields, files=tuple(reads))


def _pull_fields(
    api: Api, ref: SignoffRef, raw_pull: dict[str, Any], pinned: str
) -> dict[str, Any]:
    if pinned == pull.head_sha(raw_pull):
        changed, files_truncated = pull.list_files(api, ref, raw_pull)
    else:
        # The head moved after the gate pinned it: judge the PR's files as of the pinned commit
        # (one compare against the base instead of the files list; compare lists <= 300 files).
        base_sha = pull.to_pull_request(raw_pull, pinned).base_sha
        at_pin = check_runs.read_diff_at(api, ref.full_name, base_sha, pinned)
        changed, files_truncated = at_pin.files, not at_pin.complete
    commits, commits_truncated = pull.list_commits(api, ref, raw_pull)
    raw_comments = pull.list_comments(api, ref)
    return {
        "repository": pull.to_repository(ref, raw_pull),
        "pull_request": pull.to_pull_request(raw_pull, pinned),
        "changed_files": changed,
        "files_truncated": files_truncated,
        "commits": commits,
        "commits_truncated": commits_truncated,
        "signoff": fetch_signoff(api, ref, raw_comments),
        "comments": tuple(pull.to_comment(item) for item in raw_comments),
    }


def _read_scripts(api: Api, repo: str, ctx: JudgeContext, pinned: str) -> list[FileRead]:
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


def _read_wanted(
    api: Api,
    repo: str,
    policy: Policy,
    standard: Standard,
    fields: dict[str, Any],
    reads: list[FileRead],
    refs: dict[WantRole, str],
) -> tuple[list[FileRead], tuple[DirListing, ...]]:
    """The extra reads the standard's checks ask for (none for checks without `wants`)."""
    base = Evidence(**fields, files=tuple(reads))

    def build(more: tuple[FileRead, ...], listings: tuple[DirListing, ...]) -> JudgeContext:
        evidence = base.model_copy(update={"files": (*base.files, *more), "listings": listings})
        return JudgeContext(evidence, policy, standard)

    wanted, listings = wants.read_wanted(api, repo, build, refs, base)
    return wanted, tuple(listings)


def _read_memberships(api: Api, ctx: JudgeContext, signer: str) -> tuple[TeamMembership, ...]:
    owners = ctx.codeowners
    if owners is None or not signer:
        return ()
    return teams.read_memberships(
        api, teams.teams_to_check(owners, ctx.changed_paths, signer), signer
    )


def _read_upstream(api: Api, ctx: JudgeContext, policy: Policy) -> tuple[UpstreamLink, ...]:
    refs = ctx.recipe_links[: upstream.MAX_LINKS]  # the judge reads the same list
    return tuple(upstream.read_link(api, ref, policy.recipe) for ref in refs)
