"""A pinned checkout of a trusted recipe orchestrator in a launcher is routine, not patching:
what it runs patches the engine only through the setup script a recipe or the launcher names,
and those lines are read. A fork, an unmerged pull request, or a checkout that cannot be tied to
the trusted clone still counts."""

from __future__ import annotations

import pytest
from builders import add_changed_file, add_listing, passing_parts, replace_file

LAUNCHER = "runners/launch_b300-nv.sh"
BASE = 'if [[ "$FRAMEWORK" == "dynamo-vllm" ]]; then\n    echo multi-node\nfi\n'
SHA = "c180328b98c3793ca84a1e24a030f90545eb7d5d"
TRUSTED = "https://github.com/NVIDIA/srt-slurm.git"


def _launcher(block: str) -> dict:
    """The passing PR, and a launcher change adding `block` in its multi-node branch."""
    parts = passing_parts()
    head = BASE.replace("    echo multi-node\n", "    echo multi-node\n" + block)
    add_changed_file(parts, LAUNCHER, head, base=BASE)
    return parts


def _pin(url: str = TRUSTED, between: str = 'cd "$SRT_REPO_DIR" || exit 1\n') -> str:
    return (
        f'    git clone --branch main --single-branch {url} "$SRT_REPO_DIR"\n'
        f"    {between}    git checkout {SHA} || exit 1\n"
        '    cp -rT "$GITHUB_WORKSPACE/benchmarks/multi_node/srt-slurm-recipes/vllm" recipes/vllm\n'
    )


def test_a_pinned_checkout_of_a_trusted_recipe_orchestrator_is_not_patching(check):
    result = check(_launcher(_pin()), "engine-patches")
    assert result.status == "PASS", result.reason


def test_a_pin_whose_clone_the_patch_shows_as_context_is_tied_to_it(check):
    parts = passing_parts()
    base = BASE.replace(
        "    echo multi-node\n", _pin().replace(f"    git checkout {SHA} || exit 1\n", "")
    )
    head = _pin()
    head = BASE.replace("    echo multi-node\n", head)
    add_changed_file(parts, LAUNCHER, head, base=base)
    result = check(parts, "engine-patches")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/someone/srt-slurm-nv.git",  # a fork: no maintainer decision covers it
        "https://github.com/NVIDIA/srt-slurm-extra.git",
        "https://evil.example/github.com/NVIDIA/srt-slurm.git",
        "https://github.com.evil.example/NVIDIA/srt-slurm.git",
    ],
)
def test_a_pinned_checkout_of_any_other_repository_still_counts(check, url):
    result = check(_launcher(_pin(url)), "engine-patches")
    assert (
        result.status == "FAIL" and "checks out external recipe code at a pinned" in result.reason
    )


@pytest.mark.parametrize(
    "between",
    [
        "cd /tmp/other || exit 1\n",  # the checkout runs in another directory
        "",  # no cd at all: the checkout runs wherever the launcher stands
        'cd "$SRT_REPO_DIR"\nelif [[ "$X" == 1 ]]; then\n    cd "$SRT_REPO_DIR"\n',  # another branch
    ],
)
def test_a_pin_that_cannot_be_tied_to_the_trusted_clone_still_counts(check, between):
    result = check(_launcher(_pin(between=between)), "engine-patches")
    assert result.status == "FAIL" and "pinned" in result.reason


def test_a_trusted_pin_whose_launcher_names_a_setup_script_fails_on_the_setup_script(check):
    block = _pin() + '    SRTCTL_SETUP_SCRIPT="vllm-fixes.sh"\n'
    result = check(_launcher(block), "engine-patches")
    assert result.status == "FAIL" and "runs a setup script inside the serving container" in (
        result.reason
    )


def test_an_unmerged_pull_request_of_a_trusted_repository_still_counts(check):
    block = _pin().replace(
        f"    git checkout {SHA}",
        "    git fetch origin refs/pull/282/head\n    git checkout FETCH_HEAD",
    )
    result = check(_launcher(block), "engine-patches")
    assert result.status == "FAIL" and "unmerged pull request" in result.reason


def test_an_untrusted_pin_names_the_repository_it_checks_out_so_the_remedy_is_clear(check):
    result = check(_launcher(_pin("https://github.com/someone/srt-slurm-nv.git")), "engine-patches")
    assert result.status == "FAIL"
    assert (
        "at a pinned commit of someone/srt-slurm-nv, a repository the profile's "
        "trusted_recipe_repos does not list" in result.reason
    )


def test_a_pin_that_cannot_be_tied_to_a_clone_says_so(check):
    result = check(_launcher(_pin(between="cd /tmp/other || exit 1\n")), "engine-patches")
    assert "of a repository the checkout cannot be tied to" in result.reason


def _inner_branches(then_branch: str) -> str:
    """The trusted clone, then an inner `if` whose `else` branch pins it."""
    return (
        f'    git clone {TRUSTED} "$SRT_REPO_DIR"\n'
        '    cd "$SRT_REPO_DIR"\n'
        '    if [[ "$MODEL_PREFIX" == "kimik3" ]]; then\n'
        f"{then_branch}"
        "    else\n"
        f"        git checkout {SHA}\n"
        "    fi\n"
    )


