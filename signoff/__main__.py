"""`python -m signoff` runs the CLI."""

from signoff.cli import main

raise SystemExit(main())
