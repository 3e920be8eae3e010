"""Variants on how GitHub answers: pages, list caps, 403/5xx/rate limits, expired or gone
artifacts, eval-artifact bounds, truncated or non-JSON bodies."""

from __future__ import annotations

import json
from typing import Any

from ..scenario import AGG_ROWS, PR, REPO
from .common import _pull, pass_conversation


def many_comments_and_files(data: dict[str, Any]) -> str:
    pull = _pull(data)
    notes = {f"docs/notes/dsv4_mtp_{i:03d}.md": f"note {i}\n" for i in range(120)}
    pull["commits"][1]["files"].update(notes)
    signoff = pull["comments"].pop()
    chatter = [
        {
            "id": 2400028000 + i,
            "user": "nv-perf-dev" if i % 2 else "ankur-singh",
            "author_association": "COLLABORATOR" if i % 2 else "MEMBER",
            "created_at": f"2026-08-18T{10 + i // 60:02d}:{i % 60:02d}:30Z",
            "body": f"status update {i}",
        }
        for i in range(127)
    ]
    pull["comments"].extend([*chatter, signoff])
    return pass_conversation(data)


def team_403(data: dict[str, Any]) -> str:
    data["orgs"]["InferenceX"]["team_access"] = "forbidden"
    comment = _pull(data)["comments"][-1]
    comment["user"] = "core-reviewer"
    comment["body"] = comment["body"].replace("Signed: `kedarpotdar-nv`", "Signed: `core-reviewer`")
    return pass_conversation(data)


def flaky_5xx(data: dict[str, Any]) -> str:
    data["faults"] = [
        {
            "method": "GET",
            "path": rf"^/repos/{REPO}/pulls/{PR}/files$",
            "effect": "status",
            "status": 502,
            "count": 1,
        },
        {  # (a REST read every verdict makes: the head's check runs come from GraphQL)
            "method": "GET",
            "path": r"/actions/runs/\d+/artifacts$",
            "effect": "status",
            "status": 503,
            "count": 1,
        },
    ]
    return pass_conversation(data)


def secondary_rate_limit(data: dict[str, Any]) -> str:
    data["faults"] = [
        {
            "method": "GET",
            "path": rf"^/repos/{REPO}/pulls/{PR}/files$",  # (the comments come from GraphQL)
            "effect": "secondary_rate_limit",
            "retry_after": 1,
            "count": 1,
        },
    ]
    return pass_conversation(data)


def expired_artifact(data: dict[str, Any]) -> str:
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["expired"] = True
    return pass_conversation(data)


def artifact_gone_410(data: dict[str, Any]) -> str:
    """Listed as not expired, but the download answers 410 (expired between list and download)."""
    data["faults"] = [
        {
            "method": "GET",
            "path": r"/actions/artifacts/\d+/zip$",
            "effect": "status",
            "status": 410,
            "count": 1,
        },
    ]
    return pass_conversation(data)


# A PR at GitHub's list caps: 3,000 files (30 pages), 250 commits (3 pages), 1,000 comments.
LARGE_FILES, LARGE_COMMITS, LARGE_COMMENTS = 3000, 250, 1000


def large_pr(data: dict[str, Any]) -> str:
    """2,997 one-line notes over 248 commits before p1/p2, 997 chatter comments before ours."""
    pull = _pull(data)
    extra_commits = LARGE_COMMITS - len(pull["commits"])
    extra_files = LARGE_FILES - 3  # p1/p2 change the master config, the script, the changelog
    commits: list[dict[str, Any]] = []
    for index in range(extra_commits):
        minute = 8 * 60 + index * 3  # 2026-08-17 08:00 onwards, three minutes apart
        commits.append(
            {
                "id": f"n{index + 1}",
                "date": f"2026-08-17T{minute // 60:02d}:{minute % 60:02d}:00Z",
                "author": "nv-perf-dev",
                "message": f"notes batch {index + 1}",
                "files": {
                    f"docs/notes/n{i:04d}.md": f"n{i}\n"
                    for i in range(extra_files)
                    if i % extra_commits == index
                },
            }
        )
    pull["commits"] = [*commits, *pull["commits"]]
    comments = pull["comments"]
    chatter = [
        {
            "id": 2400030000 + i,
            "user": "nv-perf-dev" if i % 2 else "ankur-singh",
            "author_association": "COLLABORATOR" if i % 2 else "MEMBER",
            "created_at": f"2026-08-18T{9 + (120 + i * 15) // 3600:02d}:"
            f"{(120 + i * 15) % 3600 // 60:02d}:{(120 + i * 15) % 60:02d}Z",
            "body": f"sweep status {i}",
        }
        for i in range(LARGE_COMMENTS - len(comments))
    ]
    pull["comments"] = [comments[0], *chatter, *comments[1:]]
    return pass_conversation(data)