@pytest.mark.parametrize(
    "then_branch",
    [
        "        git checkout b1fb626fbdbfe3306dcb51cb181ab35861ec3b1c\n",
        '        cd /tmp/elsewhere\n        if [[ -n "$X" ]]; then\n            echo x\n        fi\n',
        "        [[ -d x ]] && echo x\n        if true; then echo y; fi\n",
    ],
)
def test_a_pin_in_an_else_branch_is_tied_to_the_clone_before_its_if(check, then_branch):
    # the other branch's lines (a `cd`, nested or one-line `if`s) do not run on the pin's path
    result = check(_launcher(_inner_branches(then_branch)), "engine-patches")
    assert result.status == "PASS", result.reason


def test_a_pin_in_an_else_branch_after_a_cd_elsewhere_still_counts(check):
    block = _inner_branches("        echo k3\n").replace(
        "    if [[", "    cd /tmp/other\n    if [[", 1
    )
    result = check(_launcher(block), "engine-patches")
    assert result.status == "FAIL" and "pinned commit" in result.reason


FORK = "https://github.com/someone/srt-slurm-nv.git"
OTHER_LAUNCHER = "runners/launch_h200-dgxc-slurm.sh"


def _base_runs(pin_block: str, *, readable: bool = True) -> dict:
    """The PR adds `_pin(FORK)` to one launcher; another launcher of the base runs `pin_block`."""
    parts = _launcher(_pin(FORK))
    add_listing(parts, "runners", "base", [LAUNCHER.split("/")[1], OTHER_LAUNCHER.split("/")[1]])
    replace_file(parts, LAUNCHER, "base", BASE)
    other = BASE.replace("    echo multi-node\n", pin_block)
    replace_file(parts, OTHER_LAUNCHER, "base", other if readable else None,
                 "ok" if readable else "unavailable")  # fmt: skip
    return parts


def test_a_pin_of_a_commit_the_base_already_checks_out_is_baseline(check):
    # moving or copying a pinned block runs the same external code the base runs
    result = check(_base_runs(_pin(FORK)), "engine-patches")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "base_block",
    [
        _pin(FORK).replace(SHA, "b1fb626fbdbfe3306dcb51cb181ab35861ec3b1c"),  # another commit
        _pin("https://github.com/other/srt-slurm-nv.git"),  # the same commit of another fork
        _pin(FORK, between="cd /tmp/other || exit 1\n"),  # a base pin not tied to its clone
        "    # git checkout " + SHA + "\n",  # a comment names the commit, nothing checks it out
    ],
)
def test_a_pin_the_base_does_not_check_out_of_that_repository_still_counts(check, base_block):
    result = check(_base_runs(base_block), "engine-patches")
    assert result.status == "FAIL" and "someone/srt-slurm-nv" in result.reason


def test_a_pin_is_not_baseline_when_a_base_launcher_could_not_be_read(check):
    result = check(_base_runs(_pin(FORK), readable=False), "engine-patches")
    assert result.status == "FAIL" and "pinned commit" in result.reason


def test_a_short_commit_pin_is_never_baseline(check):
    short = _pin(FORK).replace(SHA, SHA[:12])
    parts = _launcher(short)
    add_listing(parts, "runners", "base", [OTHER_LAUNCHER.split("/")[1]])
    replace_file(parts, OTHER_LAUNCHER, "base", BASE.replace("    echo multi-node\n", short))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "pinned commit" in result.reason


@pytest.mark.parametrize(
    "move",
    [
        "git pull origin main",
        "git merge origin/evil",
        "git cherry-pick 0123abc",
        "git reset --hard origin/dev",
        "git checkout main",
        "git fetch origin dev && git checkout FETCH_HEAD",
        "git -C . rebase origin/dev",
    ],
)
def test_a_pin_whose_tree_a_later_git_command_may_move_is_no_pin_at_all(check, move):
    # the trusted pin and the base-pin rule hold for the pinned commit's tree only
    trusted = check(_launcher(_pin() + f"    {move}\n"), "engine-patches")
    assert trusted.status == "FAIL"
    assert "which a later git command in the same branch may move off that commit" in (
        trusted.reason
    )
    based = _base_runs(_pin(FORK))
    for changed in based["changed_files"]:
        if changed["path"] == LAUNCHER:
            head = BASE.replace(
                "    echo multi-node\n", "    echo multi-node\n" + _pin(FORK) + f"    {move}\n"
            )
            add_changed_file(based, LAUNCHER, head, base=BASE)
    assert check(based, "engine-patches").status == "FAIL"


def test_a_git_command_in_another_branch_does_not_move_the_pin(check):
    block = _pin() + "else\n    git checkout main\n"
    result = check(_launcher(block), "engine-patches")
    assert result.status == "PASS", result.reason
