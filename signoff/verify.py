"""The one place gather, judge and publish meet: pin the head, gather, judge, then write.

Writing is refused (nothing written, one line why) for a comment that is not a sign-off (exit 2)
and for a sign-off that may not replace the head's verdict (not a possible CODEOWNER, or a newer
sign-off exists: exit 0); see signoff/judge/eligibility.py.

`verify()` never raises GatherError/PublishError: it returns them in the outcome, so the action
can still write its outputs and an `error` status. `run_verify_command()` is `signoff verify`.
"""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Literal

from github import Github, GithubException
from pydantic import BaseModel, ConfigDict
from vcr.errors import CannotOverwriteExistingCassetteException

from signoff.client import connect
from signoff.errors import ExitCode, GatherError, InputError, PublishError, SignoffError
from signoff.evidence import Evidence, dump_evidence
from signoff.gate import signoff_problem
from signoff.gather import fetch_signoff, gather_evidence, pin_pull
from signoff.gather.signoffs import PostedNow, read_posted
from signoff.judge import judge
from signoff.judge.eligibility import publish_blocker, superseded
from signoff.judge.model import Verdict
from signoff.policy import Policy, load_policy
from signoff.publish.comment import describe_github_error, publish_comment, resolve_identity
from signoff.publish.render import render_json, render_markdown
from signoff.publish.sanitize import log_line
from signoff.publish.status import StatusState, plan_status, publish_status
from signoff.refs import SignoffRef, parse_signoff_url
from signoff.replay import replay
from signoff.standards import Standard, resolve_standard

OutputFormat = Literal["markdown", "json"]
OutcomeResult = Literal["PASS", "REJECTED", "ERROR", "SKIPPED"]
REPLAY_TOKEN = "replay-token"  # any token will do: cassettes carry no Authorization header


class VerifyOutcome(BaseModel):
    """What one verification produced; `error` set means it could not verify (or not publish)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: SignoffRef
    head_sha: str | None = None  # the pinned head, when it could be read
    verdict: Verdict | None = None
    evidence: Evidence | None = None
    comment_url: str = ""
    comment_action: str = ""  # created / updated / unchanged / "" (not posted)
    status_state: StatusState | None = None  # the state we POSTed, None when no status was written
    error: str = ""
    not_signoff: str = ""  # publishing asked, but the comment is no sign-off: nothing written
    skipped: str = ""  # publishing asked, but this verification may not write: nothing written

    @property
    def result(self) -> OutcomeResult:
        if self.not_signoff:
            return "ERROR"  # bad input (exit 2)
        if self.skipped:
            return "SKIPPED"
        if self.error or self.verdict is None:
            return "ERROR"
        return self.verdict.outcome

    @property
    def exit_code(self) -> ExitCode:
        if self.not_signoff:
            return ExitCode.BAD_INPUT
        return {
            "PASS": ExitCode.PASS,
            "REJECTED": ExitCode.REJECTED,
            "SKIPPED": ExitCode.PASS,
            "ERROR": ExitCode.COULD_NOT_VERIFY,
        }[self.result]


class PublishOptions(BaseModel):
    """How to write back: which identity, whether to comment, status context, error link."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    post_comment: bool = True
    status_context: str | None = None  # None: policy.publish.status_context
    run_url: str = ""  # target of an `error` status (the workflow run)


def verify(
    gh: Github,
    ref: SignoffRef,
    policy: Policy,
    *,
    publish: bool,
    identity: str | None,
    pinned_head: str | None = None,
    options: PublishOptions | None = None,
    standard: Standard | None = None,
    reviewed_at: datetime | None = None,
) -> VerifyOutcome:
    """Pin the head SHA, gather, judge under `standard` (default: the profile's) as of
    `reviewed_at` (default: now) and (when `publish`) write the comment and status."""
    opts = options or PublishOptions()
    chosen = standard if standard is not None else resolve_standard(None, policy)
    outcome = VerifyOutcome(ref=ref)
    try:
        # Pin first: every check, the comment marker and the status use this SHA, even if the
        # PR head moves while we work (TOCTOU-safe anchor, facts §5).
        pinned = pin_pull(gh, ref)
        sha = pinned_head or pinned.head_sha
        outcome = outcome.model_copy(update={"head_sha": sha})
        evidence = gather_evidence(
            gh, ref, policy, pinned_head=sha, pull_json=pinned.raw, standard=chosen,
            reviewed_at=reviewed_at,
        )  # fmt: skip
    except GatherError as exc:
        return _publish_error(
            gh, outcome.model_copy(update={"error": str(exc)}), policy, publish, opts
        )
    verdict = judge(evidence, policy, chosen)
    outcome = outcome.model_copy(update={"verdict": verdict, "evidence": evidence})
    return publish_outcome(gh, outcome, policy, identity, opts) if publish else outcome