def _job_artifact(index: int, strict: float) -> dict[str, Any]:
    """One eval job's artifact: its meta_env.json and lm-eval results (gsm8k)."""
    results = {
        "lm_eval_version": "0.4.9",
        "results": {
            "gsm8k": {"exact_match,strict-match": strict, "exact_match,flexible-extract": strict}
        },
        "n-samples": {"gsm8k": {"original": 1319, "effective": 1319}},
    }
    meta = {"infmax_model_prefix": "dsv4", "framework": "vllm", "precision": "fp4", "hw": "b200"}
    return {
        "id": 3000002710 + index,
        "name": f"eval_dsv4_8k1k_fp4_vllm_tp8-ep1_conc64_b200-nv_{index}",
        "files": {"meta_env.json": meta, "results_2026.json": results},
    }


def eval_jobs_past_eight(data: dict[str, Any]) -> str:
    """2: no aggregate; nine eval-job artifacts, the last by name below the bar (0.5): reading
    only the first eight by name judged the run on part of its evals."""
    run = data["repos"][REPO]["workflow_runs"][0]
    jobs = [_job_artifact(i, 0.95) for i in range(8)] + [_job_artifact(8, 0.5)]
    run["artifacts"] = [*jobs, *run["artifacts"][1:]]  # the server-logs artifact stays
    return pass_conversation(data)


def eval_jobs_past_the_bound(data: dict[str, Any]) -> str:
    """2: no aggregate; 17 eval-job artifacts, one more than is read: none is read."""
    run = data["repos"][REPO]["workflow_runs"][0]
    run["artifacts"] = [_job_artifact(i, 0.95) for i in range(17)]
    return pass_conversation(data)


def eval_json_bomb(data: dict[str, Any]) -> str:
    """2: agg_eval_all.json is the real rows and 9,000 copies (4.3 MB of text, ~40 KB zipped)."""
    rows = [*AGG_ROWS, *([AGG_ROWS[0]] * 9_000)]
    text = "[" + ",".join(json.dumps(row) for row in rows) + "]\n"
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["files"]["agg_eval_all.json"] = text
    return pass_conversation(data)


def eval_job_number_too_wide(data: dict[str, Any]) -> str:
    """2: no aggregate; the eval job's lm-eval results give gsm8k a 401-digit integer score."""
    artifact = data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]
    score = "1" + "0" * 400  # float() of it raises OverflowError
    results = (
        '{"lm_eval_version": "0.4.9", "results": {"gsm8k": {"alias": "gsm8k", '
        f'"exact_match,strict-match": {score}, "exact_match,flexible-extract": 0.95}}}}, '
        '"n-samples": {"gsm8k": {"original": 1319, "effective": 1319}}}\n'
    )
    meta = {"infmax_model_prefix": "dsv4", "framework": "vllm", "precision": "fp4", "hw": "b200"}
    artifact["name"] = "eval_dsv4_8k1k_fp4_vllm_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_conc64"
    artifact["files"] = {"meta_env.json": {**meta, "conc": 64}, "results_2026.json": results}
    return pass_conversation(data)


FILES_LIST = rf"^/repos/{REPO}/pulls/{PR}/files$"


def _fault(data: dict[str, Any], **rule: Any) -> None:
    data.setdefault("faults", []).append(rule)


def truncated_json_once(data: dict[str, Any]) -> str:
    """The files list answers 200 with half its body once; the read is asked again."""
    _fault(data, method="GET", path=FILES_LIST, effect="truncated_json", count=1)
    return pass_conversation(data)


def truncated_json(data: dict[str, Any]) -> str:
    """The files list answers 200 with half its body every time: could not verify."""
    _fault(data, method="GET", path=FILES_LIST, effect="truncated_json", count=-1)
    return pass_conversation(data)


def html_answer(data: dict[str, Any]) -> str:
    """GraphQL answers 200 with an HTML error page every time (the first query carries the
    policy texts, the commits and the head's check runs)."""
    _fault(data, method="POST", path=r"/graphql$", effect="invalid_json", count=-1)
    return pass_conversation(data)


def comment_answer_truncated(data: dict[str, Any]) -> str:
    """The verdict comment POST lands but its answer is cut short: not repeated, exit 3."""
    _fault(data, method="POST", path=rf"/issues/{PR}/comments$", effect="truncated_json")
    return pass_conversation(data)


# Past the caps: 3,200 files over 260 commits (GitHub lists 3,000 files and 250 commits).
BEYOND_FILES, BEYOND_COMMITS = 3200, 260


def beyond_caps(data: dict[str, Any]) -> str:
    """3,197 one-line notes over 258 commits before p1/p2 (the three comments of the base)."""
    pull = _pull(data)
    extra_commits = BEYOND_COMMITS - len(pull["commits"])
    extra_files = BEYOND_FILES - 3
    commits = []
    for index in range(extra_commits):
        minute = 6 * 60 + index * 2  # 2026-08-17 06:00 onwards, two minutes apart
        commits.append(
            {
                "id": f"b{index + 1}",
                "date": f"2026-08-17T{minute // 60:02d}:{minute % 60:02d}:00Z",
                "author": "nv-perf-dev",
                "message": f"notes batch {index + 1}",
                "files": {
                    f"docs/notes/b{i:04d}.md": f"b{i}\n"
                    for i in range(extra_files)
                    if i % extra_commits == index
                },
            }
        )
    pull["commits"] = [*commits, *pull["commits"]]
    return pass_conversation(data)
