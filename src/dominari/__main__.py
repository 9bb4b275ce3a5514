"""``python -m dominari``: the same as the ``dominari`` command."""

import sys

from dominari.cli import main

if __name__ == "__main__":
    sys.exit(main())
