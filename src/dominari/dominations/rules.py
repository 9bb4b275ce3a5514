"""Rule options: the rulings of §13 of the spec (and data spec §6.1, §7) as named switches.

>>> r = Rules.parse(["connection=all-sides"])
>>> r.connection, r.to_json()["connection"]
('all-sides', 'all-sides')
>>> try:
...     Rules.parse(["connection=sideways"])
... except ConfigError as e:
...     print(e)
rule option connection: 'sideways' is not one of choose-one, all-sides
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from dominari.core.errors import ConfigError

CHOICES: dict[str, tuple[str, ...]] = {
    # §13.1: the player chooses the one connected side; "all-sides" scores every touching side.
    "connection": ("choose-one", "all-sides"),
    # data spec §6.1: monument level costs paid in any mix of domains, or in the named domain.
    "monument_cost": ("any", "named"),
    # data spec §7: 10/20/40/70/100 by goals met, or 15/15/20/15/15 per goal; §14: 10 per
    # goal. "auto": ten_each with the prototype variant, else progressive.
    "objective_scoring": ("auto", "progressive", "per_goal", "ten_each"),
    # §14: the French prototype rules.
    "variant": ("retail", "prototype"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of a game; the defaults are the retail rules with the §13 rulings."""

    connection: str = "choose-one"
    monument_cost: str = "any"
    objective_scoring: str = "auto"
    variant: str = "retail"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value not in CHOICES[f.name]:
                raise ConfigError(
                    f"rule option {f.name}: {value!r} is not one of {', '.join(CHOICES[f.name])}"
                )

    @property
    def all_sides(self) -> bool:
        return self.connection == "all-sides"

    @property
    def objective_table(self) -> str:
        """The objective scoring in force (``auto`` resolved by the variant).

        >>> Rules().objective_table, Rules(variant="prototype").objective_table
        ('progressive', 'ten_each')
        """
        if self.objective_scoring != "auto":
            return self.objective_scoring
        return "ten_each" if self.variant == "prototype" else "progressive"

    def to_json(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ConfigError("rule options must be an object of name: value")
        return cls().with_options(data)

    def with_options(self, options: Mapping[str, Any]) -> Rules:
        """These rules with ``options`` (name: value) changed. A hyphen and an underscore
        are one in names and values, as on the command line.

        >>> Rules().with_options({"objective-scoring": "per-goal"}).objective_scoring
        'per_goal'
        """
        known = {f.name for f in fields(self)}
        changed: dict[str, str] = {}
        for raw, value in options.items():
            name = raw.strip().replace("-", "_") if isinstance(raw, str) else raw
            if name not in known:
                raise ConfigError(
                    f"unknown rule option {raw!r}: known options are {', '.join(sorted(known))}"
                )
            if not isinstance(value, str):
                raise ConfigError(f"rule option {name}: expected text, got {value!r}")
            if name in changed:
                raise ConfigError(f"rule option {name} is given twice: give it once")
            same = [c for c in CHOICES[name]
                    if c.replace("-", "_") == value.strip().replace("-", "_")]
            changed[name] = same[0] if same else value
        return replace(self, **changed)

    @classmethod
    def parse(cls, items: Iterable[str]) -> Rules:
        """Options from ``name=value`` texts (the CLI's ``--rule``)."""
        options: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise ConfigError(f"bad rule option {item!r}: expected name=value, "
                                  "for example connection=all-sides")
            key = name.strip().replace("-", "_")
            if key in options:
                raise ConfigError(f"rule option {name.strip()!r} is given twice "
                                  f"({options[key]} and {value.strip()}): give it once")
            options[key] = value.strip()
        return cls().with_options(options)
