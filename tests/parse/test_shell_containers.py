"""Which image a container command runs in, by every spelling the runtimes accept."""

from __future__ import annotations

import pytest

from signoff.parse.shell.containers import container_image
from signoff.parse.shell.fields import Field


def _image(line: str) -> str | None:
    found = container_image([Field(word, True, "", 1) for word in line.split()])
    return found.text if found is not None else None


@pytest.mark.parametrize(
    ("line", "image"),
    [
        ("docker run --rm -e A=1 img:1 vllm serve m", "img:1"),
        ("docker -H unix:///x.sock run img:1", "img:1"),
        ("docker --host tcp://h:2375 --tls run img:1", "img:1"),
        ("docker -D -l debug --config /c run img:1", "img:1"),
        ("docker --context=gpu run img:1", "img:1"),
        ("docker container run --name s img:1", "img:1"),
        ("docker container exec box vllm serve m", "box"),
        ("docker start -a box", "box"),
        ("docker restart box", "box"),
        ("podman --remote --url unix:///x run img:1", "img:1"),
        ("podman --root /r --runroot /rr container run img:1", "img:1"),
        ("nerdctl -n k8s.io run img:1", "img:1"),
        ("sudo docker run img:1", "img:1"),
        ("ctr run --rm docker.io/img:1 id", "docker.io/img:1"),
        ("ctr -n k8s.io run --env A=1 --mount type=bind docker.io/img:1 id", "docker.io/img:1"),
        ("ctr task exec --exec-id e1 id sh", "id"),
        ("kubectl run pod --image=img:1 -- vllm serve m", "img:1"),
        ("kubectl -n ns --context c run pod --image img:1", "img:1"),
        ("kubectl create deployment d --image=img:1", "img:1"),
    ],
)
def test_the_image_a_runtime_runs_is_found_behind_its_global_options(line, image):
    assert _image(line) == image


@pytest.mark.parametrize(
    "line",
    [
        "docker ps -a",
        "docker -H unix:///x.sock images",
        "docker create img:1",  # made, not run: `docker start` runs it
        "docker container ls",
        "docker cp box:/bin/x /tmp/x",
        "ctr images pull docker.io/img:1",
        "kubectl get pods",
        "kubectl -n ns logs pod",
    ],
)
def test_commands_that_run_no_container_name_no_image(line):
    assert _image(line) is None
