"""A small neural evaluator: input encoding, forward pass, gradients and TD(lambda) updates.

Two one-hidden-layer networks share one input encoding: a *contact* net and a *race* net,
picked by whether the two sides' checkers have passed each other (the same test as the
heuristic). Both see the position from the side on roll (``board[me]``) and give five
sigmoid outputs in gnubg's order (win, win gammon, win backgammon, lose gammon, lose
backgammon). At evaluation the outputs are made consistent: a gammon is at most a win, a
backgammon at most a gammon, and a gammon or backgammon that can no longer happen is zero:
the loser has borne a checker off (no gammon), or, once the sides are past each other, the
loser has no checker left in the winner's home board (no backgammon: in a race no checker
is ever sent back), as gnubg's sanity checks have it. Training works on the raw sigmoids.

Input encoding (``N_INPUTS`` = 234 values), for side ``s`` = 0 (on roll) and 1 (opponent),
``base = 98 * s``, each side in its own point numbering (index 0 = its 1-point):

* ``base + 4 * i + u``, point ``i`` 0..23, Tesauro's units for ``n`` checkers:
  ``u=0``: n >= 1, ``u=1``: n >= 2, ``u=2``: n >= 3, ``u=3``: (n - 3) / 2 when n > 3;
* ``base + 96``: checkers on the bar / 2;  ``base + 97``: checkers borne off / 15;
* ``196 + 11 * s + f``: hand-made features: ``f=0`` pip count / 167, ``f=1`` blots exposed to
  an opposing checker behind them / 5, ``f=2`` home-board points made / 6,
  ``f=3`` longest prime (consecutive made points) / 6, and three contact features in the
  spirit of gnubg's inputs, each a share of the 36 rolls:
  ``f=4`` escape: the rolls that carry this side's rearmost checker past every opposing
  point made in the 12 points in front of it (``escapes``);
  ``f=5`` containment: 1 - the fewest escaping rolls of an opposing checker standing
  anywhere from this side's 10-point back to the bar (how well this side's points hold it);
  ``f=6`` shots: the rolls of the other side that hit a blot of this side (``shots``);
  and four more after gnubg's:
  ``f=7`` pip loss: the pips this side's hit checker loses, averaged over the 36 rolls
  (a roll that can hit several blots takes the most advanced) / 12;
  ``f=8`` break contact: the pips its checkers must travel to pass the other side's
  rearmost checker (one on the bar counts as on its 24-point) / 167;
  ``f=9`` timing: the pips it can play without breaking a made point of its home board or
  an anchor in the other's home board (each keeps two checkers; every other checker on
  its point ``i`` can move ``i`` pips) / 100;
  ``f=10`` back game: when it holds two or more points in the other's home board, the
  checkers it has there / 6 (else 0);
  and (0.9.7) eight more after gnubg's:
  ``f=11`` rearmost checker: its point / 25 (the bar 1); ``f=12`` rearmost made point / 24;
  ``f=13`` forward anchor: the most advanced point made among its 13- to 24-points, as
  (point - 12) / 6 (0: none); ``f=14`` double shots: the rolls of the other side that
  can hit two different blots (each on its own) / 36; ``f=15`` near containment: as
  ``f=5``, over the points from our 10-point back to the other's rearmost checker only;
  ``f=16`` mobility: over its checkers outside its home board, the rolls that carry each
  past the other's points times its distance from home, / 3600; ``f=17`` one-sided
  moment: the mean squared distance beyond the mean point of the checkers behind it,
  / 400; ``f=18`` dance: (points made in the other's home board / 6) squared.
  Pips, borne off and timing are linear in the point and bar inputs; playouts fold them
  into those rows (``fold_linear_extras``).

Earlier nets had fewer features per side (4 up to session 3, 7 in session 4, 11 up to
0.9.6), the same ones first: ``scripts/widen_net_inputs.py`` carries such weights over,
with zero weights for the new inputs, so the wider net starts as the same function.

Weight layout: ``params`` is one flat float64 array holding the contact net then the race net,
``NET_SIZE`` values each (``N_HIDDEN`` = H hidden units, N inputs):

* ``[0, N*H)``: W1, input-major (``W1[i, j]`` at ``i * H + j``: input i -> hidden j), so the
  sparse forward pass adds one contiguous row per nonzero input;
* ``[N*H, N*H + H)``: b1;
* ``[N*H + H, N*H + 6H)``: W2, output-major (``W2[k, j]`` at ``k * H + j``);
* ``[N*H + 6H, N*H + 6H + 5)``: b2.

The contact net may have a second hidden layer of ``N_HIDDEN2`` units (``h2 = act(V h + c)``)
whose outputs add to the first layer's: ``y_k = logistic(b2_k + W2_k h + U_k h2)``. Its
weights follow the two nets, behind a mark (``SECOND_AT``..): a one-layer net is the same
array without them, and a two-layer net with ``U = 0`` is the same function as its
one-layer part, so a trained net grows the layer without forgetting what it knows.

A third net of the same shape, the *late contact* net, may follow them (after the second
layer, if any) behind its own mark (``LATE_NET_MARK``, then ``NET_SIZE`` values): with it,
the contact positions where one side bears off or has every checker home while the other
still holds a point or a checker back (``bgcli.learn.late_contact``) are valued by it, as
gnubg values its "crashed" positions by a net of their own. Without it (the shipped nets
so far) the contact net values them.

Hidden units use a rational sigmoid ``0.5 + 0.5 * z / (1 + |z|)`` (no ``exp``; it
vectorises); the five outputs use the logistic function.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
# count leading / trailing zero bits (one instruction each)
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

N_SIDE = 98
N_FEATURES = 19
N_INPUTS = 2 * N_SIDE + 2 * N_FEATURES  # 234
N_HIDDEN = 80
N_OUTPUTS = 5
W1_SIZE = N_INPUTS * N_HIDDEN
B1_AT = W1_SIZE
W2_AT = B1_AT + N_HIDDEN
B2_AT = W2_AT + N_OUTPUTS * N_HIDDEN
NET_SIZE = B2_AT + N_OUTPUTS
CONTACT, RACE, LATE = 0, 1, 2  # the nets' slots
PARAMS_SIZE = 2 * NET_SIZE
MAX_NONZERO = N_INPUTS

# The contact net's optional second hidden layer (see the module docstring), right after the
# two nets when ``params[SECOND_AT]`` holds ``SECOND_LAYER_MARK``:
N_HIDDEN2 = 20
SECOND_AT = PARAMS_SIZE
V_AT = SECOND_AT + 1  # V, input-major (``V[j, m]`` at ``j * N_HIDDEN2 + m``)
C_AT = V_AT + N_HIDDEN * N_HIDDEN2  # c
U_AT = C_AT + N_HIDDEN2  # U, output-major (``U[k, m]`` at ``k * N_HIDDEN2 + m``)
SECOND_SIZE = U_AT + N_OUTPUTS * N_HIDDEN2 - SECOND_AT
SECOND_LAYER_MARK = float(3 << 38)  # exact in float32 too; no weight comes near it
LATE_NET_MARK = float(5 << 38)  # the late contact net follows (see the module docstring)
#: The room a hidden-layer buffer ``h`` needs: the first layer's units, then the second
#: layer's units and their pre-activations (used only by a net that has that layer).
HIDDEN_ROOM = N_HIDDEN + 2 * N_HIDDEN2

_PIP_SCALE = 1.0 / 167.0


@njit(cache=True, nogil=True, inline="always")
def _hidden_act(z):
    return 0.5 + 0.5 * z / (1.0 + abs(z))


@njit(cache=True, nogil=True, inline="always")
def _logistic(z):
    return 1.0 / (1.0 + math.exp(-z))


@njit(cache=True, nogil=True, inline="always")
def has_second_layer(params):
    """Whether ``params`` (weights, maybe followed by the bear-off tables) hold the contact
    net's second hidden layer."""
    return (params.shape[0] >= PARAMS_SIZE + SECOND_SIZE
            and params[SECOND_AT] == SECOND_LAYER_MARK)


