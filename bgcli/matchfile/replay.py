"""Every action of a match file played through bgcli's rules engine: each move must be a
legal play of its roll, each cube action allowed, each result what the board and the cube
give. The first fault of a game is reported as ``FILE:LINE: what is wrong`` and the game is
skipped from there (its decisions up to the fault are kept); the other games are still read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..errors import BgcliError
from ..moves import Play, find_play, legal_plays
from ..notation.gnubgid import CENTERED, MAX_15_BITS, MatchState
from ..notation.situation import Situation
from ..notation.xgid import MAX_MATCH_LENGTH
from ..position import Position
from .raw import WIN, Action, RawGame, RawMatch

#: Decision kinds: a checker play, a double offered, the answer to a double (take or drop).
CHECKER, CUBE, ANSWER = "move", "double", "take"


@dataclass(frozen=True)
class Decision:
    """One decision of a game, with the situation it was made in.

    ``situation`` is seen from the player deciding, except for the answer to a double,
    which (as in gnubg) is seen from the doubler, with the double offered in the Match ID.
    A checker play's Match ID holds the dice; ``cube_available`` says whether the mover
    could have doubled before rolling (then not doubling was a cube decision too)."""

    game: int
    move_number: int
    player: int
    kind: str
    situation: Situation
    action: str  # the play ("" when the roll cannot be played), "double", "take", "drop"
    line: int
    dice: tuple[int, int] | None = None
    play: Play | None = None
    cube_available: bool = False


@dataclass
class Game:
    number: int
    score: tuple[int, int]
    crawford: bool
    decisions: list[Decision] = field(default_factory=list)
    winner: int | None = None
    points: int | None = None
    resigned: bool = False
    problem: str | None = None  # "FILE:LINE: what is wrong": the game stops there


@dataclass
class Match:
    path: str
    format: str
    length: int
    names: tuple[str, str]
    games: list[Game] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # every "FILE:LINE: ..." found
    jacoby: bool = False  # money sessions played with the Jacoby rule

    @property
    def decisions(self) -> list[Decision]:
        return [d for game in self.games for d in game.decisions]


class _Fault(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


def _move_text(text: str) -> str:
    """The .mat styles in gnubg's notation: 25 as the bar, 0 as off."""
    text = re.sub(r"(?<![\d/])25/", "bar/", text.strip())
    return re.sub(r"/0(?=\D|$)", "/off", text)


