"""Dominations: Road to Civilization — component data, board, growth, cities.

Modules, one per concept: :mod:`grid` (triangular geometry and its notation),
:mod:`data` (validated component files), :mod:`board` (tiles around the cradle,
legal placements, loci), :mod:`production` (what a placement produces, itemised),
:mod:`rules` (rule options), :mod:`engine` (game state), :mod:`notation` (action
text), :mod:`render` (SVG).
"""
