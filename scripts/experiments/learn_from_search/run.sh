#!/bin/sh
# Session 10's experiment of learning from search (docs/net.md, "Learning from search").
# Each step is resumable: rerun it to continue. About 11 minutes of labelling for 16,000
# positions and seconds of training on one loaded core; the strength checks below take
# about 2 minutes each (vs_gnubg needs `pip install gnubg`).
set -e
D=${D:-learn_data}
export NUMBA_NUM_THREADS=1
# 1. 16,000 positions from the net's own self-play (30% from the opening, the rest from the
#    back-game and anchor collections), each labelled by bgcli's 2-ply search
bgcli train-data "$D" -n 16000 --from positions/train_backgames.txt --from positions/train_anchors.txt \
    > data16k.json
# the 8,000-position runs use the first 16 chunks of the same folder
mkdir -p "$D"8k && cp "$D"/settings.json "$D"8k/
for i in $(seq 0 15); do cp "$D"/chunk-$(printf %06d $i).npz "$D"8k/; done
# 2. supervised fits from the shipped weights
for r in 0.03 0.1; do bgcli train --data "$D"8k --epochs 8 --rate $r -o fit_r$r.npz --record fit_r$r.json > /dev/null; done
for r in 1.0 4.0; do bgcli train --data "$D"8k --epochs 20 --rate $r -o fit_r$r.npz --record fit_r$r.json > /dev/null; done
bgcli train --data "$D" --epochs 6 --rate 0.3 -o fit16_r0.3.npz --record fit16_r0.3.json > /dev/null
# the same folder continued (resumed) to 40,000 positions
bgcli train-data "$D" -n 40000 --from positions/train_backgames.txt --from positions/train_anchors.txt \
    > data40k.json
for r in 0.1 0.3; do bgcli train --data "$D" --epochs 6 --rate $r -o fit40_r$r.npz --record fit40_r$r.json > /dev/null; done
bgcli train --data "$D" --epochs 4 --rate 10 --batch 8 -o fit40_r10.npz --record fit40_r10_b8.json > /dev/null
# 3. head to head against the shipped net, 0 ply: 5,000 deals from the opening and 4 deals
#    from each of the first 500 back-game positions, each deal played twice
for f in fit_r0.1 fit_r1.0 fit16_r0.3; do
    python -m scripts.experiments.head_to_head $f.npz --deals 5000 --themed positions/train_backgames.txt \
        --themed-starts 500 --themed-deals 4 -o h2h_$f.json > /dev/null
done
# 4. against gnubg 0-ply, 300 deals, the same dice for both nets
python -m scripts.strength.vs_gnubg --weights fit16_r0.3.npz --deals 300 --seed 1 --check-agreement 0 -o vs_gnubg_fit16.json
python -m scripts.strength.vs_gnubg --deals 300 --seed 1 --check-agreement 0 -o vs_gnubg_shipped.json

# Session 11: Adam, a loss on equity, early stopping (adam.py). Two folders made side by side
# and stopped (killed) at 14,000 and 14,500 positions (a chunk is written whole or not at all).
bgcli train-data /work/data/s1 -n 50000 --seed 1 --from positions/train_backgames.txt --from positions/train_anchors.txt &
bgcli train-data /work/data/s2 -n 50000 --seed 2 --from positions/train_backgames.txt --from positions/train_anchors.txt &
wait
python -c "import json, sys; from bgcli.learn import data_summary; [json.dump(data_summary(f'/work/data/{s}'), open(f'data_adam_{s}.json', 'w'), indent=1) for s in ('s1', 's2')]"
A="python -m scripts.experiments.learn_from_search.adam /work/data/s1 /work/data/s2"
for r in 3e-5 1e-4 3e-4 1e-3; do $A --rate $r --epochs 6 -o adam_r$r.json --weights adam_r$r.npz; done
$A --rate 1e-4 --epochs 6 --equity-weight 0 -o adam_r1e-4_e0.json
$A --rate 3e-5 --epochs 20 -o adam_r3e-5_20.json --weights adam_r3e-5_20.npz
python -m scripts.experiments.head_to_head adam_r3e-5_20.npz --deals 5000 --themed positions/train_backgames.txt \
    --themed-starts 500 --themed-deals 4 -o h2h_adam_r3e-5_20.json > /dev/null

# Session 13: seven times the data, a data-size curve, a back-game specialist and a wider
# net (adam.py --train-fraction / --train-sources). Two folders made side by side (about 40
# labels a second each on a quiet core) and stopped (killed) after the same chunk count.
bgcli train-data /work/learn_data/s3 -n 200000 --seed 3 --from positions/train_backgames.txt --from positions/train_anchors.txt &
bgcli train-data /work/learn_data/s4 -n 200000 --seed 4 --from positions/train_backgames.txt --from positions/train_anchors.txt &
wait
python -c "import json; from bgcli.learn import data_summary; [json.dump(data_summary(f'/work/learn_data/{s}'), open(f'data_s13_{s}.json', 'w'), indent=1) for s in ('s3', 's4')]"
A="python -m scripts.experiments.learn_from_search.adam /work/learn_data/s3 /work/learn_data/s4"
for f in 1.0 0.15; do $A --rate 1e-4 --epochs 40 --train-fraction $f -o s13_r1e-4_f$f.json --weights s13_r1e-4_f$f.npz; done
python -m scripts.experiments.head_to_head s13_r1e-4_f1.0.npz --deals 10000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s13_r1e-4_f1.0.json > /dev/null
# the same fit with 128 hidden units (a separate build: widen_hidden.py's docstring), from the
# shipped net widened to the same function, judged against that widened copy
#   cd /tmp/wide && XDG_CACHE_HOME=/tmp/widecache BGCLI_WEIGHTS=wide.npz \
#       $A --rate 1e-4 --epochs 40 -o s13_wide128_r1e-4.json --weights wide128.npz

# Session 14: the same two folders continued (stopped after 551 and 549 chunks; to rebuild
# them exactly give -n 275500 and -n 274500), the product's trainer on them, the checks;
# the fit was shipped as 0.9.0's net (python -m scripts.ship_net_weights W --check-deals 2000
# --vs-gnubg vs_gnubg_s14_fit550k_s1_partial.json)
bgcli train-data /work/learn_data/s3 -n 275500 --seed 3 --from positions/train_backgames.txt --from positions/train_anchors.txt &
bgcli train-data /work/learn_data/s4 -n 274500 --seed 4 --from positions/train_backgames.txt --from positions/train_anchors.txt &
wait
W=s14_fit550k.npz
bgcli train --data /work/learn_data/s3 --data /work/learn_data/s4 --epochs 60 -o $W --record s14_fit550k.json > /dev/null
$A --rate 1e-4 --epochs 60 --train-fraction 0.5 -o s14_f0.5.json
python -m scripts.experiments.head_to_head $W --deals 10000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s14_fit550k.json > /dev/null
bash vr_sd.sh $W
python -m scripts.strength.vs_gnubg --weights $W --deals 2500 --seed 1 -o vs_gnubg_s14_fit550k_s1_partial.json  # stopped at 1,060
BGCLI_WEIGHTS=$W python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s14_fit550k.json
python -m scripts.experiments.learn_from_search.sampling_ab

# Session 15: round 2, labelled by 0.9.0's net (d4d5) at 2 ply, two folders side by side
# (stopped after 397 and 398 chunks; rebuild exactly with -n 198500 / -n 199000), then two
# fits on all four folders: A the contact net only from the self-play net (a8cd: git show
# a063707^:bgcli/data/net_weights.npz > a8cd.npz), its race net kept; B both nets from d4d5
bgcli train-data /work/learn_data/r2_s5 -n 198500 --seed 5 --from positions/train_backgames.txt --from positions/train_anchors.txt &
bgcli train-data /work/learn_data/r2_s6 -n 199000 --seed 6 --from positions/train_backgames.txt --from positions/train_anchors.txt &
wait
D="--data /work/learn_data/s3 --data /work/learn_data/s4 --data /work/learn_data/r2_s5 --data /work/learn_data/r2_s6"
bgcli train $D --epochs 50 --nets contact --start a8cd.npz -o s15_A.npz --record s15_fitA_contact.json > /dev/null &
bgcli train $D --epochs 50 -o s15_B.npz --record s15_fitB_both.json > /dev/null &
wait
for n in A_contact B_both; do
    python -m scripts.experiments.head_to_head s15_${n%_*}.npz --deals 10000 --themed positions/train_backgames.txt \
        --themed-starts 1000 --themed-deals 4 -o h2h_s15_fit$n.json > /dev/null
    BGCLI_WEIGHTS=s15_${n%_*}.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
        --variance-reduction -o rollouts_vs_gnubg_vr_s15_fit$n.json
