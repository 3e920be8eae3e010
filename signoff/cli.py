"""The `signoff` command line: parse arguments, call one function, map the outcome to an exit code.

Exit codes: 0 PASS, 1 REJECTED, 2 bad input, 3 could not verify. Each command imports only what
it needs (`parse` loads no judge, nothing but `verify --replay` loads vcrpy).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from signoff import __version__, startup
from signoff.errors import ExitCode, InputError, SignoffError

VERDICT_FORMAT_HELP = "markdown (default): the verdict comment's text; json: the verdict for tools"
TOKEN_ENV_HELP = (
    "environment variable holding the token (default: GH_TOKEN, then GITHUB_TOKEN, as gh reads "
    "them; for GitHub Enterprise GH_ENTERPRISE_TOKEN and GITHUB_ENTERPRISE_TOKEN first)"
)
REPLAY_HELP = (
    "play a recorded vcrpy cassette file instead of the network (needs the replay extra: "
    "pip install 'signoff[replay]')"
)
STANDARD_HELP = (
    "which rules: 0-8 (default), current (the newest era), an era (E1..E8) or "
    "at:YYYY-MM-DDTHH:MM:SSZ (whatever was in force then)"
)


def _judge_command(args: argparse.Namespace) -> int:
    from signoff.evidence import load_evidence
    from signoff.judge import judge, judging_standard
    from signoff.policy import load_policy
    from signoff.publish.render import render_json, render_markdown

    policy = load_policy(args.profile)
    evidence = load_evidence(args.bundle)
    # Without --standard a bundle is re-judged under the standard it records.
    verdict = judge(evidence, policy, judging_standard(evidence, policy, args.standard))
    text = render_json(verdict) if args.format == "json" else render_markdown(verdict, policy)
    sys.stdout.write(text)
    return ExitCode.REJECTED if verdict.outcome == "REJECTED" else ExitCode.PASS  # WARN merges


def _read_text(path: str) -> str:
    """A text file, or standard input for `-`; bad input names the file and what is wrong."""
    from signoff.errors import not_utf8

    name = "standard input" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: {not_utf8(exc)}") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or 'unreadable'})") from None


def _parse_command(args: argparse.Namespace) -> int:
    from signoff.parse.comment.checklist_template import parse_template
    from signoff.policy import load_policy
    from signoff.preflight import preflight, render_preflight_text

    policy = load_policy(args.profile)
    template = _read_text(args.template) if args.template else None
    if template is not None:
        parsed = parse_template(template, policy.signoff, policy.template_items)
        if not parsed.items:
            raise InputError(
                f"{args.template}: no checklist items (task-list boxes) in it; "
                "--template takes docs/PR_REVIEW_CHECKLIST.md"
            )
    report = preflight(_read_text(args.comment), template, policy)
    if args.format == "json":
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_preflight_text(report))
    # A script can gate on it: 1 when the opener is missing or, against a template, an item
    # is missing or unchecked (explained or not: parse reads the comment, Check 5 judges it).
    clean = report["is_signoff"] and not report["missing"] and not report["unchecked"]
    return ExitCode.PASS if clean else ExitCode.REJECTED


def _checks_command(args: argparse.Namespace) -> int:
    from signoff.judge import check_modules
    from signoff.policy import load_policy
    from signoff.standards import resolve_standard

    policy = load_policy(args.profile)
    standard = resolve_standard(args.standard, policy)
    checks = [
        {
            "number": slot.number,
            "id": slot.id,
            "name": slot.name,
            # what a row of this check can say under this standard
            "results": ["PASS", "WARN", "N/A"] if slot.warn_only else ["PASS", "FAIL", "N/A"],
            "warn_only": slot.warn_only,
            "rule": _rule(module.__doc__),
        }
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
        warn = " warning only: WARN where it would FAIL" if check["warn_only"] else ""
        sys.stdout.write(f"\nCheck {check['number']} ({check['name']}) [{check['id']}]{warn}\n")
        for paragraph in str(check["rule"]).split("\n\n"):
            sys.stdout.write(f"    {paragraph}\n")
    return ExitCode.PASS


def _rule(doc: str | None) -> str:
    """A check's docstring as paragraphs of single-spaced text."""
    paragraphs = (doc or "").strip().split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def _verify_command(args: argparse.Namespace) -> int:
    from signoff.verify_command import run_verify_command

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
    from signoff.action import run_action

    env = dict(os.environ)
    if args.profile:  # the flag wins over the action's `profile` input
        env["SIGNOFF_PROFILE"] = args.profile
    return run_action(env)


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2, like every other bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(int(ExitCode.BAD_INPUT), f"{self.prog}: {' '.join(message.split())}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="signoff",
        description="Deterministic CODEOWNER sign-off verifier. "
        "Exit codes: 0 PASS, 1 REJECTED, 2 bad input, 3 could not verify.",
    )
    parser.add_argument("--version", action="version", version=f"signoff {__version__}")
    common = _Parser(add_help=False)
    common.add_argument("--profile", help="policy profile YAML (default: the InferenceX profile)")
    common.add_argument(
        "--debug", action="store_true", help="print the traceback of a check that crashed"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    judge_p = sub.add_parser(
        "judge", parents=[common], help="judge a saved evidence bundle offline"
    )
    judge_p.add_argument("bundle", help="evidence bundle JSON")
    judge_p.add_argument(
        "--format", choices=("markdown", "json"), default="markdown", help=VERDICT_FORMAT_HELP
    )
    judge_p.add_argument(
        "--standard", help=STANDARD_HELP + "; default: the standard the bundle records"
    )
    judge_p.set_defaults(run=_judge_command)

    parse_p = sub.add_parser(
        "parse", parents=[common], help="preflight a sign-off comment before posting it"
    )
    parse_p.add_argument("comment", help="the sign-off comment (Markdown file; - reads stdin)")
    parse_p.add_argument("--template", help="PR_REVIEW_CHECKLIST.md to compare against")
    parse_p.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text (default): what the verifier reads, for a person; json: the same for tools",
    )
    parse_p.set_defaults(run=_parse_command)

    checks_p = sub.add_parser(
        "checks", parents=[common], help="list the checks and what each one verifies"
    )
    checks_p.add_argument("--standard", help=STANDARD_HELP)
    checks_p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help='text (default): each rule in full; json: {"standard", "era", "checks": [...]}',
    )
    checks_p.set_defaults(run=_checks_command)

    verify_p = sub.add_parser(
        "verify", parents=[common], help="gather, judge (and optionally publish) one sign-off"
    )
    verify_p.add_argument("url", help="sign-off URL: .../pull/<n>#issuecomment-<id> (or review)")
    verify_p.add_argument("--api-url", help="GitHub API base URL (default $GITHUB_API_URL)")
    verify_p.add_argument("--publish", action="store_true", help="post the verdict and status")
    verify_p.add_argument(
        "--format", choices=("markdown", "json"), default="markdown", help=VERDICT_FORMAT_HELP
    )
    verify_p.add_argument("--evidence-out", help="write the evidence bundle JSON here")
    verify_p.add_argument("--replay", help=REPLAY_HELP)
    verify_p.add_argument("--token-env", help=TOKEN_ENV_HELP)
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
    audit_p.add_argument(
        "--format",
        choices=("markdown", "json", "csv"),
        help="markdown (default; json for `audit merge`): a job summary; json: the report "
        "(schema_version 1); csv: one row per PR and check",
    )
    audit_p.add_argument("--out", help="write the report here (default: stdout)")
    audit_p.add_argument("--evidence-dir", help="write each judged PR's evidence bundle here")
    audit_p.add_argument("--cache-dir", help="HTTP cache (default: the user cache directory)")
    audit_p.add_argument("--jobs", type=int, default=4, help="PRs audited in parallel (1-16)")
    audit_p.add_argument("--shard", help="I/N: audit only this share of the PRs")
    audit_p.add_argument("--max-requests", type=int, help="stop after spending this many")
    audit_p.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    audit_p.add_argument("--api-url", help="GitHub API base URL (default $GITHUB_API_URL)")
    audit_p.add_argument("--token-env", help=TOKEN_ENV_HELP)
    audit_p.add_argument("--replay", help=REPLAY_HELP)
    audit_p.set_defaults(run=_audit_command)


