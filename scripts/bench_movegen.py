"""Kept for the commands the docs quote: the benchmark lives in ``bgcli.bench.movegen``
(``bgcli bench --part movegen`` runs it with the others)."""

from bgcli.bench.movegen import main

if __name__ == "__main__":
    main()
