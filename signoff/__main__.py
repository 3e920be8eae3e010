"""`python -m signoff` runs the CLI."""

from signoff.cli import entry

entry()
