"""delong and auc_ci against R's pROC 1.18.0 on its own data set, aSAH.

``tests/data/aSAH.csv`` is pROC's ``aSAH`` (113 patients after aneurysmal
subarachnoid haemorrhage; Turck et al. 2010), exported as described in
``tests/data/README.md``. ``PUBLISHED`` are the expectations of pROC's own
test suite; the other reference numbers were printed by ``PROC_SCRIPT``
(pROC 1.18.0, Debian's ``r-cran-proc``) with 17 significant digits and
pasted here, so the test runs without R;
``test_live_proc_agrees`` reruns the script where ``Rscript`` and pROC are
installed. Outcome "Poor" is the positive class (pROC's ``levels =
c("Good", "Poor")``); the direction is fixed to ``"<"`` (controls score
lower), which is also what pROC picks by itself for wfns, s100b and ndka and
what pdcompare assumes (higher = positive).

pROC's ``roc.test(..., method="delong", paired=TRUE)`` reports a two-sided
interval of the difference at ``conf.level`` whatever ``alternative`` is;
pdcompare's interval is one-sided when the test is, so its finite bound at
``alpha = 0.05`` is pROC's bound at ``conf.level = 0.9``.
"""

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import roc_auc_score

import pdcompare

CSV = Path(__file__).parents[1] / "data" / "aSAH.csv"

# Rscript PROC_SCRIPT (run from the repository root) printed the numbers below.
PROC_SCRIPT = r"""
library(pROC); data(aSAH)
csv <- read.csv("tests/data/aSAH.csv")
stopifnot(identical(csv$s100b, aSAH$s100b), identical(csv$ndka, aSAH$ndka),
          identical(csv$wfns, as.integer(as.character(aSAH$wfns))),
          identical(csv$outcome, as.character(aSAH$outcome)))
f <- function(x) sprintf("%.17g", x)
r <- list()
for (m in c("wfns", "s100b", "ndka")) {
  r[[m]] <- roc(aSAH$outcome, aSAH[[m]], levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
  auto <- roc(aSAH$outcome, aSAH[[m]], quiet = TRUE)
  ci <- ci.auc(r[[m]], method = "delong")
  cat("auc", m, auto$direction, f(ci[2]), f(ci[1]), f(ci[3]), f(sqrt(var(r[[m]]))), "\n")
}
pairs <- list(c("wfns", "s100b"), c("wfns", "ndka"), c("s100b", "ndka"))
for (p in pairs) for (alt in c("two.sided", "greater", "less")) {
  t <- roc.test(r[[p[1]]], r[[p[2]]], method = "delong", paired = TRUE, alternative = alt)
  t90 <- roc.test(r[[p[1]]], r[[p[2]]], method = "delong", paired = TRUE,
                  alternative = alt, conf.level = 0.9)
  cat("test", p[1], p[2], alt, f(t$statistic), f(t$p.value), f(t$conf.int[1]),
      f(t$conf.int[2]), f(t90$conf.int[1]), f(t90$conf.int[2]), "\n")
}
"""

# ci.auc(roc(outcome, m, levels = c("Good", "Poor"), direction = "<"), method = "delong")
# and sqrt(var(roc)): model -> (auc, ci_low, ci_high, se).
PROC_AUC = {
    "wfns": (0.82367886178861793, 0.74853488781945288, 0.89882283575778299, 0.038339466725863913),
    "s100b": (0.73136856368563685, 0.63011821176162264, 0.83261891560965107, 0.051659292069989093),
    "ndka": (0.61195799457994582, 0.50124499927170263, 0.72267098988818901, 0.056487260062701765),
}

