"""Benchmark: bgcli rollouts against GNU Backgammon's, side by side in the same run.

    bgcli bench --part rollout
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
core needs to bring the equity's SE to 0.005 ((sd / 0.005)^2 / games per second per core;
0.01 too in the JSON, a quarter of it). gnubg is left out when it is not installed.
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
import math
import os
import re
import statistics
import sys
import time

import numba

from ..position import Position
from ..rollout import RolloutSettings, rollout
from .gnubg import GnubgSession
from .save import report_and_save

GNUBG = "/usr/games/gnubg"
MONEY_MATCH_ID = "cAkAAAAAAAAE"  # money, centred cube, player 0 on roll, Jacoby off
TARGETS = (0.01, 0.005)  # the standard errors whose cost in core-seconds each row gives
POSITIONS = ("4HPwATDgc/ABMA", "a5yDAQYtO4MBAw")  # the opening, a middle game

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
    for target in TARGETS:
        row[f"core_s_to_se_{target}"] = ((row["sd_per_game"] / target) ** 2
                                         / row["games_per_s_per_core"])
    return row


def measure(positions: list[str], trials_plain: int, trials_vr: int, seed: int, repeat: int,
            gnubg: str | None, policy: str = "net") -> dict:
    """Every row (gnubg when ``gnubg`` names an installed binary, bgcli on 1 and on all
    threads) and the summary ratios, as one JSON-ready record."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    have_gnubg = bool(gnubg) and os.access(gnubg, os.X_OK)
    # warm-up: compile (or load from the cache) every kernel both settings use
    for vr in (False, True):
        rollout(Position.start(), RolloutSettings(trials=40, seed=0, variance_reduction=vr,
                                                  policy=policy, threads=all_threads))
    rows = []
    for position_id in positions:
        position = Position.from_id(position_id)
        for vr in (False, True):
            trials = trials_vr if vr else trials_plain
            found = [gnubg_rollout(gnubg, position_id, trials, seed, vr)] if have_gnubg else []
            for threads in sorted({1, all_threads}):
                found.append(bgcli_rollout(position, trials, seed, vr, threads, repeat, policy))
            for row in found:
                rows.append(_derive(dict(position=position_id, variance_reduction=vr, **row)))
                print(f"  done: {position_id} vr={'on' if vr else 'off'} {row['engine']} "
                      f"{row['threads']}t {row['games'] / row['seconds']:,.0f} games/s",
                      file=sys.stderr, flush=True)
    return dict(benchmark="rollout", rows=rows, summary=_summary(rows, positions, all_threads,
                                                                 have_gnubg),
                seed=seed, numba_threads=all_threads, gnubg=gnubg if have_gnubg else None,
                trials_plain=trials_plain, trials_vr=trials_vr, repeat=repeat, policy=policy)


def _pick(rows, position_id, vr, engine, threads=1):
    return next(r for r in rows if r["position"] == position_id and
                r["variance_reduction"] == vr and r["engine"] == engine and
                r["threads"] == threads)


