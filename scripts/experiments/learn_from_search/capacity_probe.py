"""What limits the contact net's fit to its 2-ply teacher: width, depth, or the inputs?

    python -m scripts.experiments.learn_from_search.capacity_probe /work/ld/alt4_s39 \\
        /work/ld/alt4_s40 --train 500000 --epochs 150 --models 80 80-20 320 -o probe.json

Every fit of the contact net to 2-ply targets ends with its training error as large as its
held-out error (about 0.026 EMG): it underfits. Session 17 found 128 hidden units no better
than 80 when grown from the shipped net, and session 22 found no other learning rate that
helps. This probe fits multi-layer perceptrons (scikit-learn, Adam, squared error on the
cubeless equity of the targets) to the same encoded inputs the net sees (bgcli's own
``encode``), on contact positions only, one after another with the same data and settings:
one hidden layer of 80, 160 or 320 units, or two (``--models``). If depth or width lowers
the training error well below what 80 units reach with this trainer, the architecture
limits the net; if none does, the inputs (or the targets' noise) do. ``--on-hidden W``
fits them on the 80 hidden activations of W's contact net instead (its first layer,
frozen), ``--warm W`` starts the first layer of the 80-unit shapes from W's. bgcli's nets
(the shipped one and any ``--weights``) are measured on the same rows for scale; they were
trained far longer (millions of self-play games first), so compare the probe's models with
each other, not with them. Nothing here touches the shipped net or needs gnubg.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgcli import __version__
from bgcli.kernels.net import B1_AT, HIDDEN_ROOM, N_HIDDEN, N_INPUTS, N_OUTPUTS, encode, forward
from bgcli.kernels.supervised import EQUITY, contact_flags, net_outputs
from bgcli.learn import read_training_data
from bgcli.net import net_id, read_weights, weights_path

MODELS = {"80": (80,), "160": (160,), "320": (320,), "80-10": (80, 10), "80-20": (80, 20),
          "80-40": (80, 40), "160-80": (160, 80), "10": (10,), "20": (20,), "40": (40,)}


def dense_inputs(boards: np.ndarray) -> np.ndarray:
    """The net's inputs for row 1 on roll, one dense float32 row per board."""
    out = np.zeros((boards.shape[0], N_INPUTS), dtype=np.float32)
    idx = np.empty(N_INPUTS, dtype=np.int64)
    val = np.empty(N_INPUTS)
    for i in range(boards.shape[0]):
        n = encode(boards[i], 1, idx, val)
        out[i, idx[:n]] = val[:n]
    return out


def hidden_features(boards: np.ndarray, weights: str) -> np.ndarray:
    """The contact net's 80 hidden activations of ``weights`` for row 1 on roll: a model
    fitted on them has that net's first layer, frozen, as its own."""
    params, _ = read_weights(weights)
    out = np.zeros((boards.shape[0], N_HIDDEN), dtype=np.float32)
    idx = np.empty(N_INPUTS, dtype=np.int64)
    val = np.empty(N_INPUTS)
    z, h, y = np.empty(N_HIDDEN), np.empty(HIDDEN_ROOM), np.empty(N_OUTPUTS)
    for i in range(boards.shape[0]):
        n = encode(boards[i], 1, idx, val)
        forward(params, 0, idx, val, n, z, h, y)
        out[i] = h[:N_HIDDEN]
    return out


def warm_first_layer(model, weights: str, inputs: np.ndarray, target: np.ndarray) -> None:
    """Start ``model``'s first layer (80 units) from the contact net of ``weights``: its
    input weights and biases, doubled, since bgcli's rational sigmoid rises half as steeply
    as scikit-learn's logistic at 0 (a close start, not the same function); the layers
    after it keep their random start."""
    params, _ = read_weights(weights)
    model.set_params(max_iter=1)
    model.fit(inputs[:1000], target[:1000])  # makes the layers, to be overwritten
    model.coefs_[0][:] = 2.0 * params[:B1_AT].reshape(N_INPUTS, N_HIDDEN)
    model.intercepts_[0][:] = 2.0 * params[B1_AT:B1_AT + N_HIDDEN]