done
# C: B's contact net with the self-play net's race net (the best of the three on rollouts)
python -m scripts.experiments.learn_from_search.splice s15_B.npz a8cd.npz -o s15_C.npz
python -m scripts.experiments.head_to_head s15_C.npz --deals 10000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s15_fitC_spliced.json > /dev/null
BGCLI_WEIGHTS=s15_C.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s15_fitC_spliced.json

# Session 16: do deeper targets teach more? The same positions (0.9.1's net C playing from
# the usual sources, seeds 21 and 22) labelled at 3 ply (about 17 labels a second per core)
# and at 2 ply (the same settings and seeds but --plies, so the same boards); the 3-ply runs
# were stopped after 289 and 277 chunks (rebuild exactly: -n 144500 / -n 138500); the
# contact net fitted from C on each, then each against C head to head.
S="--from positions/train_backgames.txt --from positions/train_anchors.txt"
for s in 21 22; do bgcli train-data /work/ld/p3_s$s -n 300000 --plies 3 --seed $s $S & done; wait
bgcli train-data /work/ld/p2_s21 -n 144500 --plies 2 --seed 21 $S &
bgcli train-data /work/ld/p2_s22 -n 138500 --plies 2 --seed 22 $S &
wait
for p in 2 3; do
    bgcli train --data /work/ld/p${p}_s21 --data /work/ld/p${p}_s22 --nets contact --epochs 50 \
        -o s16_p$p.npz --record s16_fit_p$p.json > /dev/null &
done; wait
for p in 2 3; do
    python -m scripts.experiments.head_to_head s16_p$p.npz --deals 20000 --themed positions/train_backgames.txt \
        --themed-starts 1000 --themed-deals 4 -o h2h_s16_fit_p$p.json > /dev/null
done
python -m scripts.experiments.learn_from_search.cross_targets --data2 /work/ld/p2_s21 /work/ld/p2_s22 \
    --data3 /work/ld/p3_s21 /work/ld/p3_s22 --nets shipped s16_p2.npz s16_p3.npz -o cross_targets_s16.json

# Session 17 (0.9.1's net C labels and plays throughout; docs/net.md "Session 17's experiments").
# (a) targets halfway between 2 and 3 ply, on session 16's folders (the odd-even hypothesis):
for s in 21 22; do
    python -m scripts.experiments.learn_from_search.mix_targets /work/ld/p2_s$s /work/ld/p3_s$s /work/ld/avg_s$s --weight3 0.5
done
bgcli train --data /work/ld/avg_s21 --data /work/ld/avg_s22 --nets contact --epochs 50 -o s17_avg.npz --record s17_fit_avg.json > /dev/null
# (b) room to learn: C widened to 128 hidden units (a separate build, see widen_hidden.py), fitted
#     to session 16's 2-ply folders from /tmp/wide with `python -m bgcli train ... --start C128.npz`
#     (record s17_fit_w128_p2.json).
# (c) the roll's other plays labelled too: 3 alternatives per kept ply (about 100 labels a second
#     per core; 33 minutes for the two folders side by side)
for s in 31 32; do bgcli train-data /work/ld/alt_s$s -n 200000 --plies 2 --alternatives 3 --seed $s $S & done; wait
bgcli train --data /work/ld/alt_s31 --data /work/ld/alt_s32 --nets contact --epochs 50 -o s17_alt.npz --record s17_fit_alt.json > /dev/null &
bgcli train --data /work/ld/alt_s31 --data /work/ld/alt_s32 --data /work/ld/p2_s21 --data /work/ld/p2_s22 --nets contact \
    --epochs 50 -o s17_altp2.npz --record s17_fit_altp2.json > /dev/null &
wait
for n in avg alt altp2; do
    python -m scripts.experiments.head_to_head s17_$n.npz --deals 20000 --themed positions/train_backgames.txt \
        --themed-starts 1000 --themed-deals 4 -o h2h_s17_fit_$n.json > /dev/null
done
python -m scripts.experiments.learn_from_search.residuals /work/ld/p2_s21 /work/ld/p2_s22 -o residuals_s17.json
python -m scripts.strength.vs_gnubg --weights s17_altp2.npz --deals 1200 --seed 1 -o vs_gnubg_s17_altp2_s1.json
python -m scripts.experiments.learn_from_search.paired vs_gnubg_s17_altp2_s1.json vs_gnubg_s15_fitC_s1.json
# the last fit resumed to 100 epochs (its best epoch was the last):
bgcli train --data /work/ld/alt_s31 --data /work/ld/alt_s32 --data /work/ld/p2_s21 --data /work/ld/p2_s22 --nets contact \
    --epochs 100 --resume s17_altp2.npz -o s17_altp2_100.npz --record s17_fit_altp2_100.json > /dev/null
python -m scripts.experiments.head_to_head s17_altp2_100.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s17_fit_altp2_100.json > /dev/null
python -m scripts.strength.vs_gnubg --weights s17_altp2_100.npz --deals 1200 --seed 1 -o vs_gnubg_s17_altp2_100_s1.json

# Session 18: ship session 17's 100-epoch fit as 0.9.3 (docs/net.md, "Session 18").
python -m scripts.strength.vs_gnubg --weights s17_altp2_100.npz --deals 2500 --seed 1 -o vs_gnubg_ship.json
python -m scripts.ship_net_weights s17_altp2_100.npz --check-deals 2000 --vs-gnubg vs_gnubg_ship.json
# (vs_gnubg_0.9.3_s1.json is the `vs_gnubg` of bgcli/data/net_weights.json, written out)
python -m scripts.experiments.learn_from_search.paired vs_gnubg_0.9.3_s1.json vs_gnubg_s15_fitC_s1.json
python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 --variance-reduction \
    -o rollouts_vs_gnubg_vr_0.9.3.json
python -m scripts.strength.vs_gnubg --deals 2500 --seed 2 -o vs_gnubg_0.9.3_s2.json
git show 1e5830b:bgcli/data/net_weights.npz > C.npz     # 0.9.1's net
python -m scripts.strength.vs_gnubg --weights C.npz --deals 2500 --seed 2 -o vs_gnubg_s15_fitC_s2.json
python -m scripts.experiments.learn_from_search.paired vs_gnubg_0.9.3_s2.json vs_gnubg_s15_fitC_s2.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
# round 2: 0.9.3's net labels (the same sources, --alternatives 3, seeds 33 and 34)
for s in 33 34; do bgcli train-data /work/ld/alt2_s$s -n 200000 --plies 2 --alternatives 3 --seed $s $S & done; wait
bgcli train --data /work/ld/alt2_s33 --data /work/ld/alt2_s34 --nets contact --epochs 100 -o s18_r2.npz \
    --record s18_fit_r2.json > /dev/null
python -m scripts.experiments.head_to_head s18_r2.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s18_r2.json > /dev/null
# more of the same: two more folders, and all four fitted (the committed candidate s18_r2b.npz)
for s in 35 36; do bgcli train-data /work/ld/alt2_s$s -n 120000 --plies 2 --alternatives 3 --seed $s $S & done; wait
bgcli train --data /work/ld/alt2_s33 --data /work/ld/alt2_s34 --data /work/ld/alt2_s35 --data /work/ld/alt2_s36 \
    --nets contact --epochs 100 -o s18_r2b.npz --record s18_fit_r2b.json > /dev/null
python -m scripts.experiments.head_to_head s18_r2b.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s18_r2b.json > /dev/null
python -m scripts.strength.vs_gnubg --weights s18_r2b.npz --deals 1200 --seed 1 -o vs_gnubg_s18_r2b_s1.json
python -m scripts.experiments.learn_from_search.paired vs_gnubg_s18_r2b_s1.json vs_gnubg_0.9.3_s1.json
BGCLI_WEIGHTS=s18_r2b.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s18_r2b.json
# the same resumed to 200 epochs (not kept)
bgcli train --data /work/ld/alt2_s33 --data /work/ld/alt2_s34 --data /work/ld/alt2_s35 --data /work/ld/alt2_s36 \
    --nets contact --epochs 200 --resume s18_r2b.npz -o s18_r2b_200.npz --record s18_fit_r2b_200.json > /dev/null
