"""The one place gather, judge and publish meet: pin the head, gather, judge, then write.

Writing is refused (nothing written, one line why) for a comment that is not a sign-off (exit 2)
and for a sign-off that may not replace the head's verdict (not a possible CODEOWNER, or a newer
sign-off exists: exit 0); see signoff/judge/eligibility.py.

`verify()` never raises GatherError/PublishError: it returns them in the outcome, so the action
can still write its outputs and an `error` status. `signoff verify` is
`signoff.verify_command.run_verify_command()`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from github.GithubException import GithubException
from pydantic import BaseModel, ConfigDict

from signoff.errors import ExitCode, GatherError, PublishError
from signoff.evidence import Evidence, SignOff
from signoff.gather import HeadStart, fetch_signoff, gather_evidence, pin_pull, start
from signoff.github import pool
from signoff.github.api import Api
from signoff.github.client import Client, Connection
from signoff.github.comments import PostedNow, prefetch_posted, read_posted
from signoff.judge import judge
from signoff.judge.eligibility import publish_blocker, superseded
from signoff.judge.model import Verdict
from signoff.judge.reading import PLAN
from signoff.parse.comment.signoff_rule import signoff_problem
from signoff.policy import Policy
from signoff.publish.comment import (
    CommentResult,
    describe_github_error,
    publish_comment,
    resolve_identity,
)
from signoff.publish.render import render_markdown
from signoff.publish.status import StatusState, plan_status, publish_status
from signoff.publish.style import PublishStyle, style_for, verdict_style
from signoff.refs import SignoffRef
from signoff.standards import Standard, resolve_standard

OutcomeResult = Literal["PASS", "WARN", "REJECTED", "ERROR", "SKIPPED"]


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
            "WARN": ExitCode.PASS,  # a warning does not block the merge (status `success`)
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
    gh: Connection,
    ref: SignoffRef,
    policy: Policy,
    *,
    publish: bool,
    identity: str | None,
    pinned_head: str | None = None,
    options: PublishOptions | None = None,
    standard: Standard | None = None,
    reviewed_at: datetime | None = None,
    head: HeadStart | None = None,
) -> VerifyOutcome:
    """Pin the head SHA, gather, judge under `standard` (default: the profile's) as of
    `reviewed_at` (default: now) and (when `publish`) write the comment and status.

    `head`: the pin and the first reads, already sent (`signoff.gather.start`, without
    `pinned_head`); None pins first thing here (publishing: with the sign-off read beside the
    pin, `start(gate=True)`). A comment that the head start found to be no sign-off ends a
    publishing run there, with the refusal gathering would have led to.
    """
    opts = options or PublishOptions()
    chosen = standard if standard is not None else resolve_standard(None, policy)
    outcome = VerifyOutcome(ref=ref)
    who = _Identity(gh, identity, wanted=False)
    posted = _PostedAhead(Api(gh), ref, policy)
    if head is None and publish and pinned_head is None:
        head = start(gh, ref, policy, chosen, gate=True)  # a non-sign-off stops beside the pin
    try:
        # Pin first: every check, the comment marker and the status use this SHA, even if the
        # PR head moves while we work (TOCTOU-safe anchor, facts §5).
        pinned = head.pinned() if head is not None else pin_pull(gh, ref)
        sha = pinned_head or pinned.head_sha
        outcome = outcome.model_copy(update={"head_sha": sha})
        if publish and pinned.not_signoff:  # (read beside the pin: nothing else was read)
            assert head is not None
            head.api.close()
            posted.api.close()
            return outcome.model_copy(update={"not_signoff": pinned.not_signoff})
        who = _Identity(gh, identity, wanted=publish and opts.post_comment)
        evidence = gather_evidence(
            gh, ref, policy, standard=chosen, plan=PLAN, pinned_head=sha, pull_json=pinned.raw,
            reviewed_at=reviewed_at, started=head.api if head is not None else None,
            last_reads=posted.send if publish else None,
        )  # fmt: skip
    except GatherError as exc:
        if head is not None:
            head.api.close()  # (gathering closes it, unless the pin itself failed)
        posted.api.close()
        who.settle()
        return _publish_error(
            gh, outcome.model_copy(update={"error": str(exc)}), policy, publish, opts
        )
    try:
        return _judge_and_publish(gh, outcome, evidence, policy, chosen, publish, who, opts, posted)
    finally:
        who.settle()


def _judge_and_publish(
    gh: Connection,
    outcome: VerifyOutcome,
    evidence: Evidence,
    policy: Policy,
    standard: Standard,
    publish: bool,
    who: _Identity,
    opts: PublishOptions,
    posted: _PostedAhead,
) -> VerifyOutcome:
    """Judge, then publish when asked. The sign-off lists read right before writing went out
    with gathering's last reads (or go out first here), and are under way while the verdict is
    judged (judging reads nothing)."""
    ahead = publish and not _refusal(evidence, policy, standard)
    with posted.api:
        if ahead:
            posted.send(evidence.signoff, len(evidence.comments), may_publish=True)
        verdict = judge(evidence, policy, standard)
        judged = outcome.model_copy(update={"verdict": verdict, "evidence": evidence})
        if not publish:
            return judged
        read = (lambda: _read_posted(gh, outcome.ref, posted.api)) if ahead else None
        return publish_outcome(gh, judged, policy, who.get, opts, posted=read, standard=standard)


class _PostedAhead:
    """The sign-off lists read right before writing, sent once: with gathering's last reads
    (the artifacts, the head once more) for a sign-off by an owner, member or collaborator (it
    may publish, whatever CODEOWNERS says), or after gathering for any other that may."""

    def __init__(self, api: Api, ref: SignoffRef, policy: Policy) -> None:
        self.api, self._ref, self._policy = api, ref, policy
        self._sent = False

    def send(self, signoff: SignOff, comments: int, *, may_publish: bool = False) -> None:
        if self._sent:
            return
        trusted = self._policy.publish.trusted_associations
        problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, self._policy)
        if may_publish or (not problem and signoff.author_association.upper() in trusted):
            self._sent = True
            prefetch_posted(self.api, self._ref, comments)


def publish_outcome(
    gh: Connection,
    outcome: VerifyOutcome,
    policy: Policy,
    identity: str | Callable[[], str] | None,
    options: PublishOptions | None = None,
    *,
    posted: Callable[[], PostedNow] | None = None,
    standard: Standard | None = None,
) -> VerifyOutcome:
    """Write the judged verdict (comment, status) unless this comment may not replace it.

    `identity`: the login our comment will be by (None: ask GitHub), or a callable answering it.
    `posted`: the PR's sign-offs as read right before writing (None: read them here).
    `standard`: the one the verdict was judged under (None: the one it records, resolved here).
    """
    evidence, verdict = outcome.evidence, outcome.verdict
    if evidence is None or verdict is None:
        raise ValueError("publish_outcome needs a judged outcome")
    refusal = _refusal(evidence, policy, standard)
    if refusal:
        return outcome.model_copy(update=refusal)
    style = style_for(policy, standard) if standard is not None else verdict_style(verdict, policy)
    judged = _Judged(evidence, verdict, standard, style)
    who = identity if callable(identity) else (lambda: resolve_identity(gh, identity))
    now = posted or (lambda: _read_posted(gh, outcome.ref))
    try:
        opts = options or PublishOptions()
        return _publish_verdict(gh, outcome, judged, policy, who, opts, now)
    except (PublishError, GatherError) as exc:
        return outcome.model_copy(update={"error": str(exc)})


class _Identity:
    """Who our comment will be by, asked of GitHub (`GET /user`) while gathering runs.

    The answer is needed only when writing; asking early takes one request off the critical
    path. With one gather worker (recording cassettes) it is asked when needed, as before.
    """

    def __init__(self, gh: Connection, configured: str | None, *, wanted: bool) -> None:
        self._ask: Callable[[], str] = lambda: resolve_identity(gh, configured)
        self._answer: Future[str] | None = None
        concurrent = isinstance(gh, Client) and pool.WORKERS > 1  # a requester per thread
        if wanted and not (configured or "").strip() and concurrent:
            self._answer = Future()
            threading.Thread(target=self._run, name="signoff-identity", daemon=True).start()

    def _run(self) -> None:
        assert self._answer is not None
        try:
            self._answer.set_result(self._ask())
        except Exception as exc:  # PublishError, handed to the writer
            self._answer.set_exception(exc)

    def get(self) -> str:
        return self._ask() if self._answer is None else self._answer.result()

    def settle(self) -> None:
        """Wait for the question in flight (nothing may talk to GitHub after verify returns)."""
        if self._answer is not None:
            self._answer.exception()


def _refusal(evidence: Evidence, policy: Policy, standard: Standard | None) -> dict[str, str]:
    """Why nothing may be written for this comment (empty when it may publish).

    Not a sign-off (the gate's reading: a verdict, a bot's comment, no opener): bad input.
    A sign-off by someone who cannot be a CODEOWNER: skipped; it could only overwrite an owner's
    verdict with a REJECTED.
    """
    signoff = evidence.signoff
    problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, policy)
    if problem:
        return {"not_signoff": f"{signoff.url} is not a sign-off: {problem}; nothing written"}
    blocker = publish_blocker(evidence, policy, standard)
    return {"skipped": blocker} if blocker else {}


@dataclass(frozen=True)
class _Judged:
    """What is published: the bundle, its verdict, the standard and the style it is judged in."""

    evidence: Evidence
    verdict: Verdict
    standard: Standard | None  # None: the one the bundle records
    style: PublishStyle


def _publish_verdict(
    gh: Connection,
    outcome: VerifyOutcome,
    judged: _Judged,
    policy: Policy,
    identity: Callable[[], str],
    opts: PublishOptions,
    read_posted_now: Callable[[], PostedNow],
) -> VerifyOutcome:
    # Right before writing: only the newest sign-off's verification writes, and only if the
    # sign-off is still the text that was judged (concurrent runs converge on its verdict).
    evidence, verdict = judged.evidence, judged.verdict
    body = render_markdown(verdict, policy, judged.style)  # (while the lists sent ahead go)
    posted = read_posted_now()
    why_not = superseded(posted.signoffs, evidence, policy, judged.standard)
    if why_not:
        return outcome.model_copy(update={"skipped": why_not})
    status = _StatusWrite(gh, evidence, verdict, policy, opts, judged.style)
    update: dict[str, object] = {}
    if opts.post_comment:
        update = _write_comment(gh, judged, body, policy, identity, posted, status.point_at)
    status.settle(str(update.get("comment_url") or ""))
    update["status_state"] = status.state
    return outcome.model_copy(update=update)


class _StatusWrite:
    """The commit status, pointing at the verdict comment that stays.

    It goes out as soon as the comment is written (beside the re-read that converges after a
    creation) with that comment's URL; when the comment that stays turns out to be another one
    (a concurrent run created one first) or the comment could not be written, `settle` writes it
    once more with the right target, so the status ends as a sequential run leaves it.
    """

    def __init__(
        self,
        gh: Connection,
        evidence: Evidence,
        verdict: Verdict,
        policy: Policy,
        opts: PublishOptions,
        style: PublishStyle,
    ) -> None:
        self._gh, self._repo = gh, evidence.repository.full_name
        self._fallback = opts.run_url or evidence.pull_request.url
        self._plan = plan_status(
            verdict.outcome,
            policy,
            sha=verdict.head_sha,
            context=opts.status_context,
            target_url=self._fallback,
            style=style,
        )
        self.state: StatusState = self._plan.state
        self._sent: str | None = None  # the target written (None: not yet)
        self._failed: Exception | None = None

    def point_at(self, written: CommentResult) -> None:
        """The comment as written: send the status now (a failure is raised by `settle`)."""
        try:
            self._send(written.url or self._fallback)
        except Exception as exc:  # raised once converging is done: it must not be skipped
            self._failed = exc

    def settle(self, comment_url: str) -> None:
        """The comment that stays is known: the status must point at it (or at the fallback)."""
        if self._failed is not None:
            raise self._failed
        target = comment_url or self._fallback
        if self._sent != target:
            self._send(target)

    def _send(self, target: str) -> None:
        plan = self._plan.model_copy(update={"target_url": target or None})
        self._sent = target
        publish_status(self._gh, self._repo, plan)


def _write_comment(
    gh: Connection,
    judged: _Judged,
    body: str,
    policy: Policy,
    identity: Callable[[], str],
    posted: PostedNow,
    on_written: Callable[[CommentResult], None],
) -> dict[str, object]:
    """The verdict comment's outcome fields; a refused write is an error, not an exception:
    the status is still published (it is what branch protection reads) and the run fails (3)."""
    evidence, verdict = judged.evidence, judged.verdict
    try:
        written = publish_comment(
            gh,
            evidence.repository.full_name,
            verdict.pr,
            body,
            marker=policy.publish.marker,
            sha=verdict.head_sha,
            identity=identity(),
            known=posted.comments,
            pr_url=evidence.pull_request.url,
            on_written=on_written,
            per_run=judged.style.comment_per_run,
        )
    except PublishError as exc:
        return {"error": str(exc)}
    return {"comment_url": written.url, "comment_action": written.action}


def _read_posted(gh: Connection, ref: SignoffRef, api: Api | None = None) -> PostedNow:
    """The three sign-off lists now (through `api` when they were sent ahead there)."""
    try:
        if api is not None:
            return read_posted(api, ref)
        with Api(gh) as own:
            prefetch_posted(own, ref)
            return read_posted(own, ref)
    except GithubException as exc:
        raise PublishError(
            f"could not read the PR's sign-offs before writing: {describe_github_error(exc)}"
        ) from None


def _publish_error(
    gh: Connection, outcome: VerifyOutcome, policy: Policy, publish: bool, opts: PublishOptions
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


def _may_write_error(gh: Connection, ref: SignoffRef, policy: Policy) -> bool:
    """One read of the sign-off itself: a sign-off by an OWNER/MEMBER/COLLABORATOR may set the
    `error` status; anything unreadable, no sign-off, or anyone else's writes nothing."""
    try:
        signoff = fetch_signoff(gh, ref)
    except (GatherError, GithubException):
        return False
    trusted = signoff.author_association.upper() in policy.publish.trusted_associations
    problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, policy)
    return trusted and not problem
