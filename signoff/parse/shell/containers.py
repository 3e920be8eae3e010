"""Which container image a command runs the rest of its words in: docker-style runtimes (their
global options, `container` subcommands, `start` of a container created earlier), containerd's
`ctr`, Kubernetes' `kubectl run`, Slurm's pyxis, Apptainer/Singularity and enroot."""

from __future__ import annotations

from collections.abc import Sequence
from posixpath import basename

from signoff.parse.shell.fields import Field

CONTAINER_RUNTIMES = frozenset({"docker", "podman", "nerdctl"})
# Their `run`/`exec` options whose value is the next word (`-e A=1`, `--entrypoint vllm`).
_CONTAINER_VALUE_OPTIONS = frozenset(
    {"-a", "--attach", "--add-host", "--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns",
     "--cidfile", "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--device",
     "--dns", "--dns-option", "--dns-search", "--entrypoint", "-e", "--env", "--env-file",
     "--expose", "--gpus", "--group-add", "-h", "--hostname", "--ip", "--ipc", "-l", "--label",
     "--label-file", "--link", "--log-driver", "--log-opt", "-m", "--memory", "--memory-swap",
     "--mount", "--name", "--network", "--net", "--network-alias", "--pid", "--pids-limit",
     "--platform", "-p", "--publish", "--pull", "--restart", "--runtime", "--security-opt",
     "--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs",
     "--ulimit", "-u", "--user", "--userns", "--uts", "-v", "--volume", "--volumes-from", "-w",
     "--workdir", "--device-cgroup-rule", "--health-cmd", "--oom-score-adj", "--mac-address"}
)  # fmt: skip


# A runtime's global options whose value is the next word (`docker -H HOST run`, `podman
# --root DIR run`), and the subcommands that run a container.
_DOCKER_GLOBAL_VALUED = frozenset(
    {"--config", "-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert",
     "--tlscert", "--tlskey"}
)  # fmt: skip
_GLOBAL_VALUE_OPTIONS = {
    "docker": _DOCKER_GLOBAL_VALUED,
    "podman": frozenset(
        {"--cdi-spec-dir", "--cgroup-manager", "--config", "--conmon", "-c", "--connection",
         "--events-backend", "--hooks-dir", "--identity", "--imagestore", "--log-level",
         "--module", "--network-cmd-path", "--network-config-dir", "--out", "--root",
         "--runroot", "--runtime", "--runtime-flag", "--ssh", "--storage-driver",
         "--storage-opt", "--tmpdir", "--url", "--volumepath"}
    ),
    "nerdctl": frozenset(
        {"-a", "--address", "-H", "--host", "-n", "--namespace", "--snapshotter",
         "--storage-driver", "--cni-path", "--cni-netconfpath", "--data-root",
         "--cgroup-manager", "--hosts-dir", "--host-gateway-ip", "--bridge-ip"}
    ),
}  # fmt: skip
_DOCKER_RUNNING = frozenset({"run", "exec", "start", "restart"})
_START_VALUE_OPTIONS = frozenset(
    {"--detach-keys", "-t", "--time", "--checkpoint", "--checkpoint-dir"}
)
_CTR_GLOBAL_VALUE_OPTIONS = frozenset(
    {"-a", "--address", "--timeout", "--connect-timeout", "-n", "--namespace"}
)
# `ctr run`'s options whose value is the next word.
_CTR_VALUE_OPTIONS = frozenset(
    {"--snapshotter", "--snapshotter-label", "--config", "--cwd", "--env", "--env-file",
     "--label", "--mount", "--runtime", "--runtime-config-path", "--runc-binary",
     "--runtime-root", "--with-ns", "--pid-file", "--fifo-dir", "--cgroup", "--platform",
     "--gpus", "--memory-limit", "--cpu-quota", "--cpu-period", "--cpu-shares", "--cpus",
     "--cap-add", "--cap-drop", "--seccomp-profile", "--apparmor-profile", "--device",
     "--user", "-u", "--hostname", "--annotation", "--uidmap", "--gidmap", "--log-uri",
     "--sandbox", "--rootfs-propagation", "--exec-id", "--detach-keys"}
)  # fmt: skip
_KUBECTL_GLOBAL_VALUE_OPTIONS = frozenset(
    {"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster",
     "--user", "--token", "-v", "--as", "--as-group", "--certificate-authority",
     "--client-certificate", "--client-key", "--request-timeout", "--cache-dir"}
)  # fmt: skip