python -m scripts.experiments.head_to_head s18_r2b_200.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s18_r2b_200.json > /dev/null
python -m scripts.strength.vs_gnubg --weights s18_r2b_200.npz --deals 1200 --seed 1 -o vs_gnubg_s18_r2b_200_s1.json

# Session 19: the ranking of a roll's plays as a loss (docs/net.md, "Session 19's experiment")
for s in 35 36; do bgcli train-data /work/ld/alt2_s$s -n 320000 --plies 2 --alternatives 3 --seed $s $S & done; wait
# the A/B on session 18's 640,000 positions: seeds 35 and 36 cut at their first 240 chunks
for s in 35 36; do mkdir -p /work/ld/alt2_s${s}_240; cp /work/ld/alt2_s$s/settings.json /work/ld/alt2_s${s}_240/
    for i in $(seq 0 239); do ln -f /work/ld/alt2_s$s/chunk-$(printf %06d $i).npz /work/ld/alt2_s${s}_240/; done; done
bgcli train --data /work/ld/alt2_s33 --data /work/ld/alt2_s34 --data /work/ld/alt2_s35_240 --data /work/ld/alt2_s36_240 \
    --nets contact --epochs 100 --pair-weight 2 -o s19_pw2.npz --record s19_fit_pw2.json > /dev/null
python -m scripts.experiments.head_to_head s19_pw2.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s19_pw2.json > /dev/null
python -m scripts.experiments.head_to_head s19_pw2.npz --against s18_r2b.npz --deals 20000 \
    --themed positions/train_backgames.txt --themed-starts 1000 --themed-deals 4 -o h2h_s19_pw2_vs_r2b.json > /dev/null
python -m scripts.experiments.learn_from_search.choices /work/ld/alt2_s35 /work/ld/alt2_s36 --first-chunk 240 \
    --last-chunk 639 --weights bgcli/data/net_weights.npz s18_r2b.npz s19_pw2.npz -o choices_s19_pw2.json
python -m scripts.strength.vs_gnubg --weights s19_pw2.npz --deals 1200 --seed 1 -o vs_gnubg_s19_pw2_s1.json
python -m scripts.experiments.learn_from_search.paired vs_gnubg_s19_pw2_s1.json vs_gnubg_0.9.3_s1.json
# all 1,040,000 positions, 60 more epochs from s19_pw2 (not kept)
bgcli train --data /work/ld/alt2_s33 --data /work/ld/alt2_s34 --data /work/ld/alt2_s35 --data /work/ld/alt2_s36 \
    --nets contact --epochs 60 --pair-weight 2 --start s19_pw2.npz -o s19_pw2_big.npz --record s19_fit_pw2_big.json > /dev/null
python -m scripts.experiments.head_to_head s19_pw2_big.npz --against s19_pw2.npz --deals 20000 \
    --themed positions/train_backgames.txt --themed-starts 1000 --themed-deals 4 -o h2h_s19_pw2_big_vs_pw2.json > /dev/null
# seed 2, and the ship as 0.9.4
python -m scripts.strength.vs_gnubg --weights s19_pw2.npz --deals 1200 --seed 2 -o vs_gnubg_s19_pw2_s2.json
python -m scripts.experiments.learn_from_search.paired vs_gnubg_s19_pw2_s2.json vs_gnubg_0.9.3_s2.json
BGCLI_WEIGHTS=s19_pw2.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s19_pw2.json
python -m scripts.ship_net_weights s19_pw2.npz --check-deals 2000 --vs-gnubg vs_gnubg_s19_pw2_s1.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
# issue 18's (a) with 0.9.4: 2,500 deals of each seed, paired against 0.9.3's
for s in 1 2; do python -m scripts.strength.vs_gnubg --deals 2500 --seed $s -o vs_gnubg_0.9.4_s$s.json & done; wait
for s in 1 2; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_0.9.4_s$s.json vs_gnubg_0.9.3_s$s.json; done
# Session 20: a round labelled by 0.9.4's 2 ply (docs/net.md, "Session 20's experiment")
for s in 37 38; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/alt3_s$s -n 500000 --plies 2 --alternatives 3 --seed $s $S & done; wait
for w in 2 4; do bgcli train --data /work/ld/alt3_s37 --data /work/ld/alt3_s38 --nets contact --epochs 100 \
    --pair-weight $w -o s20_pw$w.npz --record s20_fit_pw$w.json > /dev/null & done; wait
for w in 2 4; do python -m scripts.experiments.head_to_head s20_pw$w.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s20_pw$w.json > /dev/null & done; wait
for s in 1 2; do python -m scripts.strength.vs_gnubg --weights s20_pw2.npz --deals 1200 --seed $s -o vs_gnubg_s20_pw2_s$s.json & done; wait
for s in 1 2; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s20_pw2_s$s.json vs_gnubg_0.9.4_s$s.json; done
# the ship as 0.9.5
BGCLI_WEIGHTS=s20_pw2.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s20_pw2.json
python -m scripts.ship_net_weights s20_pw2.npz --check-deals 2000 --vs-gnubg vs_gnubg_s20_pw2_s1.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
# the next round, labelled by 0.9.5's 2 ply (s20_pw2; BGCLI_WEIGHTS unset labels with the shipped net now)
for s in 39 40; do NUMBA_NUM_THREADS=1 BGCLI_WEIGHTS=s20_pw2.npz bgcli train-data /work/ld/alt4_s$s -n 500000 --plies 2 \
    --alternatives 3 --seed $s $S & done; wait
A="--data /work/ld/alt4_s39 --data /work/ld/alt4_s40"; B="--data /work/ld/alt3_s37 --data /work/ld/alt3_s38"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --start s20_pw2.npz -o s20_r4.npz --record s20_fit_r4.json > /dev/null &
bgcli train $A $B --nets contact --epochs 100 --pair-weight 2 --start s20_pw2.npz -o s20_r4all.npz --record s20_fit_r4all.json > /dev/null &
wait
for n in r4 r4all; do python -m scripts.experiments.head_to_head s20_$n.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 -o h2h_s20_$n.json > /dev/null & done; wait
for s in 1 2; do python -m scripts.strength.vs_gnubg --weights s20_r4.npz --deals 1200 --seed $s -o vs_gnubg_s20_r4_s$s.json & done; wait
for s in 1 2; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s20_r4_s$s.json vs_gnubg_s20_pw2_s$s.json; done
# Session 21: the race net, fitted to 0.9.5's 2-ply labels of races (docs/net.md, "Session 21")
python -m positions.build_train_backgames --races --games 10000 --seed 1 > positions/train_races.txt
python -m positions.build_train_backgames --races --games 3000 --seed 2 > races_seed2.txt  # held apart
for s in 41 42; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/race_s$s -n 250000 --from positions/train_races.txt \
    --opening-share 0 --plies 2 --alternatives 3 --seed $s > data_s21_race_s$s.json & done; wait
A="--data /work/ld/race_s41 --data /work/ld/race_s42"
bgcli train $A --nets race --epochs 100 --pair-weight 2 -o s21_race.npz --record s21_fit_race.json > /dev/null &
bgcli train $A --nets race --epochs 100 --pair-weight 2 --rate 3e-4 -o s21_race_r3.npz --record s21_fit_race_r3.json > /dev/null &
wait
bgcli train $A --epochs 250 --resume s21_race_r3.npz -o s21_race_r3l.npz --record s21_fit_race_r3l.json > /dev/null  # 150 more
python -m scripts.experiments.head_to_head s21_race_r3.npz --deals 10000 --themed races_seed2.txt --themed-starts 2904 \
    --themed-deals 4 --bearoff -o h2h_s21_race_r3.json > /dev/null
python -m scripts.experiments.head_to_head s21_race_r3l.npz --deals 10000 --themed races_seed2.txt --themed-starts 2904 \
    --themed-deals 4 --bearoff -o h2h_s21_race_r3l.json > /dev/null
# gnubg 2-ply judges every move of 2,904 games from the held-apart race starts (each about 2 minutes)
python -m scripts.strength.judged_by_gnubg --games 2904 --also-plies --starts races_seed2.txt -o judged_races_0.9.5.json
python -m scripts.strength.judged_by_gnubg --weights s21_race_r3l.npz --games 2904 --also-plies --starts races_seed2.txt \
    -o judged_races_s21_race_r3l.json