def _summary(rows: list[dict], positions: list[str], all_threads: int,
             have_gnubg: bool) -> list[dict]:
    summary = []
    engines = ("gnubg", "bgcli") if have_gnubg else ("bgcli",)
    for position_id in positions:
        for vr in (False, True):
            b1 = _pick(rows, position_id, vr, "bgcli")
            ball = _pick(rows, position_id, vr, "bgcli", all_threads)
            entry = dict(position=position_id, variance_reduction=vr, all_threads=all_threads,
                         thread_scaling=ball["games_per_s"] / b1["games_per_s"])
            if have_gnubg:
                g = _pick(rows, position_id, vr, "gnubg")
                entry.update(speed_ratio_1_thread=b1["games_per_s"] / g["games_per_s"],
                             speed_ratio_all_threads_per_core=ball["games_per_s_per_core"]
                             / g["games_per_s"],
                             time_to_se_ratio=g["core_s_to_se_0.005"] / b1["core_s_to_se_0.005"])
            summary.append(entry)
        for engine in engines:
            off, on = _pick(rows, position_id, False, engine), _pick(rows, position_id, True, engine)
            cost = off["games_per_s"] / on["games_per_s"]
            sd_cut = off["sd_per_game"] / on["sd_per_game"]
            summary.append(dict(position=position_id, engine=engine, vr_cost_per_game=cost,
                                vr_sd_cut=sd_cut, vr_variance_factor=sd_cut**2,
                                vr_net_gain=sd_cut**2 / cost))
        best = {}
        for engine in engines:
            runs = [_pick(rows, position_id, vr, engine) for vr in (False, True)]
            best[engine] = min(runs, key=lambda r: r["core_s_to_se_0.005"])
        entry = dict(position=position_id, target_se=0.005,
                     best_bgcli_vr=best["bgcli"]["variance_reduction"],
                     best_bgcli_s=best["bgcli"]["core_s_to_se_0.005"])
        if have_gnubg:
            entry.update(best_gnubg_vr=best["gnubg"]["variance_reduction"],
                         best_gnubg_s=best["gnubg"]["core_s_to_se_0.005"],
                         best_ratio=best["gnubg"]["core_s_to_se_0.005"]
                         / best["bgcli"]["core_s_to_se_0.005"])
        summary.append(entry)
    return summary


def report(record: dict) -> None:
    rows = record["rows"]
    header = (f"{'position':<15} {'VR':<3} {'engine':<6} {'thr':>3} {'games':>6} {'seconds':>8} "
              f"{'games/s':>9} {'/core':>8} {'equity':>8} {'SE':>7} {'sd/game':>7} "
              f"{'core-s to SE .005':>17}")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['position']:<15} {'on' if r['variance_reduction'] else 'off':<3} "
              f"{r['engine']:<6} {r['threads']:>3} {r['games']:>6} {r['seconds']:>8.2f} "
              f"{r['games_per_s']:>9,.0f} {r['games_per_s_per_core']:>8,.0f} "
              f"{r['equity']:>+8.4f} {r['equity_se']:>7.4f} "
              f"{r['sd_per_game']:>7.3f} {r['core_s_to_se_0.005']:>17,.1f}")
    print()
    for e in record["summary"]:
        where = f"  {e['position']:<15}"
        if "thread_scaling" in e:
            line = (f"{where} VR {'on ' if e['variance_reduction'] else 'off'}: "
                    f"{e['all_threads']} threads / 1: {e['thread_scaling']:.2f}x")
            if "speed_ratio_1_thread" in e:
                line += (f"   bgcli / gnubg games/s, 1 thread: {e['speed_ratio_1_thread']:.1f}x"
                         f"   core-s to SE, gnubg / bgcli: {e['time_to_se_ratio']:.2f}x")
            print(line)
        elif "vr_cost_per_game" in e:
            print(f"{where} {e['engine']:<6} variance reduction costs {e['vr_cost_per_game']:.1f}x "
                  f"a game, cuts the variance {e['vr_variance_factor']:.1f}x: net "
                  f"{e['vr_net_gain']:.2f}x")
        else:
            line = (f"{where} best to SE 0.005 on one core: bgcli {e['best_bgcli_s']:.1f} s "
                    f"(VR {'on' if e['best_bgcli_vr'] else 'off'})")
            if "best_ratio" in e:
                line += (f", gnubg {e['best_gnubg_s']:.1f} s (VR "
                         f"{'on' if e['best_gnubg_vr'] else 'off'}): gnubg / bgcli "
                         f"{e['best_ratio']:.2f}x (target 3x)")
            print(line)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", nargs="+", default=list(POSITIONS))
    parser.add_argument("--trials-plain", type=int, default=1296)
    parser.add_argument("--trials-vr", type=int, default=144)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="bgcli runs to take the median of")
    parser.add_argument("--gnubg", default=GNUBG)
    parser.add_argument("--policy", default="net", help="bgcli's playing policy (default: net)")
    parser.add_argument("--json", metavar="FILE", help="also write every row as JSON here")
    args = parser.parse_args(argv)
    record = measure(args.positions, args.trials_plain, args.trials_vr, args.seed, args.repeat,
                     args.gnubg, args.policy)
    return report_and_save(record, report, args.json)


if __name__ == "__main__":
    main()
