"""GitHub itself: the client (tokens, retries, rate limits), the checked session of reads
(`api.Api`, its answers' shapes and worker pool) and the comment lists gather and publish both
read. Knows nothing of what a verdict needs; gather, publish and audit read through it."""