@njit(cache=True, nogil=True, inline="always")
def _two_nets_end(params):
    """Where the contact and race nets (and the contact net's second layer) end."""
    return PARAMS_SIZE + SECOND_SIZE if has_second_layer(params) else PARAMS_SIZE


@njit(cache=True, nogil=True, inline="always")
def late_net_offset(params):
    """Where the late contact net starts in ``params``, or -1 when it has none."""
    at = _two_nets_end(params)
    if params.shape[0] >= at + 1 + NET_SIZE and params[at] == LATE_NET_MARK:
        return at + 1
    return -1


@njit(cache=True, nogil=True, inline="always")
def weights_end(params):
    """Where the net's weights end in ``params`` (what follows is not the net's)."""
    late = late_net_offset(params)
    return late + NET_SIZE if late >= 0 else _two_nets_end(params)


@njit(cache=True, nogil=True, inline="always")
def _late_contact(my_left, your_left, my_rear, your_rear):
    """Given contact: a side has borne a checker off or has every checker home (its rearmost
    point below its 7-point), the other side still holding a point or a checker back."""
    return my_left < 15 or your_left < 15 or my_rear < 6 or your_rear < 6


@njit(cache=True, nogil=True, inline="always")
def _net_slot(my_left, your_left, my_rear, your_rear, late):
    """The slot of the net that values a position (CONTACT, RACE, LATE) from each side's
    checkers left and rearmost point; ``late``: ``late_net_offset`` of the weights."""
    if not _rears_in_contact(my_rear, your_rear):
        return RACE
    if late >= 0 and _late_contact(my_left, your_left, my_rear, your_rear):
        return LATE
    return CONTACT


@njit(cache=True, nogil=True, inline="always")
def slot_offset(params, slot):
    """Where the net of ``slot`` (CONTACT, RACE, LATE) starts in ``params``."""
    if slot == CONTACT:
        return 0
    return NET_SIZE if slot == RACE else late_net_offset(params)


@njit(cache=True, nogil=True)
def net_offset(board, me, params):
    """Where the net that values ``board`` (``me`` on roll) starts in ``params``."""
    my_rear, your_rear = rears(board, me)
    my_left = 0
    your_left = 0
    for index in range(25):
        my_left += board[me, index]
        your_left += board[1 - me, index]
    late = late_net_offset(params)
    return slot_offset(params, _net_slot(my_left, your_left, my_rear, your_rear, late))


@njit(cache=True, nogil=True)
def is_contact(board, me):
    """Whether some checker of one side still has an opposing checker in front of it."""
    my_rear, your_rear = rears(board, me)
    return _rears_in_contact(my_rear, your_rear)


@njit(cache=True, nogil=True, inline="always")
def rears(board, me):
    """Each side's rearmost point, ``me``'s first (own numbering, 24 = bar, -1 = none)."""
    my_rear = -1
    your_rear = -1
    for index in range(25):
        if board[me, index] > 0:
            my_rear = index
        if board[1 - me, index] > 0:
            your_rear = index
    return my_rear, your_rear


@njit(cache=True, nogil=True, inline="always")
def _rears_in_contact(my_rear, your_rear):
    """Contact from the two sides' rearmost points (own numbering, 24 = bar, -1 = none)."""
    return not (my_rear + 1 < 24 - your_rear)


#: Per side, the inputs after the points, in the order ``board_inputs`` computes them.
N_EXTRA = 21
(BAR, OFF, PIPS, BLOTS, HOME, PRIME, ESCAPE, CONTAIN, SHOTS, PIP_LOSS, BREAK, TIMING,
 BACK_GAME, BACK_CHECKER, BACK_ANCHOR, FORWARD_ANCHOR, DOUBLE_SHOTS, NEAR_CONTAIN, MOBILITY,
 MOMENT, DANCE) = range(N_EXTRA)


@njit(cache=True, nogil=True, inline="always")
def extra_input(s, k):
    """Input index of extra ``k`` (BAR .. BACK_GAME) of encoding side ``s`` (0 on roll)."""
    if k == BAR:
        return s * N_SIDE + 96
    if k == OFF:
        return s * N_SIDE + 97
    return 2 * N_SIDE + s * N_FEATURES + (k - PIPS)


def _escape_table():
    """``ESCAPES[mask]``: how many of the 36 rolls carry a lone checker past every blocked
    point of ``mask`` (bit ``k``: the point ``k + 1`` pips ahead is blocked, 12 bits), each
    die landing on an open point. Computed for all masks at once (numpy, a few ms)."""
    masks = np.arange(1 << 12)
    furthest = np.zeros(masks.size, dtype=np.int64)  # pips to the furthest block (0: none)
    for k in range(12):
        furthest[(masks >> k) & 1 == 1] = k + 1

    def open_(pips):
        return np.ones(masks.size, bool) if pips > 12 else (masks >> (pips - 1)) & 1 == 0

    table = np.zeros(masks.size, dtype=np.int64)
    for a in range(1, 7):
        for b in range(1, 7):
            if a == b:  # up to four steps, each landing open, until past the blocks
                escaped = np.zeros(masks.size, bool)
                still_moving = np.ones(masks.size, bool)
                for step in range(1, 5):
                    still_moving &= open_(step * a)
                    escaped |= still_moving & (step * a > furthest)
            else:
                escaped = np.zeros(masks.size, bool)
                for x, y in ((a, b), (b, a)):
                    escaped |= open_(x) & ((x > furthest) | (open_(x + y) & (x + y > furthest)))
            table += escaped
    return table


