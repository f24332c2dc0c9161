"""Benchmark: bgcli rollouts against GNU Backgammon's, side by side in the same run.

    python -m scripts.bench_rollout [--trials-plain 1296] [--trials-vr 144] [--seed 1]
                                    [--positions 4HPwATDgc/ABMA a5yDAQYtO4MBAw]
                                    [--repeat 3] [--gnubg /usr/games/gnubg] [--json FILE]

For each position, with variance reduction off and then on:

* gnubg 1.07 rolls it out cubeless at 0-ply on one thread: ``set threads 1``, ``set jacoby
  off``, ``set rollout cubeful off``, ``set rollout chequerplay cubeful off`` (and per
  player), ``set rollout chequerplay plies 0``, ``set rollout truncation enable off``,
  ``set rollout bearofftruncation exact off`` and ``... onesided off`` (every game played
  to the end, as bgcli does), ``set rollout varredn on|off``, ``set rollout quasirandom on``,
  ``set rollout limit enable off``, a fixed ``set rollout seed``. gnubg prints rollout results
  only to a terminal, so it runs under a pseudo-terminal; the clock runs from the
  ``rollout`` command to the final results (start-up and net loading are excluded), and
  those results (W W(g) W(bg) - L L(g) L(bg) CL equity, with standard errors) are parsed.
* bgcli's ``rollout()`` plays the same number of trials, ``--policy`` (default the net), quasi-random
  dice, same variance-reduction setting, on 1 thread and on all threads, after a warm-up
  rollout so that numba compilation and cache loading are excluded; the median of
  ``--repeat`` runs is timed.

It prints one table row per (position, variance reduction, engine): games/s, the equity and
its standard error, the per-game standard deviation (SE x sqrt(games)), and the seconds one
core needs to bring the equity's SE to 0.01 ((sd / 0.01)^2 / games per second per core).
Then, per position: bgcli's speed over gnubg's per core, and for each tool what variance
reduction costs per game and how much it cuts the standard error (the variance factor is
the square of the SD ratio; the net gain is that factor over the cost).

The two engines play different policies (gnubg's neural net, bgcli's own), so their
equities differ; the comparison is of speed and of statistical efficiency, not of accuracy.
Standard errors of short quasi-random rollouts are rough: at 144 trials they rest on few
games, and bgcli's quasi-random tables repeat the second roll for 36 trials in a row, which
makes its reported SE below 1296 trials somewhat optimistic. The machines are shared and
noisy: only the ratios inside one run mean much (check the load with ``uptime`` first).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time

import numba

from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout
from scripts.gnubg_session import GnubgSession

GNUBG = "/usr/games/gnubg"
MONEY_MATCH_ID = "cAkAAAAAAAAE"  # money, centred cube, player 0 on roll, Jacoby off
TARGET_SE = 0.01

_NUMBER = r"[-+]?\d+\.\d+"
_RESULT = re.compile(
    rf"Rollout done\. Printing final results\..*?Current Position:\s*\n"
    rf"\s*({_NUMBER})\s+({_NUMBER})\s+({_NUMBER})\s+-\s+({_NUMBER})\s+({_NUMBER})\s+({_NUMBER})"
    rf"\s+CL\s+({_NUMBER})\s*\n"
    rf"\s*\[({_NUMBER})\s+({_NUMBER})\s+({_NUMBER})\s+-\s+({_NUMBER})\s+({_NUMBER})\s+"
    rf"({_NUMBER})\s+CL\s+({_NUMBER})\][^\n]*\n[^\n]*\n\s*(\d+) games,",
    re.S)


def gnubg_rollout(path: str, position_id: str, trials: int, seed: int, vr: bool,
                  plies: int = 0) -> dict:
    """gnubg's rollout (see the module docstring), each play at ``plies`` (its default move
    filter, normal, above 0)."""
    setup = [
        "set threads 1",
        "set jacoby off",
        "set rollout cubeful off",
        "set rollout chequerplay cubeful off",
        "set rollout player 0 chequerplay cubeful off",
        "set rollout player 1 chequerplay cubeful off",
        f"set rollout chequerplay plies {plies}",
        f"set rollout player 0 chequerplay plies {plies}",
        f"set rollout player 1 chequerplay plies {plies}",
        "set rollout truncation enable off",
        "set rollout bearofftruncation exact off",
        "set rollout bearofftruncation onesided off",
        f"set rollout varredn {'on' if vr else 'off'}",
        "set rollout quasirandom on",
        "set rollout initial off",
        "set rollout limit enable off",
        f"set rollout trials {trials}",
        f"set rollout seed {seed}",
        "set output digits 5",
        "new game",
        f"set gnubgid {position_id}:{MONEY_MATCH_ID}",
    ]
    session = GnubgSession(path)
    try:
        session.send("\n".join(setup) + "\n")
        echoed = session.read_until(r"Setting GNUbg ID[^\n]*\n", 120)
        seen = re.findall(r"Position ID:\s*(\S+)", echoed)
        if not seen or seen[-1] != position_id:
            raise RuntimeError(f"gnubg set up {seen[-1:]}, not {position_id}")
        began = time.perf_counter()
        session.send("rollout\n")
        text = session.read_until(_RESULT.pattern, 3600)
        elapsed = time.perf_counter() - began
    finally:
        session.close()
    match = _RESULT.search(text)
    values = [float(x) for x in match.groups()[:14]]
    games = int(match.group(15))
    means = values[0:3] + values[4:6]  # skip L (= 1 - W)
    ses = values[7:10] + values[11:13]
    return dict(engine="gnubg", threads=1, games=games, seconds=elapsed,
                means=means, ses=ses, equity=values[6], equity_se=values[13])


def bgcli_rollout(position: Position, trials: int, seed: int, vr: bool, threads: int,
                  repeat: int, policy: str, plies: int = 0) -> dict:
    # every game played to the end, as gnubg is told to (no bear-off truncation)
    settings = RolloutSettings(trials=trials, seed=seed, policy=policy, truncate=0,
                               variance_reduction=vr, quasi_random=True,
                               bearoff_truncation=False, threads=threads, checker_plies=plies)
    times, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = rollout(position, settings)
        times.append(time.perf_counter() - began)
    return dict(engine="bgcli", threads=threads, games=result.games,
                seconds=statistics.median(times), means=[float(x) for x in result.means],
                ses=[float(x) for x in result.standard_errors], equity=result.equity,
                equity_se=result.equity_se)


def _derive(row: dict) -> dict:
    row["games_per_s"] = row["games"] / row["seconds"]
    row["games_per_s_per_core"] = row["games_per_s"] / row["threads"]
    row["sd_per_game"] = row["equity_se"] * math.sqrt(row["games"])
    row["core_s_to_se_0.01"] = (row["sd_per_game"] / TARGET_SE) ** 2 / row["games_per_s_per_core"]
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", nargs="+", default=["4HPwATDgc/ABMA", "a5yDAQYtO4MBAw"])
    parser.add_argument("--trials-plain", type=int, default=1296)
    parser.add_argument("--trials-vr", type=int, default=144)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="bgcli runs to take the median of")
    parser.add_argument("--gnubg", default=GNUBG)
    parser.add_argument("--policy", default="net", help="bgcli's playing policy (default: net)")
    parser.add_argument("--json", metavar="FILE", help="also write every row as JSON here")
    args = parser.parse_args(argv)

    all_threads = numba.config.NUMBA_NUM_THREADS
    # warm-up: compile (or load from the cache) every kernel both settings use
    for vr in (False, True):
        rollout(Position.start(), RolloutSettings(trials=40, seed=0, variance_reduction=vr,
                                                  policy=args.policy, threads=all_threads))

    rows = []
    for position_id in args.positions:
        position = Position.from_id(position_id)
        for vr in (False, True):
            trials = args.trials_vr if vr else args.trials_plain
            found = [gnubg_rollout(args.gnubg, position_id, trials, args.seed, vr)]
            for threads in sorted({1, all_threads}):
                found.append(bgcli_rollout(position, trials, args.seed, vr, threads, args.repeat,
                                           args.policy))
            for row in found:
                rows.append(_derive(dict(position=position_id, variance_reduction=vr, **row)))
                print(f"  done: {position_id} vr={'on' if vr else 'off'} {row['engine']} "
                      f"{row['threads']}t {row['games'] / row['seconds']:,.0f} games/s",
                      file=sys.stderr, flush=True)

    header = (f"{'position':<15} {'VR':<3} {'engine':<6} {'thr':>3} {'games':>6} {'seconds':>8} "
              f"{'games/s':>9} {'/core':>8} {'Win':>7} {'equity':>8} {'SE':>7} "
              f"{'sd/game':>7} {'core-s to SE .01':>16}")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['position']:<15} {'on' if r['variance_reduction'] else 'off':<3} "
              f"{r['engine']:<6} {r['threads']:>3} {r['games']:>6} {r['seconds']:>8.2f} "
              f"{r['games_per_s']:>9,.0f} {r['games_per_s_per_core']:>8,.0f} "
              f"{r['means'][0]:>7.4f} {r['equity']:>+8.4f} {r['equity_se']:>7.4f} "
              f"{r['sd_per_game']:>7.3f} {r['core_s_to_se_0.01']:>16,.1f}")

    def pick(position_id, vr, engine, threads=1):
        return next(r for r in rows if r["position"] == position_id and
                    r["variance_reduction"] == vr and r["engine"] == engine and
                    r["threads"] == threads)

    summary = []
    print()
    print("bgcli / gnubg, per core (games/s; core-seconds to reach SE 0.01, gnubg / bgcli):")
    for position_id in args.positions:
        for vr in (False, True):
            g, b1, ball = (pick(position_id, vr, "gnubg"), pick(position_id, vr, "bgcli"),
                           pick(position_id, vr, "bgcli", all_threads))
            entry = dict(position=position_id, variance_reduction=vr,
                         speed_ratio_1_thread=b1["games_per_s"] / g["games_per_s"],
                         speed_ratio_all_threads_per_core=ball["games_per_s_per_core"]
                         / g["games_per_s"],
                         all_threads=all_threads,
                         time_to_se_ratio=g["core_s_to_se_0.01"] / b1["core_s_to_se_0.01"])
            summary.append(entry)
            print(f"  {position_id:<15} VR {'on ' if vr else 'off'}: "
                  f"1 thread {entry['speed_ratio_1_thread']:6.1f}x   "
                  f"{all_threads} threads "
                  f"{entry['speed_ratio_all_threads_per_core']:6.1f}x per core   "
                  f"time to SE 0.01: {entry['time_to_se_ratio']:6.2f}x")
    print()
    print("Variance reduction, per tool (1 thread): cost per game, SE cut at equal games, "
          "variance factor, net gain per core-second:")
    for position_id in args.positions:
        for engine in ("gnubg", "bgcli"):
            off, on = pick(position_id, False, engine), pick(position_id, True, engine)
            cost = off["games_per_s"] / on["games_per_s"]
            sd_cut = off["sd_per_game"] / on["sd_per_game"]
            entry = dict(position=position_id, engine=engine, vr_cost_per_game=cost,
                         vr_sd_cut=sd_cut, vr_variance_factor=sd_cut**2,
                         vr_net_gain=sd_cut**2 / cost)
            summary.append(entry)
            print(f"  {position_id:<15} {engine:<6} cost {cost:6.1f}x per game   "
                  f"SE / {sd_cut:5.2f}   variance / {sd_cut**2:6.1f}   "
                  f"net {sd_cut**2 / cost:6.2f}x")
    print()
    print("Best setting of each tool, 1 core: core-seconds to bring the equity's SE to 0.01:")
    for position_id in args.positions:
        best = {}
        for engine in ("gnubg", "bgcli"):
            runs = [pick(position_id, vr, engine) for vr in (False, True)]
            best[engine] = min(runs, key=lambda r: r["core_s_to_se_0.01"])
        g, b = best["gnubg"], best["bgcli"]
        entry = dict(position=position_id,
                     best_gnubg_vr=g["variance_reduction"], best_gnubg_s=g["core_s_to_se_0.01"],
                     best_bgcli_vr=b["variance_reduction"], best_bgcli_s=b["core_s_to_se_0.01"],
                     best_ratio=g["core_s_to_se_0.01"] / b["core_s_to_se_0.01"])
        summary.append(entry)
        print(f"  {position_id:<15} gnubg {g['core_s_to_se_0.01']:7.1f} s (VR "
              f"{'on' if g['variance_reduction'] else 'off'})   bgcli "
              f"{b['core_s_to_se_0.01']:7.1f} s (VR {'on' if b['variance_reduction'] else 'off'})"
              f"   gnubg / bgcli {entry['best_ratio']:5.1f}x")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(dict(rows=rows, summary=summary, seed=args.seed,
                           numba_threads=all_threads), handle, indent=1)


if __name__ == "__main__":
    main()
