"""`signoff verify SIGNOFF_URL`: check every input, send the first request, then verify.

This module is imported before the rest of signoff: it needs the client, the profile and the
URL parser only. The first request (the PR, pinning its head) goes out as soon as the inputs are
checked, then the reads the PR object names (`signoff.gather.first_reads`), and the judge, its
parsers and the publishing code (`signoff.verify`, a third of the start-up) are imported meanwhile.
Exit codes: 0 PASS, 1 REJECTED, 2 bad input, 3 could not verify.
"""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from signoff import startup
from signoff.errors import ExitCode, InputError, SignoffError
from signoff.evidence import Evidence, dump_evidence
from signoff.gather import start
from signoff.github.client import (
    REPLAY_TOKEN,
    connect,
    read_token,
    resolve_api_url,
    token_missing,
)
from signoff.policy import Policy, load_policy
from signoff.refs import SignoffRef, parse_signoff_url
from signoff.standards import Standard, resolve_standard

if TYPE_CHECKING:
    from signoff.verify import VerifyOutcome

OutputFormat = Literal["markdown", "json"]


def run_verify_command(
    url: str,
    *,
    api_url: str | None = None,
    publish: bool = False,
    fmt: OutputFormat = "markdown",
    evidence_out: str | None = None,
    replay: str | None = None,
    token_env: str | None = None,
    profile: str | None = None,
    standard: str | None = None,
) -> int:
    """`signoff verify SIGNOFF_URL`: print the verdict; exit 0 PASS, 1 REJECTED, 2 input, 3 error

    Every input is checked before the first request, so bad input never publishes anything.
    """
    out: _EvidenceOut | None = None
    try:
        ref = parse_signoff_url(url, api_url=resolve_api_url(api_url))
        policy = load_policy(profile)
        chosen = resolve_standard(standard, policy)
        if token_env is not None and not token_env.strip():
            raise InputError("--token-env needs the name of an environment variable")
        source, token = read_token(token_env, api_url)
        if not token and replay is None:
            raise InputError(token_missing(token_env, api_url))
        check_token(token, source)
        out = _EvidenceOut(evidence_out) if evidence_out is not None else None
        with _replaying(replay):
            outcome = _verify_online(
                ref, policy, chosen, token or REPLAY_TOKEN, api_url, publish, replay is not None
            )
    except SignoffError as exc:
        from signoff.publish.sanitize import log_line

        if out is not None:
            out.abandon()
        print(f"signoff: {log_line(str(exc))}", file=sys.stderr)
        return int(exc.exit_code)
    return _report(outcome, policy, fmt, out, replay)


def check_token(token: str, where: str) -> None:
    """A token is printable ASCII (an HTTP header value); anything else is a pasting accident."""
    if not all(" " < ch < "\x7f" for ch in token):
        raise InputError(
            f"{where} holds characters no GitHub token has (spaces, control, non-ASCII)"
        )


class _EvidenceOut:
    """`--evidence-out FILE`, claimed before verifying: an unwritable path is bad input."""

    def __init__(self, path: str) -> None:
        if not path.strip():
            raise InputError("--evidence-out needs a file path")
        self.path = Path(path)
        if self.path.is_dir():
            raise InputError(f"{path}: --evidence-out is a directory")
        self._created = not self.path.exists()
        try:
            with self.path.open("a", encoding="utf-8"):
                pass  # creates it (or proves it writable) without touching what it holds
        except OSError as exc:
            raise InputError(f"{path}: cannot write the evidence bundle ({_why(exc)})") from None

    def write(self, evidence: Evidence) -> str:
        """Write the bundle; "" or the one-line reason it could not be written."""
        try:
            self.path.write_text(dump_evidence(evidence), encoding="utf-8")
        except OSError as exc:
            return f"{self.path}: cannot write the evidence bundle ({_why(exc)})"
        return ""

    def abandon(self) -> None:
        """Nothing was gathered: remove the file if this run created it empty."""
        if self._created:
            self.path.unlink(missing_ok=True)


def _why(exc: OSError) -> str:
    return exc.strerror or "cannot be written"


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
    head = start(gh, ref, policy, standard, gate=publish)  # sent while the rest is imported
    from signoff.verify import verify

    startup.imported(waiting=True)
    identity = os.environ.get("SIGNOFF_BOT_LOGIN", "").strip() or None
    return verify(gh, ref, policy, publish=publish, identity=identity, standard=standard, head=head)


def _report(
    outcome: VerifyOutcome,
    policy: Policy,
    fmt: OutputFormat,
    out: _EvidenceOut | None,
    replayed: str | None,
) -> int:
    from signoff.publish.render import render_json, render_markdown
    from signoff.publish.sanitize import log_line

    refused = outcome.not_signoff or outcome.skipped
    if refused:
        # Nothing was written; one line says why (exit 2 for no sign-off, 0 for a skip).
        if out is not None:
            out.abandon()
        label = "not published" if outcome.skipped else "bad input"
        print(f"signoff: {label}: {log_line(refused)}", file=sys.stderr)
        return int(outcome.exit_code)
    problem = ""
    if out is not None:
        problem = out.write(outcome.evidence) if outcome.evidence is not None else ""
        if outcome.evidence is None:
            out.abandon()
    if outcome.verdict is not None:
        text = (
            render_json(outcome.verdict)
            if fmt == "json"
            else render_markdown(outcome.verdict, policy)
        )
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if outcome.comment_action or outcome.status_state:
        print(f"signoff: {_published(outcome, replayed)}", file=sys.stderr)
    if outcome.error:
        print(f"signoff: {failure_line(outcome.error)}", file=sys.stderr)
    if problem:
        print(f"signoff: {log_line(problem)}", file=sys.stderr)
        return int(ExitCode.BAD_INPUT)
    return int(outcome.exit_code)


def _published(outcome: VerifyOutcome, replayed: str | None) -> str:
    """What was written, in the words a user would check (a replay wrote nothing)."""
    comment = f"comment {outcome.comment_action or 'not posted'}"
    if outcome.comment_url:
        comment += f" ({outcome.comment_url})"
    status = f"status {outcome.status_state or 'not written'}"
    what = f"{comment}; {status} on {outcome.head_sha}"
    if replayed:
        return f"replayed {replayed}, nothing was sent to GitHub; the recording answered: {what}"
    return f"published: {what}"


def failure_line(message: str) -> str:
    """One inert log line for a could-not-verify or could-not-publish error."""
    from signoff.publish.sanitize import log_line

    text = log_line(message)
    return text if text.startswith("could not") else f"could not verify: {text}"


def _replaying(cassette: str | None) -> AbstractContextManager[object]:
    """`signoff.replay.replay(cassette)` (InputError when it is no cassette), or nothing.

    vcrpy is imported only here, for a replay; a live run never loads it.
    """
    if cassette is None:
        return nullcontext()
    from signoff import replay

    return replay.replay(cassette)
