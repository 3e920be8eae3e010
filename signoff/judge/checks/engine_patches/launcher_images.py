"""Container images a changed launcher names that its base did not (engine-patches).

The launchers (profile `patches.launcher_paths`) choose the image every benchmark job runs in:
`enroot import -o F docker://$IMAGE` then `srun --container-image=F`, or `docker run ...
"$IMAGE"`. The sweep's image is the entry's `image:` (Check 6 judges it), bound as IMAGE; an
image a launcher names itself holds an engine nobody judged. A changed launcher is read whole
at the head with nothing bound (the shell reader: each runtime's image operand, variables
followed), and every image it names in full that the same launcher did not name at the base is
the PR's, unless the profile lists it as a sidecar (`images.sidecars`: nginx, the disaggregated
recipes' load balancer). The base's own are baseline; an image named only at run time is the
sweep's or the runner's. A reading the work bound cut short fails closed:
what it did not reach may name one.
"""

from __future__ import annotations

from collections.abc import Iterator

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.fetched_code import run_time
from signoff.judge.model import Want, want_file
from signoff.judge.quote import code
from signoff.judge.script_files import docker_name, sidecar
from signoff.parse.benchmark.script import evaluate_counted, read_script

# (line, command, image) of each image a reading names in full.
Named = tuple[tuple[int, str, str], ...]


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Each changed launcher at the head; its base when the head names an image in full."""
    for changed in _launchers(ctx):
        yield want_file(changed.path, "head")
        named = _named(ctx, changed.path, "head")
        if changed.status != "added" and isinstance(named, tuple) and named:
            yield want_file(_base_path(changed), "base")


def new_image(ctx: JudgeContext) -> str:
    """Why a changed launcher may run an image the sweep's was not ("" when none does)."""
    for changed in _launchers(ctx):
        named = _named(ctx, changed.path, "head")
        if isinstance(named, str):
            return (
                f"{changed.path} {named} at the pinned head, so the container image it runs "
                f"is unverified"
            )
        if not named:
            continue
        before: Named | str = (
            () if changed.status == "added" else _named(ctx, _base_path(changed), "base")
        )
        if isinstance(before, str):
            return (
                f"{changed.path} names container image {code(named[0][2])} and, at the base, "
                f"{before}, so whether it ran that image before this PR is unverified"
            )
        known = {docker_name(image) for _, _, image in before}
        for line, command, image in named:
            if docker_name(image) not in known and not sidecar(ctx, image):
                return (
                    f"{changed.path}:{line} runs {code(command)} in container image "
                    f"{code(image)}, which the launcher did not name before this PR (the sweep's "
                    f"image is the entry's `image:`, bound as IMAGE); signoff does not read the "
                    f"engine another image holds"
                )
    return ""


def _launchers(ctx: JudgeContext) -> list[ChangedFile]:
    globs = ctx.policy.patches.launcher_paths
    return [
        f
        for f in ctx.evidence.changed_files
        if f.status != "removed"
        and f.path.endswith(".sh")
        and any(path_matches(f.path, glob) for glob in globs)
    ]


def _base_path(changed: ChangedFile) -> str:
    return changed.previous_path or changed.path


def _named(ctx: JudgeContext, path: str, role: str) -> Named | str:
    """The images the launcher at `role` names in full, or why it could not be read."""
    key = f"launcher-images:{role}:{path}"
    if key not in ctx.memo:
        ctx.memo[key] = _read(ctx, path, role)
    found = ctx.memo[key]
    assert isinstance(found, (tuple, str))
    return found


def _read(ctx: JudgeContext, path: str, role: str) -> Named | str:
    read = ctx.evidence.file(path, role)  # type: ignore[arg-type]
    if read is None or read.state != "ok" or read.text is None:
        return f"could not be read ({ctx.unread(read)})"
    # `bash -c "enroot import -o $F docker://IMAGE"`: the string's known pieces are read too
    run, _ = evaluate_counted(read_script(read.text, path), None, partial=True)
    stopped = next((p for p in run.problems if "work bound" in p), "")
    if stopped:
        return f"was read only in part ({stopped})"
    named = [(launch.line, launch.command, launch.container)
             for launch in run.launches if launch.container]  # fmt: skip
    named += [(one.line, one.command, one.word) for one in run.containers]
    return tuple(sorted({item for item in named if not run_time(item[2])}))