class _Stderr(logging.Handler):
    """Log records on whatever sys.stderr is when they are emitted."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(self.format(record) + "\n")


def _debug_to_stderr(enabled: bool) -> None:
    """`--debug`: signoff's DEBUG log (a crashed check's traceback) on stderr; else nothing."""
    log = logging.getLogger("signoff")
    for handler in [h for h in log.handlers if isinstance(h, _Stderr)]:
        log.removeHandler(handler)
    log.setLevel(logging.DEBUG if enabled else logging.NOTSET)
    if enabled:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("signoff: %(message)s"))
        log.addHandler(handler)


def build_merge_parser() -> argparse.ArgumentParser:
    """`signoff audit merge`: its own parser, so `audit merge --help` shows merge's usage."""
    merge_p = _Parser(
        prog="signoff audit merge",
        description="Combine the shard reports of one audit (`audit --shard I/N --format json`) "
        "into the report a single run gives, byte for byte. Exit codes: 0 none merged REJECTED "
        "or NO_SIGNOFF, 1 some did, 2 bad input, 3 a shard stopped early.",
    )
    merge_p.add_argument("reports", nargs="+", metavar="REPORT.json", help="the shard reports")
    merge_p.add_argument(
        "--format",
        choices=("json", "markdown", "csv"),
        default="json",
        help="json (default): the merged report; markdown: a job summary; csv: a row per check",
    )
    merge_p.add_argument("--out", help="write the merged report here (default: stdout)")
    merge_p.add_argument(
        "--debug", action="store_true", help="print the traceback of an internal error"
    )
    merge_p.set_defaults(run=_merge_command)
    return merge_p


