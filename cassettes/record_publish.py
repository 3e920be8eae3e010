"""Record the publish cassettes (cassettes/publish/*.yaml) from ghemu (see
cassettes/recording/publish.py).

    python cassettes/record_publish.py [--ghemu ../shared/tools] [NAME ...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recording.publish import main

if __name__ == "__main__":
    sys.exit(main())
