"""The first reads: everything the PR object alone names, sent as soon as the pin answers.

Files, commits and comments (every page the PR declares), the sign-off itself unless the
comment list holds it, the policy files on the default branch (or at an audit's commits) and
the pinned head's check runs. Gathering sends them as its stage 1 (`stages`); `signoff verify`
sends them from the thread that pins the PR (`signoff.gather.start`), while the judge and its
parsers are still being imported. Sending the same read twice sends it once (`Api.prefetch`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from signoff.gather import commit_runs, pull_graph, pull_request, signoff_body
from signoff.github.api import Api
from signoff.policy import Policy
from signoff.refs import SignoffRef
from signoff.standards import Standard


def policy_files(policy: Policy, standard: Standard) -> list[str]:
    """The default branch's files every verdict reads: CODEOWNERS, the template, thresholds."""
    paths = policy.paths
    return [paths.codeowners, paths.template, standard.switches.thresholds or paths.thresholds]


def policy_ref(path: str, default_branch: str, policy_refs: Mapping[str, str]) -> str:
    """Where a default-branch file is read: the branch, or the audit's commit for it."""
    return policy_refs.get(path, policy_refs.get("*", default_branch))


def send(
    api: Api,
    ref: SignoffRef,
    raw_pull: dict[str, Any],
    pinned: str,
    policy: Policy,
    standard: Standard,
    policy_refs: Mapping[str, str],
) -> None:
    """Send every first read ahead (the files list only when `pinned` is the PR's head)."""
    repo = ref.full_name
    default_branch = pull_request.to_repository(ref, raw_pull).default_branch
    at_head = pinned == pull_request.head_sha(raw_pull)
    pull_request.prefetch_listing(api, ref, raw_pull, with_files=at_head)
    policy_reads = [
        (p, policy_ref(p, default_branch, policy_refs)) for p in policy_files(policy, standard)
    ]
    # One GraphQL query when the api folds texts, with the commits, comments and head's checks;
    # sent after the REST lists, so that none of them goes out after its answer is in (on a PR
    # at GitHub's caps, sending 45 reads takes a while).
    declared = (int(raw_pull["commits"]), int(raw_pull["comments"]))
    pull_graph.fold(api, repo, ref.pr, declared, pinned, policy_reads)
    if ref.kind != "conversation comment":  # (a conversation comment is in the comment list)
        signoff_body.prefetch(api, ref)
    commit_runs.prefetch_commit_checks(api, repo, pinned, keep=True)  # stage 2 looks
