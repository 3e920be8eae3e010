"""One module per check. Each declares ID (stable across eras), NAME (its default row name) and
`evaluate(ctx) -> Finding`, and may declare `wants(ctx)`: the extra files gather must read for it.
Its docstring says what it checks, why, and how a reviewer satisfies it. Which checks run, and
how each is numbered and named, is chosen by the standard (signoff/standards.py)."""
