"""The command line: a thin Typer layer over the library. Nothing imports this package."""