def publish_outcome(
    gh: Github,
    outcome: VerifyOutcome,
    policy: Policy,
    identity: str | None,
    options: PublishOptions | None = None,
) -> VerifyOutcome:
    """Write the judged verdict (comment, status) unless this comment may not replace it."""
    evidence, verdict = outcome.evidence, outcome.verdict
    if evidence is None or verdict is None:
        raise ValueError("publish_outcome needs a judged outcome")
    refusal = _refusal(evidence, policy)
    if refusal:
        return outcome.model_copy(update=refusal)
    try:
        opts = options or PublishOptions()
        return _publish_verdict(gh, outcome, evidence, verdict, policy, identity, opts)
    except (PublishError, GatherError) as exc:
        return outcome.model_copy(update={"error": str(exc)})


def _refusal(evidence: Evidence, policy: Policy) -> dict[str, str]:
    """Why nothing may be written for this comment (empty when it may publish).

    Not a sign-off (the gate's reading: a verdict, a bot's comment, no opener): bad input.
    A sign-off by someone who cannot be a CODEOWNER: skipped; it could only overwrite an owner's
    verdict with a REJECTED.
    """
    signoff = evidence.signoff
    problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, policy)
    if problem:
        return {"not_signoff": f"{signoff.url} is not a sign-off: {problem}; nothing written"}
    blocker = publish_blocker(evidence, policy)
    return {"skipped": blocker} if blocker else {}


def _publish_verdict(
    gh: Github,
    outcome: VerifyOutcome,
    evidence: Evidence,
    verdict: Verdict,
    policy: Policy,
    identity: str | None,
    opts: PublishOptions,
) -> VerifyOutcome:
    # Right before writing: only the newest sign-off's verification writes, and only if the
    # sign-off is still the text that was judged (concurrent runs converge on its verdict).
    posted = _read_posted(gh, outcome.ref)
    why_not = superseded(posted.signoffs, evidence, policy)
    if why_not:
        return outcome.model_copy(update={"skipped": why_not})
    update: dict[str, object] = {}
    if opts.post_comment:
        update = _write_comment(gh, evidence, verdict, policy, identity, posted)
    target = str(update.get("comment_url") or "") or opts.run_url or evidence.pull_request.url
    plan = plan_status(
        verdict.outcome,
        policy,
        sha=verdict.head_sha,
        context=opts.status_context,
        target_url=target,
    )
    publish_status(gh, evidence.repository.full_name, plan)
    update["status_state"] = plan.state
    return outcome.model_copy(update=update)


def _write_comment(
    gh: Github,
    evidence: Evidence,
    verdict: Verdict,
    policy: Policy,
    identity: str | None,
    posted: PostedNow,
) -> dict[str, object]:
    """The verdict comment's outcome fields; a refused write is an error, not an exception:
    the status is still published (it is what branch protection reads) and the run fails (3)."""
    try:
        written = publish_comment(
            gh,
            evidence.repository.full_name,
            verdict.pr,
            render_markdown(verdict, policy),
            marker=policy.publish.marker,
            sha=verdict.head_sha,
            identity=resolve_identity(gh, identity),
            known=posted.comments,
            pr_url=evidence.pull_request.url,
        )
    except PublishError as exc:
        return {"error": str(exc)}
    return {"comment_url": written.url, "comment_action": written.action}


def _read_posted(gh: Github, ref: SignoffRef) -> PostedNow:
    try:
        return read_posted(gh, ref)
    except GithubException as exc:
        raise PublishError(
            f"could not read the PR's sign-offs before writing: {describe_github_error(exc)}"
        ) from None


def _publish_error(
    gh: Github, outcome: VerifyOutcome, policy: Policy, publish: bool, opts: PublishOptions
) -> VerifyOutcome:
    """Could not verify: mark the pinned SHA `error` (when we know it) so the PR shows why, but
    only for a sign-off that may publish at all (else an outage would let anyone clobber a PASS).
    """
    if not publish or not outcome.head_sha or not _may_write_error(gh, outcome.ref, policy):
        return outcome
    plan = plan_status(
        "ERROR",
        policy,
        sha=outcome.head_sha,
        context=opts.status_context,
        target_url=opts.run_url or None,
    )
    try:
        publish_status(gh, outcome.ref.full_name, plan)
    except PublishError as exc:
        return outcome.model_copy(update={"error": f"{outcome.error}; also {exc}"})
    return outcome.model_copy(update={"status_state": plan.state})