python -m scripts.strength.judged_by_gnubg --games 600 --also-plies 1 2 --starts races_seed2.txt -o judged_races_0.9.5_plies.json
for s in 1 2; do python -m scripts.strength.vs_gnubg --weights s21_race_r3l.npz --deals 1200 --seed $s -o vs_gnubg_s21_race_s$s.json & done; wait
for s in 1 2; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s21_race_s$s.json vs_gnubg_s20_pw2_s$s.json; done
# the ship as 0.9.6 (BGCLI_WEIGHTS for the checks before it; the shipped net after)
BGCLI_WEIGHTS=s21_race_r3l.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s21_race.json
python -m scripts.ship_net_weights s21_race_r3l.npz --check-deals 2000 --vs-gnubg vs_gnubg_s21_race_s1.json
python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 -o scripts/strength/judged_by_gnubg_0.9.6.json
python -m scripts.strength.judged_by_gnubg --weights s20_pw2.npz --games 100 --also-plies 1 2 -o judged_by_gnubg_0.9.5_themes.json
python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.9.6.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
# a second round for the race net, labelled by 0.9.6's 2 ply (the shipped net now)
for s in 43 44; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/race2_s$s -n 250000 --from positions/train_races.txt \
    --opening-share 0 --plies 2 --alternatives 3 --seed $s > data_s21_race2_s$s.json & done; wait
N="--data /work/ld/race2_s43 --data /work/ld/race2_s44"; O="--data /work/ld/race_s41 --data /work/ld/race_s42"
bgcli train $N --nets race --epochs 150 --pair-weight 2 --rate 3e-4 -o s21_race2.npz --record s21_fit_race2.json > /dev/null &
bgcli train $N $O --nets race --epochs 100 --pair-weight 2 --rate 3e-4 -o s21_race2all.npz --record s21_fit_race2all.json > /dev/null &
wait
for n in race2 race2all; do python -m scripts.strength.judged_by_gnubg --weights s21_$n.npz --games 2904 --also-plies \
    --starts races_seed2.txt -o judged_races_s21_$n.json > /dev/null & done; wait
for n in race2 race2all; do python -m scripts.experiments.head_to_head s21_$n.npz --deals 10000 --themed races_seed2.txt \
    --themed-starts 2904 --themed-deals 4 --bearoff -o h2h_s21_$n.json > /dev/null & done; wait
# issue 18's 4a at 5,000 deals for 0.9.6: seeds 3 and 4 with seeds 1 and 2 above (the per_deal lists pooled)
for s in 3 4; do python -m scripts.strength.vs_gnubg --deals 1300 --seed $s -o vs_gnubg_0.9.6_s$s.json > /dev/null & done; wait
# Session 22: the learning rate of the contact fits (docs/net.md, "Session 22")
# session 20's second round regenerated: 0.9.5 (s20_pw2) labels seeds 39 and 40 again, byte for byte
# (the folders' sha256 equal data_s20_alt4_s39.json's and _s40.json's)
for s in 39 40; do NUMBA_NUM_THREADS=1 BGCLI_WEIGHTS=s20_pw2.npz bgcli train-data /work/ld/alt4_s$s -n 500000 --plies 2 \
    --alternatives 3 --seed $s $S > /work/ld/s22/data_s$s.json & done; wait
A="--data /work/ld/alt4_s39 --data /work/ld/alt4_s40"
# Adam's rate 3e-4 and 1e-3 from 0.9.6 (stopped at epochs 42 and 18: neither beat epoch 0)
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --rate 3e-4 -o s22_r3.npz --record s22_fit_r3.json > /dev/null &
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --rate 1e-3 -o s22_r10.npz --record s22_fit_r10.json > /dev/null &
wait
# session 20's 1e-4 fit (s20_r4) with 0.9.6's race net, then annealed at 3e-5
python -m scripts.experiments.learn_from_search.splice s20_r4.npz bgcli/data/net_weights.npz -o s22_r4s.npz
bgcli train $A --nets contact --epochs 50 --pair-weight 2 --rate 3e-5 --start s22_r4s.npz -o s22_r4a.npz \
    --record s22_fit_r4a.json > /dev/null
for n in r4s r4a; do python -m scripts.experiments.head_to_head s22_$n.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 --bearoff -o h2h_s22_$n.json > /dev/null & done; wait
# the probe: fresh MLPs (scikit-learn) on the same contact positions, one core (about 40 minutes for 150 epochs)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
python -m scripts.experiments.learn_from_search.capacity_probe /work/ld/alt4_s39 /work/ld/alt4_s40 --train 500000 \
    --epochs 40 --models 80 160 320 80-40 160-80 --weights s22_r4s.npz s22_r4a.npz -o capacity_probe_s22_e40.json
python -m scripts.experiments.learn_from_search.capacity_probe /work/ld/alt4_s39 /work/ld/alt4_s40 --train 500000 \
    --epochs 150 --models 80 80-10 80-20 80-40 320 -o capacity_probe_s22_e150.json
NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.second_layer_cost /work/ld/alt4_s39 --positions 2000 \
    -o second_layer_cost_s22.json
# issue 18's 4c on 0.9.6
python -m scripts.experiments.mixed_play 5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw \
    4HPwATDgc/ABMA --games 1000 -o scripts/experiments/mixed_play_0.9.6.json
# the same on the annealed fit's frozen contact hidden units (a second layer on top of the first)
python -m scripts.experiments.learn_from_search.capacity_probe /work/ld/alt4_s39 /work/ld/alt4_s40 --train 500000 \
    --epochs 100 --models 20 40 80 --on-hidden s22_r4a.npz --weights s22_r4a.npz -o capacity_probe_s22_hidden.json
# the same two shapes started from the annealed fit's first layer (side by side, about 5 minutes)
for m in 80 80-20; do python -m scripts.experiments.learn_from_search.capacity_probe /work/ld/alt4_s39 /work/ld/alt4_s40 \
    --train 500000 --epochs 100 --models $m --warm s22_r4a.npz -o capacity_probe_s22_warm_$m.json & done; wait
# (merged by hand into capacity_probe_s22_warm.json; capacity_probe_s22_e150.json's 80-10 likewise came from a run of
# its own, --models 80-10; the stopped fits' records s22_fit_*.json are their checkpoints' records)
# and with new dice (seed 2), two runs side by side
python -m scripts.experiments.mixed_play 5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw --games 1000 --seed 2 -o mixed_s2a.json &
python -m scripts.experiments.mixed_play sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA --games 1000 --seed 2 -o mixed_s2b.json &
wait  # merged by hand into scripts/experiments/mixed_play_0.9.6_s2.json (rows of both, seconds summed)
# started at the end of session 22 for the next round (labelled by 0.9.6, the shipped net; about 35 minutes of two cores)
for s in 45 46; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/alt5_s$s -n 500000 --plies 2 --alternatives 3 --seed $s $S \
    > /work/ld/s22/data_s$s.json & done; wait

# Session 23: the contact net's second hidden layer (docs/net.md, "Session 23")
# 0.9.6 grown a 20-unit second layer (the same function) and fitted to session 20's folders, and the control
# without the layer (each about 13-22 minutes of one core; same seed, same batches)
A="--data /work/ld/alt4_s39 --data /work/ld/alt4_s40"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --second-layer -o s23_l2.npz --record s23_fit_l2.json > /dev/null &
bgcli train $A --nets contact --epochs 100 --pair-weight 2 -o s23_l1.npz --record s23_fit_l1.json > /dev/null &
wait
for n in l1 l2; do python -m scripts.experiments.head_to_head s23_$n.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 --bearoff -o h2h_s23_$n.json > /dev/null; done
# what the layer costs: the shipped net, then the grown one (one thread, gnubg interleaved)
P="python scripts/bench_rollout.py --positions 4HPwATDgc/ABMA --trials-plain 1296 --trials-vr 36 --repeat 3"
$P --json bench_rollout_80_s23.json; BGCLI_WEIGHTS=s23_l2.npz $P --json bench_rollout_80-20_s23.json
python -m scripts.experiments.learn_from_search.second_layer_cost /work/ld/alt4_s39 --positions 2000 --repeat 10 \
    --second --weights bgcli/data/net_weights.npz s23_l2.npz -o second_layer_cost_s23.json
# distillation: 4,000,000 contact positions of 0.9.6's self-play labelled by its 0 ply, and a fresh two-layer net
python -m scripts.experiments.learn_from_search.distil /work/ld/distil_s1 --positions 4000000 --chunk 100000 \
    --games 20000 --seed 1 --from positions/train_backgames.txt --from positions/train_anchors.txt --fresh fresh_s1.npz