ESCAPES = _escape_table()


@njit(cache=True, nogil=True)
def escapes(made_ahead, point):
    """Of the 36 rolls, those that carry a checker on ``point`` (its own numbering, 24 = bar)
    past the points made in the 12 in front of it. ``made_ahead``: bit ``j`` when the
    *other* side has made its own point ``j``, which is the mover's point ``23 - j``."""
    # bit k of the shifted mask is the other's point 24 - point + k, the mover's point
    # point - 1 - k: the point k + 1 pips ahead
    return ESCAPES[(made_ahead >> (24 - point)) & 4095]


def _hit_table():
    """The ways to move one checker exactly ``d`` pips (1..24) with one roll, as rows
    ``(rolls, path_a, path_b)`` from ``HIT_ROWS[HIT_FIRST[d]:HIT_FIRST[d + 1]]``: the roll
    mask ``rolls`` (bit ``6 * (a - 1) + (b - 1)``: the ordered roll a, b) moves it there when
    none of the points of ``path_a`` is blocked, or none of ``path_b`` (bit ``k``: the point
    ``k + 1`` pips ahead, where a die lands on the way)."""
    def roll_bit(a, b):
        return 1 << (6 * (a - 1) + (b - 1))

    rows, first = [], [0, 0]
    for d in range(1, 25):
        if d <= 6:  # one die: every roll that has it
            rows.append((sum(roll_bit(d, x) | roll_bit(x, d) for x in range(1, 7)), 0, 0))
        for a in range(1, 7):
            b = d - a
            if a < b <= 6:  # either die first, landing on the way
                rows.append((roll_bit(a, b) | roll_bit(b, a), 1 << (a - 1), 1 << (b - 1)))
            steps = d // a
            if d % a == 0 and 2 <= steps <= 4:  # doubles: every step lands on the way
                path = sum(1 << (k * a - 1) for k in range(1, steps))
                rows.append((roll_bit(a, a), path, path))
        first.append(len(rows))
    return np.array(rows, dtype=np.int64), np.array(first, dtype=np.int64)


HIT_ROWS, HIT_FIRST = _hit_table()
#: Pips up to which the hitting rolls are looked up whole (the rows beyond: doubles only).
NEAR = 12


def _near_hit_table():
    """``NEAR_HITS[NEAR_FIRST[d] + blocked]``: the rolls that move one checker exactly ``d``
    pips (1..NEAR), the points ahead blocked as ``blocked`` says (bit ``k``: ``k + 1`` pips
    ahead; only the ``d - 1`` points before the target matter): ``HIT_ROWS`` folded into
    one lookup, 4,095 masks in all."""
    first = [0, 0]
    for d in range(1, NEAR + 1):
        first.append(first[-1] + (1 << (d - 1)))
    table = np.zeros(first[-1], dtype=np.int64)
    for d in range(1, NEAR + 1):
        blocked = np.arange(1 << (d - 1))
        for rolls, path_a, path_b in HIT_ROWS[HIT_FIRST[d]:HIT_FIRST[d + 1]]:
            moves = ((blocked & path_a) == 0) | ((blocked & path_b) == 0)
            table[first[d]:first[d + 1]] |= np.where(moves, rolls, 0)
    return table, np.array(first, dtype=np.int64)


NEAR_HITS, NEAR_FIRST = _near_hit_table()
_ALL_ROLLS = (1 << 36) - 1


@njit(cache=True, nogil=True)
def _count_shots(blots, hitters, made):
    """Of the 36 rolls, those that hit a blot of one side (``blots``: bit ``t`` for its blot
    on its point ``t``; ``made``: bit ``j`` for its made point ``j``) with a checker of the
    other side (``hitters``: bit ``h`` for its checker on its point ``h``, 24 = bar); and
    the pips lost to them: each hitting roll costs the most a checker it can hit loses
    (24 - t from point ``t`` to the bar); and the rolls that can hit two different blots
    (each on its own: whether one play hits both is not checked). Returns ``(rolls, pips
    lost, rolls hitting two)``."""
    rolls = np.int64(0)
    twice = np.int64(0)  # rolls that hit one blot and can hit another
    lost = 0
    while blots:
        t = trailing_zeros(blots)  # the lowest blot left (it loses the most); clear its bit
        blots &= blots - 1
        target = 23 - t  # the blot's point in the hitter's numbering
        ahead = hitters >> (target + 1)  # bit d - 1: a hitter d pips away
        hitting = np.int64(0)
        while ahead:
            d = trailing_zeros(ahead) + 1
            ahead &= ahead - 1
            # bit k: the hitter's point start - 1 - k, our point 24 - start + k
            blocked = made >> (24 - target - d)
            if d <= NEAR:
                hitting |= NEAR_HITS[NEAR_FIRST[d] + (blocked & ((1 << (d - 1)) - 1))]
            else:
                for row in range(HIT_FIRST[d], HIT_FIRST[d + 1]):
                    if (blocked & HIT_ROWS[row, 1]) == 0 or (blocked & HIT_ROWS[row, 2]) == 0:
                        hitting |= HIT_ROWS[row, 0]
        # blots come most advanced first, so a roll is charged for the first blot it hits
        lost += _bit_count(hitting & ~rolls) * (24 - t)
        twice |= hitting & rolls
        rolls |= hitting
        if twice == _ALL_ROLLS:
            break
    return _bit_count(rolls), lost, _bit_count(twice)


@njit(cache=True, nogil=True, inline="always")
def _bit_count(bits):
    """Set bits of a nonnegative int64 below bit 56 (a branch-free popcount)."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, nogil=True)
def shots(board, side, made_side):
    """Of the 36 rolls, those with which the other side can hit a blot of ``side``, and the
    pips ``side`` loses to them (see ``_count_shots``): ``(rolls, pips lost)``. A hit is one
    checker moving the whole distance with one die or both (doubles: up to four steps),
    every die landing on a point ``side`` has not made (``made_side``: bit ``j`` when it
    made its point ``j``). With checkers on the bar only a checker from the bar hits (the
    rest must wait for it to enter); nothing else about the other side's play is checked."""
    blots = np.int64(0)
    hitters = np.int64(0)
    for i in range(25):
        if i < 24 and board[side, i] == 1:
            blots |= np.int64(1) << i
        if board[1 - side, i] > 0:
            hitters |= np.int64(1) << i
    if board[1 - side, 24] > 0:
        hitters = np.int64(1) << 24
    rolls, lost, _ = _count_shots(blots, hitters, made_side)
    return rolls, lost


