"""``python -m dominari``: the same as the ``dominari`` command."""

import sys

from dominari import run

if __name__ == "__main__":
    sys.exit(run())
