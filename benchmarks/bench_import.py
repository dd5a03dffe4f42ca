"""Import cost of pdcompare against pandas alone, in fresh interpreters.

Prints the minimum wall time over repeated runs (the minimum is the figure
least disturbed by other load on the machine) and the ratio. The target is
`import pdcompare` at most 30 % dearer than `import pandas`: scipy.stats,
statsmodels, matplotlib and scikit-learn are imported only where they are used.

Run: python benchmarks/bench_import.py [repeats]
"""

import subprocess
import sys
import time


def best_time(code: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    best_time("import pdcompare", 2)  # warm the file cache
    pandas_time = best_time("import pandas", repeats)
    pdcompare_time = best_time("import pdcompare", repeats)
    python_time = best_time("pass", repeats)
    print(f"python -c pass            {python_time * 1000:7.1f} ms")
    print(f"python -c 'import pandas' {pandas_time * 1000:7.1f} ms")
    print(f"python -c 'import pdcompare' {pdcompare_time * 1000:4.1f} ms")
    print(f"ratio pdcompare / pandas  {pdcompare_time / pandas_time:7.3f}  (target <= 1.30)")


if __name__ == "__main__":
    main()
