"""Benchmarks (`make bench`). A package so plugins can `from bench.sections import register`."""
