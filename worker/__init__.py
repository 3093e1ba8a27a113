"""cleanstream: a streaming web-content cleaner that learns site templates online."""

__version__ = "0.1.0"