# roc.test(roc_1, roc_2, method = "delong", paired = TRUE): (model_1, model_2) ->
# (Z, two-sided p, "greater" p, "less" p, 95% interval, 90% interval) of auc_1 - auc_2.
PROC_TEST = {
    ("wfns", "s100b"): (
        2.2089835914409077,
        0.02717578222918815,
        0.013587891114594075,
        0.98641210888540587,
        (0.010406176956484617, 0.17421441924947756),
        (0.023574192851688741, 0.16104640335427342),
    ),
    ("wfns", "ndka"): (
        2.7977759186890387,
        0.0051455797069109776,
        0.0025727898534554888,
        0.99742721014654456,
        (0.063401170933987644, 0.36004056348335656),
        (0.087247054276335653, 0.33619468014100856),
    ),
    ("s100b", "ndka"): (
        1.3907700257355771,
        0.16429517522305448,
        0.08214758761152724,
        0.91785241238847282,
        (-0.048870606422809354, 0.28769174463419145),
        (-0.02181544530021523, 0.2606365835115973),
    ),
}

# pROC's own expectations, from its test suite (tests/testthat/test-roc.test.R,
# shipped in /usr/share/doc/r-cran-proc): roc.test(r1, r2) with the default
# method "delong", paired, 15 significant digits; t3 is ndka against s100b.
PUBLISHED = {
    ("wfns", "s100b"): (
        2.20898359144091,
        0.0271757822291882,
        0.0104061769564846,
        0.174214419249478,
    ),
    ("wfns", "ndka"): (
        2.79777591868904,
        0.00514557970691098,
        0.0634011709339876,
        0.3600405634833566,
    ),
    ("ndka", "s100b"): (
        -1.39077002573558,
        0.164295175223054,
        -0.2876917446341914,
        0.0488706064228094,
    ),
}
PUBLISHED_ONE_SIDED = {"greater": 0.0135878911145941, "less": 0.986412108885406}  # wfns, s100b


@pytest.fixture(scope="module")
def asah():
    data = pd.read_csv(CSV)
    assert len(data) == 113
    assert data["outcome"].value_counts().to_dict() == {"Good": 72, "Poor": 41}
    return pd.DataFrame(
        {
            "y": (data["outcome"] == "Poor").astype(int),
            "wfns": data["wfns"],
            "s100b": data["s100b"],
            "ndka": data["ndka"],
        }
    )


@pytest.mark.parametrize("pair", list(PUBLISHED))
def test_published_values(asah, pair):
    z, p, low, high = PUBLISHED[pair]
    row = pdcompare.delong(asah, *pair).iloc[0]
    # 15 significant digits printed: agreement to the last one.
    assert row["statistic"] == pytest.approx(z, rel=1e-13)
    assert row["pvalue"] == pytest.approx(p, rel=1e-13)
    assert_allclose(row[["ci_low", "ci_high"]].to_numpy(float), (low, high), rtol=1e-13)
    if pair == ("wfns", "s100b"):
        for alternative, expected in PUBLISHED_ONE_SIDED.items():
            one = pdcompare.delong(asah, *pair, alternative=alternative)
            assert one["pvalue"].iloc[0] == pytest.approx(expected, rel=1e-13)


@pytest.mark.parametrize("pair", list(PROC_TEST))
def test_delong_every_pair_and_alternative(asah, pair):
    z, two_sided, greater, less, ci95, ci90 = PROC_TEST[pair]
    a, b = pair
    out = pdcompare.delong(asah, a, b).iloc[0]
    assert (out["model_1"], out["model_2"]) == pair
    assert out["statistic"] == pytest.approx(z, rel=1e-12)
    assert out["pvalue"] == pytest.approx(two_sided, rel=1e-12)
    assert_allclose(out[["ci_low", "ci_high"]].to_numpy(float), ci95, rtol=1e-12)
    assert out["auc_diff"] == pytest.approx(PROC_AUC[a][0] - PROC_AUC[b][0], rel=1e-13)
    up = pdcompare.delong(asah, a, b, alternative="greater").iloc[0]
    assert up["statistic"] == pytest.approx(z, rel=1e-12)
    assert up["pvalue"] == pytest.approx(greater, rel=1e-12)
    assert (up["ci_low"], up["ci_high"]) == (pytest.approx(ci90[0], rel=1e-12), np.inf)
    down = pdcompare.delong(asah, a, b, alternative="less").iloc[0]
    assert down["pvalue"] == pytest.approx(less, rel=1e-12)
    assert (down["ci_low"], down["ci_high"]) == (-np.inf, pytest.approx(ci90[1], rel=1e-12))
    # The other order: the statistic and the interval change sign, "less" becomes "greater".
    swapped = pdcompare.delong(asah, b, a, alternative="less").iloc[0]
    assert swapped["statistic"] == pytest.approx(-z, rel=1e-12)
    assert swapped["pvalue"] == pytest.approx(greater, rel=1e-12)
    assert swapped["ci_high"] == pytest.approx(-ci90[0], rel=1e-12)


