"""The cassette recorders, by job.

- `scenario`: the PASS scenario of PR #2700 that every verify variant patches;
- `variants/`: the verify variants by family, and `variants.catalogue`, every recording with
  the verdict it must give;
- `rewriting`: how a recording against the emulator is made to look like one against GitHub;
- `verify`, `publish`, `audit`: the three recorders (`cassettes/record.py`,
  `record_publish.py`, `record_audit.py` are their entry points);
- `history/`: the 48-PR merge history the audit recordings run on;
- `emulator`: where the recorders and benchmarks find ghemu.

Recorded files are written beside this package, in `cassettes/`.
"""

from __future__ import annotations

import sys
from pathlib import Path

CASSETTES = Path(__file__).resolve().parent.parent
ROOT = CASSETTES.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