# Slurm with the pyxis plugin runs a job step in `--container-image`; Apptainer/Singularity
# run an image operand; enroot imports one into a squash file a later step runs.
_SLURM = frozenset({"srun", "sbatch", "salloc"})
_SIF_RUNTIMES = frozenset({"apptainer", "singularity"})
_SIF_VALUE_OPTIONS = frozenset(
    {"-B", "--bind", "--mount", "--env", "--env-file", "-H", "--home", "-W", "--workdir",
     "-o", "--overlay", "--pwd", "--security", "--network", "--network-args", "--hostname",
     "--app", "-S", "--scratch", "--dns", "--add-caps", "--drop-caps", "--apply-cgroups",
     "--cpus", "--memory", "--pid-file", "--sharens", "-c", "--config"}
)  # fmt: skip
_ENROOT_VALUE_OPTIONS = frozenset({"-o", "--output", "-a", "--arch"})
_IMAGE_FILE_SUFFIXES = (".sqsh", ".squashfs", ".sif", ".simg", ".img", ".tar")


def container_image(argv: Sequence[Field]) -> Field | None:
    """The image (or container) a container runtime runs the rest of the command in, as
    resolved: a docker-style `run`/`exec` (`docker run --rm -e A IMAGE bash -c '...'`, `docker
    -H HOST container run IMAGE`, `docker start CONTAINER`: its first operand after its options
    and their values), containerd's `ctr run IMAGE ID`, `kubectl run NAME --image=IMAGE`,
    Slurm's pyxis `--container-image` (`srun --container-image=IMAGE vllm serve`), an
    Apptainer/Singularity image operand and an image enroot imports (`enroot import -o F.sqsh
    docker://IMAGE`, which a later step runs from the file). None when the command runs no
    image, or one only from a file on the runner (`--container-image=/cache/x.sqsh`,
    `apptainer exec x.sif`: what the file holds was imported where its `docker://` image is
    named)."""
    for index, word in enumerate(argv[:-1]):
        name = basename(word.text) if word.known else ""
        if name in CONTAINER_RUNTIMES:
            return _docker_style(argv[index + 1 :], _GLOBAL_VALUE_OPTIONS[name])
        if name == "ctr":
            return _containerd(argv[index + 1 :])
        if name == "kubectl":
            return _kubernetes(argv[index + 1 :])
        if name in _SLURM and (image := _pyxis_image(argv[index + 1 :])) is not None:
            return _not_a_file(image)  # else the step may run a runtime itself: read on
        if name in _SIF_RUNTIMES:
            return _not_a_file(_sif_image(argv[index + 1 :]))
        if name == "enroot":
            return _not_a_file(_enroot_import(argv[index + 1 :]))
    return None


def _verb(words: Sequence[Field], valued: frozenset[str]) -> int:
    """Where a runtime's subcommand stands after its global options and their values
    (`docker -H unix:///x.sock --log-level debug run`; `len(words)`: none)."""
    at = 0
    while at < len(words) and _option(words[at]):
        at += 2 if words[at].known and words[at].text in valued else 1
    return at


def _option(word: Field) -> bool:
    return (word.text if word.known else word.prefix).startswith("-") and word.text != "-"


def _docker_style(words: Sequence[Field], valued: frozenset[str]) -> Field | None:
    """`run`/`exec`/`start` and their `container` spellings: the image, or the container an
    `exec` or `start` runs in (a container created earlier runs whatever image it was made
    from)."""
    at = _verb(words, valued)
    if at < len(words) and words[at].known and words[at].text in ("container", "containers"):
        at += 1
    if at >= len(words) or not words[at].known or words[at].text not in _DOCKER_RUNNING:
        return None
    starts = words[at].text in ("start", "restart")  # `start -a box`: -a attaches
    valued = _START_VALUE_OPTIONS if starts else _CONTAINER_VALUE_OPTIONS
    return _first_operand(words[at + 1 :], valued)


