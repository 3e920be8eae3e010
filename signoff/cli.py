"""The `signoff` command line: parse arguments, call one function, map the outcome to an exit code.

Exit codes: 0 PASS, 1 REJECTED, 2 bad input, 3 could not verify.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from signoff import __version__
from signoff.errors import ExitCode, InputError, SignoffError
from signoff.evidence import load_evidence
from signoff.judge import check_modules, judge, judging_standard
from signoff.policy import load_policy
from signoff.publish.render import render_json, render_markdown
from signoff.standards import resolve_standard

STANDARD_HELP = (
    "which rules: 0-8 (default), current (the newest era), an era (E1..E8) or "
    "at:YYYY-MM-DDTHH:MM:SSZ (whatever was in force then)"
)


def _judge_command(args: argparse.Namespace) -> int:
    policy = load_policy(args.profile)
    evidence = load_evidence(args.bundle)
    # Without --standard a bundle is re-judged under the standard it records.
    verdict = judge(evidence, policy, judging_standard(evidence, policy, args.standard))
    text = render_json(verdict) if args.format == "json" else render_markdown(verdict, policy)
    sys.stdout.write(text)
    return ExitCode.PASS if verdict.outcome == "PASS" else ExitCode.REJECTED


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None


def _parse_command(args: argparse.Namespace) -> int:
    from signoff.preflight import preflight, render_preflight_text

    policy = load_policy(args.profile)
    template = _read_text(args.template) if args.template else None
    report = preflight(_read_text(args.comment), template, policy)
    if args.format == "json":
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_preflight_text(report))
    return ExitCode.PASS


def _checks_command(args: argparse.Namespace) -> int:
    policy = load_policy(args.profile)
    standard = resolve_standard(args.standard, policy)
    checks = [
        {"number": slot.number, "id": slot.id, "name": slot.name, "rule": _rule(module.__doc__)}
        for slot, module in check_modules(standard)
    ]
    if args.format == "json":
        document = {"standard": standard.spec, "era": standard.era, "checks": checks}
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return ExitCode.PASS
    sys.stdout.write(f"Standard {standard.label}: {len(checks)} checks\n")
    for line in standard.applied:
        sys.stdout.write(f"  rule in force: {line}\n")
    for off in standard.disabled:
        sys.stdout.write(f"  disabled by the profile: {off}\n")
    for check in checks:
        sys.stdout.write(f"\nCheck {check['number']} ({check['name']}) [{check['id']}]\n")
        for paragraph in str(check["rule"]).split("\n\n"):
            sys.stdout.write(f"    {paragraph}\n")
    return ExitCode.PASS


def _rule(doc: str | None) -> str:
    """A check's docstring as paragraphs of single-spaced text."""
    paragraphs = (doc or "").strip().split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def _verify_command(args: argparse.Namespace) -> int:
    from signoff.verify import run_verify_command

    return run_verify_command(
        args.url,
        api_url=args.api_url,
        publish=args.publish,
        fmt=args.format,
        evidence_out=args.evidence_out,
        replay=args.replay,
        token_env=args.token_env,
        profile=args.profile,
        standard=args.standard,
    )


def _audit_command(args: argparse.Namespace) -> int:
    from signoff.audit.run import run_audit_command, run_merge_command

    if args.repository == "merge":  # `signoff audit merge REPORT.json ...`
        return run_merge_command(args.reports, fmt=args.format or "json", out=args.out)
    if args.reports:
        raise InputError(f"unexpected argument {args.reports[0]!r} (repeat --pr for several PRs)")
    return run_audit_command(
        args.repository,
        since=args.since,
        until=args.until,
        prs=args.pr or (),
        base=args.base,
        standard=args.standard,
        fmt=args.format or "markdown",
        out=args.out,
        evidence_dir=args.evidence_dir,
        cache_dir=args.cache_dir,
        jobs=args.jobs,
        shard=args.shard,
        max_requests=args.max_requests,
        progress=not args.no_progress,
        api_url=args.api_url,
        token_env=args.token_env,
        profile=args.profile,
        replay=args.replay,
    )


