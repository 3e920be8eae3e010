"""Real verdicts after 2026-08-21, built from InferenceX's own files where git holds them.

The files are read at test time from a local InferenceX mirror (a bare git directory; none of its
files is copied into this project); without it these tests are skipped. The mirror ends at
`843c6254f` (2026-08-21): what a PR changed after that is rebuilt from its public thread.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from builders import build, passing_parts, replace_file, unified_patch, with_models_md

from signoff.gate import decide
from signoff.judge import judge
from signoff.parse.signoff_rule import signoff_problem
from signoff.standards import resolve_standard

MIRROR = Path(os.environ.get("INFERENCEX_MIRROR", "/work/.mirror/SemiAnalysisAI+InferenceX/repo"))
TIP = "843c6254f"  # the mirror's last main commit (2026-08-21)
AMD = "configs/amd-master.yaml"
ATOM_KEY = "kimik3-fp4-mi355x-atom-agentic-mtp"
ATOM_SCRIPT = "benchmarks/single_node/agentic/kimik3_fp4_mi355x_atom_mtp.sh"

pytestmark = pytest.mark.skipif(
    not (MIRROR / "HEAD").is_file(), reason="no local InferenceX mirror (set INFERENCEX_MIRROR)"
)


def show(path: str, commit: str = TIP) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(MIRROR), "show", f"{commit}:{path}"],
        capture_output=True, check=True, text=True,
    )  # fmt: skip
    return done.stdout


def template_block(page: str) -> str:
    return page.split("```", 2)[1].strip("\n")


def signed(block: str, signer: str, *, drop: str = "", detail: str = "") -> str:
    """A sign-off copied from `block`: every box ticked, the item containing `drop` left out."""
    lines = [ln for ln in block.split("\n") if not (drop and drop in ln)]
    body = "\n".join(lines).replace("- [ ]", "- [x]").replace("FILL_IN_GITHUB_USERNAME", signer)
    return body.replace("- insert any additional info here", detail or "- see the PR")


def real_repo_parts(standard_at: str) -> dict:
    """The passing skeleton with InferenceX's own CODEOWNERS, checklist and MODELS.md at TIP."""
    parts = with_models_md(passing_parts(), show("MODELS.md"))
    replace_file(parts, ".github/CODEOWNERS", "default", show(".github/CODEOWNERS"))
    replace_file(
        parts, "docs/PR_REVIEW_CHECKLIST.md", "default", show("docs/PR_REVIEW_CHECKLIST.md")
    )
    parts["reviewed_at"] = standard_at
    return parts


def set_signoff(parts: dict, body: str, author: str, author_type: str = "User") -> None:
    parts["signoff"].update(body=body, author=author, author_type=author_type)
    parts["comments"] = [c for c in parts["comments"] if c["id"] != parts["signoff"]["id"]]
    parts["comments"].append(
        {"id": parts["signoff"]["id"], "author": author, "author_type": author_type,
         "author_association": parts["signoff"]["author_association"], "body": body,
         "created_at": parts["signoff"]["created_at"]}
    )  # fmt: skip


def test_2712_the_bots_own_reminder_is_never_read_as_a_signoff(policy):
    """#2712 (2026-08-24): InferenceX's verifier judged the recipe-reminder comment, which quotes
    the opener, as a sign-off (REJECTED 0-4). Its text comes from pr-recipe-reminder.yml."""
    workflow = show(".github/workflows/pr-recipe-reminder.yml")
    found = re.search(r"const body = `((?:\\.|[^`\\])*)`", workflow)
    assert found is not None
    body = found[1].replace("${marker}", "<!-- recipe-reminder -->").replace("\\`", "`")
    body = "\n".join(line.strip() for line in body.split("\n"))
    assert "As a PR reviewer and CODEOWNER, I have reviewed this and have" in body
    assert "is a bot" in signoff_problem("github-actions[bot]", "Bot", body, policy)
    assert "opener" in signoff_problem("someone", "User", body, policy)  # quoted in a code span
    parts = real_repo_parts("2026-08-24T12:00:00Z")
    set_signoff(parts, body, "github-actions[bot]", "Bot")
    verdict = judge(build(parts), policy, resolve_standard("at:2026-08-24T12:00:00Z", policy))
    codeowner = verdict.checks[0]
    assert codeowner.status == "FAIL" and "not a CODEOWNER sign-off" in codeowner.reason
    payload = {
        "action": "created",
        "issue": {"number": 2712, "pull_request": {}, "state": "open"},
        "comment": {"id": 1, "body": body, "user": {"login": "github-actions[bot]", "type": "Bot"}},
    }
    assert not decide("issue_comment", payload, policy).proceed


