"""Legal move generation against GNU Backgammon's complete play lists.

tests/fixtures/movegen.jsonl holds 3,498 (position, roll) queries from every phase of the game
with gnubg 1.07's full list of plays and resulting positions (scripts/fixtures/gen_movegen.py
made it; tests/fixtures/README.md describes it). For every query the set of resulting
positions must be exactly gnubg's, our text for each play must be gnubg's text, and gnubg's
text must read back to the same play.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bgcli.moves import find_play, legal_plays
from bgcli.position import Position

FIXTURE = Path(__file__).parent / "fixtures" / "movegen.jsonl"
with open(FIXTURE) as _stream:
    QUERIES = [json.loads(line) for line in _stream if line.strip()]


def test_fixture_is_large_and_varied():
    assert len(QUERIES) >= 2000
    phases = Counter(q["phase"] for q in QUERIES)
    assert len(phases) >= 15
    assert sum(1 for q in QUERIES if q["dice"][0] == q["dice"][1]) >= 500
    assert any(not q["plays"] for q in QUERIES)  # positions with no legal play


def _results(query):
    position = Position.from_id(query["position"])
    return position, legal_plays(position, tuple(query["dice"]))


@pytest.mark.parametrize("chunk", range(10))
def test_every_result_set_equals_gnubgs(chunk):
    mismatches = []
    for query in QUERIES[chunk::10]:
        _, plays = _results(query)
        ours = sorted(play.result.position_id() for play in plays)
        theirs = sorted(play["result"] for play in query["plays"])
        if ours != theirs:
            mismatches.append((query["position"], query["dice"], query["phase"],
                               len(ours), len(theirs)))
    assert not mismatches, mismatches[:5]


@pytest.mark.parametrize("chunk", range(10))
def test_move_text_equals_gnubgs(chunk):
    mismatches = []
    for query in QUERIES[chunk::10]:
        _, plays = _results(query)
        ours = {play.result.position_id(): play.notation for play in plays}
        for play in query["plays"]:
            if ours.get(play["result"]) != play["move"]:
                mismatches.append((query["position"], query["dice"], play["move"],
                                   ours.get(play["result"])))
    assert not mismatches, mismatches[:10]


@pytest.mark.parametrize("chunk", range(10))
def test_gnubg_move_text_reads_back(chunk):
    for query in QUERIES[chunk::10][:60]:
        position = Position.from_id(query["position"])
        for play in query["plays"]:
            found = find_play(position, tuple(query["dice"]), play["move"])
            assert found.result.position_id() == play["result"], (query["position"], play)
