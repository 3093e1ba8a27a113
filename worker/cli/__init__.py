"""Command-line subcommands. Each module exposes `register(subparsers)` and sets `func` on its parser."""
