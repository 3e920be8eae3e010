"""Gather every recorder variant twice against ghemu, with the GraphQL folds and with REST alone,
and print where the evidence bundles or the verdicts differ (a developer check, not a test).

With folding (what `signoff verify` does) the policy texts, the PR's commits, the pinned head's
check runs and the first page of the sign-off's edit history come from GraphQL queries; without
it (what an audit does) every one of them is a REST read. The bundles and the rendered verdicts
must be byte-identical; the request counts differ.

    python tests/bench/diff_graphql_fold.py [--only NAME ...]

Exit 1 when any variant differs. Variants whose head moves after the pin (`after_pin`) are
skipped: the move is timed to verify's own pin.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "cassettes"))

from emulator import require_ghemu  # noqa: E402  (cassettes/emulator.py)

require_ghemu()

import ghemu.util  # noqa: E402
import record  # noqa: E402  (cassettes/record.py: the scenarios)
from ghemu import Emulator  # noqa: E402

import signoff.gather.stages as collect  # noqa: E402
from signoff.errors import GatherError  # noqa: E402
from signoff.evidence import dump_evidence  # noqa: E402
from signoff.gather import gather_evidence, pin_pull  # noqa: E402
from signoff.github.api import Api  # noqa: E402
from signoff.github.client import connect  # noqa: E402
from signoff.judge import judge  # noqa: E402
from signoff.judge.reading import PLAN  # noqa: E402
from signoff.publish.render import render_markdown  # noqa: E402
from signoff.refs import parse_signoff_url  # noqa: E402
from signoff.standards import resolve_standard  # noqa: E402


def gathered(variant: record.Variant, *, fold: bool) -> tuple[str, str, int]:
    """(bundle, verdict or error, requests) of the variant's sign-off, folding or not."""
    data = record.base_scenario()
    assert variant.patch is not None
    signoff_url = variant.patch(data)
    record.pin_merge_commit(data)
    policy = record.load_policy()
    standard = resolve_standard(variant.standard, policy)
    ref = parse_signoff_url(signoff_url)
    emulator = Emulator(copy.deepcopy(data))
    url = emulator.start()
    original_now, original_api = ghemu.util.now, collect.Api
    ghemu.util.now = lambda: record.FROZEN_NOW
    if not fold:

        def rest_only(gh: Any, deadline: Any = None, **kwargs: Any) -> Api:
            return Api(gh, deadline, workers=kwargs.get("workers", 0), fold_texts=False)

        collect.Api = rest_only  # type: ignore[misc,assignment]
    try:
        gh = connect("ghemu-test-token", url, mode="test")
        pinned = pin_pull(gh, ref)
        evidence = gather_evidence(
            gh, ref, policy, pinned_head=pinned.head_sha, pull_json=pinned.raw,
            standard=standard, plan=PLAN, reviewed_at=record.FROZEN_NOW,
        )  # fmt: skip
        result = dump_evidence(evidence), render_markdown(judge(evidence, policy), policy)
    except GatherError as exc:
        result = "", str(exc)
    finally:
        ghemu.util.now, collect.Api = original_now, original_api
        emulator.stop()
    return (*result, len(emulator.log))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    chosen = [
        v
        for v in record.VARIANTS
        if v.patch is not None and v.after_pin is None and (not args.only or v.name in args.only)
    ]
    differ = 0
    for variant in chosen:
        folded, rest = gathered(variant, fold=True), gathered(variant, fold=False)
        same = folded[:2] == rest[:2]
        differ += not same
        mark = "same   " if same else "DIFFERS"
        print(f"{mark} {variant.name:38} requests {rest[2]:4} REST -> {folded[2]:4} folded")
    print(f"{len(chosen) - differ} of {len(chosen)} variants byte-identical")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
