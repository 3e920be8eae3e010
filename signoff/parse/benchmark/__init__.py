"""What a benchmark script runs, read on top of the shell reader: server launches, their flags and
`--config` files, the scripts it runs, the engine patches it applies."""
