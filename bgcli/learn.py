"""Learning from search: labelled positions from bgcli's own n-ply judgement, and a
supervised trainer of the net on them (``bgcli train-data``, ``bgcli train --data``).

Data. Positions are sampled by the net's own 0-ply self-play from starting positions of
several *sources*: the opening (ordinary self-play, so that nothing else drifts) and
collections of the kinds of position where the net is weakest (``positions/
train_backgames.txt``, ``positions/train_anchors.txt``: back games, ace- and deuce-point
games, containment and gammon saving follow from them). Game ``g`` of chunk ``c`` draws its
source, start, dice and kept plies from numpy's PCG64 seeded ``(seed, c, g)``; each ply after
the start is kept with chance ``keep`` up to ``max_plies`` (a bear-off with both sides home
is skipped: the tables value it exactly). With ``alternatives`` K, each kept ply also
keeps the results of the K next best plays of the same roll by the net at 0 ply (the
choices its play must be ranked against; the game goes on with the play made, so the
games and their positions do not depend on K). Every kept position is labelled with
``evaluation.position_probabilities`` at ``plies`` (2 by default) with the same weights
that played, or, with ``rollouts`` N, by a cubeless rollout of N games of the net's 0-ply
play (quasi-random dice from a seed of ``(seed, c, r)``, r the chunk row of the play made,
so that a roll's plays share their dice: common random numbers for the differences the
pair term learns). With ``late_contact`` only *late contact* positions are kept
(``late_contact``): contact, and a side bearing off or with every checker home, where the
net's outputs saturate and a search, whose leaves are the same net, cannot correct them,
but a rollout, which plays the games out, can. gnubg is never involved.

The data live in a folder: ``settings.json`` (the sources with their SHA-256, seed, plies,
chunk size, the net that labelled them) and ``chunk-000000.npz`` ... (``boards`` (n, 2, 25)
int8 with row 1 on roll, ``targets`` (n, 5), ``source`` (n,) int8, ``ply`` (n,) int16,
``rank`` (n,) int8: 0 for the position the play made, k for the k-th alternative), each
written atomically. A chunk is a function of the settings and its index only, so a stopped
run resumed (the same command again, with a larger ``--positions``) writes what an unbroken
one would have (``--count``).

Training (``fit``). Adam on the squared error of the five outputs plus that of the equity
they make (``kernels.supervised``), from the given weights (the shipped ones by default), on
the positions of one or more folders. Every tenth position of each folder (index % 10 == 0
over its chunks in order) is held out; after every epoch the run measures, on the held-out
and the training positions (and the held-out ones of each source), the mean |equity error|
of the net's 0-ply evaluation against the targets, with its SE, and keeps the weights of the
epoch with the lowest held-out error (early stopping: with too few positions the net learns
them, not the judgement, and the held-out error rises from the first epoch). Epoch ``e``
shuffles with PCG64 seeded ``(seed, e)``, and the checkpoint keeps the latest weights and
Adam's moments beside the kept ones: a run resumed after epoch ``e`` gives the same weights
as one run straight through. The weights' record keeps the starting weights' history and
adds this run to it.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import BgcliError
from .position import Position

Progress = Callable[[str], None]
SETTINGS_FILE = "settings.json"
OPENING = "opening"
HOLD_OUT = 10  # every tenth position is held out
MAX_ALTERNATIVES = 10


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class DataSettings:
    """What a data folder's positions are a function of (``settings.json``)."""

    seed: int = 1
    plies: int = 2
    chunk: int = 500
    keep: float = 0.2
    max_plies: int = 40
    opening_share: float = 0.3
    # the collections of starting positions: [{"file", "sha256", "count"}], equal shares
    sources: tuple = ()
    net: str = ""  # the weights that played and labelled (bgcli.net.net_id)
    # per kept ply, the results of this many of the roll's other plays (the net's next
    # best at 0 ply) are labelled too: what the net must rank against the play it made
    alternatives: int = 0
    # label by a cubeless rollout of this many games of 0-ply play instead (plies is then 0)
    rollouts: int = 0
    # keep late contact positions only (``late_contact``)
    late_contact: bool = False

    def problems(self) -> list[str]:
        out = []
        if self.rollouts < 0:
            out.append(f"rollouts must be >= 0, not {self.rollouts}")
        elif self.rollouts and self.plies != 0:
            out.append(f"plies must be 0 with rollouts (their play is 0 ply), not {self.plies}")
        elif not self.rollouts and self.plies not in (1, 2, 3):
            out.append(f"plies must be 1, 2 or 3, not {self.plies}")
        if self.chunk < 1:
            out.append(f"chunk must be >= 1, not {self.chunk}")
        if not 0.0 < self.keep <= 1.0:
            out.append(f"keep must be in (0, 1], not {self.keep}")
        if self.max_plies < 1:
            out.append(f"max-plies must be >= 1, not {self.max_plies}")
        if not 0.0 <= self.opening_share <= 1.0:
            out.append(f"opening-share must be in [0, 1], not {self.opening_share}")
        if not 0 <= self.alternatives <= MAX_ALTERNATIVES:
            out.append(f"alternatives must be 0..{MAX_ALTERNATIVES}, not {self.alternatives}")
        if not self.sources and self.opening_share < 1.0:
            out.append("without --from collections the opening share must be 1")
        return out