def _errors(predicted: np.ndarray, target: np.ndarray) -> dict:
    diff = np.abs(predicted - target)
    return {"mean_abs_equity_error": float(diff.mean()),
            "se": float(diff.std(ddof=1) / np.sqrt(diff.size)), "rows": int(diff.size)}


def _net_equity(weights: str, boards: np.ndarray) -> np.ndarray:
    params, _ = read_weights(weights)
    out = np.zeros((boards.shape[0], 5))
    net_outputs(params, boards, out)
    return out @ EQUITY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--train", type=int, default=300_000, help="training rows used")
    parser.add_argument("--held", type=int, default=50_000, help="held-out rows used")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--weights", nargs="*", default=[], help="bgcli nets to measure too")
    parser.add_argument("--on-hidden", metavar="WEIGHTS", default=None,
                        help="fit on this net's contact hidden activations, not the inputs; "
                             "adds a least-squares linear model")
    parser.add_argument("--warm", metavar="WEIGHTS", default=None,
                        help="models whose first layer has 80 units start it from this "
                             "net's contact first layer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    from sklearn.linear_model import LinearRegression
    from sklearn.neural_network import MLPRegressor

    data = read_training_data(args.folders)
    contact = np.zeros(data.boards.shape[0], dtype=np.bool_)
    contact_flags(data.boards, contact)
    rng = np.random.default_rng(args.seed)
    rows = {"train": rng.permutation(np.flatnonzero(contact & ~data.held))[:args.train],
            "held_out": rng.permutation(np.flatnonzero(contact & data.held))[:args.held]}
    target = {k: data.targets[r] @ EQUITY for k, r in rows.items()}
    if args.on_hidden:
        inputs = {k: hidden_features(data.boards[r], args.on_hidden) for k, r in rows.items()}
    else:
        inputs = {k: dense_inputs(data.boards[r]) for k, r in rows.items()}
    record = {"bgcli_version": __version__, "folders": data.folders, "seed": args.seed,
              "epochs": args.epochs, "rows": {k: int(r.size) for k, r in rows.items()},
              "trainer": "sklearn MLPRegressor: Adam 1e-3, batch 256, logistic hidden units, "
                         "identity output, squared error on the equity, no early stopping",
              "features": (f"the contact hidden units of {net_id(args.on_hidden)}"
                           if args.on_hidden else "the net's encoded inputs"),
              "warm_first_layer": net_id(args.warm) if args.warm else None,
              "nets": {}, "models": {}}
    if args.on_hidden:
        linear = LinearRegression().fit(inputs["train"], target["train"])
        record["models"]["linear"] = {k: _errors(linear.predict(inputs[k]), target[k])
                                      for k in rows}
        print("linear", record["models"]["linear"], flush=True)
    for weights in [str(weights_path())] + args.weights:
        record["nets"][net_id(weights)] = {
            k: _errors(_net_equity(weights, data.boards[r]), target[k]) for k, r in rows.items()}
        print(net_id(weights), record["nets"][net_id(weights)], flush=True)
    for name in args.models:
        began = time.perf_counter()
        model = MLPRegressor(hidden_layer_sizes=MODELS[name], activation="logistic",
                             solver="adam", learning_rate_init=1e-3, batch_size=256,
                             max_iter=args.epochs, shuffle=True, random_state=args.seed,
                             tol=0.0, n_iter_no_change=args.epochs + 1)
        if args.warm and MODELS[name][0] == N_HIDDEN:
            warm_first_layer(model, args.warm, inputs["train"], target["train"])
            model.set_params(max_iter=args.epochs, warm_start=True)
        model.fit(inputs["train"], target["train"])
        result = {k: _errors(model.predict(inputs[k]), target[k]) for k in rows}
        result["weights"] = int(sum(w.size for w in model.coefs_)
                                + sum(b.size for b in model.intercepts_))
        result["seconds"] = round(time.perf_counter() - began, 1)
        # the training loss (half the mean squared error) after each epoch: still falling?
        result["loss_curve"] = [round(float(loss), 7) for loss in model.loss_curve_]
        record["models"][name] = result
        print(name, result, flush=True)
        with open(args.output, "w") as handle:
            json.dump(record, handle, indent=2)


if __name__ == "__main__":
    main()