def _may_write_error(gh: Github, ref: SignoffRef, policy: Policy) -> bool:
    """One read of the sign-off itself: a sign-off by an OWNER/MEMBER/COLLABORATOR may set the
    `error` status; anything unreadable, no sign-off, or anyone else's writes nothing."""
    try:
        signoff = fetch_signoff(gh, ref)
    except (GatherError, GithubException):
        return False
    trusted = signoff.author_association.upper() in policy.publish.trusted_associations
    problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, policy)
    return trusted and not problem


def run_verify_command(
    url: str,
    *,
    api_url: str | None = None,
    publish: bool = False,
    fmt: OutputFormat = "markdown",
    evidence_out: str | None = None,
    replay: str | None = None,
    token_env: str = "GITHUB_TOKEN",
    profile: str | None = None,
    standard: str | None = None,
) -> int:
    """`signoff verify SIGNOFF_URL`: print the verdict; exit 0 PASS, 1 REJECTED, 2 input, 3 error"""
    try:
        ref = parse_signoff_url(url)
        policy = load_policy(profile)
        chosen = resolve_standard(standard, policy)
        token = os.environ.get(token_env, "").strip() or (REPLAY_TOKEN if replay else "")
        if not token:
            raise InputError(f"{token_env} is not set")
        with _replaying(replay):
            outcome = _verify_online(
                ref, policy, chosen, token, api_url, publish, replay is not None
            )
    except SignoffError as exc:
        print(f"signoff: {log_line(str(exc))}", file=sys.stderr)
        return int(exc.exit_code)
    except CannotOverwriteExistingCassetteException as exc:
        # The run asked for something the recording does not hold: the replay cannot verify.
        request = str(exc).split("\n\n", 2)[1].strip() if "\n\n" in str(exc) else "a request"
        print(f"signoff: could not verify: {replay} has no answer for {request}", file=sys.stderr)
        return int(ExitCode.COULD_NOT_VERIFY)
    return _report(outcome, policy, fmt, evidence_out)


def _verify_online(
    ref: SignoffRef,
    policy: Policy,
    standard: Standard,
    token: str,
    api_url: str | None,
    publish: bool,
    test: bool,
) -> VerifyOutcome:
    gh = connect(token, api_url, mode="test" if test else "production")
    identity = os.environ.get("SIGNOFF_BOT_LOGIN", "").strip() or None
    return verify(gh, ref, policy, publish=publish, identity=identity, standard=standard)


def _report(
    outcome: VerifyOutcome, policy: Policy, fmt: OutputFormat, evidence_out: str | None
) -> int:
    refused = outcome.not_signoff or outcome.skipped
    if refused:
        # Nothing was written; one line says why (exit 2 for no sign-off, 0 for a skip).
        label = "not published" if outcome.skipped else "bad input"
        print(f"signoff: {label}: {log_line(refused)}", file=sys.stderr)
        return int(outcome.exit_code)
    if evidence_out and outcome.evidence is not None:
        Path(evidence_out).write_text(dump_evidence(outcome.evidence), encoding="utf-8")
    if outcome.verdict is not None:
        text = (
            render_json(outcome.verdict)
            if fmt == "json"
            else render_markdown(outcome.verdict, policy)
        )
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if outcome.comment_action or outcome.status_state:
        comment = f"comment {outcome.comment_action or 'not posted'}"
        if outcome.comment_url:
            comment += f" ({outcome.comment_url})"
        status = f"status {outcome.status_state or 'not written'}"
        print(f"signoff: published: {comment}; {status} on {outcome.head_sha}", file=sys.stderr)
    if outcome.error:
        print(f"signoff: {failure_line(outcome.error)}", file=sys.stderr)
    return int(outcome.exit_code)


def failure_line(message: str) -> str:
    """One inert log line for a could-not-verify or could-not-publish error."""
    text = log_line(message)
    return text if text.startswith("could not") else f"could not verify: {text}"


def _replaying(cassette: str | None) -> AbstractContextManager[object]:
    """`signoff.replay.replay(cassette)` (InputError when missing), or nothing."""
    return nullcontext() if cassette is None else replay(cassette)
