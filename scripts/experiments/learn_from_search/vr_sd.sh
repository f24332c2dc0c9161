# SD per game of variance-reduced rollouts (2592 trials, seed 1, one thread) with the weights $1:
#   bash scripts/experiments/learn_from_search/vr_sd.sh bgcli/data/net_weights.npz
for p in 4HPwATDgc/ABMA a5yDAQYtO4MBAw; do
  BGCLI_WEIGHTS=$1 bgcli rollout $p --trials 2592 --seed 1 --threads 1 -f json 2>/dev/null | python -c "
import json,sys,math; d=json.load(sys.stdin); d=d[0] if isinstance(d,list) else d
print('$p', '$1', d.get('games'), d.get('equity'), d.get('equity_se'), d['equity_se']*math.sqrt(d['games']))"
done
