"""``python -m pdcompare``: the ``pdcompare`` command."""

import sys

from pdcompare.cli import main

if __name__ == "__main__":
    sys.exit(main())