def atom_retune_parts() -> dict:
    """#2725 (2026-08-26): the Kimi-K3 ATOM agentic entry of #2697 retuned on the _0821 image,
    signed off from a copy of the checklist without the append-only item."""
    base = show(AMD)
    head = base.replace("kimi_k3_agentic_0820", "kimi_k3_agentic_0821")
    assert head != base
    parts = real_repo_parts("2026-08-26T12:00:00Z")
    parts["changed_files"] = [
        {"path": AMD, "status": "modified", "patch": unified_patch(base, head)},
        {"path": "perf-changelog.yaml", "status": "modified",
         "patch": f"@@ -1,1 +1,5 @@\n context\n+- config-keys:\n+    - {ATOM_KEY}\n"
                  "+  description:\n+    - Retune on _0821"},
    ]  # fmt: skip
    parts["files"] = [f for f in parts["files"] if not f["path"].startswith("configs/")]
    replace_file(parts, AMD, "base", base)
    replace_file(parts, AMD, "head", head)
    replace_file(parts, ATOM_SCRIPT, "head", show(ATOM_SCRIPT))
    page = show("docs/PR_REVIEW_CHECKLIST.md")
    set_signoff(parts, signed(template_block(page), "billishyahao", drop="append-only: true"),
                "billishyahao")  # fmt: skip
    return parts


def test_2725_a_stale_copy_without_the_append_only_item_fails_check_5_and_atom_has_no_recipe(
    policy,
):
    parts = atom_retune_parts()
    verdict = judge(build(parts), policy, resolve_standard("at:2026-08-26T12:00:00Z", policy))
    seen = {c.id: c for c in verdict.checks}
    assert verdict.standard.era == "E8"
    assert seen["latest-template"].status == "FAIL"
    assert "append-only" in seen["latest-template"].reason
    assert "Check 12 (append-only additive)" in seen["latest-template"].reason
    assert seen["recipe"].status == "N/A"
    assert seen["codeowner"].status == "PASS"  # billishyahao owns configs/amd-master.yaml


def test_3303_the_first_template_with_the_draft_precision_item_ties_it_to_check_13(policy):
    """#3303 (2026-09-20) carried the first template with the draft-precision item. That page is
    after the mirror; it is rebuilt as V21 (from git) plus the item, in our words."""
    v21 = show("docs/PR_REVIEW_CHECKLIST.md")
    item = (
        "- [ ] Verified that every draft model and draft head is served as it ships, at its "
        "stored precision, with the draft precision recorded in the additional detail section."
    )
    anchor = "- [ ] If any of the above criteria cannot reasonably be satisfied"
    v22 = v21.replace(anchor, f"{item}\n{anchor}", 1)
    parts = real_repo_parts("2026-09-20T12:00:00Z")
    replace_file(parts, "docs/PR_REVIEW_CHECKLIST.md", "default", v22)
    set_signoff(parts, signed(template_block(v21), "ankur-singh"), "ankur-singh")
    for spec, named in (("at:2026-09-18T12:00:00Z", None), ("at:2026-09-20T12:00:00Z", 13)):
        verdict = judge(build(parts), policy, resolve_standard(spec, policy))
        template = next(c for c in verdict.checks if c.id == "latest-template")
        assert template.status == "FAIL" and "draft model and draft head" in template.reason
        if named is None:
            assert "Check 13" not in template.reason  # no check verifies the item before E9
        else:
            assert "Check 13 (draft runs as shipped)" in template.reason
    set_signoff(parts, signed(template_block(v22), "ankur-singh"), "ankur-singh")
    verdict = judge(build(parts), policy, resolve_standard("at:2026-09-20T12:00:00Z", policy))
    assert next(c for c in verdict.checks if c.id == "latest-template").status == "PASS"
