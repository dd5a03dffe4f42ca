"""The hierarchical test on baycomp's UCI accuracies: all pairs, its floor, and Stan.

The data are baycomp's own example (``tests/data/baycomp_accuracies.txt.gz``:
5 classifiers x 54 data sets x 100 folds, 10 runs of 10-fold CV).

* ``all pairs``: ``pairwise(test="hierarchical")`` of the 5 models (10 pairs)
  at the default sizes (10000 draws in 4 chains): wall and CPU time, against
  the target of issue 30 (under 30 s on 2 cores), and the largest R-hat.
* ``floor``: the same call against its numpy core alone
  (``pdcompare.stats.hierarchical.hierarchical_pairs`` on the fold array),
  interleaved, so the ratio is the cost of the frame around the sampler.
* ``stan`` (with ``--peer``, where PyStan is installed): one pair (nbc vs
  j48, rope 1) with ``baycomp.HierarchicalTest.sample`` once its model is
  compiled, against ``hierarchical`` with the same number of posterior draws
  (baycomp's ``nsamples`` is per chain; pdcompare's ``n_samples`` is the
  total), and the compile time apart (a fresh httpstan cache, in a
  subprocess). Target: at least 20x faster per pair. Stan takes minutes per
  pair here, so the peer is not in ``make bench``.

Run: python benchmarks/bench_hierarchical.py [--quick] [--peer] [--peer-nsamples N]
(``--quick``: 3 models, 2000 draws; ``--peer-nsamples``: Stan's draws per chain, 2500 by
default, which is pdcompare's default of 10000 draws in all).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _bench import interleaved
from uci import load_uci, uci_array

import pdcompare
from pdcompare.stats.hierarchical import hierarchical_pairs

TARGET_SECONDS = 30.0
TARGET_RATIO = 20.0


def _quiet(function):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant data sets (hayes-roth, ...) are named once
        return function()


def all_pairs(models: list[str], n_samples: int, rounds: int) -> None:
    bench = load_uci(models)
    folds = bench.to_numpy().reshape(len(models), 54, 100)
    i, j = np.triu_indices(len(models), 1)

    def call():
        return pdcompare.pairwise(bench, test="hierarchical", n_samples=n_samples, random_state=0)

    def floor():
        return hierarchical_pairs(
            folds, i, j, rho=0.1, n_samples=n_samples, random_state=np.random.default_rng(0)
        )

    wall, cpu = time.perf_counter(), time.process_time()
    result = _quiet(call)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    met = "met" if wall < TARGET_SECONDS else "MISSED"
    print(
        f"all pairs: {len(models)} models ({len(result)} pairs) x 54 data sets x 100 folds, "
        f"{n_samples} draws in 4 chains: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"(target < {TARGET_SECONDS:g} s on 2 cores: {met}); "
        f"{wall / len(result):.2f} s per pair; largest R-hat {result['rhat'].max():.4f}"
    )
    best = interleaved({"pdcompare": lambda: _quiet(call), "floor": floor}, rounds)
    print(
        f"floor: pairwise(test='hierarchical') {best['pdcompare']:.2f} s, numpy core alone "
        f"{best['floor']:.2f} s: ratio {best['pdcompare'] / best['floor']:.2f}x"
    )


_COMPILE = """
import time, numpy as np, stan, baycomp, os
code = open(os.path.join(os.path.dirname(baycomp.__file__), "hierarchical-t-test.stan")).read()
start = time.perf_counter()
stan.build(code, data=dict(x=np.zeros((2, 2)), Nsamples=2, q=2, rho=0.1, deltaLow=-1.0,
    deltaHi=1.0, lowerAlpha=1.0, upperAlpha=2.0, lowerBeta=0.01, upperBeta=0.1, stdLow=0.0,
    stdHi=1.0, std0Low=0.0, std0Hi=1.0))
print(time.perf_counter() - start)
"""


def stan_peer(nsamples: int) -> None:
    try:
        import stan  # noqa: F401
        from baycomp import HierarchicalTest
    except ImportError:
        print(
            "stan: skipped (PyStan is not installed: pip install pystan, which needs a compiler)"
        )
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        out = subprocess.run(
            [sys.executable, "-c", _COMPILE], env=env, capture_output=True, text=True, check=False
        )
    if out.returncode:
        print(f"stan: compiling in a fresh cache failed: {out.stderr.strip().splitlines()[-1:]}")
        compile_words = "compile time not measured"
    else:
        compile_words = f"compiling its model: {float(out.stdout.split()[-1]):.1f} s, apart"
    x, y = uci_array("nbc"), uci_array("j48")
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)  # baycomp pickles its last sample in the working directory
        try:
            _quiet(lambda: HierarchicalTest.sample(x[:2, :4], y[:2, :4], 1, nsamples=100))
            start = time.perf_counter()
            samples = _quiet(
                lambda: HierarchicalTest.sample(
                    x, y, 1, runs=10, nsamples=nsamples, chains=4, random_state=0
                )
            )
            peer = time.perf_counter() - start
        finally:
            os.chdir(cwd)
    stan_probs = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
    bench = load_uci(["nbc", "j48"])
    start = time.perf_counter()
    ours = _quiet(
        lambda: bench.cmp.hierarchical(
            "nbc", "j48", rope=1, n_samples=4 * nsamples, random_state=0
        )
    )
    mine = time.perf_counter() - start
    probs = ours.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(float)
    print(
        f"stan: nbc vs j48, rope 1, {4 * nsamples} draws in 4 chains: baycomp + Stan "
        f"{peer:.1f} s once compiled ({compile_words}), "
        f"pdcompare {mine:.2f} s: {peer / mine:.0f}x faster per pair (target "
        f"{TARGET_RATIO:g}x: {'met' if peer / mine >= TARGET_RATIO else 'MISSED'}); "
        f"probabilities {np.round(stan_probs, 4).tolist()} (Stan) vs "
        f"{np.round(probs, 4).tolist()} (pdcompare)"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--peer", action="store_true", help="time baycomp with Stan too")
    parser.add_argument("--peer-nsamples", type=int, default=2500)
    args = parser.parse_args(argv)
    models = ["nbc", "aode", "j48"] if args.quick else ["nbc", "aode", "hnb", "j48", "j48gr"]
    all_pairs(models, 2000 if args.quick else 10000, rounds=2 if args.quick else 3)
    if args.peer:
        stan_peer(args.peer_nsamples)
    print("(timings on a shared 2-core machine: other work may have run alongside)")


if __name__ == "__main__":
    main(sys.argv[1:])
