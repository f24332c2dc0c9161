"""The train command: TD(lambda) self-play training of the neural evaluator."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Optional

import typer

from .common import (MAX_SEED, SEED_RANGE_HELP, announce_compiling, app, check_writable,
                     sigterm_as_interrupt)


@app.command()
def train(
    games: int = typer.Option(10_000, "--games", "-n", help="Train until this many games in all (a resumed run counts its earlier games)."),
    minutes: Optional[float] = typer.Option(None, "--minutes", help="Stop after this many minutes even if --games is not reached."),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED, help="Seed of the initial weights and of every game's dice; " + SEED_RANGE_HELP),
    alpha: Optional[float] = typer.Option(None, "--alpha", help="Learning rate (default 0.1; with --resume: the checkpoint's, unless given)."),
    lam: float = typer.Option(0.7, "--lambda", help="Trace decay lambda of TD(lambda)."),
    explore: Optional[float] = typer.Option(None, "--explore", help="Share of games (0..1) that open with 1-10 random plays before the net takes over, so that it learns positions greedy self-play avoids (default 0; with --resume: the checkpoint's, unless given)."),
    explore_moves: Optional[float] = typer.Option(None, "--explore-moves", help="Chance (0..1) that a move of the greedy play is a random one instead; learning restarts from the position it makes, so the net learns what follows plays it would not choose (default 0; with --resume: the checkpoint's, unless given)."),
    checkpoint: Path = typer.Option(Path("net_checkpoint.npz"), "--checkpoint", "-o", help="Weights file written every --checkpoint-every games and at the end (.npz with a JSON record)."),
    checkpoint_every: int = typer.Option(5_000, "--checkpoint-every", help="Games between checkpoints."),
    check_every: int = typer.Option(10_000, "--check-every", help="Games between strength checks (net vs heuristic and vs random)."),
    check_deals: int = typer.Option(500, "--check-deals", help="Deals per strength check, each played twice with sides swapped."),
    positions: Optional[Path] = typer.Option(None, "--positions", help="Also start games from these positions (a collection as bgcli batch reads it: one position a line, or CSV), e.g. positions/train_backgames.txt: for the kinds of position self-play seldom reaches."),
    position_share: float = typer.Option(0.25, "--position-share", help="With --positions: the share of games (0..1) that start from one of them, drawn at random."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="Continue from this checkpoint (its seed and lambda are kept, and its alpha unless --alpha is given)."),
    record_json: Optional[Path] = typer.Option(None, "--record", help="Also write the training record as JSON to this file."),
    data: Optional[list[Path]] = typer.Option(None, "--data", help="Supervised mode: fit the net to the positions of this folder (bgcli train-data), labelled by bgcli's n-ply search, instead of self-play; give --data again for more folders (e.g. two seeds made side by side). Starts from --start (default: the weights the net plays with)."),
    epochs: int = typer.Option(40, "--epochs", help="With --data: train until this many epochs in all (a resumed run counts its earlier ones); the epoch with the lowest held-out error is kept."),
    rate: float = typer.Option(1e-4, "--rate", help="With --data: Adam's step size."),
    batch: int = typer.Option(64, "--batch", help="With --data: positions per mini-batch."),
    equity_weight: float = typer.Option(1.0, "--equity-weight", help="With --data: weight of the squared equity error in the loss, beside the squared errors of the five probabilities."),
    start: Optional[Path] = typer.Option(None, "--start", help="With --data: the weights to start from (default: those the net plays with, BGCLI_WEIGHTS or the shipped ones)."),
    nets: str = typer.Option("both", "--nets", help="With --data: which nets learn: contact, race, late (the late contact net, see --late-net) or both (every net the weights hold); the others keep their starting weights, and their positions are not trained on."),
    second_layer: bool = typer.Option(False, "--second-layer", help="With --data: give the contact net a second hidden layer of 20 units when the starting weights have none; it starts as the same function (its output weights zero) and learns from the data."),
    late_net: bool = typer.Option(False, "--late-net", help="With --data: give starting weights without one a late contact net (a copy of their contact net, so the same function at first), which then values the contact positions where a side bears off or has every checker home (gnubg values its crashed positions by a net of their own); train it with --nets late."),
    pair_weight: float = typer.Option(0.0, "--pair-weight", help="With --data: weight of the squared error of each of a roll's other plays' equity difference from the play the game made (folders made with train-data --alternatives), beside each position's own loss: teaches the ranking of a roll's plays directly."),
    stop_weight: float = typer.Option(1.0, "--stop-weight", help="With --pair-weight: weight of the held-out plays' differences' error in what early stopping minimises (held-out |equity error| + this × |difference error|); higher keeps later epochs of a fit that trades equity error for ranking."),
    misrank_weight: float = typer.Option(0.0, "--misrank-weight", help="With --pair-weight: weigh the pair term (1 + this) times on the pairs the net orders the other way round from their targets, those on which its 0-ply choice goes wrong."),
    cross_pairs: bool = typer.Option(False, "--cross-pairs", help="With --pair-weight and --nets contact, race or late: also train on the pairs of plays of which the other is valued by a net that does not learn (held fixed), e.g. a late contact play against one that keeps contact; without it such pairs are left out."),
) -> None:
    """Train the neural evaluator by TD(lambda) self-play; progress on stderr, the record
    (games, seed, wall time, strength checks, history of runs) as JSON on stdout. Ctrl-C or
    SIGTERM saves the checkpoint of the games finished, then exits 130. Every command plays
    with the weights BGCLI_WEIGHTS names (default: the shipped ones).

    Example:  bgcli train --games 250000 --seed 1 -o net.npz   (then: --resume net.npz;
    add --positions positions/train_backgames.txt to train on back games too; play with it:
    BGCLI_WEIGHTS=net.npz bgcli rollout 4HPwATDgc/ABMA). Supervised:
    bgcli train --data data1 --data data2 --epochs 40 -o net.npz   (folders from bgcli
    train-data; -o gets the epoch with the lowest held-out error, --resume net.npz goes on)"""
    if data is not None:
        given = [name for name, value in (("--alpha", alpha), ("--explore", explore),
                 ("--explore-moves", explore_moves), ("--positions", positions)) if value is not None]
        if given:
            raise typer.BadParameter(f"{', '.join(given)}: for self-play, not with --data")
        check_writable(checkpoint, "--checkpoint", (".npz",))
        if record_json is not None:
            check_writable(record_json, "--record")
        from ..learn import FitSettings
        from .learn import supervised

        settings = FitSettings(epochs=epochs, rate=rate, batch=batch, equity_weight=equity_weight,
                               seed=seed, minutes=minutes, checkpoint=str(checkpoint),
                               nets=nets, pair_weight=pair_weight, second_layer=second_layer,
                               stop_weight=stop_weight, misrank_weight=misrank_weight,
                               late_net=late_net, cross_pairs=cross_pairs)
        supervised(data, settings, start, resume, record_json)
        return
    for option, given in (("--second-layer", second_layer), ("--late-net", late_net),
                          ("--cross-pairs", cross_pairs)):
        if given:
            raise typer.BadParameter(f"{option}: for --data (supervised) runs")
    from ..train import TrainSettings, make_record
    from ..train import train as run_training

    settings = TrainSettings(games=games, seed=seed, alpha=0.1 if alpha is None else alpha,
                             lam=lam, explore=explore or 0.0,
                             explore_moves=explore_moves or 0.0, minutes=minutes,
                             checkpoint=str(checkpoint), checkpoint_every=checkpoint_every,
                             check_every=check_every, check_deals=check_deals,
                             positions=None if positions is None else str(positions),
                             position_share=position_share)
    problems = settings.problems()
    if problems:
        raise typer.BadParameter("; ".join(problems))
    if positions is not None and not positions.exists():
        raise typer.BadParameter(f"no such file: {str(positions)!r}")
    if resume is not None and not resume.exists():
        raise typer.BadParameter(f"no such checkpoint: {str(resume)!r}")
    # before the first game, not after hours of them
    check_writable(checkpoint, "--checkpoint", (".npz",))
    if record_json is not None:
        check_writable(record_json, "--record")
    given_alpha = ["--alpha", str(settings.alpha)] if alpha is not None or resume is None else []
    command = shlex.join(["bgcli", "train", "--games", str(games), "--seed", str(seed)]
                         + given_alpha + ["--lambda", str(lam)]
                         + (["--explore", str(explore)] if explore is not None else [])
                         + (["--explore-moves", str(explore_moves)]
                            if explore_moves is not None else [])
                         + (["--minutes", str(minutes)] if minutes is not None else [])
                         + (["--positions", str(positions), "--position-share",
                             str(position_share)] if positions is not None else [])
                         + (["--resume", str(resume)] if resume is not None else []))
    announce_compiling("train")
    with sigterm_as_interrupt():  # either saves the checkpoint, then exits 130
        state = run_training(settings, resume=resume, command=command,
                             resume_alpha=alpha if resume is not None else None,
                             resume_explore=explore if resume is not None else None,
                             resume_explore_moves=explore_moves if resume is not None else None)
    record = make_record(state, command)
    text = json.dumps(record, indent=2, sort_keys=True)
    if record_json is not None:
        record_json.write_text(text + "\n")
    typer.echo(text)