#: Positions in ``_scan``'s tuple of the checkers left (bar included) and the rearmost point.
_LEFT, _REAR = 0, 8
#: Bits of a side's home-board points (0-5) and of its anchor points in the other's (18-23).
_HOME_AND_BACK = np.int64(63 | (63 << 18))


@njit(cache=True, nogil=True, inline="always")
def _scan(board, side):
    """One side's counts and point masks (bit ``i``: its point ``i``; 24 = bar).

    The loop over the points has no branch: which points hold checkers varies from one
    play to the next, and a branch on it was mispredicted so often that the scan cost as
    much as the rest of the features. The counts that need the made points (home points,
    the longest prime, timing) come from the mask afterwards."""
    left = 0
    pips = 0
    free = 0  # timing: pips playable without breaking home points or back anchors
    made = np.int64(0)
    blots = np.int64(0)
    occupied = np.int64(0)
    for i in range(24):
        c = np.int64(board[side, i])
        left += c
        pips += c * (i + 1)
        free += c * i
        occupied |= np.int64(c > 0) << i
        made |= np.int64(c >= 2) << i
        blots |= np.int64(c == 1) << i
    back = 0  # checkers in the other side's home board
    for i in range(18, 24):
        back += np.int64(board[side, i])
    kept = made & _HOME_AND_BACK
    while kept:  # two checkers stay on each such point
        free -= 2 * trailing_zeros(kept)
        kept &= kept - 1
    best_prime = 0
    run = made
    while run:  # each step keeps the points that end a run one longer
        run &= run << 1
        best_prime += 1
    bar = np.int64(board[side, 24])
    occupied |= np.int64(bar > 0) << 24
    rear = 63 - leading_zeros(occupied)  # the highest bit; -1 when none
    return (left + bar, pips + 25 * bar, bar, made, blots, occupied, _bit_count(made & 63),
            best_prime, rear, free + 24 * bar, back)


@njit(cache=True, nogil=True, inline="always")
def _break_contact(board, side, pips, left, other_rear):
    """Pips ``side``'s checkers (``left`` of them, ``pips`` to go) must travel to pass the
    other side's rearmost checker (on the other's point ``other_rear``, -1 = none left; one
    on the bar counts as on its 24-point, where it enters at the earliest): to get below
    that point. Counted as all the pips less those of the checkers already past it."""
    if other_rear < 0:
        return 0
    rear_at = 23 - min(other_rear, 23)  # that checker's point in side's numbering
    for i in range(rear_at):  # the checkers past it
        c = np.int64(board[side, i])
        pips -= c * (i + 1)
        left -= c
    return pips - rear_at * left


@njit(cache=True, nogil=True, inline="always")
def _mobility(board, side, occupied, other_made):
    """Over ``side``'s checkers outside its home board (bar included), the rolls that carry
    each past the other side's points (``escapes``) times its distance from home."""
    total = 0
    rest = (occupied >> 6) << 6
    while rest:
        i = trailing_zeros(rest)
        rest &= rest - 1
        total += np.int64(board[side, i]) * escapes(other_made, i) * (i - 5)
    return total


@njit(cache=True, nogil=True, inline="always")
def _moment(board, side, pips, left):
    """One-sided second moment of ``side``'s checkers: the mean squared distance beyond
    their mean point (the bar counts 25) of those behind it (how far its stragglers
    trail)."""
    if left == 0:
        return 0.0
    mean = pips / left
    weight = 0
    total = 0.0
    for i in range(25):
        c = np.int64(board[side, i]) * np.int64(i + 1 > mean)
        d = i + 1 - mean
        weight += c
        total += c * d * d
    return total / weight if weight > 0 else 0.0


@njit(cache=True, nogil=True, inline="always")
def _side_features(extras, board, side, scan, other_scan):
    left, pips, bar, made, blots, occupied, home, best_prime, rear, free, back = scan
    _, _, other_bar, other_made, _, other_occupied, other_home, _, other_rear, _, _ = other_scan
    # a blot is exposed when an opposing checker is behind it: on the other side's points
    # 24 - i .. bar, i.e. when the other's rearmost checker is that far back
    behind = 24 - other_rear  # 25 when the other side has no checker left
    exposed = (blots >> behind) << behind
    fewest = 36
    fewest_near = 36  # the same, only as far back as the other side's rearmost checker
    for point in range(15, 25):  # an opposing checker from our 10-point back to the bar
        n = escapes(made, point)
        fewest = min(fewest, n)
        fewest_near = min(fewest_near, n if point <= other_rear else 36)
    hitters = (np.int64(1) << 24) if other_bar > 0 else other_occupied
    extras[BAR] = bar * 0.5
    extras[OFF] = (15 - left) / 15.0
    extras[PIPS] = pips * _PIP_SCALE
    extras[BLOTS] = _bit_count(exposed) / 5.0
    extras[HOME] = home / 6.0
    extras[PRIME] = best_prime / 6.0
    extras[ESCAPE] = escapes(other_made, rear) / 36.0 if rear >= 0 else 0.0
    extras[CONTAIN] = (36 - fewest) / 36.0
    rolls, lost, twice = _count_shots(exposed, hitters, made)  # 0s at once with no blot exposed
    extras[SHOTS] = rolls / 36.0
    extras[PIP_LOSS] = lost / (36.0 * 12.0)
    extras[BREAK] = _break_contact(board, side, pips, left, other_rear) * _PIP_SCALE
    extras[TIMING] = free / 100.0
    back_points = _bit_count((made >> 18) & 63)
    extras[BACK_GAME] = back / 6.0 if back_points >= 2 else 0.0
    extras[BACK_CHECKER] = (rear + 1) / 25.0
    extras[BACK_ANCHOR] = (64 - leading_zeros(made)) / 24.0 if made else 0.0
    forward = (made >> 12) & 4095  # its points 13-24: the other side's 12 to 1
    extras[FORWARD_ANCHOR] = (1 + trailing_zeros(forward)) / 6.0 if forward else 0.0
    extras[DOUBLE_SHOTS] = twice / 36.0
    extras[NEAR_CONTAIN] = (36 - fewest_near) / 36.0
    extras[MOBILITY] = _mobility(board, side, occupied, other_made) / 3600.0
    extras[MOMENT] = _moment(board, side, pips, left) / 400.0
    extras[DANCE] = (other_home / 6.0) ** 2


@njit(cache=True, nogil=True)
def board_inputs(board, me, extras):
    """The ``N_EXTRA`` input values beyond the points (bar, borne off, and the
    ``N_FEATURES`` hand-made features, scaled as the net sees them) of ``me`` into
    ``extras[0]`` and of the other side into ``extras[1]``."""
    _fill_extras(board, me, extras)