class _GameReplay:
    def __init__(self, match: Match, raw: RawGame, crawford: bool):
        self.match, self.raw = match, raw
        self.game = Game(raw.number, raw.score, crawford)
        self.board0 = Position.start()  # seen from player 0
        self.cube, self.owner = 1, CENTERED
        self.turn: int | None = None
        self.starter: int | None = None
        self.rolls = 0
        self.pending: tuple[int, int] | None = None  # (doubler, new cube value)
        self.over: tuple[int, int] | None = None  # (winner, points) once the game has ended
        self.next_action: Action | None = None  # the action after the one being replayed

    # ------------------------------------------------------------------ state
    def seen_by(self, player: int) -> Position:
        return self.board0 if player == 0 else self.board0.swapped()

    def state(self, player: int, **changes) -> MatchState:
        state = MatchState(cube_value=self.cube, cube_owner=self.owner, player_on_roll=player,
                           crawford=self.game.crawford, turn=player,
                           match_length=self.match.length,
                           score=self.game.score,
                           jacoby=self.match.jacoby and not self.match.length)
        return replace(state, **changes)

    def move_number(self) -> int:
        """The move number of the next action, as a .mat numbers its lines: the rolls so far,
        two a line, counting an empty left half when the right player opened (an answer to a
        double keeps its double's number, where a .mat writes it on the next line)."""
        return (self.rolls + (self.starter or 0)) // 2 + 1

    def cube_available(self, player: int) -> bool:
        if self.game.crawford or self.owner not in (CENTERED, player):
            return False
        if self.match.length:
            # gnubg: no double once the player's score would win the match with the cube
            return self.game.score[player] + self.cube < self.match.length
        return True

    def add(self, action: Action, kind: str, text: str, situation: Situation, **more) -> None:
        self.game.decisions.append(Decision(
            self.game.number, self.move_number(), action.player, kind, situation,
            text, action.line, **more))

    # ------------------------------------------------------------------ actions
    def run(self) -> None:
        actions = self.raw.actions
        for action, following in zip(actions, actions[1:] + [None]):
            self.next_action = following
            if self.over is not None and action.kind != WIN:
                raise _Fault(action.line, f"the game is over, but the file goes on with "
                                          f"{action.kind}")
            getattr(self, "do_" + action.kind)(action)
        if self.raw.problem is None:
            self.finish()

    def check_turn(self, action: Action) -> None:
        if self.turn is not None and action.player != self.turn:
            raise _Fault(action.line, f"it is {self.name(self.turn)}'s turn, not "
                                      f"{self.name(action.player)}'s")

    def name(self, player: int) -> str:
        return self.match.names[player] or f"player {player}"

    def do_move(self, action: Action) -> None:
        if self.pending:
            raise _Fault(action.line, "a roll before the double was taken or dropped")
        self.check_turn(action)
        first = self.starter is None
        if first:
            self.starter = action.player
            if action.dice[0] == action.dice[1]:
                raise _Fault(action.line, f"an opening roll of {action.dice[0]}{action.dice[1]}:"
                                          f" the first roll of a game is never a double")
        position = self.seen_by(action.player)
        if self.resigned_after_rolling(position, action):
            self.rolls += 1  # as gnubg reads it: a roll, no play and no decision to judge
            self.turn = 1 - action.player
            return
        situation = Situation(position, self.state(action.player, dice=action.dice))
        available = not first and self.cube_available(action.player)
        play = self.play(position, action)
        self.add(action, CHECKER, play.notation if play else "", situation, dice=action.dice,
                 play=play, cube_available=available)
        self.rolls += 1
        if play is not None:
            after = play.result
            self.board0 = after if action.player == 0 else after.swapped()
            if after.borne_off()[0] == 15:
                self.over = (action.player, self.cube * self.gammon_factor(after))
        self.turn = 1 - action.player

    def resigned_after_rolling(self, position: Position, action: Action) -> bool:
        """A roll written without its play, though it has one, and the opponent's 'Wins'
        next: the player resigned after rolling (eXtreme Gammon writes '???' there)."""
        after = self.next_action
        return (not action.move and after is not None and after.kind == WIN
                and after.player == 1 - action.player
                and bool(legal_plays(position, action.dice)))

    def play(self, position: Position, action: Action) -> Play | None:
        d1, d2 = action.dice
        if not action.move:
            plays = legal_plays(position, action.dice)
            if plays:
                raise _Fault(action.line, f"no move written for {d1}{d2}, but it can be played "
                                          f"(for example {plays[0].notation})")
            return None
        try:
            return find_play(position, action.dice, _move_text(action.move))
        except BgcliError as error:
            raise _Fault(action.line, f"{action.move!r} is not a legal play of {d1}{d2} for "
                                      f"{self.name(action.player)} ({error})") from None

    def gammon_factor(self, after: Position) -> int:
        loser = after.board[0]
        if loser.sum() < 15:
            return 1
        if self.match.jacoby and not self.match.length and self.owner == CENTERED:
            return 1  # the Jacoby rule: no gammons before the cube is turned
        # a backgammon: a loser's checker on the bar or in the winner's home board
        return 3 if loser[18:].sum() > 0 else 2

    def do_double(self, action: Action) -> None:
        self.check_turn(action)
        if self.pending:
            raise _Fault(action.line, "a double while another is not answered")
        if self.starter is None:
            raise _Fault(action.line, "a double before the opening roll")
        # a dead cube (the score already wins the match with it) may still be turned: the
        # rules allow it and some servers do; only the Crawford game and ownership forbid it
        if self.game.crawford or self.owner not in (CENTERED, action.player):
            why = "in the Crawford game" if self.game.crawford else "the opponent owns the cube"
            raise _Fault(action.line, f"{self.name(action.player)} cannot double: {why}")
        if action.value is not None and action.value != 2 * self.cube:
            raise _Fault(action.line, f"'Doubles => {action.value}' with the cube on {self.cube}")
        situation = Situation(self.seen_by(action.player), self.state(action.player))
        self.add(action, CUBE, "double", situation)
        self.pending = (action.player, 2 * self.cube)

    def answer(self, action: Action, text: str) -> int:
        if not self.pending:
            raise _Fault(action.line, f"'{text}' without a double")
        doubler, _ = self.pending
        if action.player != 1 - doubler:
            raise _Fault(action.line, f"{self.name(action.player)} cannot answer their own double")
        state = self.state(doubler, turn=action.player, double_offered=True)
        self.add(action, ANSWER, text, Situation(self.seen_by(doubler), state))
        return doubler

    def do_take(self, action: Action) -> None:
        self.answer(action, "take")
        self.cube, self.owner = self.pending[1], action.player
        self.pending = None
        self.turn = 1 - action.player  # the doubler rolls

    def do_drop(self, action: Action) -> None:
        doubler = self.answer(action, "drop")
        self.over = (doubler, self.cube)
        self.pending = None

    def do_win(self, action: Action) -> None:
        if self.over is not None:
            winner, points = self.over
            if action.player != winner or action.value != points:
                raise _Fault(action.line, f"the file says {self.name(action.player)} wins "
                                          f"{action.value}, but the game gives "
                                          f"{self.name(winner)} {points}")
            self.end(winner, points, False)
            return
        if action.value not in (self.cube, 2 * self.cube, 3 * self.cube):
            raise _Fault(action.line, f"{self.name(action.player)} wins {action.value} "
                                      f"points with the cube on {self.cube}")
        # the board is not finished: the other side resigned
        self.end(action.player, action.value, True)

    def end(self, winner: int, points: int, resigned: bool) -> None:
        self.game.winner, self.game.points, self.game.resigned = winner, points, resigned
        self.over = (winner, points)

    def finish(self) -> None:
        """The end of the game's actions: its result must be known."""
        result = self.raw.result  # from the file (.sgf's RE)
        if self.game.winner is None and self.over is not None:
            self.end(*self.over, False)
        if result is not None:
            winner, points, resigned = result
            if self.game.winner is None:
                if not resigned:
                    raise _Fault(self.raw.line, f"the result says {self.name(winner)} won "
                                                f"{points}, but the game is not over")
                self.end(winner, points, True)
            elif (winner, points) != (self.game.winner, self.game.points):
                raise _Fault(self.raw.line, f"the result says {self.name(winner)} won {points}, "
                                            f"but the game gives {self.name(self.game.winner)} "
                                            f"{self.game.points}")
        if self.game.winner is None:
            last = self.raw.actions[-1].line if self.raw.actions else self.raw.line
            raise _Fault(last, "the game ends without a result (a truncated file?)")


