"""signoff: a deterministic CODEOWNER sign-off verifier for benchmark repositories."""

from signoff import deferred

__version__ = "0.1.0"

deferred.defer_module("jwt")
deferred.defer_pygithub_init()
deferred.defer_charset_normalizer_init()
