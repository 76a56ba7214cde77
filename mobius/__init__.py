"""The `mobius` command line: the typer application only (see `mobius.cli`)."""
