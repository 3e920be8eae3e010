"""Record signoff's verify cassettes from the ghemu emulator (see cassettes/recording/verify.py).

python cassettes/record.py [--only NAME] [--list]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recording.verify import main

if __name__ == "__main__":
    sys.exit(main())