bgcli train --data /work/ld/distil_s1 --nets contact --start fresh_s1.npz --rate 1e-3 --epochs 200 --minutes 30 \
    -o s23_d1.npz --record s23_fit_d1.json > /dev/null
bgcli train --data /work/ld/distil_s1 --nets contact --start s23_d1.npz --rate 1e-4 --epochs 200 --minutes 20 \
    -o s23_d2.npz --record s23_fit_d2.json > /dev/null
# then the 2-ply labels, as the grown net above
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --start s23_d2.npz --minutes 60 -o s23_f1.npz \
    --record s23_fit_f1.json > /dev/null
python -m scripts.experiments.head_to_head s23_f1.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 --bearoff -o h2h_s23_f1.json > /dev/null
# the alt5 folders finished (0.9.6's labels; the line at the end of session 22, run again), then the grown net and its
# control on alt4 + alt5, side by side for 35 minutes each
A="--data /work/ld/alt4_s39 --data /work/ld/alt4_s40 --data /work/ld/alt5_s45 --data /work/ld/alt5_s46"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --second-layer --minutes 35 -o s23_l2b.npz --record s23_fit_l2b.json > /dev/null &
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --minutes 35 -o s23_l1b.npz --record s23_fit_l1b.json > /dev/null &
wait
for n in l1b l2b; do python -m scripts.experiments.head_to_head s23_$n.npz --deals 20000 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 --bearoff -o h2h_s23_$n.json > /dev/null; done

# Session 24: eight more hand-made inputs per side (docs/net.md, "Session 24"), judged by the luck-adjusted head to head
# the luck-adjusted head to head of the earlier sessions' fits against 0.9.6 (10,000 deals each, about 4 minutes)
H="python -m scripts.experiments.head_to_head --deals 10000 --luck --bearoff"
for n in s23_l1 s23_l1b s23_l2 s22_r4a s22_r4s; do $H $n.npz -o h2h_luck_$n.json > /dev/null; done
# the 234-input build (features_s24.patch on 0.9.6's source; shipped as 0.9.7): 0.9.6 widened (the same function), then the
# session 23 fits again with the new inputs: alt4 (1,000,000 labels), and alt4 + alt5 (2,000,000) for 35 minutes
python -m scripts.widen_net_inputs bgcli/data/net_weights.npz w096.npz   # in the 218-input build's data file
A="--data /work/ld/alt4_s39 --data /work/ld/alt4_s40"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --start w096.npz -o s24_f1.npz --record s24_fit_f1.json > /dev/null
A="$A --data /work/ld/alt5_s45 --data /work/ld/alt5_s46"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --minutes 35 --start w096.npz -o s24_f2.npz --record s24_fit_f2.json > /dev/null
$H s24_f1.npz --against w096.npz -o h2h_luck_s24_f1.json > /dev/null
$H s24_f2.npz --against w096.npz -o h2h_luck_s24_f2.json > /dev/null
# the same data and fit with and without the inputs, directly (s23_l1b widened: the same function)
python -m scripts.widen_net_inputs s23_l1b.npz l1b_wide.npz
for s in 1 2; do $H s24_f2.npz --against l1b_wide.npz --seed $s -o h2h_luck_f2_vs_l1b_s$s.json > /dev/null; done
# TD self-play from 0.9.6 with and without the new inputs: 500,000 games each, same seed (each build its own)
T="--alpha 0.003 --games 6938100 --positions positions/train_backgames.txt --position-share 0.25 --check-every 100000"
bgcli train --resume w096.npz $T -o td_feat.npz --record s24_td_feat.json   # 234-input build
bgcli train --resume bgcli/data/net_weights.npz $T -o td_ctrl.npz --record s24_td_ctrl.json   # 218-input build
$H td_feat.npz --against w096.npz -o h2h_luck_td_feat.json > /dev/null; $H td_ctrl.npz -o h2h_luck_td_ctrl.json > /dev/null
# a weight average of three fits of 0.9.6 (s23_l1, s23_l1b, s22_r4a; numpy mean of params) against 0.9.6
$H soup3.npz -o h2h_luck_soup3.json > /dev/null
# what the inputs cost (one thread, gnubg interleaved; the widened 0.9.6, so the same games)
P="python scripts/bench_rollout.py --positions 4HPwATDgc/ABMA --trials-plain 1296 --trials-vr 36 --repeat 3"
$P --json bench_rollout_218_s24.json; BGCLI_WEIGHTS=w096.npz $P --json bench_rollout_234_s24.json   # each in its build
for s in 1 2; do python -m scripts.strength.vs_gnubg --weights s24_f2.npz --deals 1200 --seed $s -o vs_gnubg_s24_f2_s$s.json & done; wait
for s in 1 2; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s24_f2_s$s.json vs_gnubg_s21_race_s$s.json; done
# the ship as 0.9.7 (the 234-input build; BGCLI_WEIGHTS for the rollouts before it, the shipped net after)
BGCLI_WEIGHTS=s24_f2.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s24_f2.json
python -m scripts.ship_net_weights s24_f2.npz --check-deals 2000 --vs-gnubg vs_gnubg_s24_f2_s1.json
python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 -o scripts/strength/judged_by_gnubg_0.9.7.json
python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.9.7.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
# issue 18's item 4a at 5,000 deals: seeds 3 and 4 with the shipped 0.9.7, pooled with seeds 1 and 2 above
for s in 3 4; do NUMBA_NUM_THREADS=1 python -m scripts.strength.vs_gnubg --deals 1300 --seed $s -o vs_gnubg_0.9.7_s$s.json & done; wait
for s in 3 4; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_0.9.7_s$s.json vs_gnubg_0.9.6_s$s.json; done
python -m scripts.experiments.head_to_head s24_f2.npz --against w096.npz --deals 2 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 4 --bearoff --luck -o h2h_luck_s24_f2_backgames.json > /dev/null
# mixed play with 0.9.7 (issue 18's item 4c), seeds 1 and 2 side by side
P="5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA"
python -m scripts.experiments.mixed_play $P --games 1000 -o scripts/experiments/mixed_play_0.9.7.json &
python -m scripts.experiments.mixed_play $P --games 1000 --seed 2 -o scripts/experiments/mixed_play_0.9.7_s2.json &
wait

# Session 25: a third million of labels, from 0.9.7's own 2 ply (docs/net.md, "Session 25")
# (about 42 minutes of two cores side by side)
for s in 47 48; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/alt6_s$s -n 500000 --plies 2 --alternatives 3 --seed $s $S \
    > data_s25_alt6_s$s.json & done; wait
# two fits on alt4 + alt5 + alt6 (3,000,000 labels, three teachers) side by side: from 0.9.7, and 0.9.7's own recipe
# again (from 0.9.6 widened); then each against 0.9.7, luck-adjusted
A="$A --data /work/ld/alt6_s47 --data /work/ld/alt6_s48"
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --minutes 55 --start bgcli/data/net_weights.npz -o s25_g1.npz \
    --record s25_fit_g1.json > /dev/null &
bgcli train $A --nets contact --epochs 100 --pair-weight 2 --minutes 55 --start w096.npz -o s25_g2.npz --record s25_fit_g2.json > /dev/null &
wait
for g in g1 g2; do NUMBA_NUM_THREADS=1 $H s25_$g.npz -o h2h_luck_s25_$g.json > /dev/null & done; wait
# where a candidate's scoring goes, and the new inputs' share (one thread, a fit on the other core)
NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.feature_cost /work/ld/alt5_s45 --positions 2000 \
    -o feature_cost_s25.json
# the pair term's weight: 5 (and 10, stopped after 26 epochs: early stopping kept its start), from 0.9.7 on the same
# three million, 25 minutes each side by side; then against 0.9.7, seeds 1 and 2
bgcli train $A --nets contact --epochs 100 --pair-weight 5 --minutes 25 --start bgcli/data/net_weights.npz -o s25_pw5.npz \
    --record s25_fit_pw5.json > /dev/null
