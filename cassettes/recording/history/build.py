"""An InferenceX-like history of merged PRs for `signoff audit`, as a ghemu scenario.

    history(count=48)  -> scenario dict (the audit cassettes' 48-PR history)
    history(count=300, mix=True) -> a generated 300-PR history for tests/bench/bench_audit.py

The default branch changes over time the way InferenceX's did (facts §1.3, §2.1, §3.1, §3.3):
the checklist template moves V9 -> V13 -> V18 -> V19 -> V21 at its real instants, CODEOWNERS
drops `@jgangani` from the nvidia line on 2026-07-16, and the dsv4 eval bar rises on 2026-08-01.
Every gated PR bumps the vLLM image of `dsv4-fp4-b200-vllm` and adds a changelog entry; it is
swept green on its head, signed off with the template of the day, verified by `Klaud-Cold`
(verdict rows with the names and numbering of the era in force) and merged. The special PRs
are listed in SPECIAL; each exercises one audit rule. All names and texts are invented.
"""

from __future__ import annotations

import copy
import re
from datetime import timedelta
from typing import Any

from .branch import END, FIRST_PR, MASTER, RECIPE_DOC, REPO, START, VERIFIER, _t
from .pulls import History, Spec, add_pr

# PR offset -> (kind, overrides) in the 48-PR history. Offsets not listed are ordinary PASSes.
SPECIAL: dict[int, tuple[str, dict[str, Any]]] = {
    2: ("pass", {"signer": "jgangani"}),  # listed on the nvidia line then: PASS
    3: ("docs", {}),
    5: ("expired", {}),  # eval artifact expired: UNVERIFIABLE
    6: ("pass", {"at": "2026-07-10T18:40:00Z"}),  # signed during E5
    7: ("no_signoff", {}),
    9: ("review", {}),
    11: ("docs", {}),
    # Signed before thresholds.json became thresholds.yaml (2026-07-17 00:40): a head that
    # predates that move and a sign-off after it would look for a file the head lacks.
    12: ("pass", {"at": "2026-07-16T18:00:00Z"}),
    13: ("several", {}),
    14: (
        "pass",
        {
            "signer": "jgangani",
            "published_failing": {
                "CODEOWNER": "jgangani is not listed for configs/nvidia-master.yaml"
            },
        },
    ),
    15: ("late_signoff", {}),
    17: ("edited_late", {}),
    19: ("docs", {}),
    20: ("stale_template", {}),  # published PASS, wrong by E6's rules (Check 5)
    22: ("forged", {}),
    24: ("inline", {}),
    25: ("pass", {"score": 0.95}),  # before the bar rose: 0.95 >= 0.91
    27: ("docs", {}),
    28: (
        "pass",
        {"published_failing": {"passing sweep + evals on in-PR commit": "no green sweep found"}},
    ),  # published REJECTED wrongly
    30: (
        "pass",
        {"score": 0.95, "published_failing": {"evals pass": "gsm8k 0.950 < 0.96"}},
    ),  # after: 0.95 < 0.96
    35: ("docs", {}),
}


def specs(count: int, mix: bool) -> list[Spec]:
    step = (END - START) / count
    out = []
    for offset in range(count):
        number, at = FIRST_PR + offset, START + step * offset
        kind, extra = ("pass", {})
        if not mix and offset in SPECIAL:
            kind, extra = SPECIAL[offset]
        elif mix:
            kind = (
                "docs",
                "pass",
                "pass",
                "review",
                "pass",
                "no_signoff",
                "pass",
                "inline",
                "pass",
                "docs",
            )[offset % 10]
        extra = dict(extra)
        spec = Spec(number, _t(extra.pop("at")) if "at" in extra else at, kind)
        spec.signer = extra.pop("signer", spec.signer)
        spec.score = extra.pop("score", spec.score)
        spec.extra = extra
        out.append(spec)
    return out


BASE_SCENARIO: dict[str, Any] = {
    "viewer": "signoff-audit[bot]",
    "viewer_permission": "read",
    "html_url": "https://github.com",
    "rate_limit": {"core": 5000, "search": 30},
    "users": {
        "kedarpotdar-nv": {"name": "Kedar P"},
        "ankur-singh": {"name": "Ankur S"},
        "jgangani": {"name": "J Gangani"},
        "nv-perf-dev": {"name": "NV Perf Dev"},
        "mallory-x": {"name": "Mallory"},
        VERIFIER: {"name": "Klaud Cold"},
        "github-actions[bot]": {"type": "Bot"},
    },
    "orgs": {
        "InferenceX": {
            "members": ["kedarpotdar-nv", "ankur-singh"],
            "team_access": "ok",
            "teams": {"core": {"members": ["ankur-singh"], "name": "core"}},
        },
        "SemiAnalysisAI": {"members": ["kedarpotdar-nv", "ankur-singh"]},
    },
}


