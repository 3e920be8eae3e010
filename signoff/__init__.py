"""signoff: a deterministic CODEOWNER sign-off verifier for benchmark repositories."""

__version__ = "0.1.0"
