"""An inline Python program that rewrites only the engine package's own benchmark client is
harness tooling; any program outside the narrow form it is read in keeps counting."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.harness_program import rewrites_only_harness

HARNESS = ("vllm.benchmarks",)

SHIM = """\
import sys
import vllm.benchmarks.serve as S
import vllm.benchmarks.datasets.datasets as D

def read(mod):
    with open(mod.__file__) as fh:
        return fh.read()

s_src, d_src = read(S), read(D)
if "--chat-template-kwargs" in s_src:
    sys.exit(0)

def apply(mod, src, edits):
    for old, new in edits:
        assert src.count(old) == 1, f"anchor missing in {mod.__file__}"
        src = src.replace(old, new, 1)
    with open(mod.__file__, "w") as fh:
        fh.write(src)

apply(S, s_src, [("a", "b")])
apply(D, d_src, [("c", "d")])
"""


def test_a_program_writing_only_the_benchmark_clients_own_modules_is_harness_tooling():
    assert rewrites_only_harness(SHIM, HARNESS)


def test_without_a_harness_prefix_in_the_profile_nothing_is_harness():
    assert not rewrites_only_harness(SHIM, ())


def test_a_program_that_writes_nothing_is_no_harness_rewrite():
    body = "import vllm.benchmarks.serve as S\nprint(open(S.__file__).read())\n"
    assert not rewrites_only_harness(body, HARNESS)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an engine module in place of the client's
        ("import vllm.benchmarks.serve as S", "import vllm.engine.llm_engine as S"),
        # the same alias bound twice: which module it names depends on order
        ("import sys\n", "import sys\nimport vllm.engine.llm_engine as S\n"),
        # a plain `import vllm.benchmarks.serve` binds `vllm`, the whole engine
        (
            "import vllm.benchmarks.serve as S",
            "import vllm.benchmarks.serve\nS = vllm.benchmarks.serve",
        ),
        # a path computed from the client's file reaches the engine next to it
        (
            'open(mod.__file__, "w")',
            'open(mod.__file__.replace("benchmarks/serve", "engine/x"), "w")',
        ),
        # a write to any other file
        ('open(mod.__file__, "w")', 'open("/usr/lib/python3/dist-packages/vllm/x.py", "w")'),
        # the mode is not a literal
        ('open(mod.__file__, "w")', "open(mod.__file__, MODE)"),
        # a function given something other than a client module
        ('apply(D, d_src, [("c", "d")])', 'apply(D, d_src, [("c", "d")])\napply(sys, "", [])'),
        # the module reached through its own attributes (its `os`, its dunders)
        ('apply(S, s_src, [("a", "b")])', 'S.os.system("sed -i s/a/b/ /x")'),
        ("return fh.read()", "return mod.__dict__"),
        # assigning the client module's file first
        ("s_src, d_src", 'S.__file__ = "/x/vllm/engine.py"\ns_src, d_src'),
        # code run from text, or another route to files
        ("s_src, d_src", 'exec("import os")\ns_src, d_src'),
        ("s_src, d_src", '__import__("os").remove("/x")\ns_src, d_src'),
        ("import sys\n", "import sys\nimport shutil\n"),
        ("sys.exit(0)", "sys.modules['vllm.benchmarks.serve'] = None"),
        # `open` itself redefined
        ("import sys\n", "import sys\nopen = print\n"),
        # relative import, star import, a class, a lambda
        ("import sys\n", "from . import x\n"),
        ("import sys\n", "import sys\nfrom vllm.benchmarks.serve import *\n"),
        ("import sys\n", "import sys\nclass K: pass\n"),
        ("import sys\n", "import sys\nf = lambda m: m\n"),
        # a parameter named like a module but never given one
        ("def read(mod):", "def other(S):\n    open(S.__file__, 'w')\n\ndef read(mod):"),
        # a keyword call hides which argument is the module
        ('apply(D, d_src, [("c", "d")])', "apply(mod=D, src=d_src, edits=[])"),
    ],
)
def test_anything_outside_the_narrow_form_keeps_the_program_counting(old, new):
    assert old in SHIM
    assert not rewrites_only_harness(SHIM.replace(old, new, 1), HARNESS)


@pytest.mark.parametrize("body", ["def (:\n", "x" * 300_000, "(" * 5000 + ")" * 5000])
def test_text_that_cannot_be_read_as_python_counts(body):
    assert not rewrites_only_harness(body, HARNESS)
