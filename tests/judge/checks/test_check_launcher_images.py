"""engine-patches: a changed launcher that runs a container image its base did not name.

The launchers pick the image every benchmark job runs in; the sweep's is the entry's `image:`,
bound as IMAGE. These launchers are small copies of the real ones' shapes (an enroot import of
`docker://$IMAGE` inside `srun ... bash -c "..."`, then `srun --container-image=$SQUASH_FILE`).
"""

from __future__ import annotations

import pytest
from builders import add_changed_file, build, passing_parts, replace_file

from signoff.judge.checks import engine_patches
from signoff.judge.context import JudgeContext
from signoff.standards import resolve_standard

LAUNCHER = "runners/launch_h100-cw.sh"
IMPORT = 'srun --jobid=$JOB_ID bash -c "enroot import -o $SQUASH_FILE docker://$IMAGE"\n'
RUN = "srun --jobid=$JOB_ID --container-image=$SQUASH_FILE bash benchmarks/single_node/x.sh\n"
BASE = (
    "#!/usr/bin/env bash\n"
    'SQUASH_FILE="/data/squash/$(echo "$IMAGE" | sed \'s/[\\/:@#]/_/g\').sqsh"\n' + IMPORT + RUN
)
SIDECAR = (
    'srun --jobid=$JOB_ID bash -c "enroot import -o /tmp/envoy.sqsh docker://envoyproxy/envoy:v1"\n'
)
LISTED_SIDECAR = (
    'NGINX_IMAGE="nginx:1.27.4"\nenroot import -o /tmp/nginx.sqsh "docker://$NGINX_IMAGE"\n'
)

ANOTHER_IMAGE = {
    "import-literal": BASE.replace("docker://$IMAGE", "docker://evil/vllm:1"),
    "import-quoted-enroot-name": BASE.replace("docker://$IMAGE", "'docker://nvcr.io#evil/vllm:1'"),
    "image-reassigned": BASE.replace(
        "#!/usr/bin/env bash\n", "#!/usr/bin/env bash\nIMAGE=evil/vllm:1\n"
    ),
    "pyxis-literal": BASE.replace(
        "--container-image=$SQUASH_FILE", "--container-image=evil/vllm:1"
    ),
    "docker-literal": BASE
    + "docker run --rm --gpus all evil/vllm:1 bash benchmarks/single_node/x.sh\n",
    "through-a-variable": BASE.replace(
        IMPORT, "SRC=evil/vllm:1\n" + IMPORT.replace("$IMAGE", "$SRC")
    ),
}


def _changed_launcher(head: str, base: str | None = BASE) -> dict:
    parts = passing_parts()
    add_changed_file(parts, LAUNCHER, head, base=base)
    if base is not None:
        replace_file(parts, LAUNCHER, "base", base)
    return parts


@pytest.mark.parametrize("case", sorted(ANOTHER_IMAGE))
def test_a_changed_launcher_running_another_image_fails(check, case):
    result = check(_changed_launcher(ANOTHER_IMAGE[case]), "engine-patches")
    assert result.status == "FAIL", result.reason
    assert f"{LAUNCHER}:" in result.reason and "evil/vllm:1" in result.reason
    assert "did not name before this PR" in result.reason


def test_an_added_launcher_is_judged_with_no_base(check):
    result = check(_changed_launcher(ANOTHER_IMAGE["pyxis-literal"], base=None), "engine-patches")
    assert result.status == "FAIL" and "evil/vllm:1" in result.reason
    assert check(_changed_launcher(BASE, base=None), "engine-patches").status == "PASS"


@pytest.mark.parametrize(
    "head",
    [
        BASE.replace("--container-image=$SQUASH_FILE", '--container-image="$SQUASH_FILE"'),
        BASE + "echo done\n",
        # the launchers' spelling of an enroot registry (`#`) derived from the sweep's image
        BASE.replace("docker://$IMAGE", "docker://${IMAGE%%/*}#${IMAGE#*/}"),
    ],
)
def test_a_changed_launcher_running_the_sweep_s_image_passes(check, head):
    assert check(_changed_launcher(head), "engine-patches").status == "PASS"


def test_an_image_the_launcher_already_named_is_baseline(check):
    base = BASE + SIDECAR
    assert check(_changed_launcher(base + "echo done\n", base), "engine-patches").status == "PASS"
    result = check(_changed_launcher(BASE + SIDECAR), "engine-patches")
    assert result.status == "FAIL" and "envoyproxy/envoy:v1" in result.reason


def test_a_sidecar_the_profile_lists_may_be_added(check):
    """nginx, srt-slurm's load balancer (#2390 added it to one more launcher)."""
    assert check(_changed_launcher(BASE + LISTED_SIDECAR), "engine-patches").status == "PASS"


def test_an_unread_launcher_fails_closed(check):
    parts = _changed_launcher(ANOTHER_IMAGE["import-literal"])
    parts["files"] = [f for f in parts["files"] if f["path"] != LAUNCHER or f["role"] != "base"]
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "at the base" in result.reason
    assert "unverified" in result.reason


def test_the_check_asks_for_the_launcher_then_for_its_base_only_when_it_names_an_image(policy):
    current = resolve_standard("current", policy)
    parts = passing_parts()
    add_changed_file(parts, LAUNCHER, BASE, base=BASE, read=False)
    ctx = JudgeContext(build(parts), policy, current)
    wanted = [(w.path, w.role) for w in engine_patches.wants(ctx) if w.path == LAUNCHER]
    assert wanted == [(LAUNCHER, "head")]
    replace_file(parts, LAUNCHER, "head", BASE)
    ctx = JudgeContext(build(parts), policy, current)
    assert [w.role for w in engine_patches.wants(ctx) if w.path == LAUNCHER] == ["head"]
    replace_file(parts, LAUNCHER, "head", BASE + SIDECAR)
    ctx = JudgeContext(build(parts), policy, current)
    assert [w.role for w in engine_patches.wants(ctx) if w.path == LAUNCHER] == ["head", "base"]
