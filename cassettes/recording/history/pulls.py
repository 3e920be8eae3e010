"""One PR of the audit history: its spec, check runs, eval artifacts, verdict and merge, and
the story of its sign-off (`STORIES`), added to the growing `History`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .branch import (
    BENCHMARK_LIB,
    CHANGELOG_ENTRY,
    CODEOWNERS_E4,
    MAIN_EVENTS,
    MARKER,
    MASTER,
    MODELS_MD,
    RECIPE_URL,
    REPO,
    SCRIPT,
    THRESHOLDS_JSON,
    V9,
    V13,
    VERIFIER,
    _t,
    _z,
    verdict_body,
)

# --- one PR ---------------------------------------------------------------------------------


@dataclass
class Spec:
    """One merged PR of the history; `kind` picks its story (see SPECIAL)."""

    number: int
    at: datetime  # created
    kind: str = "pass"
    signer: str = "kedarpotdar-nv"
    score: float = 0.97
    extra: dict[str, Any] = field(default_factory=dict)


def template_at(instant: datetime) -> str:
    text = V9
    for when, _, files in MAIN_EVENTS:
        page = files.get("docs/PR_REVIEW_CHECKLIST.md")
        if _t(when) <= instant and page is not None:
            text = page
    return text


def signoff_body(template: str, signer: str, run_id: int) -> str:
    """The template block of the day, every box ticked, detail filled in, signed."""
    if "```" in template:
        block = template.split("```", 2)[1].strip("\n")
    else:
        start = template.index("As a PR reviewer and CODEOWNER")
        block = template[start : template.index("\n", template.index("Signed:"))]
    body = block.replace("- [ ]", "- [x]")
    detail = (
        "### Additional detail section:\n"
        f"- PR validation and evals: https://github.com/{REPO}/actions/runs/{run_id}\n"
        f"- Recipe: {RECIPE_URL} (merged)\n"
    )
    body = re.sub(
        r"### Additional detail section:\n- insert any additional info here\n", detail, body
    )
    return body.replace("FILL_IN_GITHUB_USERNAME", signer) + "\n"


def check_runs(run: int, base_id: int) -> list[dict[str, Any]]:
    names = ["setup", "check-changelog"]
    names += [f"single-node 8k1k / p1 | dsv4 fp4 b200 vllm TP8 c{c}" for c in (4, 8, 16, 32, 64)]
    names += [f"eval / p1 | dsv4 fp4 b200 vllm TP8 c{c} | eval-only" for c in (32, 64)]
    names += ["collect-evals"]
    return [
        {"id": base_id + i, "name": name, "conclusion": "success", "run": run}
        for i, name in enumerate(names)
    ]


def agg_rows(score: float) -> list[dict[str, Any]]:
    return [
        {
            "is_multinode": False,
            "model_prefix": "dsv4",
            "model": "deepseek-ai/DeepSeek-V4-Pro",
            "hw": "B200",
            "framework": "vllm",
            "precision": "fp4",
            "spec_decoding": "none",
            "isl": 8192,
            "osl": 1024,
            "tp": 8,
            "ep": 1,
            "conc": conc,
            "dp_attention": False,
            "task": "gsm8k",
            "em_strict": score,
            "em_flexible": round(score + 0.002, 4),
            "n_eff": 1319,
            "score": score,
            "score_name": "em_strict",
        }
        for conc in (32, 64)
    ]


class History:
    """Builds the scenario: main's own commits and each PR's commits, runs, comments, status."""

    def __init__(self) -> None:
        self.main: dict[str, str] = {
            ".github/CODEOWNERS": CODEOWNERS_E4,
            "docs/PR_REVIEW_CHECKLIST.md": V9,
            "utils/evals/thresholds.json": THRESHOLDS_JSON,
            "MODELS.md": MODELS_MD,
            "benchmarks/benchmark_lib.sh": BENCHMARK_LIB,
            "configs/nvidia-master.yaml": MASTER.format(tag="v0.10.0"),
            "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm.sh": SCRIPT,
            "perf-changelog.yaml": CHANGELOG_ENTRY.format(tag="v0.10.0", number=2000),
            "README.md": "# InferenceX\n",
        }
        self.commits: list[dict[str, Any]] = [
            {
                "id": "c0",
                "date": "2026-07-01T12:00:00Z",
                "author": "ankur-singh",
                "message": "Initial layout",
                "files": dict(self.main),
            }
        ]
        self.events: list[tuple[datetime, str, dict[str, str | None]]] = [
            (_t(w), m, f) for w, m, f in MAIN_EVENTS
        ]
        self.pulls: list[dict[str, Any]] = []
        self.runs: list[dict[str, Any]] = []
        self.check_runs: dict[str, list[dict[str, Any]]] = {}
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.heads: dict[int, str] = {}  # PR number -> head commit label

    def main_until(self, instant: datetime) -> None:
        """Apply the default branch's own changes dated at or before `instant`."""
        while self.events and self.events[0][0] <= instant:
            when, message, files = self.events.pop(0)
            for path, text in files.items():  # None deletes the file
                if text is None:
                    self.main.pop(path, None)
                else:
                    self.main[path] = text
            self.commits.append(
                {
                    "id": f"m{len(self.commits)}",
                    "date": _z(when),
                    "author": "ankur-singh",
                    "message": message,
                    "files": files,
                }
            )

    def merge(self, number: int, at: datetime, files: dict[str, str], title: str) -> None:
        self.main_until(at)
        self.main.update(files)
        self.commits.append(
            {
                "id": f"s{number}",
                "date": _z(at),
                "author": "ankur-singh",
                "message": f"{title} (#{number})",
                "files": files,
            }
        )


