#!/bin/sh
# The luck's smaller screens (branch luck-screens, commit 88cb5f4) against main before them
# (d038b9e), in one run: variance-reduced rollouts only, 2,592 trials, seed 1, each tree
# twice, taking turns. Variance reduction does not change the play, so both trees play the
# same games; only the luck subtracted differs. Records: docs/records/luck_screens_*.json.
#   git worktree add /work/scratch/before d038b9e; git worktree add /work/scratch/after 88cb5f4
#   sh scripts/experiments/luck_screens_paired.sh /work/scratch/before /work/scratch/after
set -e
before=$1
after=$2
for round in 1 2; do
  for tree in before after; do
    eval dir=\$$tree
    (cd "$dir" && PYTHONPATH="$dir" python -m bgcli.bench.rollout --trials-plain 36 \
      --trials-vr 2592 --repeat 1 --gnubg '' --json "$dir/luck_screens_${tree}_$round.json")
  done
done