@njit(cache=True, nogil=True, inline="always")
def _fill_extras(board, me, extras):
    """``board_inputs``, returning the two sides' scans (``me``'s first) for callers that
    need more of them (``net_choose``)."""
    mine = _scan(board, me)
    theirs = _scan(board, 1 - me)
    _side_features(extras[0], board, me, mine, theirs)
    _side_features(extras[1], board, 1 - me, theirs, mine)
    return mine, theirs


@njit(cache=True, nogil=True, inline="always")
def point_unit(c, u):
    """Tesauro's unit ``u`` (0..3) for ``c`` checkers on a point."""
    if u < 3:
        return 1.0 if c > u else 0.0
    return (c - 3) * 0.5 if c > 3 else 0.0


@njit(cache=True, nogil=True)
def encode(board, me, idx, val):
    """Write the nonzero inputs of ``board`` seen by ``me`` into ``idx``/``val``; their count.
    Per side: its points' units, then its extras (bar, off, features) in input order."""
    extras = np.empty((2, N_EXTRA), dtype=val.dtype)
    board_inputs(board, me, extras)
    return encode_with(board, me, extras, idx, val)


@njit(cache=True, nogil=True, inline="always")
def encode_with(board, me, extras, idx, val):
    """``encode`` with the extras (``board_inputs``) already computed: allocates nothing."""
    n = 0
    for s in range(2):
        side = me if s == 0 else 1 - me
        base = s * N_SIDE
        for i in range(24):
            c = np.int64(board[side, i])
            if c >= 1:  # the units of a point are nonzero from the first one up
                idx[n] = base + 4 * i
                val[n] = 1.0
                n += 1
                if c >= 2:
                    idx[n] = base + 4 * i + 1
                    val[n] = 1.0
                    n += 1
                    if c >= 3:
                        idx[n] = base + 4 * i + 2
                        val[n] = 1.0
                        n += 1
                        if c > 3:
                            idx[n] = base + 4 * i + 3
                            val[n] = (c - 3) * 0.5
                            n += 1
        for k in range(N_EXTRA):
            v = extras[s, k]
            if v != 0.0:
                idx[n] = extra_input(s, k)
                val[n] = v
                n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _row(weights, start):
    """The ``N_HIDDEN`` weights from ``start`` on, as a view. Every loop over hidden units
    indexes such a view from 0, never ``weights[start + j]``: numba wraps negative indices
    around, and as it cannot tell that ``start + j`` is never negative, it checks every
    element, which keeps the loop from vectorising (measured: 50-70 ns a row against 8)."""
    return weights[start:start + N_HIDDEN]


@njit(cache=True, nogil=True, inline="always")
def _row2(weights, start):
    """The ``N_HIDDEN2`` weights from ``start`` on, as a view (as ``_row``)."""
    return weights[start:start + N_HIDDEN2]


@njit(cache=True, nogil=True, error_model="numpy")
def forward(params, offset, idx, val, n, z, h, y):
    """One net (at ``params[offset:]``) on the sparse input: pre-activations ``z``, hidden
    ``h`` and raw outputs ``y``."""
    bias = _row(params, offset + B1_AT)
    for j in range(N_HIDDEN):  # a loop, not z[:] = ...: net_choose_into has no allocator
        z[j] = bias[j]
    for t in range(n):
        row = _row(params, offset + idx[t] * N_HIDDEN)
        v = val[t]
        for j in range(N_HIDDEN):
            z[j] += v * row[j]
    _outputs(params, offset, z, h, y)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _outputs(params, offset, z, h, y):
    """Hidden activations ``h`` and raw outputs ``y`` from the pre-activations ``z``; with
    the contact net's second layer, ``h`` (``HIDDEN_ROOM`` long) gets its units and their
    pre-activations behind the first layer's.

    The five output sums run side by side in one pass over the hidden units: five
    independent chains of additions keep the CPU busy where one sum at a time waits on each
    addition (twice as fast). Each sum still adds its terms in hidden-unit order, so the
    result is bit for bit that of five separate loops. Works in the precision of ``params``
    (float64, or float32 for ``net_choose``). Inlined by numba for the same reason as
    ``_add_point_changes``."""
    half = h.dtype.type(0.5)  # constants in the arrays' precision (see net_choose)
    one = h.dtype.type(1.0)
    for j in range(N_HIDDEN):
        h[j] = half + half * z[j] / (one + abs(z[j]))
    w0 = _row(params, offset + W2_AT)
    w1 = _row(params, offset + W2_AT + N_HIDDEN)
    w2 = _row(params, offset + W2_AT + 2 * N_HIDDEN)
    w3 = _row(params, offset + W2_AT + 3 * N_HIDDEN)
    w4 = _row(params, offset + W2_AT + 4 * N_HIDDEN)
    a0 = params[offset + B2_AT]
    a1 = params[offset + B2_AT + 1]
    a2 = params[offset + B2_AT + 2]
    a3 = params[offset + B2_AT + 3]
    a4 = params[offset + B2_AT + 4]
    for j in range(N_HIDDEN):
        hj = h[j]
        a0 += w0[j] * hj
        a1 += w1[j] * hj
        a2 += w2[j] * hj
        a3 += w3[j] * hj
        a4 += w4[j] * hj
    if offset == 0 and has_second_layer(params):
        h2 = h[N_HIDDEN:N_HIDDEN + N_HIDDEN2]
        z2 = h[N_HIDDEN + N_HIDDEN2:N_HIDDEN + 2 * N_HIDDEN2]
        bias = _row2(params, C_AT)
        for m in range(N_HIDDEN2):
            z2[m] = bias[m]
        # Row by row. The loop over 20 units is too short for the compiler to vectorise
        # (measured scalar: a row of 80 is, 80 rows of 20 are not), so this layer costs about
        # 350 ns a candidate against some 640 for the rest of a choice (docs/net.md,
        # "Session 23").
        for j in range(N_HIDDEN):
            hj = h[j]
            row = _row2(params, V_AT + j * N_HIDDEN2)
            for m in range(N_HIDDEN2):
                z2[m] += hj * row[m]
        for m in range(N_HIDDEN2):
            h2[m] = half + half * z2[m] / (one + abs(z2[m]))
        u0 = _row2(params, U_AT)
        u1 = _row2(params, U_AT + N_HIDDEN2)
        u2 = _row2(params, U_AT + 2 * N_HIDDEN2)
        u3 = _row2(params, U_AT + 3 * N_HIDDEN2)
        u4 = _row2(params, U_AT + 4 * N_HIDDEN2)
        for m in range(N_HIDDEN2):
            hm = h2[m]
            a0 += u0[m] * hm
            a1 += u1[m] * hm
            a2 += u2[m] * hm
            a3 += u3[m] * hm
            a4 += u4[m] * hm
    y[0] = _logistic(a0)
    y[1] = _logistic(a1)
    y[2] = _logistic(a2)
    y[3] = _logistic(a3)
    y[4] = _logistic(a4)