def _comment(
    cid: int, user: str, at: datetime, body: str, association: str = "MEMBER", **extra: Any
) -> dict[str, Any]:
    return {
        "id": cid,
        "user": user,
        "author_association": association,
        "created_at": _z(at),
        "body": body,
        **extra,
    }


ASSOCIATION = {
    "kedarpotdar-nv": "MEMBER",
    "ankur-singh": "MEMBER",
    "jgangani": "COLLABORATOR",
    "nv-perf-dev": "CONTRIBUTOR",
    "mallory-x": "NONE",
}


def add_pr(h: History, spec: Spec) -> None:
    """One merged PR; special kinds change one thing of the ordinary gated story."""
    if spec.kind == "docs":
        _add_docs_pr(h, spec)
        return
    n, t = spec.number, spec.at
    h.main_until(t)
    tag = f"v0.{n - 2000}.0"
    files = {
        "configs/nvidia-master.yaml": MASTER.format(tag=tag),
        "perf-changelog.yaml": h.main["perf-changelog.yaml"]
        + CHANGELOG_ENTRY.format(tag=tag, number=n),
    }
    head, run = f"p{n}", 15_100_000_000 + n
    merged = t + timedelta(hours=2)
    signed_at = t + timedelta(hours=1)
    h.heads[n] = head
    h.check_runs[head] = check_runs(run, 41_000_000_000 + n * 100)
    h.runs.append(
        {
            "id": run,
            "name": "Run Sweep",
            "path": ".github/workflows/run-sweep.yml",
            "head_sha": head,
            "event": "pull_request",
            "created_at": _z(t + timedelta(minutes=5)),
            "updated_at": _z(t + timedelta(minutes=40)),
            "run_number": n,
            "actor": "nv-perf-dev",
            "artifacts": [
                {
                    "id": 3_100_000_000 + n,
                    "name": "eval_results_all",
                    "expired": spec.kind == "expired",
                    "files": {"agg_eval_all.json": agg_rows(spec.score)},
                }
            ],
        }
    )
    base_id = 2_500_000_000 + n * 100
    comments = [
        _comment(base_id, "kedarpotdar-nv", t + timedelta(minutes=50), f"/reuse-sweep-run {run}")
    ]
    body = signoff_body(template_at(signed_at), spec.signer, run)
    pull: dict[str, Any] = {
        "number": n,
        "title": f"dsv4 fp4 b200 vllm: image {tag}",
        "user": "nv-perf-dev",
        "body": f"Bumps the vLLM image to {tag}.",
        "created_at": _z(t),
        "merged_at": _z(merged),
        "labels": ["full-sweep-enabled"],
        "head": {"ref": f"nv-perf-dev/pr-{n}"},
        "base": {"ref": "main"},
        "commits": [
            {
                "id": head,
                "date": _z(t - timedelta(minutes=10)),
                "author": "nv-perf-dev",
                "message": f"image {tag}",
                "files": files,
            }
        ],
        "comments": comments,
        "reviews": [],
        "review_comments": [],
    }
    verdict_id = base_id + 9
    published_failing: dict[str, str] = spec.extra.get("published_failing", {})
    STORIES.get(spec.kind, _signed_comment)(h, spec, pull, body, signed_at, merged)
    if spec.kind not in ("no_signoff", "late_signoff", "forged"):
        instant = signed_at + timedelta(minutes=10)
        comments.append(
            _comment(
                verdict_id,
                VERIFIER,
                instant,
                verdict_body(f"@@HEAD:{n}@@", instant, spec.signer, published_failing),
                "CONTRIBUTOR",
            )
        )
        state = "failure" if published_failing else "success"
        h.statuses[head] = [
            {
                "state": state,
                "context": MARKER,
                "creator": "github-actions[bot]",
                "created_at": _z(instant),
                "target_url": f"https://github.com/{REPO}/pull/{n}#issuecomment-{verdict_id}",
                "description": "CODEOWNER sign-off independently verified"
                if state == "success"
                else "Sign-off verification rejected - see verdict comment",
            }
        ]
    h.pulls.append(pull)
    h.merge(n, merged, files, pull["title"])


