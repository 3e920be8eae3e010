"""Record the `signoff audit` cassettes from ghemu (see cassettes/recording/audit.py).

python cassettes/record_audit.py [--only NAME] [--list]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recording.audit import main

if __name__ == "__main__":
    sys.exit(main())
