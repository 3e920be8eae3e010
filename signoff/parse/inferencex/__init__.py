"""InferenceX repository files: master configs and their sweeps, the changelog, MODELS.md,
CODEOWNERS and golden acceptance-length curves."""