def _merge_command(args: argparse.Namespace) -> int:
    from signoff.audit.run import run_merge_command

    return run_merge_command(args.reports, fmt=args.format, out=args.out)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:2] == ["audit", "merge"]:
        return build_merge_parser().parse_args(words[2:])
    return build_parser().parse_args(words)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    _debug_to_stderr(args.debug)
    run: Callable[[argparse.Namespace], int] = args.run
    if run is not _verify_command:
        startup.imported()  # verify says so itself, once its first request is under way
    try:
        return int(run(args))
    except SignoffError as exc:
        from signoff.publish.sanitize import log_line

        sys.stderr.write(f"signoff: {log_line(str(exc))}\n")
        return int(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("signoff: interrupted\n")
        return int(ExitCode.COULD_NOT_VERIFY)
    except BrokenPipeError:
        # The reader went away (`signoff checks | head -1`): no traceback at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.stderr.write("signoff: standard output was closed before everything was written\n")
        return int(ExitCode.COULD_NOT_VERIFY)
    except Exception as exc:  # a bug: one line and exit 3, never a traceback read as REJECTED
        logging.getLogger("signoff").debug("internal error", exc_info=True)
        message = " ".join(str(exc).split())[:300]
        sys.stderr.write(
            f"signoff: could not verify: internal error {type(exc).__name__}: {message} "
            "(--debug prints the traceback)\n"
        )
        return int(ExitCode.COULD_NOT_VERIFY)


def entry() -> NoReturn:
    """The `signoff` console script and `python -m signoff`: main(), then leave at once.

    By then every file is closed and the streams are flushed here; the interpreter's teardown
    of some 700 imported modules would only add about 50 ms to every verdict. Until the
    command's modules are imported, the garbage collector rests (`signoff.startup`).
    """
    startup.pause()
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = code or int(ExitCode.COULD_NOT_VERIFY)
    os._exit(code)
