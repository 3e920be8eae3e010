"""A PR author cannot hide an override in an arm the reader leaves unforked (shell.value_arms).

The arm is run and its variable becomes one value known only at run time, which Check 7
counts against just as it counts the override the arm would have set.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts

ARMS = {
    "a quoted override value": (
        'OVR="$RUNNER_OVR"\n[ "$RUNNER_LEVEL" -gt 4 ] && OVR=\'{"architectures": ["X"]}\'\n',
        '  --hf-overrides "$OVR" \\\n',
        "--hf-overrides ${OVR}",
    ),
    "an override flag as a word": (
        'EXTRA="$RUNNER_EXTRA"\nif [ "$RUNNER_LEVEL" -gt 4 ]; then\n  EXTRA="--hf-overrides"\nfi\n',
        "  $EXTRA \\\n",
        "${EXTRA} (known only at run time, could be an override)",
    ),
}


@pytest.mark.parametrize("arm", sorted(ARMS))
def test_an_override_set_in_an_unforked_arm_still_fails(check, arm):
    block, flag, named = ARMS[arm]
    script = SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{block}')
    script = script.replace("  --kv-cache-dtype fp8 \\\n", f"  --kv-cache-dtype fp8 \\\n{flag}")
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert named in result.reason