@njit(cache=True, nogil=True)
def outcome(board, me, out):
    """A finished game's five 0/1 indicators for ``me`` (the side with no checkers won)."""
    winner = me
    for index in range(25):
        if board[me, index] > 0:
            winner = 1 - me
            break
    loser = 1 - winner
    left = 0
    in_home = 0
    for index in range(25):
        left += board[loser, index]
        if index >= 18:
            in_home += board[loser, index]
    gammon = 1.0 if left == 15 else 0.0
    backgammon = 1.0 if left == 15 and in_home > 0 else 0.0
    for k in range(5):
        out[k] = 0.0
    if winner == me:
        out[0], out[1], out[2] = 1.0, gammon, backgammon
    else:
        out[3], out[4] = gammon, backgammon


@njit(cache=True, nogil=True)
def _game_over(board):
    for side in range(2):
        done = True
        for index in range(25):
            if board[side, index] > 0:
                done = False
                break
        if done:
            return True
    return False


@njit(cache=True, nogil=True)
def make_consistent(board, me, y, out):
    """Raw outputs -> consistent cumulative probabilities (see module docstring)."""
    my_left = 0
    your_left = 0
    for index in range(25):
        my_left += board[me, index]
        your_left += board[1 - me, index]
    my_rear, your_rear = rears(board, me)
    _consistent(my_left, your_left, my_rear, your_rear, y, out)


@njit(cache=True, nogil=True, inline="always")
def _consistent(my_left, your_left, my_rear, your_rear, y, out):
    """``make_consistent`` given the checkers each side has left and its rearmost point."""
    race = not _rears_in_contact(my_rear, your_rear)
    win = y[0]
    out[0] = win
    out[1] = min(y[1], win) if your_left == 15 else 0.0
    out[2] = 0.0 if race and your_rear < 18 else min(y[2], out[1])
    out[3] = min(y[3], 1.0 - win) if my_left == 15 else 0.0
    out[4] = 0.0 if race and my_rear < 18 else min(y[4], out[3])


@njit(cache=True, nogil=True)
def net_probabilities(board, me, params, out):
    """The net's five consistent probabilities for ``me`` on roll (exact when over)."""
    if _game_over(board):
        outcome(board, me, out)
        return
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    buf = np.empty(MAX_NONZERO + N_HIDDEN + HIDDEN_ROOM + N_OUTPUTS)  # one allocation, views
    val = buf[:MAX_NONZERO]
    z = buf[MAX_NONZERO:MAX_NONZERO + N_HIDDEN]
    h = buf[MAX_NONZERO + N_HIDDEN:MAX_NONZERO + N_HIDDEN + HIDDEN_ROOM]
    y = buf[MAX_NONZERO + N_HIDDEN + HIDDEN_ROOM:]
    n = encode(board, me, idx, val)
    forward(params, net_offset(board, me, params), idx, val, n, z, h, y)
    make_consistent(board, me, y, out)


@njit(cache=True, nogil=True, error_model="numpy")
def add_gradient(params, offset, idx, val, n, z, h, y, coef, grad):
    """``grad += sum_k coef[k] * d y_k / d weights`` for one net (``grad`` is laid out like
    ``params``; only the net at ``offset`` is touched, with its second layer if it has
    one). ``z``, ``h`` and ``y`` are what ``forward`` left."""
    scratch = np.zeros(N_HIDDEN + N_HIDDEN2)  # one allocation: d/dh, then the 2nd layer's d/dz2
    dh = scratch[:N_HIDDEN]
    dz2 = scratch[N_HIDDEN:]
    second = offset == 0 and has_second_layer(params)
    for k in range(N_OUTPUTS):
        c = coef[k] * y[k] * (1.0 - y[k])  # through the logistic output
        if c == 0.0:
            continue
        grad[offset + B2_AT + k] += c
        grad_w = _row(grad, offset + W2_AT + k * N_HIDDEN)
        w = _row(params, offset + W2_AT + k * N_HIDDEN)
        for j in range(N_HIDDEN):
            grad_w[j] += c * h[j]
            dh[j] += c * w[j]
        if second:
            grad_u = _row2(grad, U_AT + k * N_HIDDEN2)
            u = _row2(params, U_AT + k * N_HIDDEN2)
            for m in range(N_HIDDEN2):
                grad_u[m] += c * h[N_HIDDEN + m]
                dz2[m] += c * u[m]
    if second:
        grad_c = _row2(grad, C_AT)
        for m in range(N_HIDDEN2):
            d = 1.0 + abs(h[N_HIDDEN + N_HIDDEN2 + m])  # its pre-activation
            dz2[m] *= 0.5 / (d * d)
            grad_c[m] += dz2[m]
        for j in range(N_HIDDEN):
            grad_v = _row2(grad, V_AT + j * N_HIDDEN2)
            v = _row2(params, V_AT + j * N_HIDDEN2)
            hj = h[j]
            total = 0.0
            for m in range(N_HIDDEN2):
                grad_v[m] += hj * dz2[m]
                total += v[m] * dz2[m]
            dh[j] += total
    grad_b1 = _row(grad, offset + B1_AT)
    for j in range(N_HIDDEN):
        d = 1.0 + abs(z[j])
        dh[j] *= 0.5 / (d * d)  # d h / d z of the rational sigmoid
        grad_b1[j] += dh[j]
    for t in range(n):
        grad_row = _row(grad, offset + idx[t] * N_HIDDEN)
        v = val[t]
        for j in range(N_HIDDEN):
            grad_row[j] += v * dh[j]


def init_params(seed: int) -> np.ndarray:
    """Fresh random weights (small, seeded); output biases start at typical outcome rates."""
    rng = np.random.default_rng(seed)
    params = np.zeros(PARAMS_SIZE)
    for net in (CONTACT, RACE):
        o = net * NET_SIZE
        params[o:o + W1_SIZE] = rng.uniform(-0.1, 0.1, W1_SIZE)
        params[o + W2_AT:o + B2_AT] = rng.uniform(-0.1, 0.1, N_OUTPUTS * N_HIDDEN)
        params[o + B2_AT:o + NET_SIZE] = [0.0, -1.5, -4.0, -1.5, -4.0]
    return params


