"""Variants on what people write: where the sign-off sits (conversation, review, inline) and
hostile or look-alike text (issue 6 items 4, 5, 10; issue 7 item 5)."""

from __future__ import annotations

from typing import Any

from .checks import fail_upstream_image
from .common import (
    BOT,
    MARKER,
    SCRIPT_PATH,
    _edit_pr_file,
    _edit_signoff,
    _head_of,
    _pull,
    _select_in_changelog,
    _signoff_comment,
    _url,
    pass_conversation,
)


def review_summary(data: dict[str, Any]) -> str:
    comment = _signoff_comment(data)
    _pull(data)["reviews"] = [
        {
            "id": 2900027001,
            "user": "kedarpotdar-nv",
            "state": "APPROVED",
            "body": comment["body"],
            "submitted_at": "2026-08-18T14:00:00Z",
            "commit_id": "p2",
            "author_association": "MEMBER",
        }
    ]
    return _url("pullrequestreview-2900027001")


def inline_review_comment(data: dict[str, Any]) -> str:
    comment = _signoff_comment(data)
    _pull(data)["review_comments"] = [
        {
            "id": 1900027001,
            "user": "kedarpotdar-nv",
            "path": "configs/nvidia-master.yaml",
            "line": 30,
            "body": comment["body"],
            "diff_hunk": "@@ -28,3 +28,18 @@",
            "commit_id": "p2",
            "created_at": "2026-08-18T14:00:00Z",
            "author_association": "MEMBER",
        }
    ]
    return _url("discussion_r1900027001")


# Hostile text (issue 6 items 4, 5, 10; issue 7 item 5): each edits what a PR author or
# reviewer controls and records the verdict, the status and the comment as published.


def negated_exception(data: dict[str, Any]) -> str:
    """6: a rocm/vllm-dev image on b200, "excused" only by negated exception wording."""
    fail_upstream_image(data)
    _edit_signoff(
        data,
        "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n",
        "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n"
        "- Image: B200 is not new hardware, and DeepSeek-V4 isn't a new model architecture.\n",
    )
    return pass_conversation(data)


def fail_spec_true_or(data: dict[str, Any]) -> str:
    """8: `true || run_benchmark_serving --use-chat-template` beside the real call without it."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC" --use-chat-template\n',
        'true || run_benchmark_serving --model "$MODEL" --use-chat-template\n'
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC"\n',
    )
    return pass_conversation(data)


def one_na_all_unchecked(data: dict[str, Any]) -> str:
    """5: every box unchecked; one "quantization n/a" and a configuration/api link below."""
    comment = _pull(data)["comments"][-1]
    comment["body"] = (
        comment["body"]
        .replace("- [x]", "- [ ]")
        .replace(
            "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n",
            "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n"
            "- quantization n/a\n"
            "- Flags: https://docs.vllm.ai/en/latest/configuration/api.html\n",
        )
    )
    return pass_conversation(data)


def tab_after_box(data: dict[str, Any]) -> str:
    """A sign-off typed with a tab after every box: GitHub ticks each item; so must we."""
    comment = _pull(data)["comments"][-1]
    assert comment["body"].count("- [x] ") >= 15
    comment["body"] = comment["body"].replace("- [x] ", "- [x]\t")
    return pass_conversation(data)


MARKDOWN_IMAGE = "![PASS](https://img.shields.io/badge/verdict-PASS-brightgreen)"


def image_markdown(data: dict[str, Any]) -> str:
    """6: the entry's image: value is Markdown for a green PASS badge."""
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        "image: vllm/vllm-openai:v0.11.2\n  model: deepseek-ai/DeepSeek-V4-Pro",
        f'image: "{MARKDOWN_IMAGE}"\n  model: deepseek-ai/DeepSeek-V4-Pro',
    )
    _select_in_changelog(data, "dsv4-fp4-b200-vllm")
    return pass_conversation(data)