for s in 1 2; do NUMBA_NUM_THREADS=1 $H s25_pw5.npz --seed $s -o h2h_luck_s25_pw5$([ $s = 2 ] && echo _s2).json > /dev/null & done; wait
# the ship as 0.9.8, then issue 18's items 4a (5,000 deals, the dice of 0.9.7's records) and 4b
python -m scripts.ship_net_weights s25_pw5.npz --check-deals 2000 --vs-gnubg vs_gnubg_s25_pw5_s1.json
V="python -m scripts.strength.vs_gnubg"   # after the ship: the shipped net (the runs used --weights s25_pw5.npz)
$V --deals 1200 --seed 1 -o vs_gnubg_s25_pw5_s1.json; $V --deals 1200 --seed 2 -o vs_gnubg_s25_pw5_s2.json
$V --deals 1300 --seed 3 -o vs_gnubg_s25_pw5_s3.json; $V --deals 1300 --seed 4 -o vs_gnubg_s25_pw5_s4.json
python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 --variance-reduction \
    -o rollouts_vs_gnubg_vr_0.9.8.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 -o scripts/strength/judged_by_gnubg_0.9.8.json
python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.9.8.json

# Session 26 (docs/net.md, "Session 26"): the pair term's weight 7 from 0.9.8 (s25_pw7_from_pw5; early stopping kept
# its start, so its last epoch was played), then a fourth million of labels from 0.9.8's own 2 ply (about 40 minutes
# of two cores side by side)
bgcli train $A --nets contact --epochs 100 --pair-weight 7 --minutes 25 --start s25_pw5.npz -o s25_pw7_from_pw5.npz \
    --record s25_fit_pw7_from_pw5.json > /dev/null
python -m scripts.experiments.learn_from_search.last_epoch s25_pw7_from_pw5.npz s26_pw7_last.npz
NUMBA_NUM_THREADS=1 $H s26_pw7_last.npz --seed 1 -o h2h_luck_s26_pw7_last_s1.json > /dev/null
for s in 49 50; do NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/alt7_s$s -n 500000 --plies 2 --alternatives 3 --seed $s $S \
    > data_s26_alt7_s$s.json & done; wait
# two fits from 0.9.8 on alt4 + alt5 + alt6 + alt7 (4,000,000 labels), 30 minutes each side by side: the pair term at 5,
# and the same with misranked pairs weighed 5 times (--misrank-weight 4); then each against 0.9.8, luck-adjusted
A="$A --data /work/ld/alt7_s49 --data /work/ld/alt7_s50"
cp bgcli/data/net_weights.npz w098.npz
bgcli train $A --nets contact --epochs 100 --pair-weight 5 --minutes 30 --start w098.npz -o s26_a.npz \
    --record s26_fit_a.json > /dev/null &
bgcli train $A --nets contact --epochs 100 --pair-weight 5 --misrank-weight 4 --minutes 30 --start w098.npz -o s26_m4.npz \
    --record s26_fit_m4.json > /dev/null &
wait
for f in a m4; do NUMBA_NUM_THREADS=1 $H s26_$f.npz --seed 1 -o h2h_luck_s26_${f}_s1.json > /dev/null & done; wait
# s26_m4's last epoch beat 0.9.8 (+0.0027, +0.0016): seed 2, then the ship as 0.9.9 with its last epoch (early stopping
# had kept epoch 0; last_epoch.py writes the last epoch's weights and says so in the record, "kept"), then items 4a-4d
python -m scripts.experiments.learn_from_search.last_epoch s26_m4.npz s26_m4_last.npz
for f in a_last m4_last; do NUMBA_NUM_THREADS=1 $H s26_$f.npz --seed 1 -o h2h_luck_s26_${f}_s1.json > /dev/null; done
NUMBA_NUM_THREADS=1 $H s26_m4_last.npz --seed 2 -o h2h_luck_s26_m4_last_s2.json > /dev/null
V="python -m scripts.strength.vs_gnubg --weights s26_m4_last.npz"
$V --deals 1200 --seed 1 -o vs_gnubg_s26_m4_last_s1.json; $V --deals 1200 --seed 2 -o vs_gnubg_s26_m4_last_s2.json
$V --deals 1300 --seed 3 -o vs_gnubg_s26_m4_last_s3.json; $V --deals 1300 --seed 4 -o vs_gnubg_s26_m4_last_s4.json
for s in 1 2 3 4; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s26_m4_last_s$s.json vs_gnubg_s25_pw5_s$s.json; done
python -m scripts.ship_net_weights s26_m4_last.npz --check-deals 2000 --vs-gnubg vs_gnubg_s26_m4_last_s1.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 --variance-reduction \
    -o rollouts_vs_gnubg_vr_0.9.9.json
python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 -o scripts/strength/judged_by_gnubg_0.9.9.json
python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.9.9.json
# the misranked pairs weighed 10 times (25 minutes, beside the checks above), its last epoch against 0.9.8
bgcli train $A --nets contact --epochs 100 --pair-weight 5 --misrank-weight 9 --minutes 25 --start w098.npz -o s26_m9.npz \
    --record s26_fit_m9.json > /dev/null
python -m scripts.experiments.learn_from_search.last_epoch s26_m9.npz s26_m9_last.npz
NUMBA_NUM_THREADS=1 $H s26_m9_last.npz --against w098.npz --seed 1 -o h2h_luck_s26_m9_last_s1.json > /dev/null
NUMBA_NUM_THREADS=1 $H s26_m9_last.npz --seed 1 -o h2h_luck_s26_m9_last_vs099_s1.json > /dev/null   # against 0.9.9
# the held-out pairs' ordering of five nets on alt4 to alt6 (docs/net.md, "Session 26")
python -m scripts.experiments.learn_from_search.pair_metrics --data /work/ld/alt4_s39 --data /work/ld/alt4_s40 \
    --data /work/ld/alt5_s45 --data /work/ld/alt5_s46 --data /work/ld/alt6_s47 --data /work/ld/alt6_s48 \
    s24_f2.npz w098.npz s26_pw7_last.npz s25_g1.npz s26_m4_last.npz -o pair_metrics_s26.json
# mixed play with 0.9.9 (issue 18's item 4c), seeds 1 and 2 side by side (a first pass had --games 500)
P="5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA"
python -m scripts.experiments.mixed_play $P --games 1000 -o scripts/experiments/mixed_play_0.9.9.json &
python -m scripts.experiments.mixed_play $P --games 1000 --seed 2 -o scripts/experiments/mixed_play_0.9.9_s2.json &
wait

# Session 27 (docs/net.md, "Session 27"): rollout labels for the late contact positions, where the net's outputs
# saturate. First how far the 2-ply labels are from rollouts there and elsewhere:
NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.late_contact_labels /work/ld/alt7_s49 --positions 80 \
    --trials 1296 -o late_contact_labels_s27.json
# 87,000 late contact positions labelled by 288-game rollouts of 0.9.9's play, two seeds side by side, each stopped
# after about 40 minutes (42,500 and 44,500 positions; `bgcli train-data DIR --rollouts 288 --late-contact
# --opening-share 0 --max-plies 200 --keep 0.3 --alternatives 2 --from ...` does the same, one random draw a game apart)
for s in 1 2; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.rollout_labels /work/ld/late_s$s -n 60000 \
    --trials 288 --seed $s --minutes 60 --from positions/train_anchors.txt --from positions/train_backgames.txt & done; wait
# the 2-ply folders without their late contact positions (24% of each)
for f in alt4_s39 alt4_s40 alt5_s45 alt5_s46 alt6_s47 alt6_s48 alt7_s49 alt7_s50; do
    python -m scripts.experiments.learn_from_search.drop_late /work/ld/$f /work/ld/nolate/$f; done
# two fits from 0.9.9 (0.9.9's recipe), 30 minutes each side by side: l1 on the 2-ply folders without late contact
# plus the rollout labels, l2 on the whole 2-ply folders plus the rollout labels; their last epochs against 0.9.9
NL="--data /work/ld/nolate/alt4_s39 --data /work/ld/nolate/alt4_s40 --data /work/ld/nolate/alt5_s45 --data /work/ld/nolate/alt5_s46"
NL="$NL --data /work/ld/nolate/alt6_s47 --data /work/ld/nolate/alt6_s48 --data /work/ld/nolate/alt7_s49 --data /work/ld/nolate/alt7_s50"
L="--data /work/ld/late_s1 --data /work/ld/late_s2"
cp bgcli/data/net_weights.npz w099.npz
F="--nets contact --epochs 100 --pair-weight 5 --misrank-weight 4 --minutes 30 --start w099.npz"
NUMBA_NUM_THREADS=1 bgcli train $NL $L $F -o s27_l1.npz --record s27_fit_l1.json > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train $A $L $F -o s27_l2.npz --record s27_fit_l2.json > /dev/null &
wait
for f in l1 l2; do python -m scripts.experiments.learn_from_search.last_epoch s27_$f.npz s27_${f}_last.npz; done
for s in 1 2; do for f in l1 l2; do NUMBA_NUM_THREADS=1 $H s27_${f}_last.npz --seed $s -o h2h_luck_s27_${f}_last_s$s.json \
    > /dev/null & done; wait; done
