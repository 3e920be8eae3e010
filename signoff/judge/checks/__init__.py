"""One module per check. Each declares NUMBER, ID and NAME and `evaluate(ctx) -> Finding`;
its docstring says what it checks, why, and how a reviewer satisfies it."""
