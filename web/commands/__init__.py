"""Subcommands of `tableref`, one module per area; each defines register(subparsers)."""