for f in l1 l2; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.head_to_head s27_${f}_last.npz --deals 1 --themed \
    positions/train_backgames.txt --themed-starts 1000 --themed-deals 5 --luck --bearoff --seed 1 \
    -o h2h_luck_s27_${f}_last_backgames.json > /dev/null & done; wait
# gnubg 0-ply judges each net's moves from the six mixed-play positions, 200 games each
P="5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA"
for f in w099 s27_l1_last s27_l2_last; do NUMBA_NUM_THREADS=1 python -m scripts.strength.move_errors $P --games 200 \
    --weights $f.npz -o move_errors_s27_${f#s27_}.json; done
# how far each net is from the rollout labels and from the 2-ply labels, late contact and other, held out
python -m scripts.experiments.learn_from_search.late_fit_errors w099.npz s27_l1_last.npz s27_l2_last.npz \
    --late /work/ld/late_s1 --late /work/ld/late_s2 --search /work/ld/alt7_s49 -o late_fit_errors_s27.json
# s27_l2's item 4a, the dice of 0.9.9's record, and paired with 0.9.9 seed by seed (not shipped in session 27)
V="python -m scripts.strength.vs_gnubg --weights s27_l2_last.npz"
$V --deals 1200 --seed 1 -o vs_gnubg_s27_l2_last_s1.json; $V --deals 1200 --seed 2 -o vs_gnubg_s27_l2_last_s2.json
$V --deals 1300 --seed 3 -o vs_gnubg_s27_l2_last_s3.json; $V --deals 1300 --seed 4 -o vs_gnubg_s27_l2_last_s4.json
for s in 1 2 3 4; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s27_l2_last_s$s.json vs_gnubg_s26_m4_last_s$s.json; done
# s27_l2's items 4b and 4c measured ahead of a ship (the net given by BGCLI_WEIGHTS / --weights)
BGCLI_WEIGHTS=s27_l2_last.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 \
    --variance-reduction -o rollouts_vs_gnubg_vr_s27_l2.json
python -m scripts.experiments.mixed_play $P --games 1000 --weights s27_l2_last.npz -o mixed_play_s27_l2.json &
python -m scripts.experiments.mixed_play $P --games 1000 --seed 2 --weights s27_l2_last.npz -o mixed_play_s27_l2_s2.json &
wait

# Session 28 (docs/net.md, "Session 28"): a control for the rollout labels. The session's machine started without
# the earlier folders, so both fits use fresh data: 2-ply labels of 0.9.9 (the alt recipe, seed 51) and late contact
# rollout labels of 0.9.9 (seed 3), made side by side, each stopped after 48 minutes
bgcli train-data /work/ld/alt8_s51 --count 500000 --from positions/train_backgames.txt --from positions/train_anchors.txt \
    --opening-share 0.3 --plies 2 --keep 0.2 --max-plies 40 --chunk 500 --seed 51 --alternatives 3 --minutes 48 \
    > data_s28_alt8_s51.json &
bgcli train-data /work/ld/late_s3 --count 60000 --rollouts 288 --late-contact --opening-share 0 --max-plies 200 --keep 0.3 \
    --alternatives 2 --from positions/train_anchors.txt --from positions/train_backgames.txt --seed 3 --minutes 48 \
    > data_s28_late_s3.json &
wait
# two fits from 0.9.9 (its recipe, 60 epochs or 30 minutes), side by side: c on the 2-ply labels only (the control),
# t on the same plus the rollout labels; their last epochs against 0.9.9 from the opening and from the back-game starts
cp bgcli/data/net_weights.npz w099.npz
F="--nets contact --epochs 60 --pair-weight 5 --misrank-weight 4 --minutes 30 --start w099.npz"
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/alt8_s51 $F -o s28_c.npz --record s28_fit_c.json > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/alt8_s51 --data /work/ld/late_s3 $F -o s28_t.npz --record s28_fit_t.json \
    > /dev/null &
wait
for f in c t; do python -m scripts.experiments.learn_from_search.last_epoch s28_$f.npz s28_${f}_last.npz; done
for s in 1 2; do for f in c t; do NUMBA_NUM_THREADS=1 $H s28_${f}_last.npz --seed $s -o h2h_luck_s28_${f}_last_s$s.json \
    > /dev/null & done; wait; done
for f in c t; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.head_to_head s28_${f}_last.npz --deals 1 --themed \
    positions/train_backgames.txt --themed-starts 1000 --themed-deals 5 --luck --bearoff --seed 1 \
    -o h2h_luck_s28_${f}_last_backgames.json > /dev/null & done; wait
# gnubg 0-ply judges each net's moves from the six mixed-play positions (0.9.9's figures are session 27's record)
for f in s28_t_last s28_c_last; do NUMBA_NUM_THREADS=1 python -m scripts.strength.move_errors $P --games 200 \
    --weights $f.npz -o move_errors_s28_${f#s28_}.json; done
# does the net's residual on the rollout labels depend on inputs it lacks? (gnubg's OFF pieces, forced exposure)
NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.late_inputs_probe /work/ld/late_s3 \
    -o late_inputs_probe_s28.json
# do the rollout labels depend on the rollout's play? 0-ply against 1-ply play, the same dice, two slices side by side
for s in 0 10000; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.lookahead_labels /work/ld/late_s3 \
    --start $s --minutes 15 -o lookahead_labels_s28_$s.json & done; wait   # committed as _a.json and _b.json

# Session 29 (docs/net.md, "Session 29"): a late contact net of its own. In /work/ld/s29, w099.npz = 0.9.9's weights.
F="--pair-weight 5 --misrank-weight 4 --start w099.npz"
# (1) the contact net fitted to the rollout labels alone (60 and 300 epochs), spliced in as 0.9.9's late contact net
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/late_s3 --nets contact $F --epochs 60 -o d60.npz --record s29_fit_d60.json \
    > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/late_s3 --nets contact $F --epochs 300 -o d300.npz \
    --record s29_fit_d300.json > /dev/null &
wait
for f in d60 d300; do python -m scripts.experiments.learn_from_search.late_splice w099.npz $f.npz -o w099_late_$f.npz; done
# (2) a late contact net added to 0.9.9 and fitted alone to the 2-ply labels of late contact positions (l2p), and to them
# and the rollout labels (l2pr), 60 epochs
F2="--late-net --nets late $F --epochs 60"
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/alt8_s51 $F2 -o l2p.npz --record s29_fit_l2p.json > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train --data /work/ld/alt8_s51 --data /work/ld/late_s3 $F2 -o l2pr.npz --record s29_fit_l2pr.json \
    > /dev/null &
wait
for f in l2p l2pr; do python -m scripts.experiments.learn_from_search.last_epoch $f.npz ${f}_last.npz; done
# each against 0.9.9, luck-adjusted: from the opening (10,000 deals a seed) and from 1,000 back-game starts x 5 deals
for f in d60 d300; do NUMBA_NUM_THREADS=1 $H w099_late_$f.npz --seed 1 -o h2h_luck_s29_${f}_s1.json > /dev/null; done
for f in l2p_last l2pr_last; do NUMBA_NUM_THREADS=1 $H $f.npz --seed 1 -o h2h_luck_s29_${f}_s1.json > /dev/null
NUMBA_NUM_THREADS=1 python -m scripts.experiments.head_to_head $f.npz --deals 1 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 5 --luck --bearoff --seed 1 -o h2h_luck_s29_${f}_backgames.json > /dev/null; done
# (3) more 2-ply labels of late contact positions (0.9.9's), two seeds side by side for 40 minutes
for s in 61 62; do
NUMBA_NUM_THREADS=1 bgcli train-data /work/ld/late2p_s$s --count 800000 --late-contact --plies 2 --from positions/train_backgames.txt \
    --from positions/train_anchors.txt --opening-share 0.3 --keep 0.3 --max-plies 200 --chunk 500 --seed $s --alternatives 3 \
    --minutes 40 > data_s29_late2p_s$s.json &
done; wait
# (4) the late contact net fitted to all the 2-ply late contact labels (f1, the ship candidate, committed as
# s29_f1_last.npz), and to them and the rollout labels (f2), side by side (7 minutes each)
F3="--late-net --nets late $F --epochs 60 --minutes 25"
L2="--data /work/ld/alt8_s51 --data /work/ld/late2p_s61 --data /work/ld/late2p_s62"
NUMBA_NUM_THREADS=1 bgcli train $L2 $F3 -o f1.npz --record s29_fit_f1.json > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train $L2 --data /work/ld/late_s3 $F3 -o f2.npz --record s29_fit_f2.json > /dev/null &
wait
for f in f1 f2; do python -m scripts.experiments.learn_from_search.last_epoch $f.npz ${f}_last.npz; done
for f in f1_last f2_last; do for s in 1 2; do NUMBA_NUM_THREADS=1 $H $f.npz --seed $s -o h2h_luck_s29_${f}_s$s.json > /dev/null
done; NUMBA_NUM_THREADS=1 python -m scripts.experiments.head_to_head $f.npz --deals 1 --themed positions/train_backgames.txt \
    --themed-starts 1000 --themed-deals 5 --luck --bearoff --seed 1 -o h2h_luck_s29_${f}_backgames.json > /dev/null; done
python -m scripts.experiments.learn_from_search.late_fit_errors w099.npz w099_late_d60.npz w099_late_d300.npz l2p_last.npz \
    l2pr_last.npz f1_last.npz f2_last.npz --late /work/ld/late_s3 --search /work/ld/alt8_s51 -o late_fit_errors_s29.json
# f1's item 4a on the dice of 0.9.9's records, paired with 0.9.9 deal by deal; issue 19's fixtures; gnubg's judgement
V="python -m scripts.strength.vs_gnubg --weights f1_last.npz"
$V --deals 1200 --seed 1 -o vs_gnubg_s29_f1_last_s1.json; $V --deals 1200 --seed 2 -o vs_gnubg_s29_f1_last_s2.json
$V --deals 1300 --seed 3 -o vs_gnubg_s29_f1_last_s3.json; $V --deals 1300 --seed 4 -o vs_gnubg_s29_f1_last_s4.json
for s in 1 2 3 4; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s29_f1_last_s$s.json vs_gnubg_s26_m4_last_s$s.json; done
BGCLI_WEIGHTS=f1_last.npz python -m scripts.checks.matches_vs_gnubg -o matches_vs_gnubg_s29_f1.json
P="5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA"
NUMBA_NUM_THREADS=1 python -m scripts.strength.move_errors $P --games 200 --weights f1_last.npz -o move_errors_s29_f1_last.json
# what a late contact net costs in playouts (bench_late_net_s29.json): the commit before it (a worktree of d2ea6e7 in
# /tmp/base, run with PYTHONPATH=/tmp/base) against this one with the shipped weights and with f1's, interleaved, 4 rounds
B="--positions 4HPwATDgc/ABMA PgAAAGuzgREIAA --trials-plain 2592 --trials-vr 72 --repeat 3 --gnubg /nonexistent"
for r in 1 2 3 4; do
(cd /tmp/base && PYTHONPATH=/tmp/base NUMBA_NUM_THREADS=1 python -m scripts.bench_rollout $B --json /tmp/qb/base_$r.json)
NUMBA_NUM_THREADS=1 python -m scripts.bench_rollout $B --json /tmp/qb/new_$r.json
BGCLI_WEIGHTS=f1_last.npz NUMBA_NUM_THREADS=1 python -m scripts.bench_rollout $B --json /tmp/qb/late_$r.json
done

# Session 30 (docs/net.md, "Session 30"): f1 shipped as 0.10.0, then its checks (from the repository root; E is this
# folder)
E=scripts/experiments/learn_from_search
python -m scripts.ship_net_weights $E/s29_f1_last.npz --check-deals 2000 --vs-gnubg $E/vs_gnubg_s29_f1_last_s1.json
python -m scripts.regen_readme_examples
bgcli report positions/examples.txt -o reports/example --trials 324 --master-seed 1
python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 1 --variance-reduction \
    -o $E/rollouts_vs_gnubg_vr_0.10.0.json
NUMBA_NUM_THREADS=1 python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 \
    -o scripts/strength/judged_by_gnubg_0.10.0.json
NUMBA_NUM_THREADS=1 python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.10.0.json
P="5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA"
for s in 1 2; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.mixed_play $P --games 1000 --seed $s \
    -o scripts/experiments/mixed_play_0.10.0$([ $s = 2 ] && echo _s2).json & done; wait
# the next round (in /work/ld/s30, w0100.npz = 0.10.0's weights): 0.10.0's 2-ply labels of late contact positions,
# two seeds side by side, 95 minutes at nice 19 beside the checks above
for s in 63 64; do
BGCLI_WEIGHTS=w0100.npz NUMBA_NUM_THREADS=1 nice -n 19 bgcli train-data /work/ld/late2p_s$s --count 800000 --late-contact \
    --plies 2 --from positions/train_backgames.txt --from positions/train_anchors.txt --opening-share 0.3 --keep 0.3 \
    --max-plies 200 --chunk 500 --seed $s --alternatives 3 --minutes 95 > data_late2p_s$s.json &
done; wait
# 0.10.0's late contact net fitted again on all the late contact labels, without (g1) and with (g2) the pairs whose
# other play the contact or race net values (--cross-pairs), side by side; their last epochs against 0.10.0
F="--nets late --pair-weight 5 --misrank-weight 4 --epochs 60 --minutes 25 --start w0100.npz"
L="--data /work/ld/alt8_s51 --data /work/ld/late2p_s61 --data /work/ld/late2p_s62 --data /work/ld/late2p_s63"
L="$L --data /work/ld/late2p_s64"
NUMBA_NUM_THREADS=1 bgcli train $L $F -o g1.npz --record s30_fit_g1.json > /dev/null &
NUMBA_NUM_THREADS=1 bgcli train $L $F --cross-pairs -o g2.npz --record s30_fit_g2.json > /dev/null &
wait
for f in g1 g2; do python -m scripts.experiments.learn_from_search.last_epoch $f.npz ${f}_last.npz; done
H="python -m scripts.experiments.head_to_head --deals 10000 --luck --bearoff --against w0100.npz"
for s in 1 2; do for f in g1 g2; do NUMBA_NUM_THREADS=1 $H ${f}_last.npz --seed $s -o h2h_luck_s30_${f}_last_s$s.json \
    > /dev/null & done; wait; done
for f in g1 g2; do NUMBA_NUM_THREADS=1 python -m scripts.experiments.head_to_head ${f}_last.npz --against w0100.npz --deals 1 \
    --themed positions/train_backgames.txt --themed-starts 1000 --themed-deals 5 --luck --bearoff --seed 1 \
    -o h2h_luck_s30_${f}_last_backgames.json > /dev/null & done; wait
# g1's item 4a on the dice of 0.9.9's and 0.10.0's records (two chains side by side), paired with 0.10.0 (= f1_last)
V="python -m scripts.strength.vs_gnubg --weights g1_last.npz"
($V --deals 1200 --seed 1 -o vs_gnubg_s30_g1_last_s1.json; $V --deals 1300 --seed 3 -o vs_gnubg_s30_g1_last_s3.json) &
($V --deals 1200 --seed 2 -o vs_gnubg_s30_g1_last_s2.json; $V --deals 1300 --seed 4 -o vs_gnubg_s30_g1_last_s4.json) &
wait
for s in 1 2 3 4; do python -m scripts.experiments.learn_from_search.paired vs_gnubg_s30_g1_last_s$s.json vs_gnubg_s29_f1_last_s$s.json; done
# g1's item 4b (from the repository root)
BGCLI_WEIGHTS=$E/s30_g1_last.npz python -m scripts.strength.rollouts_vs_gnubg --trials 1296 --seed 1 --threads 2 \
    --variance-reduction -o $E/rollouts_vs_gnubg_vr_s30_g1.json
# g1's item 4d and issue 19's fixtures, side by side
NUMBA_NUM_THREADS=1 python -m scripts.strength.judged_by_gnubg --games 100 --also-plies 1 2 --weights $E/s30_g1_last.npz \
    -o $E/judged_by_gnubg_s30_g1.json &
BGCLI_WEIGHTS=$E/s30_g1_last.npz NUMBA_NUM_THREADS=1 python -m scripts.checks.matches_vs_gnubg -o $E/matches_vs_gnubg_s30_g1.json &
wait
