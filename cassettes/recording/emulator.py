"""Where the developer tools (the recorders, bench_audit, bench_latency) find ghemu, the offline
GitHub emulator, and the one line they print when it is missing.

ghemu is not part of this repository or of any package: it lives in the workspace's
`shared/tools/ghemu`, the folder beside this checkout (`../shared/tools`), and needs
`graphql-core`. The test suite never needs it: tests replay cassettes recorded from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "tools").resolve()


def require_ghemu(tools: Path = TOOLS) -> None:
    """Put ghemu on sys.path, or exit 2 with one line saying what is missing and where."""
    program = Path(sys.argv[0]).name or "this tool"
    if not (tools / "ghemu" / "__init__.py").is_file():
        _stop(
            f"{program}: needs ghemu, the offline GitHub emulator, at {tools / 'ghemu'} "
            "(the workspace's shared/tools/, beside this checkout; see docs/development.md)"
        )
    if str(tools) not in sys.path:
        sys.path.insert(0, str(tools))
    try:
        # ghemu imports its GraphQL module lazily: without graphql-core every GraphQL read is a 500.
        import ghemu.gql  # noqa: F401
    except ImportError as exc:
        missing = (exc.name or "a module").partition(".")[0]
        package = "graphql-core" if missing == "graphql" else missing
        _stop(
            f"{program}: ghemu at {tools} cannot start: {missing} is missing (pip install {package})"
        )


def _stop(line: str) -> None:
    print(line, file=sys.stderr)
    raise SystemExit(2)
