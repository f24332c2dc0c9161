"""Package data read with importlib.resources: the Kazaross-XG2 match equity table
(kazaross_xg2.json, see bgcli.match) and other data files."""