def source_names(settings: DataSettings) -> list[str]:
    """The source of each position's ``source`` index: 0 the opening, then the files."""
    return [OPENING] + [s["file"] for s in settings.sources]


def _ranked(position: Position, dice: tuple[int, int]) -> list[Position]:
    """The results of the plays of ``dice``, the net's 0-ply choice first (empty when no
    checker moves)."""
    from .evaluation import ranked_results

    return [Position(board) for board in ranked_results(position, dice, "net", 0)]


def _worth_labelling(position: Position) -> bool:
    """Not a finished game, nor a bear-off with both sides home (the tables value it)."""
    return not position.is_game_over() and not position.is_bearoff()


def _all_home(row: np.ndarray) -> bool:
    """Every checker this side has left (a row of ``Position.board``) is in its home board."""
    return int(row[6:].sum()) == 0


def late_contact(position: Position) -> bool:
    """Contact, and a side bearing off (a checker borne off) or with every checker home:
    one side coming home while the other still holds a point or a checker back."""
    if position.is_race() or position.is_game_over():
        return False
    return (max(position.borne_off()) > 0 or _all_home(position.board[0])
            or _all_home(position.board[1]))


def sample_game(start: Position, rng: np.random.Generator, keep: float, max_plies: int,
                alternatives: int = 0, late_only: bool = False) -> list[tuple[Position, int, int]]:
    """(position, ply, rank) kept from one game of the net against itself from ``start``:
    rank 0 is the position the net's play made, the opponent on roll; ranks 1.. the
    results of its next best plays of the same roll (``alternatives`` of them), which
    the game does not follow. The dice and choices do not depend on ``alternatives``.
    ``late_only``: only late contact positions are candidates (``late_contact``)."""
    kept = []
    position = start
    for ply in range(1, max_plies + 1):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        ranked = _ranked(position, dice)
        if ranked and ranked[0].is_game_over():
            break
        position = (ranked[0] if ranked else position).swapped()
        if late_only and not late_contact(position):
            continue
        if rng.random() < keep and not position.is_bearoff():
            kept.append((position, ply, 0))
            others = [p.swapped() for p in ranked[1:]]
            kept += [(p, ply, rank) for rank, p in
                     enumerate([p for p in others if _worth_labelling(p)][:alternatives], 1)]
    return kept


def make_chunk(settings: DataSettings, starts: list[np.ndarray], index: int,
               label: Callable[[Position, int], np.ndarray]) -> dict:
    """Chunk ``index``: ``settings.chunk`` positions and their labels (see module doc);
    ``label(position, row)``, ``row`` the chunk row of the play made with that roll."""
    boards, targets, sources, plies, ranks = [], [], [], [], []
    game = 0
    while len(boards) < settings.chunk:
        if game >= 1000 * settings.chunk + 1000:  # only bear-offs or finished games
            raise BgcliError(f"{game} games kept no position: the starting positions are "
                             "all bear-offs or end at once")
        rng = np.random.default_rng([settings.seed, index, game])
        game += 1
        if rng.random() < settings.opening_share or not starts:
            source, start = 0, Position.start()
        else:
            source = 1 + int(rng.integers(len(starts)))
            pool = starts[source - 1]
            start = Position(pool[int(rng.integers(len(pool)))])
        for position, ply, rank in sample_game(start, rng, settings.keep, settings.max_plies,
                                               settings.alternatives, settings.late_contact):
            if len(boards) == settings.chunk:
                break
            if rank == 0:
                played_row = len(boards)
            boards.append(position.board)
            targets.append(label(position, played_row))
            sources.append(source)
            plies.append(ply)
            ranks.append(rank)
    return {"boards": np.stack(boards).astype(np.int8), "targets": np.array(targets),
            "source": np.array(sources, dtype=np.int8), "ply": np.array(plies, dtype=np.int16),
            "rank": np.array(ranks, dtype=np.int8), "games": np.int64(game)}


def _chunk_path(folder: Path, index: int) -> Path:
    return folder / f"chunk-{index:06d}.npz"


def _save_chunk(folder: Path, index: int, chunk: dict) -> None:
    path = _chunk_path(folder, index)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, **chunk)
    tmp.replace(path)


def data_settings(seed: int, plies: int, chunk: int, keep: float, max_plies: int,
                  opening_share: float, files: list[str], alternatives: int = 0,
                  rollouts: int = 0, late_contact: bool = False) -> tuple[DataSettings, list]:
    """The settings of a data run from its options, and the starting boards of each file
    (``train.read_training_positions``: every row a legal position with the game on)."""
    from .net import net_id
    from .train import read_training_positions

    sources, starts = [], []
    for name in files:
        boards, info = read_training_positions(name)
        sources.append(info)
        starts.append(boards)
    settings = DataSettings(seed=seed, plies=plies, chunk=chunk, keep=keep,
                            max_plies=max_plies, opening_share=opening_share,
                            sources=tuple(sources), net=net_id(), alternatives=alternatives,
                            rollouts=rollouts, late_contact=late_contact)
    return settings, starts


