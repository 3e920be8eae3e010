"""A sourced file of known base name counts only when the script may write it: a line that names
it only in a message sent to another descriptor (`>&2`) writes no file, while a redirect into a
file of that name still does (Checks 7 and 8; engine-patches reads around sources)."""

from __future__ import annotations

import pytest
from builders import (
    SCRIPT,
    modified_script,
)

CHECKS = ("no-arch-hacks", "spec-chat-template")
ANCHOR = 'hf download "$MODEL"\n'
SOURCE = "source $WS_PATH/env.sh\n"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_sourced_files_name_in_a_message_to_stderr_is_no_write_of_it(check, check_id):
    line = 'echo "Error: UCX_NET_DEVICES is empty after env.sh detection" >&2\n'
    base = SCRIPT.replace(ANCHOR, ANCHOR + SOURCE + line, 1)
    head = base.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 --max-num-seqs 256")
    result = check(modified_script(base, head), check_id)
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "line",
    ['echo "export X=1" >&2 > "$WS_PATH/env.sh"\n', 'echo "vllm() { :; }" 2>&1 >>env.sh\n'],
    ids=["after-a-descriptor", "append"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_redirect_into_the_sourced_files_name_still_counts(check, check_id, line):
    base = SCRIPT.replace(ANCHOR, ANCHOR + line + SOURCE, 1)
    head = base.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 --max-num-seqs 256")
    result = check(modified_script(base, head), check_id)
    assert result.status == "FAIL" and "env.sh" in result.reason
