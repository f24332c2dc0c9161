"""Kept for the commands the docs quote: the benchmark lives in ``bgcli.bench.rollout``
(``bgcli bench --part rollout`` runs it with the others)."""

from bgcli.bench.rollout import main

if __name__ == "__main__":
    main()