def _settings_json(settings: DataSettings) -> dict:
    out = asdict(settings)
    out["sources"] = [dict(s) for s in settings.sources]
    return out


def _check_folder(folder: Path, settings: DataSettings) -> int:
    """The chunks already in ``folder`` (made with the same settings, else ``BgcliError``)."""
    path = folder / SETTINGS_FILE
    if not path.exists():
        if any(folder.glob("chunk-*.npz")):
            raise BgcliError(f"{folder}: has chunks but no {SETTINGS_FILE}")
        return 0
    try:
        recorded = json.loads(path.read_text())["settings"]
    except (ValueError, KeyError, TypeError):
        raise BgcliError(f"{path}: not a bgcli train-data settings file") from None
    ours = _settings_json(settings)
    defaults = _settings_json(DataSettings())  # settings added since the folder was made
    differ = sorted(k for k in ours if recorded.get(k, defaults[k]) != ours[k])
    if differ:
        raise BgcliError(f"{folder} was made with other settings ({', '.join(differ)}): "
                         "use a new folder")
    count = 0
    while _chunk_path(folder, count).exists():
        count += 1
    return count


def _record_command(path: Path, settings: DataSettings, command: str, first: bool) -> None:
    """Write the folder's settings file (``first``), or add ``command`` to the commands that
    have grown the folder since: its summary names every run that made its chunks."""
    if first:
        record = {"settings": _settings_json(settings), "command": command, "commands": []}
    else:
        record = json.loads(path.read_text())
        # folders made before the list was kept: their first command starts it
        record.setdefault("commands", [record["command"]] if record.get("command") else [])
    if command:
        record["commands"].append(command)
    path.write_text(json.dumps(record, indent=2) + "\n")


def generate(folder: str | Path, settings: DataSettings, starts: list, positions: int,
             command: str = "", progress: Progress | None = _stderr,
             minutes: float | None = None) -> dict:
    """Add chunks to ``folder`` until it holds at least ``positions`` positions (or
    ``minutes`` pass); its summary (``data_summary``)."""
    from .evaluation import position_probabilities

    problems = settings.problems()
    if problems:
        raise BgcliError("; ".join(problems))

    def chunk(index: int) -> dict:
        if settings.rollouts:
            return make_chunk(settings, starts, index,
                              lambda position, row: rollout_label(position, settings, index, row))
        return make_chunk(settings, starts, index,
                          lambda position, row: position_probabilities(position, "net",
                                                                       settings.plies))

    return grow_folder(folder, settings, positions, chunk, command, progress, minutes)


def rollout_label(position: Position, settings: DataSettings, index: int, row: int) -> np.ndarray:
    """The five rates of a cubeless rollout of ``settings.rollouts`` games of ``position``
    (0-ply net play, quasi-random dice, one thread), seeded by the chunk ``index`` and the
    ``row`` of the play made: a roll's plays are rolled out on the same dice."""
    from .rollout import RolloutSettings, rollout

    seed = int(np.random.SeedSequence([settings.seed, index, row]).generate_state(1)[0])
    # plain trials: these positions' games are short, and variance reduction's 10-25x the
    # work a game did not pay for itself there (session 27)
    result = rollout(position, RolloutSettings(trials=settings.rollouts, seed=seed, threads=1,
                                               variance_reduction=False))
    return result.means


def grow_folder(folder: str | Path, settings: DataSettings, positions: int,
                chunk_maker: Callable[[int], dict], command: str = "",
                progress: Progress | None = _stderr, minutes: float | None = None) -> dict:
    """``generate``'s folder work with the chunks from ``chunk_maker(index)`` (a dict of the
    arrays ``make_chunk`` returns): refuse a folder made with other settings, record the
    command, append chunks until ``positions`` (or ``minutes`` pass); the folder's summary.
    For labels of another kind too (``scripts/experiments/learn_from_search/distil.py``)."""
    folder = Path(folder)
    folder.mkdir(exist_ok=True)  # not its parents: a mistyped path is refused
    done = _check_folder(folder, settings)
    if done == 0 or done * settings.chunk < positions:  # a run that adds nothing is no grower
        _record_command(folder / SETTINGS_FILE, settings, command, first=done == 0)
    began = time.perf_counter()
    deadline = None if minutes is None else began + 60.0 * minutes
    while done * settings.chunk < positions:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        t0 = time.perf_counter()
        _save_chunk(folder, done, chunk_maker(done))
        done += 1
        if progress:
            how = (f"by {settings.rollouts}-game rollouts" if settings.rollouts
                   else f"at {settings.plies} ply")
            progress(f"chunk {done - 1}: {settings.chunk} positions labelled {how} "
                     f"in {time.perf_counter() - t0:.0f} s ({done * settings.chunk} in all)")
    return data_summary(folder)