def history(count: int = 48, *, mix: bool = False) -> dict[str, Any]:
    """The ghemu scenario of `count` merged PRs (plus one merged elsewhere, one closed unmerged)."""
    h = History()
    for spec in specs(count, mix):
        add_pr(h, spec)
    h.main_until(END + timedelta(days=1))
    data = copy.deepcopy(BASE_SCENARIO)
    data["repos"] = {
        REPO: {
            "default_branch": "main",
            "collaborators": {
                "kedarpotdar-nv": "maintain",
                "ankur-singh": "maintain",
                "jgangani": "write",
                "nv-perf-dev": "write",
            },
            "commits": h.commits,
            "branches": {"release": "c0"},
            "pulls": [*h.pulls, *_outsiders(count)],
            "workflow_runs": h.runs,
            "check_runs": h.check_runs,
            "statuses": h.statuses,
        },
        "vllm-project/recipes": {
            "default_branch": "main",
            "files": {"README.md": "# vLLM recipes\n", "DeepSeek/DeepSeek-V4.md": RECIPE_DOC},
            "pulls": [
                {
                    "number": 412,
                    "title": "DeepSeek-V4: B200 FP4 recipe",
                    "user": "recipe-author",
                    "created_at": "2026-06-28T09:00:00Z",
                    "merged_at": "2026-06-30T17:00:00Z",
                    "merged": True,
                    "files": [
                        {
                            "filename": "DeepSeek/DeepSeek-V4.md",
                            "status": "modified",
                            "patch": "@@ -40,3 +40,9 @@ ## B200\n \n+### FP4\n+\n+```bash\n+vllm serve deepseek-ai/DeepSeek-V4-Pro \\\n+  --tensor-parallel-size 8 \\\n+  --kv-cache-dtype fp8\n+```\n",
                        }
                    ],
                }
            ],
        },
    }
    return fill_heads(data)


def _outsiders(count: int) -> list[dict[str, Any]]:
    """A PR merged into a release branch and a PR closed without merging: never audited."""
    n = FIRST_PR + count
    return [
        {
            "number": n,
            "title": "release: backport",
            "user": "nv-perf-dev",
            "created_at": "2026-07-20T10:00:00Z",
            "merged_at": "2026-07-20T12:00:00Z",
            "head": {"ref": "backport"},
            "base": {"ref": "release"},
            "commits": [
                {
                    "id": f"p{n}",
                    "date": "2026-07-20T09:00:00Z",
                    "author": "nv-perf-dev",
                    "branch": "backport",
                    "files": {"configs/nvidia-master.yaml": MASTER.format(tag="v9.9.9")},
                }
            ],
        },
        {
            "number": n + 1,
            "title": "abandoned image bump",
            "user": "nv-perf-dev",
            "created_at": "2026-07-21T10:00:00Z",
            "closed_at": "2026-07-21T12:00:00Z",
            "state": "closed",
            "head": {"ref": "abandoned"},
            "base": {"ref": "main"},
            "commits": [
                {
                    "id": f"p{n + 1}",
                    "date": "2026-07-21T09:00:00Z",
                    "author": "nv-perf-dev",
                    "files": {"configs/nvidia-master.yaml": MASTER.format(tag="v9.9.8")},
                }
            ],
        },
    ]


def fill_heads(data: dict[str, Any]) -> dict[str, Any]:
    """Replace `@@HEAD:n@@` with the SHA the emulator gives PR n's head (SHAs follow content),
    and pin the upstream recipe PR's merge commit."""
    from ..emulator import require_ghemu

    require_ghemu()
    from ghemu import State

    state = State(copy.deepcopy(data))
    repo = state.repo(*REPO.split("/"))
    heads = {n: str(issue["head"]["sha"]) for n, issue in repo.issues.items() if issue.get("pull")}
    # The merged recipe PR's merge commit is the recipes repo's main head (ghemu keeps the
    # merge_commit_sha it is given).
    recipes = data["repos"]["vllm-project/recipes"]
    recipes["pulls"][0]["merge_commit_sha"] = state.repo("vllm-project", "recipes").heads["main"]
    for pull in data["repos"][REPO]["pulls"]:
        for comment in pull.get("comments") or []:
            comment["body"] = re.sub(r"@@HEAD:(\d+)@@", lambda m: heads[int(m[1])], comment["body"])
    return data
