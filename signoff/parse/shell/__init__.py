"""The shell reader."""