def read_data(folder: str | Path) -> tuple[dict, dict]:
    """(arrays of every chunk concatenated in order, the folder's settings record)."""
    folder = Path(folder)
    path = folder / SETTINGS_FILE
    if not path.exists():
        raise BgcliError(f"{folder}: no {SETTINGS_FILE} (not a bgcli train-data folder)")
    try:
        record = json.loads(path.read_text())
        record["settings"]["plies"]
    except (ValueError, KeyError, TypeError):
        raise BgcliError(f"{path}: not a bgcli train-data settings file") from None
    parts: dict[str, list] = {"boards": [], "targets": [], "source": [], "ply": [], "rank": []}
    index = 0
    digest = hashlib.sha256()
    while _chunk_path(folder, index).exists():
        chunk_file = _chunk_path(folder, index)
        try:
            with np.load(chunk_file, allow_pickle=False) as data:
                for key in parts:
                    if key == "rank" and key not in data.files:  # before --alternatives
                        parts[key].append(np.zeros(len(data["ply"]), dtype=np.int8))
                    else:
                        parts[key].append(np.asarray(data[key]))
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise BgcliError(f"{chunk_file}: cannot read it: {exc}") from None
        digest.update(chunk_file.read_bytes())
        index += 1
    if index == 0:
        raise BgcliError(f"{folder}: no labelled positions in it (run bgcli train-data)")
    arrays = {key: np.concatenate(value) for key, value in parts.items()}
    arrays["boards"] = np.ascontiguousarray(arrays["boards"], dtype=np.int8)
    arrays["targets"] = np.ascontiguousarray(arrays["targets"], dtype=np.float64)
    if not np.all(np.isfinite(arrays["targets"])):
        raise BgcliError(f"{folder}: targets that are not finite numbers")
    record["chunks"] = index
    record["sha256"] = digest.hexdigest()
    return arrays, record


def data_summary(folder: str | Path) -> dict:
    """The folder's settings, chunk count, positions per source and SHA-256 of the chunks."""
    arrays, record = read_data(folder)
    settings = DataSettings(**{**record["settings"],
                               "sources": tuple(record["settings"]["sources"])})
    names = source_names(settings)
    counts = np.bincount(arrays["source"].astype(np.int64), minlength=len(names))
    return {"folder": str(folder), "positions": int(arrays["boards"].shape[0]),
            "chunks": record["chunks"], "sha256": record["sha256"],
            "per_source": {name: int(c) for name, c in zip(names, counts)},
            "settings": record["settings"], "command": record.get("command", ""),
            "commands": record.get("commands", [record.get("command", "")])}


# ----------------------------------------------------------------------------- training


#: The choices of ``FitSettings.nets``: the positions each trains on (the other nets' weights
#: are left as they start; their positions still count in the held-out error, unchanged).
#: "both" trains every net the weights hold (the late contact net too, if they have one).
NETS = ("both", "contact", "race", "late")


@dataclass(frozen=True)
class FitSettings:
    epochs: int = 40
    rate: float = 1e-4
    batch: int = 64
    equity_weight: float = 1.0
    seed: int = 1
    minutes: float | None = None
    checkpoint: str | None = None
    nets: str = "both"  # which nets learn: "contact", "race", "late" or "both" (all)
    pair_weight: float = 0.0  # weight of a roll's plays' equity differences (kernel doc)
    # weight of the held-out differences' error in what early stopping minimises
    stop_weight: float = 1.0
    # extra weight of a pair the net orders the other way round from its targets
    misrank_weight: float = 0.0
    # give one-layer starting weights the contact net's second hidden layer (kernels.net)
    second_layer: bool = False
    # give starting weights without one a late contact net, a copy of their contact net
    late_net: bool = False
    # with one net learning: also the pairs whose other play another net values, which is
    # held fixed (the other net's output as it is); else such pairs are left out
    cross_pairs: bool = False

    def problems(self) -> list[str]:
        out = []
        if self.nets not in NETS:
            out.append(f"nets must be one of {', '.join(NETS)}, not {self.nets!r}")
        if self.epochs < 1:
            out.append(f"epochs must be >= 1, not {self.epochs}")
        if not 0.0 < self.rate <= 1.0:
            out.append(f"rate must be in (0, 1], not {self.rate}")
        if self.batch < 1:
            out.append(f"batch must be >= 1, not {self.batch}")
        if not 0.0 <= self.equity_weight <= 100.0:
            out.append(f"equity-weight must be in [0, 100], not {self.equity_weight}")
        if not 0.0 <= self.pair_weight <= 100.0:
            out.append(f"pair-weight must be in [0, 100], not {self.pair_weight}")
        if not 0.0 <= self.stop_weight <= 100.0:
            out.append(f"stop-weight must be in [0, 100], not {self.stop_weight}")
        if not 0.0 <= self.misrank_weight <= 100.0:
            out.append(f"misrank-weight must be in [0, 100], not {self.misrank_weight}")
        if self.late_net and self.second_layer:
            out.append("a late contact net and a second layer cannot be added in one run")
        if self.pair_weight == 0.0 and (self.misrank_weight != 0.0 or self.stop_weight != 1.0):
            out.append("stop-weight and misrank-weight weigh the pair term: give pair-weight too")
        if self.cross_pairs and (self.pair_weight == 0.0 or self.nets == "both"):
            out.append("cross-pairs is for a pair term (pair-weight) of one net (nets contact, "
                       "race or late): with every net learning, every pair is trained on")
        return out