def _add_docs_pr(h: History, spec: Spec) -> None:
    n, t = spec.number, spec.at
    h.main_until(t)
    files = {
        f"docs/notes/pr-{n}.md": f"Notes for #{n}\n",
        "README.md": h.main["README.md"] + f"- note {n}\n",
    }
    pull = {
        "number": n,
        "title": f"docs: notes {n}",
        "user": "nv-perf-dev",
        "created_at": _z(t),
        "merged_at": _z(t + timedelta(hours=2)),
        "head": {"ref": f"docs/pr-{n}"},
        "base": {"ref": "main"},
        "commits": [
            {
                "id": f"p{n}",
                "date": _z(t - timedelta(minutes=10)),
                "author": "nv-perf-dev",
                "message": "docs",
                "files": files,
            }
        ],
    }
    h.pulls.append(pull)
    h.merge(n, t + timedelta(hours=2), files, pull["title"])


# --- the stories -----------------------------------------------------------------------------


def _signed_comment(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, at, body, ASSOCIATION[spec.signer]
        )
    )


def _no_signoff(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["comments"].append(
        _comment(2_500_000_000 + spec.number * 100 + 1, "kedarpotdar-nv", at, "LGTM, merging.")
    )


def _late_signoff(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """The only sign-off came an hour after the merge: it did not let the PR merge."""
    late = merged + timedelta(hours=1)
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, late, body, ASSOCIATION[spec.signer]
        )
    )


def _forged(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """No sign-off; mallory-x posts the verdict marker with **Verdict: PASS** and InferenceX's
    status publisher (which trusted any commenter, facts §6.22) turns the status green."""
    cid = 2_500_000_000 + spec.number * 100 + 7
    forged = f"<!-- {MARKER} sha=@@HEAD:{spec.number}@@ -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\nAll checks passed.\n"
    pull["comments"].append(_comment(cid, "mallory-x", at, forged, "NONE"))
    h.statuses[h.heads[spec.number]] = [
        {
            "state": "success",
            "context": MARKER,
            "creator": "github-actions[bot]",
            "created_at": _z(at + timedelta(minutes=5)),
            "target_url": f"https://github.com/{REPO}/pull/{spec.number}#issuecomment-{cid}",
            "description": "CODEOWNER sign-off independently verified",
        }
    ]


def _stale_template(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """Signed with the V13 template while V18 was current; the verifier still published PASS."""
    stale = signoff_body(V13, spec.signer, 15_100_000_000 + spec.number)
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, at, stale, ASSOCIATION[spec.signer]
        )
    )


def _several(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """A stale sign-off, then a good one, then one by a non-owner, then one after the merge:
    only the good one (the last before the merge by a possible owner) counts."""
    base = 2_500_000_000 + spec.number * 100
    stale = signoff_body(V9, "ankur-singh", 15_100_000_000 + spec.number)
    pull["comments"] += [
        _comment(base + 1, "ankur-singh", at - timedelta(minutes=5), stale),
        _comment(base + 2, "kedarpotdar-nv", at, body),
        _comment(
            base + 3,
            "nv-perf-dev",
            at + timedelta(minutes=20),
            body.replace("kedarpotdar-nv", "nv-perf-dev"),
            "CONTRIBUTOR",
        ),
        _comment(
            base + 4,
            "ankur-singh",
            merged + timedelta(hours=3),
            body.replace("kedarpotdar-nv", "ankur-singh"),
        ),
    ]


def _edited_late(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """The sign-off is edited a day after the merge (REST shows only the edited text)."""
    edited = body.replace("(merged)", "(merged; recipe page updated later)")
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1,
            spec.signer,
            at,
            body,
            ASSOCIATION[spec.signer],
            edits=[{"editor": spec.signer, "at": _z(merged + timedelta(days=1)), "body": edited}],
        )
    )


def _review(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["reviews"].append(
        {
            "id": 2_900_000_000 + spec.number,
            "user": spec.signer,
            "state": "APPROVED",
            "body": body,
            "submitted_at": _z(at),
            "commit_id": h.heads[spec.number],
            "author_association": ASSOCIATION[spec.signer],
        }
    )


def _inline(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["review_comments"].append(
        {
            "id": 1_900_000_000 + spec.number,
            "user": spec.signer,
            "path": "configs/nvidia-master.yaml",
            "line": 2,
            "body": body,
            "diff_hunk": "@@ -1,3 +1,3 @@",
            "commit_id": h.heads[spec.number],
            "created_at": _z(at),
            "author_association": ASSOCIATION[spec.signer],
        }
    )


STORIES: dict[str, Callable[..., None]] = {
    "pass": _signed_comment,
    "expired": _signed_comment,
    "no_signoff": _no_signoff,
    "late_signoff": _late_signoff,
    "forged": _forged,
    "stale_template": _stale_template,
    "several": _several,
    "edited_late": _edited_late,
    "review": _review,
    "inline": _inline,
}
