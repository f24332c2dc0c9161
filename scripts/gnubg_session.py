"""Kept for the fixture scripts: the session lives in ``bgcli.bench.gnubg``."""

from bgcli.bench.gnubg import GnubgSession  # noqa: F401