def test_all_pairs_at_once_equal_the_pairs_one_by_one(asah):
    out = asah.cmp.pairwise(test="delong", correction=None)
    assert list(zip(out["model_1"], out["model_2"], strict=True)) == list(PROC_TEST)  # wfns first
    expected = np.array([PROC_TEST[pair][:2] for pair in PROC_TEST])
    assert_allclose(out[["statistic", "pvalue"]].to_numpy(float), expected, rtol=1e-12)
    best = asah.cmp.delong()
    assert_allclose(best["pvalue"], [PROC_TEST[p][1] for p in list(PROC_TEST)[:2]], rtol=1e-12)


def test_auc_ci_equals_ci_auc_delong(asah):
    out = asah.cmp.auc_ci()
    assert out.index.tolist() == ["wfns", "s100b", "ndka"]
    expected = np.array([PROC_AUC[m] for m in out.index])
    assert_allclose(out[["auc", "ci_low", "ci_high", "se"]].to_numpy(float), expected, rtol=1e-12)
    assert (out["n_pos"] == 41).all()
    assert (out["n_neg"] == 72).all()
    for model in out.index:  # and the AUC is scikit-learn's
        assert out.loc[model, "auc"] == pytest.approx(roc_auc_score(asah["y"], asah[model]))


def test_text_outcome_with_pos_label_gives_the_same_numbers(asah):
    text = asah.assign(y=np.where(asah["y"] == 1, "Poor", "Good"))
    out = text.cmp.delong("wfns", "s100b", pos_label="Poor")  # "Poor" sorts last: the default too
    assert out["statistic"].iloc[0] == pytest.approx(PROC_TEST["wfns", "s100b"][0], rel=1e-12)


def _rscript_with_proc():
    rscript = shutil.which("Rscript")
    if rscript is None:
        return None
    found = subprocess.run(
        [rscript, "-e", "library(pROC)"], capture_output=True, check=False, timeout=120
    )
    return rscript if found.returncode == 0 else None


def test_live_proc_agrees(tmp_path):
    rscript = _rscript_with_proc()
    if rscript is None:
        pytest.skip("R with pROC is not installed (apt-get install r-cran-proc)")
    script = tmp_path / "proc.R"
    script.write_text(PROC_SCRIPT)
    printed = subprocess.run(
        [rscript, str(script)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
        timeout=300,
    ).stdout
    lines = [line.split() for line in printed.splitlines() if line.startswith(("auc ", "test "))]
    aucs = {fields[1]: fields[2:] for fields in lines if fields[0] == "auc"}
    assert {m: d for m, (d, *_) in aucs.items()} == dict.fromkeys(PROC_AUC, "<")
    for model, (_, *values) in aucs.items():
        auc, low, high, se = map(float, values)
        assert_allclose([auc, low, high, se], PROC_AUC[model], rtol=1e-15)
    tests = [fields[1:] for fields in lines if fields[0] == "test"]
    assert len(tests) == 9
    column = {"two.sided": 1, "greater": 2, "less": 3}
    for a, b, alternative, *values in tests:
        z, p, low95, high95, low90, high90 = map(float, values)
        reference = PROC_TEST[a, b]
        assert_allclose(
            [z, p, low95, high95, low90, high90],
            [reference[0], reference[column[alternative]], *reference[4], *reference[5]],
            rtol=1e-15,
        )
