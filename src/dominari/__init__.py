"""Dominari: exact, fast engines for Dominations and Dominion, with bots and simulation."""

__version__ = "0.1.0"