def _containerd(words: Sequence[Field]) -> Field | None:
    """`ctr run IMAGE ID`, and the container of `ctr task start|exec ID`."""
    at = _verb(words, _CTR_GLOBAL_VALUE_OPTIONS)
    if at >= len(words) or not words[at].known:
        return None
    verb = words[at].text
    if verb == "run":
        return _first_operand(words[at + 1 :], _CTR_VALUE_OPTIONS)
    task = verb in ("task", "tasks", "t") and at + 1 < len(words) and words[at + 1].known
    if task and words[at + 1].text in ("start", "exec"):
        return _first_operand(words[at + 2 :], _CTR_VALUE_OPTIONS)
    return None


def _kubernetes(words: Sequence[Field]) -> Field | None:
    """`kubectl run NAME --image=IMAGE` and `kubectl create deployment|job NAME --image IMAGE`:
    the pod runs that image (a manifest is read as a file: `kubectl apply -f F`)."""
    at = _verb(words, _KUBECTL_GLOBAL_VALUE_OPTIONS)
    if at >= len(words) or not words[at].known or words[at].text not in ("run", "create"):
        return None
    for j in range(at + 1, len(words)):
        word = words[j]
        if (word.text if word.known else word.prefix).startswith("--image="):
            return _after(word, len("--image="))
        if word.known and word.text == "--image" and j + 1 < len(words):
            return words[j + 1]
    return None


def _first_operand(words: Sequence[Field], valued: frozenset[str]) -> Field | None:
    """The first word after options and their values (`--name="$NAME"`: an option whose value
    is known only at run time)."""
    at = 0
    while at < len(words):
        text = words[at].text
        if words[at].known and text.startswith("-") and text != "-":
            at += 2 if text in valued else 1
        elif not words[at].known and words[at].single and words[at].prefix.startswith("-"):
            at += 1
        else:
            return words[at]
    return None


def _pyxis_image(words: Sequence[Field]) -> Field | None:
    for at, word in enumerate(words):
        if (word.text if word.known else word.prefix).startswith("--container-image="):
            return _after(word, len("--container-image="))
        if word.known and word.text == "--container-image" and at + 1 < len(words):
            return words[at + 1]
    return None


def _sif_image(words: Sequence[Field]) -> Field | None:
    """`apptainer exec|run|shell|test [options] IMAGE ...`, `instance start [options] IMAGE`,
    and the source of `pull`/`build` (`apptainer pull x.sif docker://IMAGE`)."""
    if not words or not words[0].known:
        return None
    verb, rest = words[0].text, words[1:]
    if verb == "instance" and rest and rest[0].text == "start":
        verb, rest = "exec", rest[1:]
    if verb in ("exec", "run", "shell", "test"):
        return _first_operand(rest, _SIF_VALUE_OPTIONS)
    if verb in ("pull", "build"):
        return next((w for w in rest if "://" in w.text), None)
    return None


def _enroot_import(words: Sequence[Field]) -> Field | None:
    if not words or words[0].text != "import":
        return None
    return _first_operand(words[1:], _ENROOT_VALUE_OPTIONS)


def _after(word: Field, cut: int) -> Field:
    """`word` less its first `cut` characters, which are known."""
    if word.known:
        return Field(word.text[cut:], True, "", word.line)
    parts = ((word.parts[0][0][cut:], True), *word.parts[1:]) if word.parts else ()
    return Field(word.text[cut:], False, word.prefix[cut:], word.line, parts, word.single)


def _not_a_file(image: Field | None) -> Field | None:
    """None for an image the runtime reads from a file on the runner (a path, or a squash or
    SIF file's name)."""
    if image is None or not image.known:
        return image
    text = image.text
    if text.startswith(("/", "./", "../", "~")) or text.endswith(_IMAGE_FILE_SUFFIXES):
        return None
    return image