@dataclass
class FitState:
    """Where a run stands: the latest weights and Adam's moments (what the next epoch goes
    on from) and the weights of the epoch with the lowest held-out error (what is kept)."""

    params: np.ndarray
    start_record: dict  # the starting weights' record (their history goes on)
    best_params: np.ndarray | None = None
    best_epoch: int = 0
    adam_m: np.ndarray | None = None
    adam_v: np.ndarray | None = None
    adam_step: int = 0
    epochs: int = 0
    run_from: int = 0
    wall_s: float = 0.0
    checks: list[dict] = field(default_factory=list)

    def __post_init__(self):
        if self.best_params is None:
            self.best_params = self.params.copy()
        if self.adam_m is None:
            self.adam_m, self.adam_v = np.zeros(self.params.size), np.zeros(self.params.size)


@dataclass
class TrainingData:
    """The positions of one or more data folders, each split into training and held-out
    positions (every ``HOLD_OUT``-th of each folder held out)."""

    boards: np.ndarray
    targets: np.ndarray
    source: np.ndarray  # each position's source name (str)
    held: np.ndarray  # bool: held out
    folders: list[dict]  # per folder: name, sha256, positions, plies, net
    # per row, the row of the play the game made when it is one of that roll's other plays,
    # else -1 (``played_rows``; None: no such rows)
    partner: np.ndarray | None = None

    def __post_init__(self):
        if self.partner is None:
            self.partner = np.full(self.boards.shape[0], -1, dtype=np.int64)

    @property
    def train_index(self) -> np.ndarray:
        return np.flatnonzero(~self.held)

    def trained_by(self, nets: str, params: np.ndarray, cross_pairs: bool = False) -> np.ndarray:
        """The training positions that ``nets`` (one of ``NETS``) of the weights ``params``
        learns from: those it values, and with ``cross_pairs`` also a roll's other plays
        whose play made it values (and the other net does not: ``FitSettings``)."""
        from .kernels.net import CONTACT, LATE, RACE
        from .kernels.supervised import net_slots

        if nets == "both":
            return self.train_index
        slots = np.zeros(self.boards.shape[0], dtype=np.int64)
        net_slots(self.boards, np.asarray(params, dtype=np.float64), slots)
        valued = slots == {"contact": CONTACT, "race": RACE, "late": LATE}[nets]
        if cross_pairs:
            paired = np.flatnonzero(self.partner >= 0)
            played = self.partner[paired]
            valued[paired[valued[played] & ~self.held[played]]] = True
        return np.flatnonzero(~self.held & valued)

    @property
    def held_index(self) -> np.ndarray:
        return np.flatnonzero(self.held)


def read_training_data(folders) -> TrainingData:
    """The positions of ``folders`` (``bgcli train-data`` folders) in the order given; a
    folder given twice (the same chunks) is refused, as it would count twice."""
    parts: dict[str, list] = {"boards": [], "targets": [], "source": [], "held": [],
                              "partner": []}
    summaries = []
    rows = 0
    for folder in folders:
        arrays, record = read_data(folder)
        twice = [f["folder"] for f in summaries if f["sha256"] == record["sha256"]]
        if twice:
            raise BgcliError(f"{folder}: the same positions as {twice[0]} (given twice)")
        settings = record["settings"]
        names = np.array(source_names(DataSettings(**{**settings,
                                                       "sources": tuple(settings["sources"])})))
        count = int(arrays["boards"].shape[0])
        parts["boards"].append(arrays["boards"])
        parts["targets"].append(arrays["targets"])
        parts["source"].append(names[arrays["source"].astype(np.int64)])
        parts["held"].append(held_out(count))
        partner = played_rows(arrays["rank"])
        parts["partner"].append(np.where(partner >= 0, partner + rows, -1))
        rows += count
        summaries.append({"folder": Path(folder).name, "sha256": record["sha256"],
                          "positions": count, "plies": settings["plies"],
                          "net": settings["net"]})
    return TrainingData(boards=np.ascontiguousarray(np.concatenate(parts["boards"])),
                        targets=np.ascontiguousarray(np.concatenate(parts["targets"])),
                        source=np.concatenate(parts["source"]),
                        held=np.concatenate(parts["held"]), folders=summaries,
                        partner=np.concatenate(parts["partner"]))


def played_rows(rank: np.ndarray) -> np.ndarray:
    """For each row of a folder, the row of the play the game made with its roll when it
    is one of the roll's other plays (rank > 0: they follow that row, ``make_chunk``),
    else -1."""
    played = np.maximum.accumulate(np.where(rank == 0, np.arange(rank.size), -1))
    return np.where((rank > 0) & (played >= 0), played, -1).astype(np.int64)


