"""``power`` on a runs frame is Welch's; the report of runs says what its runs could detect."""

import numpy as np
import pytest
from frames import seed_runs
from scipy import stats

import pdcompare  # noqa: F401  (registers the accessor)

COLUMNS = ["model_1", "model_2", "sd_1", "sd_2", "n_runs_1", "n_runs_2", "power", "mdd",
           "n_runs_needed"]  # fmt: skip


def _runs(n_runs=8):
    frame = seed_runs(n_runs=n_runs).cmp.set_design(paired=False)
    frame.iloc[1, -3:] = np.nan  # net1 has 3 runs fewer: absent runs
    return frame


def test_columns_and_numbers_are_welchs_noncentral_t():
    frame = _runs()
    result = frame.cmp.power("net0", "net1", delta=0.01)
    assert result.columns.tolist() == COLUMNS
    row = result.iloc[0]
    x, y = frame.loc["net0"].dropna(), frame.loc["net1"].dropna()
    s1, s2, n1, n2 = x.std(ddof=1), y.std(ddof=1), len(x), len(y)
    assert (row["sd_1"], row["sd_2"]) == pytest.approx((s1, s2))
    assert (row["n_runs_1"], row["n_runs_2"]) == (8, 5)
    v1, v2 = s1**2 / n1, s2**2 / n2
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    nc = 0.01 / np.sqrt(v1 + v2)
    crit = stats.t.ppf(0.975, df)
    expected = stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)
    assert row["power"] == pytest.approx(expected, abs=1e-10)
    # The mdd is the difference of power 0.8 with these runs; n_runs_needed the least runs.
    again = frame.cmp.power("net0", "net1", delta=float(row["mdd"]))
    assert again["power"].iloc[0] == pytest.approx(0.8, abs=1e-6)
    # counts print as integers (section 35): the runs needed is a whole number of runs
    assert result["n_runs_needed"].dtype == np.int64
    assert result["n_runs_1"].dtype == np.int64


@pytest.mark.parametrize("keyword", ["cv", "test_size", "n_train", "n_test"])
def test_cv_design_keywords_are_refused_naming_the_keyword(keyword):
    given = {
        "cv": {"cv": 5},
        "test_size": {"test_size": 0.2},
        "n_train": {"n_train": 80, "n_test": 20},
        "n_test": {"n_train": 80, "n_test": 20},
    }[keyword]
    with pytest.raises(ValueError, match=r"`(cv|test_size|n_train)=` describes CV splits"):
        _runs().cmp.power(delta=0.01, **given)


def test_report_of_runs_gives_welchs_detectable_difference():
    frame = seed_runs(n_runs=8).cmp.set_design(paired=False)
    text = frame.cmp.report()
    family = frame.cmp.welch_ttest("net2", "net1")
    assert not bool(family["reject"].iloc[0])
    mdd = frame.cmp.power("net2", "net1", delta=0.01, alpha=0.05 / 3)["mdd"].iloc[0]
    assert f"these runs (Welch's t-test) could detect about {mdd:.3g} or more" in text
    assert "(power 0.8 at 0.05/3)" in text
