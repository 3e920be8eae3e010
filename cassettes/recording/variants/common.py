"""What every verify variant shares: the `Variant` record and small edits of the scenario."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ..emulator import require_ghemu

require_ghemu()

from ghemu import Emulator, State  # noqa: E402

from ..scenario import PR, REPO, SIGNOFF_COMMENT_ID  # noqa: E402

# --- variants ------------------------------------------------------------------------------

BOT = "github-actions[bot]"  # who an installation token's comments are by (GET /user is 403)
MARKER = "codeowner-signoff-verify"


class Variant:
    """One recording: a scenario patch (returns the sign-off URL) and how verify runs on it.

    `publish`: run verify with publish=True (records GET /user, the comment write and the status).
    `after_pin`: called with the live emulator right after verify pinned the head (head moves).
    `expect`: (verdict, failing check numbers); recording stops if the run disagrees.
    `standard`: the standard to verify under (None: the profile's default, Checks 0-8); the
    numbers in `expect` are that standard's. A run that cannot verify expects ("ERROR", ()) and
    names a piece of its error in `error`.
    """

    def __init__(
        self,
        name: str,
        note: str,
        patch: Callable[[dict[str, Any]], str] | None = None,
        *,
        publish: bool = False,
        after_pin: Callable[[Emulator], None] | None = None,
        expect: tuple[str, tuple[int, ...]] = ("PASS", ()),
        standard: str | None = None,
        error: str = "",
        warns: tuple[int, ...] = (),
    ) -> None:
        self.name, self.note, self.patch = name, note, patch
        self.publish, self.after_pin, self.expect = publish, after_pin, expect
        self.standard = standard
        self.warns = warns  # check numbers that must WARN (warning-only checks, E10+)
        self.error = error  # text the run's could-not-verify (or publish) error must contain


def _pull(data: dict[str, Any]) -> dict[str, Any]:
    return data["repos"][REPO]["pulls"][0]


def _signoff_comment(data: dict[str, Any]) -> dict[str, Any]:
    return _pull(data)["comments"].pop()


def _url(anchor: str) -> str:
    return f"https://github.com/{REPO}/pull/{PR}#{anchor}"


def _head_of(data: dict[str, Any]) -> str:
    """The SHA the emulator will give the PR head (commit SHAs are derived from content)."""
    repo = State(copy.deepcopy(data)).repo(*REPO.split("/"))
    return str(repo.issues[PR]["head"]["sha"])


def pass_conversation(data: dict[str, Any]) -> str:
    return _url(f"issuecomment-{SIGNOFF_COMMENT_ID}")


def _add_commit(data: dict[str, Any], files: dict[str, str], message: str) -> None:
    _pull(data)["commits"].append(
        {
            "id": "p3",
            "date": "2026-08-18T15:30:00Z",
            "author": "nv-perf-dev",
            "message": message,
            "files": files,
        }
    )


SCRIPT_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"


def _edit_signoff(data: dict[str, Any], old: str, new: str) -> None:
    comment = _pull(data)["comments"][-1]
    assert old in comment["body"], old
    comment["body"] = comment["body"].replace(old, new)


def _edit_pr_file(data: dict[str, Any], path: str, old: str, new: str) -> None:
    files = _pull(data)["commits"][0]["files"]
    assert old in files[path], (path, old)
    files[path] = files[path].replace(old, new)


def _select_in_changelog(data: dict[str, Any], key: str) -> None:
    """The PR's changelog entry (added in p2) also selects `key`, so the sweep benchmarks it."""
    files = _pull(data)["commits"][1]["files"]
    selected = "    - dsv4-fp4-b200-vllm-mtp\n"
    assert selected in files["perf-changelog.yaml"]
    files["perf-changelog.yaml"] = files["perf-changelog.yaml"].replace(
        selected, f"{selected}    - {key}\n"
    )
