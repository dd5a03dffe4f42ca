"""Running the command line as users do: ``python -m pdcompare`` in a subprocess."""

import subprocess
import sys


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    """``python -m pdcompare *args`` with its output captured as text (never raises)."""
    return subprocess.run(
        [sys.executable, "-m", "pdcompare", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
