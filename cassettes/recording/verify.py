"""Record signoff's GitHub cassettes from the ghemu emulator.

    python cassettes/record.py [--only NAME] [--list]

For each scenario variant: start ghemu in-process on the scenario (scenarios/base.yaml plus a
small patch from `variants/`), run the real pipeline `signoff.verify.verify` (pin, gather, judge and,
for publishing variants, write) through `signoff.github.client.connect(mode="test")` under vcrpy, so that
`signoff verify <signoff_url> --replay <NAME>.yaml [--publish]` replays it exactly. Then rewrite
the recording so it looks like GitHub: the emulator base URL becomes https://api.github.com (URIs,
bodies, Link and Location headers), artifact blob redirects become
pipelines.actions.githubusercontent.com URLs without a query string, Authorization and volatile
headers (Date, rate-limit reset) are removed or frozen. Writes `<NAME>.yaml` (the cassette) and
`<NAME>.json` (sign-off URL, pinned head, publish, verdict, request count). The verdict each
variant must give is declared with it; recording stops when the run disagrees. Re-recording yields
identical files.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import vcr
import yaml

from .emulator import require_ghemu

require_ghemu()

import ghemu.util  # noqa: E402
from ghemu import Emulator  # noqa: E402

import signoff.github.pool  # noqa: E402
import signoff.verify  # noqa: E402
from signoff.github.client import connect  # noqa: E402
from signoff.policy import load_policy  # noqa: E402
from signoff.refs import parse_signoff_url  # noqa: E402
from signoff.standards import resolve_standard  # noqa: E402
from signoff.verify import verify  # noqa: E402

from . import CASSETTES  # noqa: E402
from .rewriting import GITHUB_API, MATCH_ON, rewrite  # noqa: E402
from .scenario import FROZEN_NOW, base_scenario, pin_merge_commit  # noqa: E402
from .variants.catalogue import VARIANTS  # noqa: E402
from .variants.common import BOT, Variant  # noqa: E402

# Record one read at a time, in the order a sequential client asks: the cassette's interaction
# order is then the same on every recording (replay matches answers whatever order they go in).
signoff.github.pool.WORKERS = 1


# --- recording -----------------------------------------------------------------------------


def record(variant: Variant) -> None:
    """Run the real pipeline, `signoff.verify.verify`, against ghemu under vcrpy."""
    data = base_scenario()
    signoff_url = variant.patch(data) if variant.patch else ""
    if variant.publish:
        data["viewer"] = BOT  # the workflow's GITHUB_TOKEN: GET /user is 403, comments by BOT
    pin_merge_commit(data)
    policy = load_policy()
    standard = resolve_standard(variant.standard, policy)
    ref = parse_signoff_url(signoff_url)
    original_pin, original_now = signoff.verify.pin_pull, ghemu.util.now
    ghemu.util.now = lambda: FROZEN_NOW  # deterministic created_at/updated_at on writes
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.yaml"
        emulator = Emulator(data)
        url = emulator.start()
        try:
            if variant.after_pin is not None:
                hook = variant.after_pin

                def pin_then_move(*args: Any, **kwargs: Any) -> str:
                    sha = original_pin(*args, **kwargs)
                    hook(emulator)
                    return sha

                vars(signoff.verify)["pin_pull"] = pin_then_move
            recorder = vcr.VCR(
                record_mode="all", match_on=MATCH_ON, decode_compressed_response=False
            )
            with recorder.use_cassette(str(raw)):
                gh = connect("ghemu-test-token", url, mode="test")
                outcome = verify(
                    gh,
                    ref,
                    policy,
                    publish=variant.publish,
                    identity=None,
                    standard=standard,
                    reviewed_at=FROZEN_NOW,
                )
        finally:
            vars(signoff.verify)["pin_pull"] = original_pin
            ghemu.util.now = original_now
            emulator.stop()
        text = rewrite(raw.read_text(encoding="utf-8"), url)
    verdict = outcome.verdict
    failing = tuple(c.number for c in verdict.failures) if verdict else ()
    warned = tuple(c.number for c in verdict.warnings) if verdict else ()
    got = (outcome.result, failing)
    error_ok = variant.error in outcome.error if variant.error else not outcome.error
    if got != variant.expect or warned != variant.warns or not error_ok:
        reasons = [f"{c.number}: {c.reason}" for c in verdict.failures] if verdict else []
        raise SystemExit(
            f"{variant.name}: expected {variant.expect}, got {got} {outcome.error} {reasons}"
        )
    (CASSETTES / f"{variant.name}.yaml").write_text(text, encoding="utf-8")
    interactions = yaml.load(text, Loader=yaml.CSafeLoader)["interactions"]
    writes = [
        f"{i['request']['method']} {i['request']['uri'].removeprefix(GITHUB_API)}"
        for i in interactions
        if i["request"]["method"] != "GET" and not i["request"]["uri"].endswith("/graphql")
    ]
    info = {
        "name": variant.name,
        "note": variant.note,
        "signoff_url": signoff_url,
        "pinned_head": outcome.head_sha,
        "api_url": GITHUB_API,
        "publish": variant.publish,
        "command": f'signoff verify "{signoff_url}" --replay cassettes/{variant.name}.yaml'
        + (" --publish" if variant.publish else "")
        + (f" --standard {variant.standard}" if variant.standard else ""),
        "verdict": outcome.result,
        "exit_code": int(outcome.exit_code),
        "refused": outcome.not_signoff or outcome.skipped,
        "failed_checks": list(failing),
        "error": outcome.error,
        "head_moved_to": verdict.head_moved_to if verdict else None,
        "comment_action": outcome.comment_action,
        "status_state": outcome.status_state,
        "writes": writes,
        "requests": len(interactions),
        "recorded_by": "cassettes/record.py: signoff.verify.verify against ghemu "
        "(scenarios/base.yaml + variant)",
    }
    if variant.standard:  # only then: the 0-8 sidecars stay as they were
        info["standard"] = variant.standard
    if warned:
        info["warned_checks"] = list(warned)
    (CASSETTES / f"{variant.name}.json").write_text(
        json.dumps(info, indent=2) + "\n", encoding="utf-8"
    )
    size = (CASSETTES / f"{variant.name}.yaml").stat().st_size
    print(
        f"{variant.name}: {outcome.result} {list(failing)}, {len(interactions)} requests, "
        f"{size / 1e6:.2f} MB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="record only this variant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list variants and exit")
    args = parser.parse_args(argv)
    if args.list:
        for variant in VARIANTS:
            print(f"{variant.name:28} {variant.note}")
        return 0
    chosen = [v for v in VARIANTS if not args.only or v.name in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        parser.error(f"unknown variant in {args.only}")
    for variant in chosen:
        record(variant)
    return 0
