"""Run INSIDE gnubg 1.07 (``gnubg -t -q -r -p scripts/strength/gnubg_search_probe.py``) by
``scripts/strength/search_vs_gnubg.py``: answers the queries of the JSON file
$PROBE_IN, one thread, and writes JSON lines to $PROBE_OUT (cube analyses are printed
between ``@@CUBE i`` and ``@@END`` markers for the caller to read, as gnubg's Python cannot
return them).

$PROBE_MODE: ``hint`` (2-ply cubeless hint with gnubg's default "normal" filter, timed),
``all2`` (every play at 2 ply: a filter that keeps them all) or ``cube`` (2-ply cube
analysis before the roll). Not a module of bgcli: gnubg's embedded Python has no numpy.
"""

import json
import os
import sys
import time

import gnubg  # noqa: F401  (only inside gnubg)

MODE = os.environ["PROBE_MODE"]
queries = json.load(open(os.environ["PROBE_IN"]))
out = open(os.environ["PROBE_OUT"], "w")

for command in ("set threads 1", "set evaluation chequerplay evaluation plies 2",
                "set evaluation chequerplay evaluation cubeful off",
                "set evaluation chequerplay evaluation prune on",
                "set evaluation cubedecision evaluation plies 2",
                "set evaluation cubedecision evaluation cubeful on"):
    gnubg.command(command)
if MODE == "all2":
    gnubg.command("set evaluation movefilter 2 0 100 0 0.0")

for i, query in enumerate(queries):
    gnubg.command("set gnubgid %s:%s" % (query["position_id"], query["match_id"]))
    if MODE == "cube":
        sys.stdout.write("@@CUBE %d %s\n" % (i, gnubg.positionid()))
        sys.stdout.flush()
        began = time.time()
        gnubg.command("hint")
        sys.stdout.flush()
        sys.stdout.write("@@END %.6f\n" % (time.time() - began))
        sys.stdout.flush()
        continue
    gnubg.command("set dice %d %d" % tuple(query["dice"]))
    began = time.perf_counter()
    hint = gnubg.hint(9999)
    seconds = time.perf_counter() - began
    moves = [{"move": m["move"], "equity": m["equity"],
              "plies": m["context"]["plies"] if "context" in m else None}
             for m in hint["hint"]]
    out.write(json.dumps({"index": i, "position_id": gnubg.positionid(), "seconds": seconds,
                          "moves": moves}) + "\n")
    out.flush()
out.close()