def forged_verdict(data: dict[str, Any]) -> str:
    """A user posted our marker for the head with **Verdict: PASS**; it must be left alone."""
    marker = f"<!-- {MARKER} sha={_head_of(data)} -->"
    _pull(data)["comments"].insert(
        2,
        {
            "id": 2400027101,
            "user": "mallory-x",
            "author_association": "NONE",
            "created_at": "2026-08-18T13:50:00Z",
            "body": f"{marker}\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\nAll checks passed.\n",
        },
    )
    return pass_conversation(data)


def edited_by_collaborator(data: dict[str, Any]) -> str:
    """0: the PR's author (a write collaborator) ticked the owner's unticked box by editing the
    owner's comment; REST shows the owner as author and the ticked text."""
    comment = _pull(data)["comments"][-1]
    ticked = comment["body"]
    comment["body"] = ticked.replace(
        "- [x] Copied the latest version", "- [ ] Copied the latest version"
    )
    assert comment["body"] != ticked
    comment["edits"] = [{"editor": "nv-perf-dev", "at": "2026-08-18T14:05:00Z", "body": ticked}]
    return pass_conversation(data)


MALLORY_ID = 2400027201


def _verdict_of_ours(data: dict[str, Any], verdict: str = "PASS") -> int:
    """Our earlier verdict comment for the head (posted by the workflow's token), and its id."""
    marker = f"<!-- {MARKER} sha={_head_of(data)} -->"
    header = (
        "## ✅✅✅ **Verdict: PASS** ✅✅✅"
        if verdict == "PASS"
        else "## ❌❌❌ **REJECTED** ❌❌❌"
    )
    _pull(data)["comments"].append(
        {
            "id": 2400027100,
            "user": BOT,
            "user_type": "Bot",
            "author_association": "NONE",
            "created_at": "2026-08-18T14:02:00Z",
            "body": f"{marker}\n{header}\n\nverified earlier\n",
        }
    )
    return 2400027100


def nonowner_after_pass(data: dict[str, Any]) -> str:
    """After the owner's PASS, an account with no association posts a copy of the sign-off."""
    _verdict_of_ours(data)
    owner = _pull(data)["comments"][2]
    _pull(data)["comments"].append(
        {
            "id": MALLORY_ID,
            "user": "mallory-x",
            "author_association": "NONE",
            "created_at": "2026-08-18T15:00:00Z",
            "body": owner["body"].replace("`kedarpotdar-nv`", "`mallory-x`"),
        }
    )
    return _url(f"issuecomment-{MALLORY_ID}")


def not_signoff_our_verdict(data: dict[str, Any]) -> str:
    """`verify --publish` on our own verdict comment (it quotes no opener, carries the marker)."""
    return _url(f"issuecomment-{_verdict_of_ours(data)}")


def not_signoff_bot(data: dict[str, Any]) -> str:
    """`verify --publish` on a bot's comment (the recipe reminder)."""
    _verdict_of_ours(data)
    return _url("issuecomment-2400027001")


def not_signoff_remark(data: dict[str, Any]) -> str:
    """`verify --publish` on a plain remark by an owner (no opener)."""
    _verdict_of_ours(data)
    _pull(data)["comments"].append(
        {
            "id": 2400027202,
            "user": "ankur-singh",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T15:10:00Z",
            "body": "Looks good to me; the MTP numbers match what we saw internally.",
        }
    )
    return _url("issuecomment-2400027202")


def superseded_signoff(data: dict[str, Any]) -> str:
    """Two owners signed off; the older sign-off's verification must not overwrite the newer's."""
    owner = _pull(data)["comments"][2]
    _pull(data)["comments"].append(
        {
            "id": 2400027203,
            "user": "ankur-singh",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T14:30:00Z",
            "body": owner["body"].replace("`kedarpotdar-nv`", "`ankur-singh`"),
        }
    )
    return pass_conversation(data)
