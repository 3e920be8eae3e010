"""`signoff action`: the GitHub Action entry. Reads the event and inputs from the environment.

Flow: gate -> verify (publish) -> step outputs, job summary, evidence file. Inputs arrive as
`SIGNOFF_*` variables that action.yml sets through `env:` (never `${{ }}` inside `run:`).
Exit codes: 0 PASS or skipped, 1 REJECTED, 2 bad input, 3 could not verify or publish.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping
from pathlib import Path

from signoff.errors import ExitCode, InputError, SignoffError, json_problem, not_utf8
from signoff.gate import GateDecision, decide
from signoff.github.client import connect, resolve_api_url
from signoff.policy import Policy, load_policy
from signoff.publish.annotations import check_annotations
from signoff.publish.render import render_markdown
from signoff.publish.sanitize import log_line, reason_markdown, status_context_input
from signoff.publish.style import style_for
from signoff.publish.summary import (
    evidence_path_for,
    unwritable,
    write_evidence,
    write_outputs,
    write_step_summary,
)
from signoff.refs import web_host
from signoff.standards import Standard, resolve_standard
from signoff.verify import PublishOptions, VerifyOutcome, verify
from signoff.verify_command import check_token, failure_line

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def run_action(env: Mapping[str, str]) -> int:
    """Run the action for the event described by `env` (normally os.environ)."""
    try:
        check_runner_files(env)
        policy = load_policy(env.get("SIGNOFF_PROFILE", "").strip() or None)
        standard = resolve_standard(env.get("SIGNOFF_STANDARD", "").strip() or None, policy)
        decision = _gate(env, policy, style_for(policy, standard).trigger_on_edits)
        if not decision.proceed or decision.ref is None:
            _log(f"signoff: skipped: {log_line(decision.reason)}")
            _outputs(env, verdict="SKIPPED")
            return int(ExitCode.PASS)
        _log(f"signoff: verifying: {log_line(decision.reason)}")
        outcome = _verify(env, decision, policy, standard)
    except SignoffError as exc:
        _log(f"::error title=signoff::{log_line(str(exc))}")
        _outputs(env, verdict="ERROR")
        return int(exc.exit_code)
    except Exception as exc:  # a bug: the outputs still say ERROR, and exit 3 never reads as 1
        logging.getLogger("signoff").debug("internal error", exc_info=True)
        _log(f"::error title=signoff::internal error {type(exc).__name__}: {log_line(str(exc))}")
        _outputs(env, verdict="ERROR")
        return int(ExitCode.COULD_NOT_VERIFY)
    refused = _refused(env, outcome, decision)
    return refused if refused is not None else _finish(env, outcome, policy)


def _refused(env: Mapping[str, str], outcome: VerifyOutcome, decision: GateDecision) -> int | None:
    """Nothing was written: say why in one line. A dispatch on a comment that is no sign-off is
    bad input (exit 2); an event whose comment stopped being one, or a sign-off that may not
    replace the verdict (not a possible CODEOWNER, superseded), is a skip (exit 0)."""
    if outcome.not_signoff and decision.dispatched:
        _log(f"::error title=signoff::{log_line(outcome.not_signoff)}")
        _outputs(env, verdict="ERROR")
        return int(ExitCode.BAD_INPUT)
    why = outcome.not_signoff or outcome.skipped
    if not why:
        return None
    _log(f"signoff: skipped: {log_line(why)}")
    _outputs(env, verdict="SKIPPED")
    return int(ExitCode.PASS)


def _event_payload(event_path: str) -> object:
    """The event JSON; bad input naming what is wrong with the file, in words."""
    try:
        text = Path(event_path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{event_path}: the event payload is {not_utf8(exc)}") from None
    except OSError as exc:
        why = "a folder" if isinstance(exc, IsADirectoryError) else exc.strerror or "unreadable"
        raise InputError(f"{event_path}: cannot read the event payload ({why})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        problem = json_problem(text, exc.lineno, exc.colno)
        raise InputError(f"{event_path}: the event payload is {problem}") from None
    except RecursionError:
        raise InputError(f"{event_path}: the event payload nests too deeply") from None


def _gate(env: Mapping[str, str], policy: Policy, edits_trigger: bool) -> GateDecision:
    event_name = env.get("GITHUB_EVENT_NAME", "")
    event_path = env.get("GITHUB_EVENT_PATH", "")
    if not event_name or not event_path:
        raise InputError("GITHUB_EVENT_NAME and GITHUB_EVENT_PATH must be set (run inside Actions)")
    payload = _event_payload(event_path)
    if not isinstance(payload, dict):
        raise InputError(f"{event_path}: the event payload is not a JSON object")
    return decide(
        event_name,
        payload,
        policy,
        comment_url=env.get("SIGNOFF_COMMENT_URL", ""),
        repository=env.get("GITHUB_REPOSITORY", ""),
        edits_trigger=edits_trigger,
    )


def _verify(
    env: Mapping[str, str], decision: GateDecision, policy: Policy, standard: Standard
) -> VerifyOutcome:
    assert decision.ref is not None
    token = env.get("SIGNOFF_TOKEN", "").strip()
    if not token:
        raise InputError("the github-token input is empty")
    check_token(token, "the github-token input")
    api_url = env.get("GITHUB_API_URL") or None
    web_host(resolve_api_url(api_url))  # InputError for a URL that is no GitHub API's
    gh = connect(token, api_url)
    options = PublishOptions(
        post_comment=_flag(env.get("SIGNOFF_POST_COMMENT", ""), default=True, name="post-comment"),
        status_context=status_context_input(env.get("SIGNOFF_STATUS_CONTEXT", "")),
        run_url=run_url(env),
    )
    identity = env.get("SIGNOFF_BOT_LOGIN", "").strip() or None
    return verify(
        gh, decision.ref, policy, publish=True, identity=identity, options=options,
        standard=standard,
    )  # fmt: skip


def check_runner_files(env: Mapping[str, str]) -> None:
    """Every file the run will write must be writable before anything is verified (exit 2)."""
    files = [
        ("$GITHUB_OUTPUT", env.get("GITHUB_OUTPUT", ""), False),
        ("$GITHUB_STEP_SUMMARY", env.get("GITHUB_STEP_SUMMARY", ""), False),
        ("input evidence-path", env.get("SIGNOFF_EVIDENCE_PATH", "").strip(), False),
    ]
    if not env.get("SIGNOFF_EVIDENCE_PATH", "").strip():
        files.append(("$RUNNER_TEMP", env.get("RUNNER_TEMP", ""), True))
    for name, path, directory in files:
        problem = unwritable(path, directory=directory) if path else ""
        if problem:
            raise InputError(f"{name} {path}: {problem}")


def _finish(env: Mapping[str, str], outcome: VerifyOutcome, policy: Policy) -> int:
    problems: list[str] = []
    evidence_path = _write_evidence(env, outcome, problems)
    summary_path = env.get("GITHUB_STEP_SUMMARY", "")
    if summary_path:
        parts = [render_markdown(outcome.verdict, policy)] if outcome.verdict else []
        if outcome.error:
            # Errors can name artifacts or files the PR's configs named: inert Markdown only.
            error = reason_markdown(failure_line(outcome.error), limit=2_000)
            parts.append(f"**signoff:** {error}\n")
        try:
            write_step_summary(summary_path, "\n".join(parts))
        except OSError as exc:
            problems.append(f"$GITHUB_STEP_SUMMARY {summary_path}: {_why(exc)}")
    _warn_foreign_edits(outcome)
    if outcome.verdict is not None:
        for line in check_annotations(outcome.verdict.checks):
            _log(line)
    if outcome.error:
        _log(f"::error title=signoff::{failure_line(outcome.error)}")
    else:
        _log(f"signoff: verdict {outcome.result}; comment {outcome.comment_url or '(none)'}")
    _outputs(
        env, verdict=outcome.result, comment_url=outcome.comment_url, evidence_path=evidence_path
    )
    for problem in problems:  # checked before verifying, so only a race or a full disk
        _log(f"::error title=signoff::{log_line(problem)}")
    return int(ExitCode.BAD_INPUT if problems else outcome.exit_code)


def _warn_foreign_edits(outcome: VerifyOutcome) -> None:
    """Say in the job log when someone other than the author edited the sign-off (Check 0)."""
    evidence = outcome.evidence
    edits = evidence.signoff_edits if evidence is not None else None
    if evidence is None or edits is None:
        return
    author = evidence.signoff.author
    others = ", ".join(login or "a deleted account" for login in edits.others(author))
    if others:
        message = (
            f"the sign-off was edited by {others}, not only by its author {author}: "
            "it is not the author's own sign-off (Check 0 fails)"
        )
        _log(f"::warning title=signoff::{log_line(message)}")


def _write_evidence(env: Mapping[str, str], outcome: VerifyOutcome, problems: list[str]) -> str:
    if outcome.evidence is None:
        return ""
    path = evidence_path_for(
        outcome.evidence.pull_request.head_sha,
        configured=env.get("SIGNOFF_EVIDENCE_PATH", ""),
        runner_temp=env.get("RUNNER_TEMP", ""),
    )
    try:
        return str(write_evidence(path, outcome.evidence))
    except OSError as exc:
        problems.append(f"evidence {path}: {_why(exc)}")
        return ""


def _outputs(
    env: Mapping[str, str], *, verdict: str, comment_url: str = "", evidence_path: str = ""
) -> None:
    """Step outputs, where they can be written (the `verdict` matters even after a failure)."""
    path = env.get("GITHUB_OUTPUT", "")
    if path and not unwritable(path):
        outputs = {"verdict": verdict, "comment-url": comment_url, "evidence-path": evidence_path}
        try:
            write_outputs(path, outputs)
        except OSError as exc:
            _log(f"::error title=signoff::$GITHUB_OUTPUT {log_line(path)}: {_why(exc)}")


def _why(exc: OSError) -> str:
    return exc.strerror or "cannot be written"


def run_url(env: Mapping[str, str]) -> str:
    """`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`; "" outside Actions."""
    server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repository, run_id = env.get("GITHUB_REPOSITORY", ""), env.get("GITHUB_RUN_ID", "")
    if not repository or not run_id:
        return ""
    return f"{server}/{repository}/actions/runs/{run_id}"


def _flag(value: str, *, default: bool, name: str) -> bool:
    text = value.strip().lower()
    if not text:
        return default
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(f"input {name} must be true or false, not {value!r}")


def _log(line: str) -> None:
    print(line, file=sys.stdout, flush=True)
