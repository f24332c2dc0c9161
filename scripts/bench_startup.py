"""Kept for the commands the docs quote: the benchmark lives in ``bgcli.bench.startup``
(``bgcli bench --part startup`` runs it with the others)."""

from bgcli.bench.startup import main

if __name__ == "__main__":
    main()