def _action_command(args: argparse.Namespace) -> int:
    import os

    from signoff.action import run_action

    return run_action(os.environ)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="signoff",
        description="Deterministic CODEOWNER sign-off verifier. "
        "Exit codes: 0 PASS, 1 REJECTED, 2 bad input, 3 could not verify.",
    )
    parser.add_argument("--version", action="version", version=f"signoff {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--profile", help="policy profile YAML (default: the InferenceX profile)")
    sub = parser.add_subparsers(dest="command", required=True)

    judge_p = sub.add_parser(
        "judge", parents=[common], help="judge a saved evidence bundle offline"
    )
    judge_p.add_argument("bundle", help="evidence bundle JSON")
    judge_p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    judge_p.add_argument(
        "--standard", help=STANDARD_HELP + "; default: the standard the bundle records"
    )
    judge_p.set_defaults(run=_judge_command)

    parse_p = sub.add_parser(
        "parse", parents=[common], help="preflight a sign-off comment before posting it"
    )
    parse_p.add_argument("comment", help="the sign-off comment (Markdown file)")
    parse_p.add_argument("--template", help="PR_REVIEW_CHECKLIST.md to compare against")
    parse_p.add_argument("--format", choices=("json", "text"), default="text")
    parse_p.set_defaults(run=_parse_command)

    checks_p = sub.add_parser(
        "checks", parents=[common], help="list the checks and what each one verifies"
    )
    checks_p.add_argument("--standard", help=STANDARD_HELP)
    checks_p.add_argument("--format", choices=("text", "json"), default="text")
    checks_p.set_defaults(run=_checks_command)

    verify_p = sub.add_parser(
        "verify", parents=[common], help="gather, judge (and optionally publish) one sign-off"
    )
    verify_p.add_argument("url", help="sign-off URL: .../pull/<n>#issuecomment-<id> (or review)")
    verify_p.add_argument("--api-url", help="GitHub API base URL (default $GITHUB_API_URL)")
    verify_p.add_argument("--publish", action="store_true", help="post the verdict and status")
    verify_p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    verify_p.add_argument("--evidence-out", help="write the evidence bundle JSON here")
    verify_p.add_argument("--replay", help="play a recorded vcrpy cassette instead of the network")
    verify_p.add_argument("--token-env", default="GITHUB_TOKEN", help="env var holding the token")
    verify_p.add_argument("--standard", help=STANDARD_HELP)
    verify_p.set_defaults(run=_verify_command)

    _add_audit_parser(sub, common)

    action_p = sub.add_parser(
        "action", parents=[common], help="run as the GitHub Action (reads GITHUB_* env)"
    )
    action_p.set_defaults(run=_action_command)
    return parser


def _add_audit_parser(
    sub: argparse._SubParsersAction[Any], common: argparse.ArgumentParser
) -> None:
    audit_p = sub.add_parser(
        "audit", parents=[common], help="re-judge past merges; `audit merge` combines shards"
    )
    audit_p.add_argument("repository", help="OWNER/REPO, or `merge` followed by shard reports")
    audit_p.add_argument("reports", nargs="*", help=argparse.SUPPRESS)
    audit_p.add_argument("--since", help="merged on or after (YYYY-MM-DD or ISO 8601)")
    audit_p.add_argument("--until", help="merged on or before (YYYY-MM-DD or ISO 8601)")
    audit_p.add_argument("--pr", type=int, action="append", help="audit this PR (repeatable)")
    audit_p.add_argument("--base", help="base branch (default: the default branch)")
    audit_p.add_argument("--standard", default="at-the-time", help="at-the-time|current|0-8|ERA")
    audit_p.add_argument("--format", choices=("markdown", "json", "csv"))
    audit_p.add_argument("--out", help="write the report here (default: stdout)")
    audit_p.add_argument("--evidence-dir", help="write each judged PR's evidence bundle here")
    audit_p.add_argument("--cache-dir", help="HTTP cache (default: the user cache directory)")
    audit_p.add_argument("--jobs", type=int, default=4, help="PRs audited in parallel (1-16)")
    audit_p.add_argument("--shard", help="I/N: audit only this share of the PRs")
    audit_p.add_argument("--max-requests", type=int, help="stop after spending this many")
    audit_p.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    audit_p.add_argument("--api-url", help="GitHub API base URL (default $GITHUB_API_URL)")
    audit_p.add_argument("--token-env", default="GITHUB_TOKEN", help="env var holding the token")
    audit_p.add_argument("--replay", help="play a recorded vcrpy cassette instead of the network")
    audit_p.set_defaults(run=_audit_command)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return int(run(args))
    except SignoffError as exc:
        sys.stderr.write(f"signoff: {exc}\n")
        return int(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("signoff: interrupted\n")
        return int(ExitCode.COULD_NOT_VERIFY)
