"""Dominari: exact, fast engines for Dominations and Dominion, with bots and simulation."""

__version__ = "0.1.0"


def run() -> int:
    """The ``dominari`` command (and ``python -m dominari``): :func:`dominari.cli.main`,
    imported here so that a Ctrl-C while the command line loads (a second or so) ends it
    as one later does, with one line and status 130, not a traceback of the imports."""
    import sys

    try:
        from dominari.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("\ndominari: interrupted\n")
        return 130
    return main()