def equity_errors(params: np.ndarray, boards: np.ndarray, targets: np.ndarray) -> dict:
    """Mean |cubeless equity of the net's 0-ply evaluation - the target's| over the
    positions, with its SE, and the mean squared error of the five probabilities."""
    from .kernels.supervised import EQUITY, net_outputs

    out = np.zeros((boards.shape[0], 5))
    net_outputs(params, boards, out)
    diff = np.abs((out - targets) @ EQUITY)
    n = diff.size
    if n == 0:  # no positions held out (a tiny data folder): nothing measured
        return {"positions": 0, "mean_abs_equity_error": math.nan, "se": math.nan,
                "mse": math.nan}
    se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"positions": int(n), "mean_abs_equity_error": float(diff.mean()), "se": se,
            "mse": float(((out - targets) ** 2).sum(axis=1).mean())}


def difference_errors(params: np.ndarray, data: TrainingData, rows: np.ndarray) -> dict:
    """Mean |error| (with SE) of the net's 0-ply equity difference between each of ``rows``
    (a roll's other plays) and the play made with the roll (its partner), against the
    targets' difference: how well the net orders a roll's plays. Also the share of the
    pairs the net orders the other way round from the targets (``misranked``) and what
    that costs, by the targets, in a choice between the two plays (``choice_error``, the
    mean over all pairs)."""
    from .kernels.supervised import EQUITY, net_outputs

    mine, theirs = np.zeros((rows.size, 5)), np.zeros((rows.size, 5))
    net_outputs(params, data.boards[rows], mine)
    net_outputs(params, data.boards[data.partner[rows]], theirs)
    output_difference = (mine - theirs) @ EQUITY
    target_difference = (data.targets[rows] - data.targets[data.partner[rows]]) @ EQUITY
    diff = np.abs(output_difference - target_difference)
    misranked = output_difference * target_difference < 0.0
    return {"pairs": int(diff.size), "mean_abs_difference_error": float(diff.mean()),
            "se": float(diff.std(ddof=1) / math.sqrt(diff.size)),
            "misranked": float(misranked.mean()),
            "choice_error": float(np.where(misranked, np.abs(target_difference), 0.0).mean())}


def held_out(count: int) -> np.ndarray:
    """Which of a folder's ``count`` positions are held out: every ``HOLD_OUT``-th."""
    return np.arange(count) % HOLD_OUT == 0


def fit(folders, settings: FitSettings, start: str | Path | None = None,
        resume: str | Path | None = None, command: str = "",
        progress: Progress | None = _stderr) -> tuple[FitState, list[dict], FitSettings]:
    """Train on the data in ``folders`` (one folder or a list) until ``settings.epochs``
    epochs in all, keeping the epoch with the lowest held-out error; the state, the data
    folders' summaries and the settings used (a resumed run's: its checkpoint's). ``start``:
    the starting weights (None: those the net plays with); ``resume``: a checkpoint of an
    earlier run on the same data (its rate, batch, equity weight and seed are kept)."""
    from .kernels.net import has_late_net, with_late_net, with_second_layer
    from .kernels.supervised import adam_epoch
    from .net import read_weights, second_layer_units, weights_path

    problems = settings.problems()
    if problems:
        raise BgcliError("; ".join(problems))
    data = read_training_data([folders] if isinstance(folders, (str, Path)) else folders)
    if resume is not None:
        state, settings = _resumed(resume, settings, data.folders)
    else:
        params, start_record = read_weights(start if start is not None else weights_path())
        if settings.second_layer and second_layer_units(params) == 0:
            params = with_second_layer(params, settings.seed)  # the same function, at first
        if settings.late_net and not has_late_net(params):
            params = with_late_net(params)  # the same function, at first
        state = FitState(params=params.copy(), start_record=start_record)
    if settings.nets == "late" and not has_late_net(state.params):
        raise BgcliError("--nets late: the starting weights have no late contact net "
                         "(add one with --late-net)")
    trained = data.trained_by(settings.nets, state.params, settings.cross_pairs)
    if trained.size == 0:
        raise BgcliError(f"--nets {settings.nets}: none of the training positions is the "
                         f"{settings.nets} net's")
    partner = trained_partners(data.partner, trained,
                               data.train_index if settings.cross_pairs else None)
    learning = learning_mask(settings.nets, state.params)
    if not state.checks:
        state.checks.append(epoch_check(state.params, 0, data, progress))
    began = time.perf_counter()
    wall0 = state.wall_s
    deadline = None if settings.minutes is None else began + 60.0 * settings.minutes
    while state.epochs < settings.epochs:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        order = np.random.default_rng([settings.seed, state.epochs]).permutation(trained)
        # an interrupted epoch leaves the state as it was
        params, m, v = state.params.copy(), state.adam_m.copy(), state.adam_v.copy()
        step = np.array([state.adam_step], dtype=np.int64)
        adam_epoch(params, data.boards, data.targets, order, settings.batch, settings.rate,
                   settings.equity_weight, partner, settings.pair_weight,
                   settings.misrank_weight, learning, m, v, step, np.zeros(2))
        if not np.all(np.isfinite(params)):
            raise BgcliError(f"weights diverged in epoch {state.epochs + 1}: try a lower --rate")
        state.params, state.adam_m, state.adam_v = params, m, v
        state.adam_step, state.epochs = int(step[0]), state.epochs + 1
        state.wall_s = wall0 + time.perf_counter() - began
        state.checks.append(epoch_check(state.params, state.epochs, data, progress))
        if (_held_error(state.checks[-1], settings)
                < _held_error(state.checks[state.best_epoch], settings)):
            state.best_params, state.best_epoch = state.params.copy(), state.epochs
        if settings.checkpoint:
            save_checkpoint(settings.checkpoint, state, settings, data.folders, command)
    return state, data.folders, settings