def second_layer_units(params: np.ndarray) -> int | None:
    """Python helper: the contact net's second-layer units that the weights ``params`` hold
    (0: one-layer nets), or None when they are not weights of these nets at all (a late
    contact net may follow either)."""
    params = np.asarray(params, dtype=np.float64)
    if params.ndim != 1 or params.shape[0] < PARAMS_SIZE or params.shape[0] != weights_end(params):
        return None
    return N_HIDDEN2 if has_second_layer(params) else 0


def has_late_net(params: np.ndarray) -> bool:
    """Python helper: whether the weights ``params`` hold a late contact net."""
    return bool(late_net_offset(np.asarray(params, dtype=np.float64)) >= 0)


def with_late_net(params: np.ndarray) -> np.ndarray:
    """Weights without a late contact net with one added: a copy of their contact net, so
    that the nets are the same function until training moves it (of a contact net with a
    second layer, the one-layer part: not quite the same function)."""
    params = np.asarray(params, dtype=np.float64)
    if second_layer_units(params) is None or has_late_net(params):
        raise ValueError(f"expected weights without a late contact net, got shape {params.shape}")
    return np.concatenate([params, [LATE_NET_MARK], params[:NET_SIZE]])


def with_second_layer(params: np.ndarray, seed: int) -> np.ndarray:
    """One-layer weights (``PARAMS_SIZE`` values, maybe a late contact net behind them) with
    the contact net's second hidden layer added after the two nets: V small and seeded, c
    and U zero, so that the net is the same function until training moves U."""
    params = np.asarray(params, dtype=np.float64)
    if second_layer_units(params) != 0:
        raise ValueError(f"expected {PARAMS_SIZE} one-layer weights (and maybe a late contact "
                         f"net), got shape {params.shape}")
    second = np.zeros(SECOND_SIZE)
    second[0] = SECOND_LAYER_MARK
    second[V_AT - SECOND_AT:C_AT - SECOND_AT] = np.random.default_rng(seed).uniform(
        -0.3, 0.3, N_HIDDEN * N_HIDDEN2)
    return np.concatenate([params[:PARAMS_SIZE], second, params[PARAMS_SIZE:]])


#: Extras that are linear functions of the point and bar inputs (plus a constant).
LINEAR_EXTRAS = (OFF, PIPS, TIMING)
#: Masks of the extras (bit ``s * N_EXTRA + k``: extra ``k`` of side ``s``) whose rows
#: ``net_choose`` adds: all of them, or (folded weights) all but ``LINEAR_EXTRAS``.
_ALL_EXTRAS = np.int64((1 << (2 * N_EXTRA)) - 1)
_NONLINEAR_EXTRAS = np.int64(sum(1 << (s * N_EXTRA + k) for s in range(2)
                                 for k in range(N_EXTRA) if k not in LINEAR_EXTRAS))


@njit(cache=True, nogil=True, inline="always")
def _linear_part(k, i, u):
    """How much linear extra ``k`` of a side grows per unit of its input for point ``i``
    (24: the bar input, bar checkers / 2), unit ``u`` (see ``point_unit``)."""
    checkers = 2.0 if (u == 3 or i == 24) else 1.0  # per unit of the input
    if k == OFF:
        return -checkers / 15.0  # (15 - checkers left) / 15: the constant 1 goes to b1
    if k == PIPS:
        return checkers * (i + 1) * _PIP_SCALE  # the bar counts 25 pips
    keeps_point = u == 1 and i < 24 and (i < 6 or i >= 18)  # TIMING: two stay (see _scan)
    return (checkers * i - (2.0 * i if keeps_point else 0.0)) / 100.0


@njit(cache=True, nogil=True)
def fold_linear_extras(params):
    """The same nets with the W1 rows of ``LINEAR_EXTRAS`` folded into the rows of the point
    and bar inputs (and b1) and then zeroed: ``x_k * W1[k]`` is a sum over those inputs, so
    every hidden pre-activation is unchanged (up to rounding), and an incremental update
    need not add those rows."""
    folded = params[:weights_end(params)].copy()  # the second layer, if any, unchanged
    for slot in (CONTACT, RACE, LATE):
        o = slot_offset(params, slot)
        if o < 0:
            continue  # no late contact net
        for s in range(2):
            for k in LINEAR_EXTRAS:
                extra = o + extra_input(s, k) * N_HIDDEN
                if k == OFF:
                    for j in range(N_HIDDEN):
                        folded[o + B1_AT + j] += folded[extra + j]
                for i in range(25):
                    for u in range(4 if i < 24 else 1):
                        input_index = s * N_SIDE + 4 * i + u if i < 24 else extra_input(s, BAR)
                        row = o + input_index * N_HIDDEN
                        a = _linear_part(k, i, u)
                        for j in range(N_HIDDEN):
                            folded[row + j] += a * folded[extra + j]
                folded[extra:extra + N_HIDDEN] = 0.0
    return folded


@njit(cache=True, nogil=True)
def playout_weights(params):
    """What playouts choose with (``net_choose(..., folded=True)``): ``params`` with the
    linear extras folded (``fold_linear_extras``), in float32."""
    return fold_linear_extras(params).astype(np.float32)


@njit(cache=True, nogil=True, error_model="numpy")
def net_choose(count, weights, boards, probs, folded):
    """Greedy choice among ``count`` result boards (the mover still row 1): the index of the
    play the net values most for the mover, and ``probs`` = the net's probabilities of that
    result from the next player's side (row 0 on roll), as ``net_probabilities`` gives them
    (to the precision of ``weights``).

    ``weights`` is laid out like ``params`` and works in its precision. Playouts pass
    ``playout_weights(params)`` and ``folded=True``: float32 halves the memory read and
    doubles the numbers per vector instruction, and a choice can differ from float64's
    only between plays whose equities agree to about 1e-6; the linear extras (pips, borne
    off, timing) are folded into the point rows, so changes of them add no rows. Training
    passes its float64 ``params``, which change every ply, and ``folded=False``.

    The plays of one roll differ in a few points only, so the hidden layer is computed
    incrementally: the first result of each net (contact, race, late) is evaluated in full, and
    every later one from it. The boards are compared point by point, and only the inputs
    of the points that differ (and of the extras that differ: bar, off, features) add
    ``(x - x_ref) * W1`` rows; the full encoding is never built for them."""
    return net_choose_into(count, weights, boards, probs, folded, choice_buffers(weights))