def _score_problem(score: tuple[int, int], length: int) -> str | None:
    """What is wrong with a game's starting score, if anything."""
    if length and max(score) >= length:
        return (f"the score {score[0]}-{score[1]} leaves nothing to play for in a "
                f"{length}-point match")
    if max(score) > MAX_15_BITS:
        return f"the score {score[0]}-{score[1]} is beyond {MAX_15_BITS}, the most a Match ID holds"
    return None


def replay(raw: RawMatch) -> Match:
    """The games of ``raw`` replayed; problems as ``FILE:LINE: what is wrong``."""
    match = Match(raw.path, raw.format, raw.length, raw.names, jacoby=raw.jacoby)
    match.problems.extend(f"{raw.path}:{p}" for p in raw.problems)
    if not raw.games and not raw.problems:
        match.problems.append(f"{raw.path}:1: no game in this file")
    if raw.length > MAX_MATCH_LENGTH:
        match.problems.append(f"{raw.path}:{raw.length_line}: a {raw.length}-point match: "
                              f"matches of at most {MAX_MATCH_LENGTH} points are read (gnubg's "
                              f"limit)")
        return match
    crawford_seen = False
    expected: tuple[int, int] | None = None
    for raw_game in raw.games:
        score = raw_game.score
        if expected is not None and raw.length and score != expected:
            match.problems.append(f"{raw.path}:{raw_game.line}: the score {score[0]}-{score[1]} "
                                  f"is not the previous game's result {expected[0]}-{expected[1]}")
        one_away = raw.length > 1 and raw.length - 1 in score
        crawford = raw_game.crawford
        if crawford is None:  # the first game with a side 1-away is the Crawford game
            crawford = one_away and not crawford_seen
        crawford_seen = crawford_seen or one_away
        game_replay = _GameReplay(match, raw_game, bool(crawford))
        try:
            problem = _score_problem(score, raw.length)
            if problem:
                raise _Fault(raw_game.line, problem)
            game_replay.run()
        except _Fault as fault:
            game_replay.game.problem = f"{raw.path}:{fault.line}: {fault}"
        if raw_game.problem and not game_replay.game.problem:
            game_replay.game.problem = f"{raw.path}:{raw_game.problem}"
        game = game_replay.game
        if game.problem:
            match.problems.append(game.problem)
        match.games.append(game)
        if game.winner is not None:
            won = list(score)
            won[game.winner] += game.points
            expected = tuple(won)
        else:
            expected = None
    return match
