"""The first call in a fresh interpreter: ``import pdcompare`` plus the first ``summary()``.

Against ``import pandas`` plus one ``DataFrame.describe()`` on the same 20 x 100
scores, each in a fresh interpreter, alternating (alternating spreads other
load on the machine over both); the median of each and their ratio. Also the
first ``mcnemar()`` on a small predictions frame, for scale, and which heavy
modules (scipy.stats, statsmodels, matplotlib) each first call loaded.

Target (issue 16): import + first ``summary()`` within 1.35x of import +
``describe()``.

Run: python benchmarks/bench_first_call.py [--quick]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

MAKE = (
    "import numpy as np\n"
    "values = np.random.default_rng(0).normal(0.8, 0.05, size=(20, 100))\n"
)
CODES = {
    "import pandas + describe()": (
        "import pandas as pd\n" + MAKE + "pd.DataFrame(values).T.describe()\n"
    ),
    "import pdcompare + summary()": (
        "import pandas as pd\nimport pdcompare\n" + MAKE
        + "pd.DataFrame(values).cmp.summary(cv=10)\n"
    ),
    "import pdcompare + mcnemar()": (
        "import pandas as pd\nimport pdcompare\n" + MAKE
        + "y = (values[0] > 0.8).astype(int)\n"
        + "pd.DataFrame({'y': y, 'a': y, 'b': 1 - y}).cmp.mcnemar()\n"
    ),
}
HEAVY = ("scipy.stats", "statsmodels", "matplotlib", "pyarrow")


#: The interpreters run as a user's do: with bytecode caching, which PYTHONDONTWRITEBYTECODE
#: (set on some CI machines and sandboxes) turns off; without it every run would compile
#: pdcompare from source (~40 ms) while pandas and scipy load the .pyc files pip wrote.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall_time(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV)
    return time.perf_counter() - start


def heavy_modules(code: str) -> list[str]:
    probe = code + f"import sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, env=ENV
    )
    return out.stdout.split()


def main() -> None:
    repeats = 7 if "--quick" in sys.argv[1:] else 21
    for code in CODES.values():
        wall_time(code)  # warm the file cache (and write the bytecode cache)
    times = {name: [] for name in CODES}
    for _ in range(repeats):
        for name, code in CODES.items():
            times[name].append(wall_time(code))
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"\nfirst call in a fresh interpreter, median of {repeats} alternating runs")
    base = medians["import pandas + describe()"]
    for name, seconds in medians.items():
        loaded = ", ".join(heavy_modules(CODES[name])) or "none"
        print(f"  {name:32}{seconds * 1000:8.0f} ms  {seconds / base:5.2f}x   heavy: {loaded}")


if __name__ == "__main__":
    main()
