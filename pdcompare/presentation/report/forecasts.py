"""The report of forecasts in time order: the best, Diebold–Mariano, the confidence set."""

from __future__ import annotations

from pdcompare.compare.analysis import ForecastAnalysis
from pdcompare.presentation.labels import format_number as _number
from pdcompare.presentation.labels import format_signed as _signed
from pdcompare.presentation.labels import (
    format_significant,
    join_names,
    listed_name,
    plural,
    spelling,
)
from pdcompare.presentation.labels import p_equals as _pvalue
from pdcompare.presentation.report.pairs import family_words, left_out_line, shown_pairs
from pdcompare.results import result_info


def forecast_lines(analysis: ForecastAnalysis, top: int) -> list[str]:
    """The report of forecasts in time order: the best, Diebold–Mariano, the confidence set."""
    dm, mcs = analysis.significance, analysis.confidence_set
    info, mcs_info = result_info(dm), result_info(mcs)
    best = analysis.best
    loss = info.get("loss", "squared_error")
    top_names = analysis.summary.index[:top]
    losses = [
        f"{listed_name(name)} {format_significant(value, 4)}"
        for name, value in analysis.summary["mean_loss"].iloc[:top].items()
    ]
    rest = len(analysis.summary) - len(losses)
    lines = [
        "pdcompare report",
        "================",
        f"Data: {len(analysis.summary)} forecasters x {info.n_obs} time points; the "
        f"loss is {loss} (lower is better) and the rows are in time order.",
        f"Best forecast: {best}, the lowest mean {loss}.",
        f"Mean losses, best first: {'; '.join(losses)}"  # names quoted by listed_name
        + (f"; and {plural(rest, 'other model', 'other models')}." if rest else "."),
        "",
    ]
    scope, counted = family_words(dm, analysis.family, best)
    correction = info.correction
    corrected = f"{correction} correction over {counted}" if correction else "no correction"
    lines.append(
        f"Significance: Diebold–Mariano test of equal predictive accuracy (h = {info.get('h')}, "
        f"{'Harvey–Leybourne–Newbold t' if info.get('harvey') else 'normal'}, "
        f"{info.alternative or 'two-sided'}), {scope}, {corrected}, "
        f"alpha = {info.level_alpha:g}."
    )
    shown = shown_pairs(dm, best, top_names)
    rows = dm.loc[shown]
    for a, b, diff, statistic, p_adj, reject in zip(
        rows["model_1"].to_numpy(dtype=object),
        rows["model_2"].to_numpy(dtype=object),
        rows["mean_loss_diff"].to_numpy(dtype=float),
        rows["statistic"].to_numpy(dtype=float),
        rows["pvalue_adj"].to_numpy(dtype=float),
        rows["reject"].to_numpy(dtype=bool),
        strict=True,
    ):
        verdict = f"{a} forecasts SIGNIFICANTLY more accurately" if reject else "not significant"
        lines.append(
            f"  {a} vs {b}: mean loss difference {_signed(diff)}, statistic = "
            f"{_number(statistic, 3)}, adjusted p {_pvalue(p_adj)}: {verdict}."
        )
    listing = (
        "pairwise(test='diebold_mariano')"
        if analysis.family == "all_pairs"
        else ("diebold_mariano()")
    )
    lines += left_out_line(dm, shown, listing)
    fallback = info.get("fallback_h1") or []
    if fallback:
        lines.append(
            f"The long-run variance was not positive for {plural(len(fallback), 'pair', 'pairs')}"
            ": h = 1 was used there, as R's dm.test does."
        )
    kept = mcs.index[mcs["in_set"].to_numpy(dtype=bool)]
    level = 1 - (0.1 if mcs_info.alpha is None else mcs_info.alpha)
    block = mcs_info.get("block_size", 1)
    if block > 1:
        why = (
            f"round(n^(1/3)) of the {mcs_info.n_obs} time points"
            if analysis.default_block
            else spelling().keyword("block_size")
        )
        resampling = (
            f"{mcs_info.n_resamples or 1000} stationary-bootstrap resamples of blocks of "
            f"rows of mean length {block} ({why}), as losses in time are correlated"
        )
    else:
        resampling = f"{mcs_info.n_resamples or 1000} bootstrap resamples of single rows"
    lines += [
        "",
        f"Model confidence set (Hansen, Lunde & Nason 2011; {mcs_info.method or 'R'} "
        f"statistic, {resampling}): at "
        f"{level:.0%} it holds {join_names(kept, sentence=True)}; the others were eliminated "
        "as worse at that level. The set holds every model the data cannot tell from the best.",
    ]
    return lines