@njit(cache=True, nogil=True)
def choice_buffers(weights):
    """The scratch arrays of ``net_choose_into``, in the precision of ``weights``; a fresh
    set has no reference boards (``drop_references``)."""
    real = weights.dtype
    return (np.empty(MAX_NONZERO, dtype=np.int64), np.empty(MAX_NONZERO, dtype=real),
            np.empty((3, 2, 25), dtype=np.int8), np.empty((2, N_EXTRA), dtype=real),
            np.empty((3, 2, N_EXTRA), dtype=real), np.empty((3, N_HIDDEN), dtype=real),
            np.zeros(3, dtype=np.bool_), np.empty(N_HIDDEN, dtype=real),
            np.empty(HIDDEN_ROOM, dtype=real), np.empty(N_OUTPUTS), np.empty(5))


@njit(cache=True, nogil=True)
def drop_references(buffers):
    """Forget the reference boards of ``buffers`` (``choice_buffers``): the next choice
    evaluates its first play of each net in full again."""
    have_ref = buffers[6]
    for slot in range(3):
        have_ref[slot] = False


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def net_choose_into(count, weights, boards, probs, folded, buffers):
    """``net_choose`` with its scratch arrays ``buffers`` (``choice_buffers(weights)``)
    given, so that a caller choosing often allocates them once. The reference boards of the
    incremental hidden layer stay in ``buffers`` from one call to the next (until
    ``drop_references``): the luck of the 21 rolls of one position (``kernels.luck``) is
    measured from one reference, the plays of every roll being a few points away from it.
    A result differs from a fresh reference's by float32 rounding only.

    Compiled without reference counting (numba's ``_nrt=False``; it allocates nothing): it
    runs some 20 times a ply in playouts, and the counts of its array views, each an
    atomic instruction, were a quarter of a variance-reduced rollout's time."""
    extras, y, candidate = buffers[3], buffers[9], buffers[10]
    late = late_net_offset(weights)
    best = -1e9
    choice = 0
    for i in range(count):
        board = boards[i]
        # one scan of each side serves the end of game, the net and every feature
        mine, theirs = _fill_extras(board, 0, extras)
        if mine[_LEFT] == 0 or theirs[_LEFT] == 0:
            outcome(board, 0, candidate)
        else:
            net = _net_slot(mine[_LEFT], theirs[_LEFT], mine[_REAR], theirs[_REAR], late)
            score_from_reference(board, weights, net, _NONLINEAR_EXTRAS if folded
                                 else _ALL_EXTRAS, buffers)
            _consistent(mine[_LEFT], theirs[_LEFT], mine[_REAR], theirs[_REAR], y, candidate)
        value = -(2.0 * candidate[0] - 1.0 + candidate[1] - candidate[3] + candidate[2]
                  - candidate[4])
        if value > best:
            best = value
            choice = i
            for k in range(5):
                probs[k] = candidate[k]
    return choice


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def score_from_reference(board, weights, net, live, buffers):
    """The outputs of net ``net`` (CONTACT, RACE, LATE) for ``board`` into ``buffers``' y
    (``choice_buffers``; the board's extras already in its extras): from the hidden layer of
    the slot's reference board and the inputs that differ (``live``: the extras to look
    at), or, with no reference in the slot yet, in full, ``board`` becoming it. Inlined,
    so that the row loops vectorise (``_add_point_changes``)."""
    _, _, board_ref, extras, extras_ref, z_ref, have_ref, z, h, y, _ = buffers
    if not have_ref[net]:
        make_reference(board, weights, net, buffers)
        return
    offset = slot_offset(weights, net)
    for j in range(N_HIDDEN):
        z[j] = z_ref[net, j]
    _add_point_changes(weights, offset, board, board_ref[net], z)
    _add_extra_changes(weights, offset, extras, extras_ref[net], z, live)
    _outputs(weights, offset, z, h, y)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def make_reference(board, weights, net, buffers):
    """Make ``board`` (its extras already in ``buffers``') the reference of slot ``net``
    of ``buffers`` (``choice_buffers``): its hidden layer's input sums in full, its outputs
    left in the buffers' y."""
    idx, val, board_ref, extras, extras_ref, z_ref, have_ref, z, h, y, _ = buffers
    n = encode_with(board, 0, extras, idx, val)
    forward(weights, slot_offset(weights, net), idx, val, n, z, h, y)
    for j in range(N_HIDDEN):
        z_ref[net, j] = z[j]
    for side in range(2):
        for index in range(25):
            board_ref[net, side, index] = board[side, index]
        for k in range(N_EXTRA):
            extras_ref[net, side, k] = extras[side, k]
    have_ref[net] = True


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _add_extra_changes(weights, offset, extras, extras_ref, z, live):
    """``z += (x - x_ref) * W1`` over the extras (``live``: the mask of those to look at)
    that differ from the reference's, side 0's first. As with the points, the extras that
    differ are gathered into a mask without a branch first."""
    changed = np.int64(0)
    for s in range(2):
        for k in range(N_EXTRA):
            changed |= np.int64(extras[s, k] != extras_ref[s, k]) << (s * N_EXTRA + k)
    changed &= live
    while changed:
        bit = trailing_zeros(changed)
        changed &= changed - 1
        s, k = divmod(bit, N_EXTRA)
        d = extras[s, k] - extras_ref[s, k]
        _add_row(weights, offset + extra_input(s, k) * N_HIDDEN, d, z)


@njit(cache=True, nogil=True, inline="always")
def _add_row(weights, start, scale, z):
    row = _row(weights, start)
    for j in range(N_HIDDEN):
        z[j] += scale * row[j]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _add_point_changes(weights, offset, board, board_ref, z):
    """``z += (x - x_ref) * W1`` over the point inputs of the points where ``board`` (seen
    from row 0) differs from ``board_ref``. Inlined by numba (``inline="always"``), so that
    the row loops see ``z`` as the caller's own array and vectorise: as a call it was
    measured four times slower.

    The points that differ are first gathered into a bit mask without a branch, and of
    such a point only the units that change are visited: most points of two plays are the
    same, and a branch per point and per unit was mispredicted often enough to cost more
    than the rows themselves."""
    real = z.dtype.type
    for s in range(2):  # encoding side s is board row s, as the board is seen by row 0
        changed = np.int64(0)
        for i in range(24):
            changed |= np.int64(board[s, i] != board_ref[s, i]) << i
        while changed:
            i = trailing_zeros(changed)
            changed &= changed - 1
            c = np.int64(board[s, i])
            c_ref = np.int64(board_ref[s, i])
            first = offset + (s * N_SIDE + 4 * i) * N_HIDDEN
            step = real(1.0 if c > c_ref else -1.0)
            for u in range(min(c, c_ref), min(max(c, c_ref), 3)):  # units 0-2: on or off
                _add_row(weights, first + u * N_HIDDEN, step, z)
            if max(c, c_ref) > 3:
                d = real(point_unit(c, 3) - point_unit(c_ref, 3))
                _add_row(weights, first + 3 * N_HIDDEN, d, z)