def trained_partners(partner: np.ndarray, trained: np.ndarray,
                     partners: np.ndarray | None = None) -> np.ndarray:
    """``partner`` with -1 wherever the row is not trained on or its partner is not one of
    ``partners`` (default ``trained``: held out, or the other net's with ``--nets``): a
    pair term must not learn from held-out targets."""
    is_trained = np.zeros(partner.size, dtype=np.bool_)
    is_trained[trained] = True
    is_partner = np.zeros(partner.size, dtype=np.bool_)
    is_partner[trained if partners is None else partners] = True
    keep = is_trained & (partner >= 0)
    keep[keep] = is_partner[partner[keep]]
    return np.where(keep, partner, -1)


def learning_mask(nets: str, params: np.ndarray) -> np.ndarray:
    """1.0 for each of ``params``' weights that ``nets`` (one of ``NETS``) trains, 0.0 for
    the others' and for the layout's marks (``kernels.supervised.adam_epoch``)."""
    from .kernels.net import (CONTACT, LATE, NET_SIZE, RACE, SECOND_AT, SECOND_SIZE,
                              has_second_layer, slot_offset)

    slots = {"contact": CONTACT, "race": RACE, "late": LATE}
    mask = np.zeros(params.size)
    for name in (tuple(slots) if nets == "both" else (nets,)):
        first = slot_offset(params, slots[name])
        if first >= 0:  # (no late contact net: -1)
            mask[first:first + NET_SIZE] = 1.0
    if nets in ("both", "contact") and has_second_layer(params):
        mask[SECOND_AT + 1:SECOND_AT + SECOND_SIZE] = 1.0  # after its mark
    return mask


def _held_error(check: dict, settings: FitSettings) -> float:
    """What early stopping minimises: the held-out mean |equity error|, plus the held-out
    mean |difference error| of a roll's plays times ``stop_weight`` when the fit learns
    those (``pair_weight``): that term trades some of the first for the second, and play,
    a ranking of a roll's plays, follows the second."""
    error = check["held_out"]["mean_abs_equity_error"]
    if settings.pair_weight > 0.0 and "held_out_pairs" in check:
        error += settings.stop_weight * check["held_out_pairs"]["mean_abs_difference_error"]
    return math.inf if math.isnan(error) else error


def epoch_check(params, epoch: int, data: TrainingData, progress: Progress | None,
                train: np.ndarray | None = None) -> dict:
    """The record of an epoch: mean |equity error| (with SE) of the held-out positions, of
    the training ones (``train``, default all not held out) and of the held-out positions
    of each source; for held-out positions that are a roll's other plays, the error of
    their equity difference from the play made (``difference_errors``); a line to
    ``progress``."""
    held = data.held_index
    train = data.train_index if train is None else train
    entry = {"epoch": epoch,
             "held_out": equity_errors(params, data.boards[held], data.targets[held]),
             "train": equity_errors(params, data.boards[train], data.targets[train]),
             "held_out_by_source": {}}
    for name in dict.fromkeys(data.source[held]):  # each source once, in order of appearance
        index = held[data.source[held] == name]
        if index.size > 1:
            entry["held_out_by_source"][name] = equity_errors(params, data.boards[index],
                                                              data.targets[index])
    paired = held[data.partner[held] >= 0]
    if paired.size > 1:
        entry["held_out_pairs"] = difference_errors(params, data, paired)
    if progress:
        h, t = entry["held_out"], entry["train"]
        progress(f"epoch {epoch}: |equity error| held out {h['mean_abs_equity_error']:.4f}"
                 f" ± {h['se']:.4f}, training {t['mean_abs_equity_error']:.4f} ± {t['se']:.4f}"
                 + (f", held-out plays' differences "
                    f"{entry['held_out_pairs']['mean_abs_difference_error']:.4f}"
                    f" (misranked {entry['held_out_pairs']['misranked']:.3f}, choice error "
                    f"{entry['held_out_pairs']['choice_error']:.5f})"
                    if "held_out_pairs" in entry else ""))
    return entry


# the arrays of a checkpoint beside the kept weights, for a resumed run
_RESUME_ARRAYS = ("last_params", "adam_m", "adam_v")


