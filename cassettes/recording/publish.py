"""Record the publish cassettes (cassettes/publish/*.yaml) from ghemu scenarios.

    /tmp/dev/bin/python cassettes/record_publish.py [--ghemu ../shared/tools]

Each recording starts the emulator on a scenario, runs publish functions through a `Github` from
`signoff.github.client.connect` pointed at it while vcrpy records, then rewrites the cassette the way
every signoff cassette is stored: the emulator base URL becomes https://api.github.com and the
Authorization header is removed. Tests replay these (record_mode none) and never need ghemu.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import vcr
from github import Github

import signoff.github.pool
from signoff.errors import PublishError
from signoff.github.client import connect
from signoff.policy import load_policy
from signoff.publish.comment import publish_comment, resolve_identity
from signoff.publish.status import plan_status, publish_status

from . import CASSETTES, ROOT
from .rewriting import rewrite as github_shaped

REPO = "SemiAnalysisAI/InferenceX"
PR = 2417
HEAD = "5f0c3e9a1b7d2c4e6f8091a2b3c4d5e6f7a8b9c0"
MARKER = "codeowner-signoff-verify"
BOT = "github-actions[bot]"
RUN_URL = "https://github.com/SemiAnalysisAI/InferenceX/actions/runs/16099990001"
NEW_BODY = (
    f"<!-- {MARKER} sha={HEAD} -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\n"
    "✅ Check 0 (CODEOWNER): PASS — dana-kowal owns every changed file\n"
)


def _existing_body(scenario: Path, comment_id: int) -> str:
    import yaml

    data = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    for comment in data["repos"][REPO]["pulls"][0]["comments"]:
        if comment["id"] == comment_id:
            return str(comment["body"])
    raise KeyError(comment_id)


def create(gh: Github) -> None:
    """No verdict of ours for HEAD (only a forged one): identity lookup, list, POST, status."""
    identity = resolve_identity(gh, None)
    written = publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=identity)
    policy = load_policy(ROOT / "checklists" / "inferencex.yaml")
    publish_status(gh, REPO, plan_status("PASS", policy, sha=HEAD, target_url=written.url))


def update(gh: Github) -> None:
    """Our verdict for HEAD exists with other text: list, PATCH, failure status."""
    publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity="github-actions[bot]")
    policy = load_policy(ROOT / "checklists" / "inferencex.yaml")
    publish_status(gh, REPO, plan_status("REJECTED", policy, sha=HEAD, target_url=RUN_URL))


def unchanged(gh: Github) -> None:
    """Our verdict for HEAD exists with the same text: list only, then an error status."""
    body = _existing_body(CASSETTES / "scenarios" / "publish_pr_with_verdict.yaml", 3081260000)
    publish_comment(gh, REPO, PR, body, marker=MARKER, sha=HEAD, identity="github-actions[bot]")
    policy = load_policy(ROOT / "checklists" / "inferencex.yaml")
    publish_status(gh, REPO, plan_status("ERROR", policy, sha=HEAD, target_url=RUN_URL, detail="x"))


def forbidden(gh: Github) -> None:
    """A token without `issues: write`: the POST answers 403."""
    try:
        publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    except PublishError as exc:
        print(f"  expected: {exc}")


RECORDINGS: dict[str, tuple[str, Callable[[Github], None], dict[str, object]]] = {
    "create_comment": ("publish_pr.yaml", create, {}),
    "update_comment": ("publish_pr_with_verdict.yaml", update, {}),
    "unchanged_comment": ("publish_pr_with_verdict.yaml", unchanged, {}),
    # ghemu does not enforce permissions on comment writes; a fault stands in for GitHub's 403.
    "forbidden_comment": (
        "publish_pr.yaml",
        forbidden,
        {"faults": [{"method": "POST", "path": "/comments$", "effect": "status", "status": 403}]},
    ),
}


def rewrite(cassette: Path, base_url: str) -> None:
    """The shared convention (recording/rewriting.py): GitHub URLs, no Authorization header."""
    text = cassette.read_text(encoding="utf-8")
    cassette.write_text(github_shaped(text, base_url.rstrip("/")), encoding="utf-8")


def record(name: str, ghemu_parent: Path) -> Path:
    sys.path.insert(0, str(ghemu_parent))
    import yaml
    from ghemu import Emulator

    scenario, run, overrides = RECORDINGS[name]
    state = yaml.safe_load((CASSETTES / "scenarios" / scenario).read_text(encoding="utf-8"))
    state.update(overrides)
    out = CASSETTES / "publish" / f"{name}.yaml"
    out.unlink(missing_ok=True)
    recorder = vcr.VCR(
        record_mode="all", filter_headers=["authorization"], decode_compressed_response=True
    )
    with Emulator(state) as base_url:
        gh = connect("recording-token", base_url, mode="test")
        with recorder.use_cassette(str(out)):
            run(gh)
    rewrite(out, base_url)
    return out


# --- end-to-end recordings: `run_action` over the gather helper's PR 2700 scenario -------------

EVENTS = ROOT / "tests" / "data" / "events"
E2E_REPO_RUN_ID = "17000000001"


class Step:
    """One `signoff action` run inside an emulator session, recorded to e2e/<name>.yaml."""

    def __init__(self, name: str, event: str, fixture: str, **inputs: str) -> None:
        self.name, self.event, self.fixture, self.inputs = name, event, fixture, inputs


def _stale_and_forged(data: dict[str, Any], sha: str) -> None:
    """Our verdict for `sha` with outdated text, and a forged PASS for `sha` by a user."""
    comments = data["repos"][REPO_E2E]["pulls"][0]["comments"]
    marker = f"<!-- {MARKER} sha={sha} -->"
    comments.append(
        {
            "id": 2400027101,
            "user": "mallory-x",
            "author_association": "NONE",
            "created_at": "2026-08-18T14:05:00Z",
            "body": f"{marker}\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n",
        }
    )
    comments.append(
        {
            "id": 2400027102,
            "user": BOT,
            "user_type": "Bot",
            "author_association": "NONE",
            "created_at": "2026-08-18T14:06:00Z",
            "body": f"{marker}\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\nan outdated verdict\n",
        }
    )


REPO_E2E = "SemiAnalysisAI/InferenceX"
PASS_HEAD = "d9a2aaf0b52bb6e758ad6e4dedad360652b10f74"

# name -> (gather variant, extra patch, steps run in order in one emulator session)
E2E: dict[str, tuple[str, Callable[[dict[str, Any]], None] | None, list[Step]]] = {
    "pass": (
        "pass_conversation",
        None,
        [
            Step("pass_created", "issue_comment", "issue_comment.created.pull_request"),
            Step("pass_rerun_unchanged", "issue_comment", "issue_comment.edited.pull_request"),
        ],
    ),
    "rejected": (
        "expired_artifact",
        lambda data: _stale_and_forged(data, PASS_HEAD),
        [Step("rejected_updated", "issue_comment", "issue_comment.created.pull_request")],
    ),
    "review_dispatch": (
        "review_summary",
        None,
        [
            Step(
                "review_dispatch_status_only",
                "workflow_dispatch",
                "workflow_dispatch",
                SIGNOFF_COMMENT_URL=f"https://github.com/{REPO_E2E}/pull/2700#pullrequestreview-2900027001",
                SIGNOFF_POST_COMMENT="false",
                SIGNOFF_STATUS_CONTEXT="signoff/inferencex",
            )
        ],
    ),
    "edited_by_collaborator": (
        "edited_by_collaborator",
        None,
        [
            Step(
                "edited_by_collaborator",
                "issue_comment",
                "issue_comment.edited.by_collaborator",
            )
        ],
    ),
    "nonowner": (
        "nonowner_after_pass",
        None,
        [
            Step("nonowner_skipped", "issue_comment", "issue_comment.created.by_nonowner"),
            Step(
                "dispatch_not_signoff",
                "workflow_dispatch",
                "workflow_dispatch",
                SIGNOFF_COMMENT_URL=f"https://github.com/{REPO_E2E}/pull/2700#issuecomment-2400027100",
            ),
        ],
    ),
    "comment_forbidden": (
        "pass_conversation",
        lambda data: data.update(
            faults=[
                {
                    "method": "POST",
                    "path": r"/issues/2700/comments$",
                    "effect": "status",
                    "status": 403,
                    "count": -1,
                }
            ]
        ),
        [Step("comment_forbidden", "issue_comment", "issue_comment.created.pull_request")],
    ),
    "files_unreadable": (
        "pass_conversation",
        lambda data: data.update(
            faults=[
                {
                    "method": "GET",
                    "path": r"^/repos/[^/]+/[^/]+/pulls/2700/files$",
                    "effect": "status",
                    "status": 502,
                    "count": -1,
                }
            ]
        ),
        [Step("could_not_verify", "issue_comment", "issue_comment.created.pull_request")],
    ),
}


def record_e2e(group: str) -> list[Path]:
    from ghemu import Emulator

    import signoff.action as action

    from .scenario import base_scenario, pin_merge_commit
    from .variants.catalogue import VARIANTS

    variant_name, extra, steps = E2E[group]
    data = base_scenario()
    variant = next(v for v in VARIANTS if v.name == variant_name)
    if variant.patch:
        variant.patch(data)
    data["viewer"] = BOT  # the workflow's GITHUB_TOKEN: comments are by github-actions[bot]
    if extra:
        extra(data)
    pin_merge_commit(data)  # last: commit SHAs derive from the final scenario
    written = []
    with Emulator(data) as base_url, tempfile.TemporaryDirectory() as tmp:
        for step in steps:
            out = CASSETTES / "publish" / "e2e" / f"{step.name}.yaml"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.unlink(missing_ok=True)
            env = _e2e_env(step, base_url, Path(tmp))
            recorder = vcr.VCR(record_mode="all", decode_compressed_response=False)
            with recorder.use_cassette(str(out)):
                code = action.run_action(env)
            rewrite(out, base_url)
            info = {
                "event": step.event,
                "fixture": step.fixture,
                "inputs": step.inputs,
                "exit_code": code,
                "gather_variant": variant_name,
            }
            out.with_suffix(".json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
            print(f"{out}: exit {code}")
            written.append(out)
    return written


def _e2e_env(step: Step, base_url: str, tmp: Path) -> dict[str, str]:
    env = {
        "GITHUB_EVENT_NAME": step.event,
        "GITHUB_EVENT_PATH": str(EVENTS / f"{step.fixture}.json"),
        "GITHUB_REPOSITORY": REPO_E2E,
        "GITHUB_API_URL": base_url,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_RUN_ID": E2E_REPO_RUN_ID,
        "GITHUB_OUTPUT": str(tmp / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "RUNNER_TEMP": str(tmp),
        "SIGNOFF_TOKEN": "recording-token",
        "PATH": os.environ.get("PATH", ""),
    }
    env.update(step.inputs)
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tools = ROOT.parent / "shared" / "tools"
    parser.add_argument("--ghemu", default=str(tools), help="folder holding ghemu/")
    parser.add_argument("names", nargs="*", default=[*sorted(RECORDINGS), *sorted(E2E)])
    args = parser.parse_args()
    from .emulator import require_ghemu

    require_ghemu(Path(args.ghemu).resolve())
    import ghemu.util

    from .scenario import FROZEN_NOW

    # Writes are stamped with the emulator's clock: freeze it, as the verify recorder does, so
    # that re-recording gives identical cassettes; and gather one read at a time, as it does.
    ghemu.util.now = lambda: FROZEN_NOW
    signoff.github.pool.WORKERS = 1
    for name in args.names:
        if name in E2E:
            record_e2e(name)
        else:
            print(record(name, Path(args.ghemu)))
    return 0
