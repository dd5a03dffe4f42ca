"""Import cost of pdcompare against pandas alone, in fresh interpreters.

Two figures:

* wall time: `import pandas` and `import pdcompare` run alternately in fresh
  interpreters (alternating spreads other load on the machine over both), the
  median of each and their ratio;
* own modules: with ``python -X importtime``, the time spent in the modules that
  `import pdcompare` loads beyond those `import pandas` loads (pdcompare's own
  and the few standard-library modules it needs), a figure little disturbed by
  other load on the machine.

The target is `import pdcompare` at most 30 % dearer than `import pandas`:
scipy.stats, statsmodels, matplotlib and scikit-learn are imported only where
they are used.

Run: python benchmarks/bench_import.py [repeats]
"""

import statistics
import subprocess
import sys
import time


def wall_time(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def module_times(code: str) -> dict[str, int]:
    """Self time in microseconds of every module the code imports."""
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        check=True,
        capture_output=True,
        text=True,
    ).stderr
    times = {}
    for line in err.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            own, _, name = line.split(":", 1)[1].split("|")
            times[name.strip()] = int(own)
    return times


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    wall_time("import pdcompare")  # warm the file cache
    pandas_times, pdcompare_times, extra, base = [], [], [], []
    for _ in range(repeats):
        pandas_times.append(wall_time("import pandas"))
        pdcompare_times.append(wall_time("import pdcompare"))
    for _ in range(5):
        alone, with_pdcompare = module_times("import pandas"), module_times("import pdcompare")
        base.append(sum(alone.values()))
        extra.append(sum(v for k, v in with_pdcompare.items() if k not in alone))
    pandas_median = statistics.median(pandas_times)
    pdcompare_median = statistics.median(pdcompare_times)
    print(f"wall, median of {repeats} alternating runs:")
    print(f"  python -c 'import pandas'     {pandas_median * 1000:7.1f} ms")
    print(f"  python -c 'import pdcompare'  {pdcompare_median * 1000:7.1f} ms")
    print(
        f"  ratio  {pdcompare_median / pandas_median:.3f}  (target <= 1.30)"
    )
    print("python -X importtime, median of 5:")
    print(f"  modules of pandas             {statistics.median(base) / 1000:7.1f} ms")
    print(
        f"  modules added by pdcompare    {statistics.median(extra) / 1000:7.1f} ms"
        f"  ({statistics.median(extra) / statistics.median(base):.1%} more)"
    )


if __name__ == "__main__":
    main()