def save_checkpoint(path, state: FitState, settings: FitSettings, folders: list[dict],
                    command: str) -> None:
    """The best epoch's weights (what plays: ``BGCLI_WEIGHTS=path``) with their record, and
    the latest weights and Adam's moments for ``--resume``."""
    from .net import save_weights

    save_weights(path, state.best_params, make_record(state, settings, folders, command),
                 extra={"last_params": state.params, "adam_m": state.adam_m,
                        "adam_v": state.adam_v})


def _resumed(path, settings: FitSettings, folders: list[dict]) -> tuple[FitState, FitSettings]:
    from .net import read_extra_arrays, read_weights

    best_params, record = read_weights(path)
    run = record.get("supervised")
    extra = read_extra_arrays(path, _RESUME_ARRAYS)
    if not isinstance(run, dict) or "adam_step" not in run or extra is None:
        raise BgcliError(f"{path}: not a checkpoint of bgcli train --data (0.9.0 or later)")
    if [f["sha256"] for f in run["data"]] != [f["sha256"] for f in folders]:
        raise BgcliError(f"{path} was trained on other data "
                         f"({', '.join(f['folder'] for f in run['data'])}, "
                         f"{sum(f['positions'] for f in run['data'])} positions)")
    if settings.epochs <= run["epochs"]:
        raise BgcliError(f"{path} already has {run['epochs']} epochs: --epochs counts them "
                         f"too, so give more than {run['epochs']}")
    kept = FitSettings(epochs=settings.epochs, rate=run["rate"], batch=run["batch"],
                       equity_weight=run["equity_weight"], seed=run["seed"],
                       minutes=settings.minutes, checkpoint=settings.checkpoint,
                       nets=run.get("nets", "both"), pair_weight=run.get("pair_weight", 0.0),
                       stop_weight=run.get("stop_weight", 1.0),
                       misrank_weight=run.get("misrank_weight", 0.0),
                       second_layer=run.get("second_layer", False),
                       late_net=run.get("late_net", False),
                       cross_pairs=run.get("cross_pairs", False))
    start_record = dict(record)
    start_record["history"] = record["history"][:-1]  # this run's entry is made again
    start_record.pop("supervised", None)
    start_record.update(run["start"])
    state = FitState(params=extra["last_params"], start_record=start_record,
                     best_params=best_params.copy(), best_epoch=run["best_epoch"],
                     adam_m=extra["adam_m"], adam_v=extra["adam_v"],
                     adam_step=run["adam_step"], epochs=run["epochs"],
                     run_from=run["run_from"], wall_s=run["wall_s"], checks=run["checks"])
    return state, kept


def make_record(state: FitState, settings: FitSettings, folders: list[dict],
                command: str) -> dict:
    """The kept weights' record: the starting weights' one, their ``history`` with this
    run added (``{"command", "method", "epochs": [first, last], "best_epoch", "rate",
    "batch", "equity_weight", "data"}``), and under ``supervised`` what a resumed run
    needs."""
    from . import __version__
    from .kernels.net import has_late_net
    from .net import net_shape, second_layer_units

    start = state.start_record
    plies = sorted({f["plies"] for f in folders})
    this_run = {"command": command, "method": "supervised on n-ply search targets",
                "optimiser": "Adam (0.9, 0.999, 1e-8), early stopping on the held-out error",
                "epochs": [state.run_from, state.epochs], "best_epoch": state.best_epoch,
                "rate": settings.rate, "batch": settings.batch,
                "equity_weight": settings.equity_weight, "pair_weight": settings.pair_weight,
                "stop_weight": settings.stop_weight,
                "misrank_weight": settings.misrank_weight, "seed": settings.seed,
                "nets": settings.nets, "cross_pairs": settings.cross_pairs, "data": folders,
                "second_layer_units": second_layer_units(state.best_params),
                "late_net": has_late_net(state.best_params),
                "held_out": state.checks[state.best_epoch]["held_out"]}
    record = dict(start)
    record.update({"command": command, "bgcli_version": __version__,
                   "net": net_shape(state.best_params),
                   "method": f"{start.get('method', 'unknown')}; then supervised on "
                             f"{'/'.join(map(str, plies))}-ply search targets",
                   "history": list(start.get("history", [])) + [this_run]})
    record["supervised"] = {"epochs": state.epochs, "run_from": state.run_from,
                            "best_epoch": state.best_epoch, "adam_step": state.adam_step,
                            "rate": settings.rate, "batch": settings.batch,
                            "equity_weight": settings.equity_weight,
                            "pair_weight": settings.pair_weight,
                            "stop_weight": settings.stop_weight,
                            "misrank_weight": settings.misrank_weight,
                            "seed": settings.seed,
                            "nets": settings.nets, "second_layer": settings.second_layer,
                            "late_net": settings.late_net,
                            "cross_pairs": settings.cross_pairs, "data": folders,
                            "wall_s": round(state.wall_s, 1), "checks": state.checks,
                            "start": {k: start[k] for k in ("command", "method",
                                                            "bgcli_version") if k in start}}
    return record
