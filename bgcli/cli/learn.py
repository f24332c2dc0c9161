"""Learning from search: ``bgcli train-data`` (positions labelled by bgcli's n-ply search)
and the supervised mode of ``bgcli train`` (``--data``), see ``bgcli.learn``."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from .common import MAX_SEED, SEED_RANGE_HELP, announce_compiling, app, sigterm_as_interrupt

if TYPE_CHECKING:  # bgcli.learn is imported when a command runs, not at start-up
    from ..learn import FitSettings


@app.command("train-data")
def train_data(
    folder: Path = typer.Argument(..., help="The data folder (made if missing, not its parents; an existing one is continued)."),
    count: int = typer.Option(5_000, "--count", "-n", min=1, help="Label until the folder holds at least this many positions (whole chunks)."),
    sources: Optional[List[Path]] = typer.Option(None, "--from", metavar="FILE", help="Also start games from the positions of this collection (repeatable; equal shares), e.g. positions/train_backgames.txt."),
    opening_share: float = typer.Option(0.3, "--opening-share", help="Share of games (0..1) from the opening position: ordinary self-play, so nothing else drifts (1 without --from)."),
    plies: Optional[int] = typer.Option(None, "--plies", help="Depth of the search that labels each position (1..3; default 2)."),
    rollouts: int = typer.Option(0, "--rollouts", min=0, help="Label each position by a cubeless rollout of this many games of the net's 0-ply play instead of the search (a roll's plays on the same dice)."),
    late_contact: bool = typer.Option(False, "--late-contact", help="Keep only late contact positions: contact, and a side bearing off or with every checker home (where the net's outputs saturate and a search cannot correct them; label them with --rollouts)."),
    keep: float = typer.Option(0.2, "--keep", help="Chance (0..1] that a ply of a game is kept."),
    max_plies: int = typer.Option(40, "--max-plies", help="Plies a game is played from its start, at most."),
    alternatives: int = typer.Option(0, "--alternatives", min=0, help="Per kept ply, also label the results of this many of the roll's other plays (the net's next best at 0 ply, 0..10): the choices the net must rank against the play it made."),
    chunk: int = typer.Option(500, "--chunk", help="Positions per chunk file (the unit of resuming)."),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED, help="Seed of the games' dice and choices; " + SEED_RANGE_HELP),
    minutes: Optional[float] = typer.Option(None, "--minutes", min=0.0, help="Stop after the chunk that passes this many minutes."),
) -> None:
    """Sample positions by the net's own self-play (from the opening and from the collections
    --from names) and label each with bgcli's n-ply search or, with --rollouts, its
    rollouts (never gnubg), appending chunks to FOLDER; the folder's summary as JSON on
    stdout, progress on stderr. Rerun the same command with a larger --count to continue;
    rerun with other weights (BGCLI_WEIGHTS) into a new folder to iterate.

    Example:  bgcli train-data data1 -n 8000 --from positions/train_backgames.txt
    --from positions/train_anchors.txt   (then: bgcli train --data data1 -o net.npz)

    Late contact by rollouts:  bgcli train-data late1 -n 8000 --rollouts 288 --late-contact
    --opening-share 0 --max-plies 200 --keep 0.3 --alternatives 2 --from
    positions/train_anchors.txt --from positions/train_backgames.txt"""
    from ..errors import BgcliError
    from ..learn import data_settings, generate

    files = [str(p) for p in sources or []]
    for name in files:
        if not Path(name).is_file():
            raise typer.BadParameter(f"no such file: {name!r}", param_hint="--from")
    if folder.exists() and not folder.is_dir():
        raise typer.BadParameter(f"{str(folder)!r} is not a folder", param_hint="FOLDER")
    share = 1.0 if not files else opening_share
    if rollouts and plies not in (None, 0):
        raise typer.BadParameter("a rollout label's play is 0 ply: leave --plies out",
                                 param_hint="--plies")
    plies = 0 if rollouts else 2 if plies is None else plies
    command = shlex.join(["bgcli", "train-data", str(folder), "--count", str(count)]
                         + [x for name in files for x in ("--from", name)]
                         + ["--opening-share", str(share), "--plies", str(plies), "--keep",
                            str(keep), "--max-plies", str(max_plies), "--chunk", str(chunk),
                            "--seed", str(seed)]
                         + (["--alternatives", str(alternatives)] if alternatives else [])
                         + (["--rollouts", str(rollouts)] if rollouts else [])
                         + (["--late-contact"] if late_contact else []))
    settings, starts = data_settings(seed, plies, chunk, keep, max_plies, share, files,
                                     alternatives, rollouts, late_contact)
    problems = settings.problems()
    if problems:
        raise typer.BadParameter("; ".join(problems))
    announce_compiling()
    try:
        with sigterm_as_interrupt():  # the chunks written are kept
            summary = generate(folder, settings, starts, count, command=command,
                               minutes=minutes)
    except FileNotFoundError:
        raise BgcliError(f"no folder to make {str(folder)!r} in") from None
    except OSError as exc:
        raise BgcliError(f"cannot write to {str(folder)!r}: {exc.strerror or exc}") from None
    typer.echo(json.dumps(summary, indent=2, sort_keys=True))


def supervised(data: list[Path], settings: FitSettings, start: Optional[Path],
               resume: Optional[Path], record_json: Optional[Path]) -> None:
    """``bgcli train --data``: the supervised run with ``settings`` (a ``learn.FitSettings``),
    its record on stdout."""
    from ..learn import fit, make_record

    problems = settings.problems()
    if problems:
        raise typer.BadParameter("; ".join(problems))
    given = [(path, "--data") for path in data] + [(start, "--start"), (resume, "--resume")]
    for path, option in given:
        if path is not None and not path.exists():
            raise typer.BadParameter(f"no such file or folder: {str(path)!r}", param_hint=option)
    command = shlex.join(["bgcli", "train"] + [a for d in data for a in ("--data", str(d))]
                         + ["--epochs", str(settings.epochs)]
                         + ([] if resume else _fit_options(settings))
                         + (["--start", str(start)] if start is not None else [])
                         + (["--minutes", str(settings.minutes)]
                            if settings.minutes is not None else [])
                         + (["--resume", str(resume)] if resume is not None else []))
    announce_compiling()
    with sigterm_as_interrupt():  # every finished epoch is in the checkpoint
        state, folders, used = fit(data, settings, start=start, resume=resume, command=command)
    text = json.dumps(make_record(state, used, folders, command), indent=2, sort_keys=True)
    if record_json is not None:
        record_json.write_text(text + "\n")
    typer.echo(text)


def _fit_options(settings: FitSettings) -> list[str]:
    """The options of a new supervised run, as its record's command gives them (a resumed
    run keeps its checkpoint's)."""
    return (["--rate", str(settings.rate), "--batch", str(settings.batch),
             "--equity-weight", str(settings.equity_weight), "--seed", str(settings.seed),
             "--nets", settings.nets]
            + (["--pair-weight", str(settings.pair_weight)] if settings.pair_weight else [])
            + (["--stop-weight", str(settings.stop_weight)] if settings.stop_weight != 1.0 else [])
            + (["--misrank-weight", str(settings.misrank_weight)]
               if settings.misrank_weight else [])
            + (["--second-layer"] if settings.second_layer else [])
            + (["--late-net"] if settings.late_net else [])
            + (["--cross-pairs"] if settings.cross_pairs else []))
