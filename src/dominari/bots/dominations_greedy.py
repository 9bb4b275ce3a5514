"""A greedy Dominations player: each decision by a one-step evaluation of what it buys.

The bot looks one decision ahead, never deeper, and only at public state (never at the tile
supply's order or the game's random generator). Every value is in VP-equivalents.

**Knowledge.** A unit of knowledge kept is worth :data:`KU` while it is *usable*: no more than
the player's *need* in that domain, the highest cost it could pay there this age (a city, a
city upgrade, a mastery card it may take, an upgrade of one of its cards), and never above the
reserve limit. Units above the need are worth :data:`KU_EXCESS` (they can still pay monument
levels, which take any mix, or be exchanged); units above the limit are lost, worth 0. In the
player's last turn of an age knowledge left is worth only the domination cards (roles) it
wins at the end of the age: a domain's role VP (and a little for its effect next age) when the
player has strictly more than every other player (or as much, and the initiative); in the
turn before, 0.3 of that is added. Vestigium goes where it is worth most. (Tuned in
greedy-against-greedy games: knowledge kept is worth about a VP a unit, ``KU`` 1.0.)

**Purchases.** Each option is worth what it gives, then the knowledge it costs is valued as
above:

- a *city* (build or upgrade): influence × the influence scorings still to come (one per end
  of age), the reserve limit raised (a little per point, more when it unlocks a card or city
  cost tier above the old limit), future activations (open sides around the tile), monument
  rewards for a new city, the player's "when you build a city" effects, objective progress;
- a *monument level*: its VP, its effects, the nodi its card forms in the tree, for level 1
  the rewards its tile pays the player's cities (less half of those paid to others), and
  objective progress (monuments controlled);
- a *mastery card* (acquire or copy): its VP and influence, its effects (immediate ones as
  they stand, recurring ones × how often they will still fire: turns, ages, expected nodi,
  cities or production left), the nodi it forms and the open halves it leaves, objective
  progress (cards of a value and domain, nodi); an upgrade: the VP and the advanced side's
  gain over the basic side (an immediate effect fires again).

A *nodus* is worth :data:`NODUS` plus what the player's cards pay for it (nodus triggers,
end-of-age counts of nodi, a new colour for colour counts) and objective progress.

**Growth.** Every placement is previewed (``state.preview``, no copy): the knowledge produced
for the player (capped by the limits, with on-production effects and overflow VP) is valued
by the best *plan* for the rest of the turn: the best build option and then the best develop
option it can pay (vestigium all to one domain or spread, whichever is best), plus the
knowledge left. Knowledge produced for other players counts against it (:data:`OPPONENT`
a unit). The Inventor's reactivation is previewed and compared the same way (1 more, as the
tile stays in hand); the Artisan's second tile is placed when it is worth
:data:`SECOND_TILE_MARGIN` more than stopping.

**Build and develop.** The legal option with the highest value (gain, plus for a build the
best develop option the rest pays for, plus knowledge left) is taken, or ``pass`` when keeping
the knowledge is worth more. For each option, the best place is looked at: the city's tile,
the card's copy and tree position, the monument tile's cells. A campfire exchange is made only
when it turns an unaffordable option into the best one (by :data:`EXCHANGE_MARGIN`), never
paying away a domain it exchanged into in the same turn.

**Objectives.** With an objective kept (``state.objectives[p]``), each goal is scored
:data:`OBJ_PROGRESS` × have/need plus :data:`OBJ_MET` once met; an option's objective value is
the change in that score.

**Other decisions.** Effects due at once: those that only add resolve before those that
count knowledge or influence. Monument payments come from the least valuable units. The
setup draft keeps the objective that looks easiest and a monument with good VP per cost and
matching the hand; tiles are kept (``done``); the Governor puts the player first. Unknown
decisions get the first legal action that is not an exchange.

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
>>> bot = DominationsGreedyBot(seed=3)
>>> bot.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominari.bots.base import check_seed, raise_misuse
from dominari.dominations.board import MAX_CITY_LEVEL
from dominari.dominations.data import (
    ANY,
    CITY_DOMAIN,
    VESTIGIUM,
    Goal,
    Modifier,
    Triggered,
)
from dominari.dominations.data import Action as EffectAction
from dominari.dominations.effects import (
    DOMINANCE,
    END_OF_AGE,
    FILL,
    GAIN,
    IMMEDIATE,
    INFLUENCE,
    ON_CITY,
    ON_DOMINATION,
    ON_NODUS,
    ON_PRODUCE,
    START_OF_AGE,
    START_OF_TURN,
    Holdings,
    amount,
    card_source,
    city_groups,
)
from dominari.dominations.engine import (
    AGES,
    ASSIGN,
    BUILD,
    CITY_INFLUENCE,
    CITY_LIMIT,
    DEVELOP,
    F_STEP,
    GROWTH,
    MAX_LIMIT,
    S_DEVELOP,
    S_END_TURN,
    START_TURN,
    TURNS_PER_AGE,
    DominationsState,
)
from dominari.dominations.grid import side_neighbour
from dominari.dominations.monuments import control_scores, placed_record
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    AS_DOMAIN,
    CHOOSE,
    CITY,
    COPY,
    COPY_ADVANCE,
    DONE,
    EXCHANGE,
    MONUMENT,
    NO_TILE,
    ORDER,
    PASS,
    PAY,
    PLACE,
    REACTIVATE,
    RESOLVE,
    UPGRADE,
    Action,
    order_players,
    tile_where,
)
from dominari.dominations.tree import DIRECTIONS, Pos

KU = 1.0
"""A kept unit of knowledge the player can use (up to its need and limit)."""
KU_EXCESS = 0.15
"""A kept unit beyond the need (monument levels, exchanges)."""
KU_GAIN = 0.8
"""A unit of knowledge an effect will give later in the game."""
OPPONENT = 0.4
"""Weight of a unit of knowledge a placement produces for another player."""
NODUS = 0.6
"""A complete nodus in the tree, before what cards and objectives pay for it."""
OBJ_PROGRESS = 8.0
"""An objective goal, by its progress have/need."""
OBJ_MET = 10.0
"""An objective goal met."""
EXCHANGE_MARGIN = 0.5
"""How much better an option reached by exchanges must be to make an exchange."""
SECOND_TILE_MARGIN = 1.0
"""How much better than no tile the Artisan's second tile must be."""
NOMINAL_SPOT = 0.8
"""What a card's place in the tree is usually worth, where it is not looked at."""
ROLE_EFFECT = (2.0, 1.5, 0.0, 1.5, 1.0, 1.5)
"""The effect of each domain's role card in the next age (the Diplomat's influence apart)."""
_NEG = -1.0e9



def _reads(actions: Sequence[EffectAction]) -> bool:
    """Whether an effect reads knowledge or influence (so it should resolve last)."""
    for act in actions:
        if act.kind == FILL:
            return True
        per = act.per
        if per is not None and per.count in ("know", "influence"):
            return True
    return False


class _Eval:
    """What one player's options are worth now (see the module docstring)."""

    def __init__(self, state: DominationsState, p: int,
                 memo: dict[tuple[int, ...], float] | None = None) -> None:
        self.s = state
        self.memo: dict[tuple[int, ...], float] = {} if memo is None else memo
        """Values kept while the bot's turn lasts (best tree spots of skills)."""
        self.p = p
        ps = self.ps = state.players[p]
        self.n = state.num_players
        self.board = state.board
        self.tree = ps.tree
        self.cat = state.catalog
        self.age = state.age
        rnd = min(state.round, TURNS_PER_AGE)
        self.left_age = max(0, TURNS_PER_AGE - 1 - rnd)
        """The player's turns in this age after the current one."""
        self.left_game = self.left_age + (AGES - self.age) * TURNS_PER_AGE
        self.ends_left = AGES - self.age + 1
        self.iv = self.ends_left + 0.4
        """An influence point: VP at each end of age still to come, and the copy."""
        self.K = list(ps.knowledge)
        self.limits = ps.limits()
        self.held = state.skills_held(p)
        self.best_vals = [0] * 6
        for _, card in self.tree.mastery_cards():
            if card.domain is not None and 0 <= card.domain < 6:
                self.best_vals[card.domain] = max(self.best_vals[card.domain], card.value)
        self.holdings = Holdings(p, self.tree, self.K, ps.influence, self.board)
        self.my_cities = [k for k, o in self.board.city_owner.items() if o == p]
        self.empty_settle = [0] * 6
        for key, d in self.board.settlement.items():
            if key not in self.board.city_owner:
                self.empty_settle[d] += 1
        rank = {q: i for i, q in enumerate(state.order)}
        self.opp_max = [0] * 6
        self.tie_wins = [True] * 6
        """Per domain: whether the player wins a tie with the best other player there."""
        for q, qs in enumerate(state.players):
            if q != p:
                for d in range(6):
                    k = qs.knowledge[d]
                    if k > self.opp_max[d]:
                        self.opp_max[d] = k
                        self.tie_wins[d] = rank.get(p, 0) < rank.get(q, 0)
                    elif k == self.opp_max[d] and rank.get(q, 0) < rank.get(p, 0):
                        self.tie_wins[d] = False
        self._role_vp = [self._role_value(d) for d in range(6)]
        self._init_objective()
        self._init_marginals()
        self.need = self._needs()
        self.tab = [[self._r(d, k) for k in range(self.limits[d] + 1)] for d in range(6)]
        self._builds: list[tuple[int, int, float]] | None = None
        self._devs: list[tuple[int, int, float]] | None = None
        self._nominal_city: list[float] = [_NEG] * 6
        self._paid: dict[tuple[int, ...], list[int]] = {}

    # -- knowledge ------------------------------------------------------------------------

    def _role_value(self, d: int) -> float:
        role = self.s.data.roles[d]
        if self.age >= AGES:
            return float(role.vp_age3)
        vp = role.vp_two_players if self.n == 2 else role.vp
        effect = ROLE_EFFECT[d]
        if d == 2:  # the Diplomat: 2 influence now, scored at the ends of age still to come
            effect = 2.0 * (self.ends_left - 1)
        return vp + effect

    def _role_part(self, d: int, k: int) -> float:
        if k <= 0:
            return 0.0
        opp = self.opp_max[d]
        if k > opp:
            return self._role_vp[d]
        if k == opp and self.tie_wins[d]:
            return self._role_vp[d]
        return 0.0

    def _r(self, d: int, k: int) -> float:
        if self.left_age == 0:
            return self._role_part(d, k)
        need = self.need[d]
        useful = k if k < need else need
        v = KU * useful + KU_EXCESS * (k - useful)
        if self.left_age == 1:
            v += 0.3 * self._role_part(d, k)
        return v

    def r(self, d: int, k: int) -> float:
        """What ``k`` kept knowledge of domain ``d`` is worth (above the limit: lost)."""
        row = self.tab[d]
        return row[k] if k < len(row) else row[-1]

    def resid(self, K: Sequence[int]) -> float:
        tab = self.tab
        total = 0.0
        for d in range(6):
            row = tab[d]
            k = K[d]
            total += row[k] if k < len(row) else row[-1]
        return total

    def marginal(self, d: int, k: int) -> float:
        return self.r(d, k) - self.r(d, k - 1) if k > 0 else 0.0

    def _units(self, K: Sequence[int]) -> list[tuple[float, int, int]]:
        """Every unit of ``K`` as (what losing it costs, minus its rank in its domain, the
        domain), least valuable first (a domain's top units before its lower ones)."""
        units = []
        tab = self.tab
        for d in range(6):
            row = tab[d]
            top = len(row) - 1
            for k in range(min(K[d], top), 0, -1):
                units.append((row[k] - row[k - 1], -k, d))
        units.sort()
        return units

    def _loss_any(self, K: Sequence[int], cost: int, dd: int, dc: int,
                  units: Sequence[tuple[float, int, int]]) -> float | None:
        """What paying ``dc`` of domain ``dd`` (-1: nothing) and then ``cost`` in any mix
        loses, or None if it cannot be paid; ``units`` are :meth:`_units` of ``K``."""
        loss = 0.0
        left = 0
        if dd >= 0:
            left = K[dd] - dc
            if left < 0:
                return None
            row = self.tab[dd]
            loss = row[K[dd]] - row[left]
        n = cost
        for m, k, d in units:
            if n == 0:
                break
            if d == dd and -k > left:
                continue
            loss += m
            n -= 1
        return None if n > 0 else loss

    def pay_any(self, K: list[int], cost: int) -> list[int] | None:
        """Pay ``cost`` in any mix, from the least valuable units; None if short."""
        if sum(K) < cost:
            return None
        key = (*K, cost)
        got = self._paid.get(key)
        if got is not None:
            return got
        out = list(K)
        for _m, _k, d in self._units(K)[:cost]:
            out[d] -= 1
        self._paid[key] = out
        return out

    def _needs(self) -> list[int]:
        s, p, ps = self.s, self.p, self.ps
        costs = [0] * 6
        if ps.tokens > 0:
            c1 = s.city_cost(p, 1)
            for d in range(6):
                if self.empty_settle[d]:
                    costs[d] = max(costs[d], c1)
            for key in self.my_cities:
                level = self.board.city_level[key]
                if level < MAX_CITY_LEVEL:
                    d = self.board.settlement[key]
                    costs[d] = max(costs[d], s.city_cost(p, level + 1))
        for si, skill in enumerate(self.cat.skills):
            if si in self.held:
                continue
            if not self._prereq_ok(si):
                continue
            costs[skill.domain] = max(costs[skill.domain], s.acquire_cost(p, si))
        for si, pos in self.held.items():
            if not self.tree.cards[pos].advanced:
                skill = self.cat.skills[si]
                d = skill.upgrade_domain
                costs[d] = max(costs[d], s.upgrade_cost(p, si))
        return [min(costs[d], self.limits[d]) for d in range(6)]

    def _prereq_ok(self, si: int) -> bool:
        pre = self.cat.skills[si].prerequisite
        return pre is None or self.best_vals[pre.domain] >= pre.value

    # -- objectives -----------------------------------------------------------------------

    def _init_objective(self) -> None:
        objectives: list[int] = getattr(self.s, "objectives", None) or []
        index = objectives[self.p] if self.p < len(objectives) else -1
        self.goals: tuple[Goal, ...] = (self.s.data.objectives[index].goals
                                        if index >= 0 else ())
        if not self.goals:
            return
        board = self.board
        self.o_levels = sorted((board.city_level[k] for k in self.my_cities), reverse=True)
        self.o_groups = city_groups(board, self.p)
        self.o_nodi = self.tree.nodi_counts()
        self.o_cards: dict[tuple[int, int], int] = {}
        for _, card in self.tree.mastery_cards():
            key = (card.value, card.domain if card.domain is not None else -1)
            self.o_cards[key] = self.o_cards.get(key, 0) + 1
        self.o_controlled = sum(1 for m in self.s.monuments if self.s.controller(m) == self.p)
        self.o_base = self._obj_score()
        self._obj_cards: dict[tuple[int, int], float] = {}

    def _obj_score(self, levels: Sequence[int] | None = None, largest: int | None = None,
                   ngroups: int | None = None, controlled: int = 0, nodi: Sequence[int] = (),
                   influence: int = 0, card: tuple[int, int] | None = None) -> float:
        """The objective score with some changes (defaults: as now)."""
        lv = self.o_levels if levels is None else levels
        if largest is None:
            largest = max((len(g) for g in self.o_groups), default=0)
        if ngroups is None:
            ngroups = len(self.o_groups)
        total = 0.0
        for goal in self.goals:
            kind = goal.kind
            if kind == "cities_of_levels":
                have, need = _levels_met(lv, goal.levels)
            elif kind == "adjacent_cities":
                have, need = largest, goal.count
            elif kind == "city_groups":
                have, need = ngroups, goal.count
            elif kind == "monuments":
                have, need = self.o_controlled + controlled, goal.count
            elif kind == "influence":
                have, need = self.ps.influence + influence, goal.count
            elif kind == "nodi":
                have = need = 0
                for c, n in goal.nodi:
                    have += min(self.o_nodi[c] + sum(1 for x in nodi if x == c), n)
                    need += n
            elif kind == "mastery_cards":
                have = need = 0
                for q in goal.cards:
                    got = sum(self.o_cards.get((q.value, d), 0) for d in q.domains)
                    if card is not None and card[0] == q.value and card[1] in q.domains:
                        got += 1
                    have += min(got, q.count)
                    need += q.count
            else:
                continue
            if need > 0:
                total += OBJ_PROGRESS * min(have, need) / need + (OBJ_MET if have >= need else 0)
        return total

    def obj_card(self, value: int, domain: int) -> float:
        """Objective value of one more mastery card of this value and domain."""
        key = (value, domain)
        got = self._obj_cards.get(key)
        if got is None:
            got = self._obj_cards[key] = self._obj_score(card=key) - self.o_base
        return got

    def obj_city(self, key: int, level: int) -> float:
        """Objective value of bringing the city on ``key`` to ``level`` (1 = build)."""
        if not self.goals:
            return 0.0
        if level == 1:
            levels = sorted([*self.o_levels, 1], reverse=True)
            adjacent = {side_neighbour(key, s) for s in range(3)}
            joined = [g for g in self.o_groups if any(c in adjacent for c in g)]
            size = 1 + sum(len(g) for g in joined)
            largest = max([size, *(len(g) for g in self.o_groups if g not in joined)])
            ngroups = len(self.o_groups) - len(joined) + 1
            return self._obj_score(levels, largest, ngroups, influence=1) - self.o_base
        levels = list(self.o_levels)
        if level - 1 in levels:
            levels.remove(level - 1)
        levels = sorted([*levels, level], reverse=True)
        return self._obj_score(levels, influence=CITY_INFLUENCE[level]) - self.o_base

    # -- marginal values from the player's own cards ----------------------------------------

    def _init_marginals(self) -> None:
        """Per counted item, what the player's recurring card effects pay for one more."""
        marg: dict[tuple[str, int], float] = {}
        nodus = [NODUS] * 7
        nodus[6] = 0.2
        fx = self.ps.fx
        ends = self.ends_left
        for hook in fx.hooked(END_OF_AGE):
            for act in hook.effect.actions:
                per = act.per
                if per is None:
                    continue
                worth = self._unit(act, future=True) * ends / max(1, per.divisor)
                if per.count == "nodi":
                    for c in range(6):
                        if per.except_colour is not None:
                            if c != per.except_colour:
                                nodus[c] += worth
                        elif per.colour in (ANY, c):
                            nodus[c] += worth
                elif per.count == "colours":
                    for c in range(6):
                        if self.tree.nodi(c) == 0:
                            nodus[c] += worth
                else:
                    key = (per.count, per.domain)
                    marg[key] = marg.get(key, 0.0) + worth
        for hook in fx.hooked(ON_NODUS):
            once = self.actions_value(hook.effect.actions, now=True)
            for c in range(6):
                if hook.effect.colour in (ANY, c):
                    nodus[c] += once
        if self.goals:
            for c in range(6):
                nodus[c] += self._obj_score(nodi=(c,)) - self.o_base
        self.nodus_value = nodus
        self.marg = marg

    def _count_marg(self, count: str, domain: int = ANY) -> float:
        m = self.marg
        v = m.get((count, ANY), 0.0)
        if domain != ANY:
            v += m.get((count, domain), 0.0)
        return v

    # -- effects ----------------------------------------------------------------------------

    def _unit(self, act: EffectAction, future: bool) -> float:
        """One unit of an effect action's amount."""
        kind = act.kind
        if kind in (GAIN, FILL):
            return KU_GAIN if future or self.left_age > 0 else KU_GAIN * 0.3
        if kind == INFLUENCE:
            return self.iv
        return 1.0

    def actions_value(self, actions: Sequence[EffectAction], now: bool,
                      spent: tuple[int, int] = (-1, 0)) -> float:
        """What an effect's actions give once (``now``: counted as things stand)."""
        total = 0.0
        K, limits = self.K, self.limits
        for act in actions:
            n = amount(act.amount, act.per, self.holdings) if act.per else act.amount
            kind = act.kind
            if kind == GAIN:
                d = act.domain
                unit = self._unit(act, not now)
                if now and d is not None and 0 <= d < 6:
                    have = K[d] - (spent[1] if spent[0] == d else 0)
                    n = max(0, min(n, limits[d] - have))
                elif d == VESTIGIUM:
                    unit *= 1.1
                elif d == CITY_DOMAIN:
                    pass
                total += n * unit
            elif kind == FILL:
                d = act.domain if act.domain is not None else 0
                if now:
                    have = K[d] - (spent[1] if spent[0] == d else 0)
                    n = max(0, limits[d] - have)
                else:
                    n = 3
                total += n * self._unit(act, not now)
            elif kind == INFLUENCE:
                total += n * self.iv
            else:
                total += n
        return total

    def effects_value(self, effects: Sequence[Any], formed: Sequence[int] = (),
                      spent: tuple[int, int] = (-1, 0)) -> tuple[float, float]:
        """(immediate, recurring) value of a card side's effects."""
        imm = ong = 0.0
        left = self.left_game
        for e in effects:
            if isinstance(e, Triggered):
                t = e.trigger
                if t == IMMEDIATE:
                    imm += self.actions_value(e.actions, True, spent)
                    continue
                once = self.actions_value(e.actions, False)
                if t == START_OF_TURN:
                    ong += once * left
                elif t == START_OF_AGE:
                    ong += once * (AGES - self.age)
                elif t == END_OF_AGE:
                    ong += once * self.ends_left * 1.1
                elif t == ON_PRODUCE:
                    per_turn = 6.0 if e.domain == ANY else 1.5
                    ong += once * left * per_turn / max(1, e.every)
                elif t == ON_NODUS:
                    share = 1.0 if e.colour == ANY else 0.25
                    now_n = sum(1 for c in formed if e.colour in (ANY, c))
                    ong += once * (0.75 * left * share + now_n)
                elif t == ON_CITY:
                    ong += once * 0.4 * left
                elif t == ON_DOMINATION:
                    ong += once * (5.0 / self.n) * self.ends_left
                elif t == DOMINANCE:
                    ong += once * self.ends_left
            elif isinstance(e, Modifier):
                ong += self.modifier_value(e)
        return imm, ong

    def modifier_value(self, m: Modifier) -> float:
        left = self.left_game
        n = amount(m.amount, m.per, self.holdings) if m.per else m.amount
        kind = m.kind
        if kind == "cost_reduction":
            rate = {"acq": 0.5, "upg": 0.25, "city": 0.45, "mon": 0.2}.get(m.target, 0.2)
            return n * rate * left * KU_GAIN
        if kind == "production_bonus":
            per_turn = 1.0 if m.source == "settle" else 0.35 * len(self.my_cities) + 0.3
            return n * per_turn * left * KU_GAIN * (1.1 if m.as_vestigium else 1.0)
        if kind == "exchange":
            if m.pay <= 0:
                return 0.0
            return max(0.0, m.get / m.pay - 0.5) * 0.75 * left
        if kind == "reserve_limit_raise":
            doms = range(6) if m.domain == ANY else (m.domain,)
            return sum(self.lim_value(d, self.limits[d], min(MAX_LIMIT, self.limits[d] + n))
                       for d in doms)
        return 0.0

    def lim_value(self, d: int, old: int, new: int) -> float:
        if new <= old:
            return 0.0
        v = 0.08 * (new - old) * min(1.0, (self.left_game + 1) / 5)
        if self.left_game >= 1:
            for tier in (6, 9):
                if old < tier <= new:
                    v += 1.0
        return v

    # -- nodi and tree positions -----------------------------------------------------------

    def spot_value(self, pos: Pos, sides: Sequence[int]) -> tuple[float, list[int]]:
        """What a card with ``sides`` at the legal position ``pos`` is worth for its place:
        the nodi it forms and the open halves it leaves; and the colours of those nodi."""
        nv = self.nodus_value
        cards = self.tree.cards
        col, row = pos
        v = 0.0
        formed: list[int] = []
        for d, (dc, dr) in enumerate(DIRECTIONS):
            h = sides[d]
            other = cards.get((col + dc, row + dr))
            if other is None:
                v += 0.2 if h == VESTIGIUM else (0.12 if h < VESTIGIUM else -0.05)
                continue
            o = other.sides[(d + 2) % 4]
            c = h if h < VESTIGIUM else o  # a legal position: the halves join
            if c >= VESTIGIUM:
                c = VESTIGIUM  # two vestigia (prototype): colourless
            formed.append(c)
            v += nv[c]
        return v, formed

    # -- cities -----------------------------------------------------------------------------

    def open_sides(self, key: int) -> int:
        board = self.board
        return sum(1 for s in range(3) if not board.is_filled(side_neighbour(key, s))
                   and side_neighbour(key, s) not in board.blocked)

    def city_gain(self, key: int, level: int, domain: int = -1, opened: int = -1) -> float:
        """Bringing a city to ``level`` (1 = build) on ``key`` (-1: a nominal new tile of
        ``domain`` with ``opened`` open sides)."""
        ps = self.ps
        d = self.board.settlement[key] if key >= 0 else domain
        g = CITY_INFLUENCE[level] * self.iv
        new_city = max(ps.city_limit[d], CITY_LIMIT[level])
        g += self.lim_value(d, self.limits[d], min(MAX_LIMIT, new_city + ps.fx.limit_bonus[d]))
        open_n = self.open_sides(key) if key >= 0 else opened
        turns_all = self.left_game * self.n
        g += open_n * 0.5 * min(1.0, turns_all / 10) * KU_GAIN
        for hook in ps.fx.hooked(ON_CITY):
            g += self.actions_value(hook.effect.actions, False)
        if level == 1:
            g += self._count_marg("cities", d) + self._count_marg("levels")
            if key >= 0:
                g += self._rewards(key, d)
                g += self.obj_city(key, 1)
            elif self.goals:
                g += 2.0
        else:
            g += self._count_marg("levels")
            g += self.obj_city(key, level)
        return g

    def _rewards(self, key: int, d: int) -> float:
        v = 0.0
        mons = self.s.data.monuments
        for m, placed in self.s.placed.items():
            if key in placed.reward_cells:
                mon = mons[m]
                if placed.shape == "circle" and mon.reward_domain != d:
                    continue
                v += mon.reward_vp
        return v

    def nominal_city(self, d: int) -> float:
        v = self._nominal_city[d]
        if v == _NEG:
            v = self._nominal_city[d] = self.city_gain(-1, 1, d, 2)
        return v

    # -- monuments --------------------------------------------------------------------------

    def monument_gain(self, m: int) -> float:
        """Monument ``m``'s next level, apart from where its card and tile go."""
        s = self.s
        cat = self.cat
        lv = cat.levels[cat.monument_levels[m][s.levels_taken[m]]]
        imm, ong = self.effects_value(lv.effects)
        g = lv.vp + imm + ong + self._count_marg("mcards")
        if self.goals and s.controller(m) != self.p:
            g += self._mon_control(m)
        return g

    def _mon_control(self, m: int) -> float:
        """Objective value if one more level card of ``m`` would win its control."""
        mon = self.s.data.monuments[m]
        scores = control_scores(self.board, self.s.placed.get(m), mon,
                                [ps.tree for ps in self.s.players])
        mine = scores[self.p] + 1
        if all(mine > sc for q, sc in enumerate(scores) if q != self.p):
            return self._obj_score(controlled=1) - self.o_base
        return 0.0

    def _tile_value(self, m: int, tile: int) -> float:
        mon = self.s.data.monuments[m]
        placed = placed_record(mon, tile_where(tile))
        board = self.board
        v = 0.0
        for c in placed.reward_cells:
            if placed.shape == "circle" and board.settlement.get(c) != mon.reward_domain:
                continue
            owner = board.city_owner.get(c)
            if owner is None:
                if c in board.settlement:
                    v += 0.15 * mon.reward_vp
            elif owner == self.p:
                v += mon.reward_vp
            else:
                v -= 0.5 * mon.reward_vp
        return v

    # -- mastery cards ----------------------------------------------------------------------

    def card_gain(self, si: int, pos: Pos, sides: Sequence[int], cost: int) -> float:
        """Acquiring (or copying, ``cost`` 0) skill ``si`` as a card with ``sides`` at ``pos``."""
        spot, formed = self.spot_value(pos, sides)
        return spot + self.card_base(si, cost, formed)

    def card_base(self, si: int, cost: int, formed: Sequence[int] = ()) -> float:
        """A skill's value apart from where its card goes (``formed``: the nodi it forms)."""
        skill = self.cat.skills[si]
        imm, ong = self.effects_value(skill.basic, formed, (skill.domain, cost))
        g = skill.vp_acquire + skill.influence * self.iv + imm + ong
        g += self._count_marg("cards")
        if self.goals:
            g += self.obj_card(skill.cost, skill.domain)
        if skill.cost < 9 and self.left_game >= 3 and self.best_vals[skill.domain] < skill.cost:
            g += 0.5  # opens value-9 cards that need it
        return g

    def advance_gain(self, si: int, cost: int) -> float:
        skill = self.cat.skills[si]
        imm_a, ong_a = self.effects_value(skill.advanced, (), (skill.upgrade_domain, cost))
        _imm_b, ong_b = self.effects_value(skill.basic)
        return self.s.upgrade_vp(si) + imm_a + ong_a - ong_b  # the prototype: 0 below 6

    # -- the rest of a turn -----------------------------------------------------------------

    def builds(self) -> list[tuple[int, int, float]]:
        """Build options by (domain or ANY, cost, value), the best per domain and cost."""
        if self._builds is not None:
            return self._builds
        s, p, ps = self.s, self.p, self.ps
        best: dict[tuple[int, int], float] = {}

        def put(d: int, cost: int, v: float) -> None:
            if v > best.get((d, cost), _NEG):
                best[(d, cost)] = v

        if ps.tokens > 0:
            c1 = s.city_cost(p, 1)
            for key, d in self.board.settlement.items():
                owner = self.board.city_owner.get(key)
                if owner is None:
                    if c1 <= self.limits[d]:
                        put(d, c1, self.city_gain(key, 1))
                elif owner == p:
                    level = self.board.city_level[key]
                    if level < MAX_CITY_LEVEL:
                        cost = s.city_cost(p, level + 1)
                        if cost <= self.limits[d]:
                            put(d, cost, self.city_gain(key, level + 1))
        cat = self.cat
        for m in s.monuments:
            taken = s.levels_taken[m]
            if taken >= len(cat.monument_levels[m]):
                continue
            li = cat.monument_levels[m][taken]
            if not self.tree.can_place(cat.level_sides[li]):
                continue
            dom = s.level_domain(m)
            put(dom, s.level_cost(p, m), self.monument_gain(m) + NOMINAL_SPOT)
        self._builds = _top(best, 8)
        return self._builds

    def devs(self) -> list[tuple[int, int, float]]:
        """Develop options by (domain, cost, value), the best per domain and cost."""
        if self._devs is not None:
            return self._devs
        s, p = self.s, self.p
        cat = self.cat
        best: dict[tuple[int, int], float] = {}
        bases: list[tuple[float, int, int]] = []
        for si, skill in enumerate(cat.skills):
            if si in self.held or not self._prereq_ok(si):
                continue
            cost = s.acquire_cost(p, si)
            if cost > self.limits[skill.domain]:
                continue
            bases.append((self.card_base(si, cost), si, cost))
        bases.sort(key=lambda x: -x[0])
        taken = s.taken
        memo = self.memo
        size = len(self.tree.cards)
        for base, si, cost in bases[:8]:
            mkey = (p, si, size)
            spot = memo.get(mkey)
            if spot is None:
                codes = [c for c in cat.skill_copies[si] if taken[c] < 0]
                fits = self.tree.positions_for([cat.copy_sides[c] for c in codes])
                spot = memo[mkey] = max((self.spot_value(pos, cat.copy_sides[code])[0]
                                         for code, positions in zip(codes, fits, strict=True)
                                         for pos in positions), default=_NEG)
            if spot == _NEG:
                continue
            key = (cat.skills[si].domain, cost)
            v = base + spot
            if v > best.get(key, _NEG):
                best[key] = v
        for si, pos in self.held.items():
            if self.tree.cards[pos].advanced:
                continue
            skill = cat.skills[si]
            cost = s.upgrade_cost(p, si)
            if cost > self.limits[skill.upgrade_domain]:
                continue
            v = self.advance_gain(si, cost)
            key = (skill.upgrade_domain, cost)
            if v > best.get(key, _NEG):
                best[key] = v
        self._devs = _top(best, 10)
        return self._devs

    def plan(self, K: list[int], W: int = 0, settle: int = -1, build: bool = True,
             develop: bool = True) -> float:
        """The best rest of the turn with ``K`` knowledge and ``W`` vestigium: one build option
        and one develop option (each may be nothing), plus what is left. Vestigium goes all
        to one domain or where each unit is worth most, whichever plan is best."""
        if settle >= 0 and self.empty_settle[settle]:
            settle = -1
        if W <= 0:
            return self._plan_exact(K, settle, build, develop)
        limits = self.limits
        spread = self._spread(K, W)
        best = self._plan_exact(spread, settle, build, develop)
        for d in range(6):
            if K[d] < limits[d]:
                K1 = list(K)
                K1[d] = min(limits[d], K[d] + W)
                if spread != K1:
                    v = self._plan_exact(K1, settle, build, develop)
                    if v > best:
                        best = v
        return best

    def _spread(self, K: Sequence[int], W: int) -> list[int]:
        """``K`` with ``W`` vestigium added unit by unit where each is worth most."""
        out = list(K)
        for _ in range(W):
            best, bd = 0.0, -1
            for d in range(6):
                if out[d] < self.limits[d]:
                    m = self.r(d, out[d] + 1) - self.r(d, out[d])
                    if m > best:
                        best, bd = m, d
            if bd < 0:
                break
            out[bd] += 1
        return out

    def _build_list(self, build: bool, settle: int) -> list[tuple[int, int, float]]:
        if not build:
            return []
        builds = self.builds()
        if settle >= 0 and not self.empty_settle[settle] and self.ps.tokens > 0:
            builds = [*builds, (settle, self.s.city_cost(self.p, 1), self.nominal_city(settle))]
        return builds

    def _plan_exact(self, K: list[int], settle: int, build: bool, develop: bool) -> float:
        """:meth:`plan` without vestigium, in one pass over each option list: with a build
        option fixed, the best develop option in another domain does not depend on it."""
        tab = self.tab
        base = self.resid(K)
        devs: list[tuple[float, int, int, float]] = []
        top_net = [0.0] * 6  # per domain, the best develop option's value less its loss
        best1, best1_d, best2 = 0.0, -1, 0.0  # the best two domains' (0: no option)
        if develop:
            for dd, dc, dv in self.devs():
                k = K[dd]
                left = k - dc
                if left < 0:
                    continue
                row = tab[dd]
                net = dv - (row[k] - row[left])
                devs.append((net, dd, dc, dv))
                if net > top_net[dd]:
                    top_net[dd] = net
            for d in range(6):
                v = top_net[d]
                if v > best1:
                    best1, best1_d, best2 = v, d, best1
                elif v > best2:
                    best2 = v
        best = base + best1
        options: list[tuple[float, int, int, float]] | None = None
        fast_any = self.left_age > 1  # the rows are KU up to the need, then KU_EXCESS
        need = self.need
        total0 = excess0 = -1
        units: list[tuple[float, int, int]] | None = None
        for bd, bc, bv in self._build_list(build, settle):
            if bd == ANY:
                if options is None:
                    seen: set[int] = set()
                    options = [(0.0, -1, 0, 0.0)]
                    for o in sorted(devs, reverse=True):
                        if o[1] not in seen:
                            seen.add(o[1])
                            options.append(o)
                if fast_any:
                    if total0 < 0:
                        total0 = sum(K)
                        excess0 = sum(K[d] - need[d] for d in range(6) if K[d] > need[d])
                    for _net, dd, dc, dv in options:
                        total, excess, loss = total0, excess0, 0.0
                        if dd >= 0:
                            k = K[dd]
                            left = k - dc
                            if left < 0:
                                continue
                            row = tab[dd]
                            loss = row[k] - row[left]
                            total -= dc
                            nd = need[dd]
                            if k > nd:
                                excess -= k - nd if left <= nd else dc
                        if total < bc:
                            continue
                        if bc <= excess:
                            loss += bc * KU_EXCESS
                        else:
                            loss += excess * KU_EXCESS + (bc - excess) * KU
                        v = base + bv + dv - loss
                        if v > best:
                            best = v
                    continue
                if units is None:
                    units = self._units(K)
                for _net, dd, dc, dv in options:
                    loss_any = self._loss_any(K, bc, dd, dc, units)
                    if loss_any is None:
                        continue
                    v = base + bv + dv - loss_any
                    if v > best:
                        best = v
                continue
            k = K[bd]
            left = k - bc
            if left < 0:
                continue
            row = tab[bd]
            v = base + bv - (row[k] - row[left])
            other = best2 if best1_d == bd else best1
            same = 0.0
            for _net, dd, dc, dv in devs:
                if dd == bd and left - dc >= 0:
                    net = dv - (row[left] - row[left - dc])
                    if net > same:
                        same = net
            v += other if other > same else same
            if v > best:
                best = v
        return best

    def produced(self, mine: Sequence[int]) -> tuple[list[int], int, float]:
        """Knowledge and vestigium after a placement producing ``mine`` (per domain, 6 =
        vestigium) for the player, with on-production effects, limits and overflow VP; and
        the value of what else those effects give."""
        K = self.K.copy()
        limits = self.limits
        produced = self.s.produced
        extra = 0.0
        W = mine[6]
        for hook in self.ps.fx.hooked(ON_PRODUCE):
            eff = hook.effect
            if eff.every <= 0:
                continue
            if eff.domain == ANY:
                old = sum(produced)
                new = old + sum(mine)
            else:
                old = produced[eff.domain]
                new = old + mine[eff.domain]
            times = new // eff.every - old // eff.every
            if times > 0:
                for act in eff.actions:
                    if act.kind == GAIN and act.domain is not None and 0 <= act.domain < 6:
                        K[act.domain] += act.amount * times
                    elif act.kind == GAIN and act.domain == VESTIGIUM:
                        W += act.amount * times
                    else:
                        extra += self.actions_value((act,), True) * times
        for d in range(6):
            K[d] += mine[d]
            if K[d] > limits[d]:
                if limits[d] >= MAX_LIMIT and not self.ps.overflow >> d & 1:
                    extra += 1.0
                K[d] = limits[d]
        return K, W, extra


def _levels_met(levels: Sequence[int], reqs: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Cities (levels, highest first) filling (level, count) requirements, each city once."""
    cities = sorted(levels)
    slots = sorted((lv for lv, n in reqs for _ in range(n)), reverse=True)
    have = 0
    for lv in slots:
        for i, c in enumerate(cities):
            if c >= lv:
                cities.pop(i)
                have += 1
                break
    return have, len(slots)


def _top(best: dict[tuple[int, int], float], n: int) -> list[tuple[int, int, float]]:
    items = sorted(((d, c, v) for (d, c), v in best.items()), key=lambda x: -x[2])
    return items[:n]


class DominationsGreedyBot:
    """The greedy Dominations bot (see the module docstring for its evaluation).

    It is deterministic: ``seed`` is taken for the common bot interface and changes nothing.
    """

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        self.name = name
        self.seed = None if seed is None else check_seed(seed)
        self._memo: tuple[DominationsState | None, tuple[int, int], dict[tuple[int, ...], float]]
        self._memo = (None, (-1, -1), {})
        """The state weighed last, its turn and phase, and the values kept since then: held
        by the state itself, not its ``id``, which a later state may get once it is gone
        (another world of a search, another table's game in a server's worker)."""
        self._seen: list[tuple[float, Action]] | None = None
        """While :meth:`ranked` runs: every option valued, with its value."""

    def __repr__(self) -> str:
        return f"DominationsGreedyBot({self.name!r})"

    def reset(self, seed: int) -> None:
        self.seed = check_seed(seed)
        self._memo = (None, (-1, -1), {})

    def _eval(self, state: DominationsState, p: int) -> _Eval:
        """The evaluation for ``p`` now, sharing values kept since this turn of this state
        began."""
        key = (state.turn_number, state.phase if state.phase > 3 else -1)
        held, held_key, memo = self._memo
        if held is not state or held_key != key:
            memo = {}
            self._memo = (state, key, memo)
        return _Eval(state, p, memo)

    # -- dispatch ---------------------------------------------------------------------------

    def act(self, state: DominationsState) -> Action:
        """The best action now as this bot values it; a finished game raises
        :class:`~dominari.core.errors.IllegalActionError`, a Dominion state
        :class:`~dominari.core.errors.ConfigError`."""
        try:
            acts = state.legal_actions()
            p = state.current_player()
            kinds = {a.kind for a in acts}
            if PLACE in kinds or REACTIVATE in kinds:
                return self._growth(state, p, acts)
            if AS_DOMAIN in kinds:
                return self._vestigium(state, p)
            if PAY in kinds:
                return self._pay(state, p, acts)
            if RESOLVE in kinds:
                return self._resolve(state, acts)
            if COPY in kinds or COPY_ADVANCE in kinds:
                return self._copy(state, p, acts)
            if CHOOSE in kinds:
                return self._choose(state, p, acts)
            if ORDER in kinds:
                return self._order(state, p, acts)
            if DONE in kinds:
                return next(a for a in acts if a.kind == DONE)
            if not state.stack and state.phase == BUILD:
                return self._build(state, p, acts)
            if not state.stack and state.phase == DEVELOP:
                return self._develop(state, p, acts)
            return next((a for a in acts if a.kind != EXCHANGE), acts[0])
        except Exception as exc:  # misuse is told apart only now: a decision pays nothing for it
            raise_misuse(exc, state, "dominations", self.name)

    def ranked(self, state: DominationsState, k: int) -> list[Action]:
        """Up to ``k`` legal actions, best first as this bot values them: its own choice,
        then the other options it weighed (placements, builds, developments, ``pass``),
        by value. Decisions it does not weigh (payments, effect order, ...) give only its
        choice. The search bots take these as the candidates worth searching.

        >>> from dominari.dominations.engine import DominationsConfig, DominationsState
        >>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
        >>> bot = DominationsGreedyBot()
        >>> ranked = bot.ranked(s, 3)
        >>> ranked[0] == bot.act(s) and all(a in s.legal_actions() for a in ranked)
        True
        """
        seen: list[tuple[float, Action]] = []
        self._seen = seen
        try:
            first = self.act(state)
        finally:
            self._seen = None
        out = [first]
        seen.sort(key=lambda x: -x[0])  # stable: equal values keep the bot's own order
        for _, a in seen:
            if len(out) >= k:
                break
            if a not in out:
                out.append(a)
        return out

    # -- growth -----------------------------------------------------------------------------

    def _growth(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        ev = self._eval(state, p)
        tiles = state.data.tiles
        cache: dict[tuple[int, ...], float] = {}
        best_v, best_a = _NEG, acts[0]
        can_pass = False
        seen = self._seen
        for a in acts:
            kind = a.kind
            if kind == PASS:
                can_pass = True
                continue
            if kind == PLACE:
                settle = tiles[a.a].settlement
            elif kind == REACTIVATE:
                settle = -1
            else:
                continue
            mine = [0] * 7
            opp = 0
            for y in state.preview(a):
                if y.player == p:
                    mine[y.domain] += y.amount
                else:
                    opp += y.amount
            if settle >= 0 and ev.empty_settle[settle]:
                settle = -1
            K, W, extra = ev.produced(mine)
            key = (*K, W, settle)
            v = cache.get(key)
            if v is None:
                v = cache[key] = ev.plan(K, W, settle)
            v += extra
            v -= OPPONENT * opp
            if kind == PLACE:
                v += 0.05 * ev.open_sides(a.b)
            else:
                v += 1.0  # the tile stays in hand
            if seen is not None:
                seen.append((v, a))
            if v > best_v:
                best_v, best_a = v, a
        if can_pass:
            stay = ev.plan(ev.K) + SECOND_TILE_MARGIN
            pass_action = next(a for a in acts if a.kind == PASS)
            if seen is not None:
                seen.append((stay, pass_action))
            if best_v < stay:
                return pass_action
        return best_a

    # -- decisions inside a turn ------------------------------------------------------------

    def _rest(self, state: DominationsState, p: int) -> tuple[bool, bool]:
        """Whether the player may still build and develop in this turn."""
        if p != state.mover or state.phase not in (GROWTH, ASSIGN, BUILD, DEVELOP, START_TURN):
            return False, False
        steps = [f[1] for f in state.stack if f[0] == F_STEP]
        if S_END_TURN in steps:
            return False, False
        if state.phase == DEVELOP:
            return False, True
        if S_DEVELOP in steps:
            return False, True
        return True, True

    def _vestigium(self, state: DominationsState, p: int) -> Action:
        ev = self._eval(state, p)
        K = ev.K.copy()
        W = 1
        if not state.stack and state.batch:
            row = state.batch[p]
            for d in range(6):
                K[d] = min(ev.limits[d], K[d] + row[d])
            W = row[6]
        elif state.stack:
            W = int(state.stack[-1][2])
        build, develop = self._rest(state, p)
        best_v, best_d = _NEG, 0
        for d in range(6):
            K1 = K.copy()
            K1[d] = min(ev.limits[d], K1[d] + 1)
            v = ev.plan(K1, W - 1, -1, build, develop)
            if v > best_v + 1e-9:
                best_v, best_d = v, d
        return Action(AS_DOMAIN, best_d)

    def _pay(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        ev = self._eval(state, p)
        left = int(state.stack[-1][2])
        K = ev.K
        paid = ev.pay_any(K, min(left, sum(K)))
        if paid is None:
            return acts[0]
        plan = [K[d] - paid[d] for d in range(6)]
        for d in range(6):
            if plan[d] > 0:
                a = Action(PAY, d, plan[d])
                if a in acts:
                    return a
        return acts[0]

    def _resolve(self, state: DominationsState, acts: list[Action]) -> Action:
        dues = state.stack[-1][2] if state.stack else []
        for a in acts:
            for due in dues:
                if due.source == a.a and due.slot == a.b and not _reads(due.effect.actions):
                    return a
        return acts[0]

    def _copy(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        ev = self._eval(state, p)
        cat = state.catalog
        best_v, best_a = 0.0, next((a for a in acts if a.kind == PASS), acts[0])
        for a in acts:
            if a.kind == COPY:
                v = ev.card_gain(cat.copy_skill[a.a], (a.b, a.c), cat.copy_sides[a.a], 0)
            elif a.kind == COPY_ADVANCE:
                v = ev.advance_gain(a.a, 0)
            else:
                continue
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def _choose(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        data = state.data
        hand = state.players[p].hand
        best_v, best_a = _NEG, acts[0]
        for a in acts:
            if a.kind != CHOOSE:
                continue
            if a.a == 0:
                v = sum(max(0.0, 1.3 - _difficulty(g)) for g in data.objectives[a.b].goals)
            else:
                mon = data.monuments[a.b]
                levels = mon.levels
                v = sum(lv.vp for lv in levels) / max(1, sum(lv.cost for lv in levels))
                v += 0.05 * sum(1 for t in hand if data.tiles[t].settlement == mon.domain)
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def _order(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        rest = [q for q in state.order if q != p]
        for a in acts:
            if a.kind == ORDER and order_players(a.a) == [p, *rest]:
                return a
        for a in acts:
            if a.kind == ORDER and order_players(a.a)[:1] == [p]:
                return a
        return acts[0]

    # -- build and develop ------------------------------------------------------------------

    def _build(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        ev = self._eval(state, p)
        K = ev.K
        board = state.board
        best_v = ev.plan(K, 0, -1, build=False)
        best_a = next((a for a in acts if a.kind == PASS), acts[0])
        seen = self._seen
        if seen is not None:
            seen.append((best_v, best_a))
        mon_spots: dict[int, tuple[float, Action]] = {}
        for a in acts:
            kind = a.kind
            if kind in (CITY, UPGRADE):
                d = board.settlement[a.a]
                level = 1 if kind == CITY else board.city_level[a.a] + 1
                cost = state.city_cost(p, level)
                K1 = K.copy()
                K1[d] -= cost
                v = ev.city_gain(a.a, level) + ev.plan(K1, 0, -1, build=False)
                if seen is not None:
                    seen.append((v, a))
            elif kind == MONUMENT:
                cat = state.catalog
                li = cat.monument_levels[a.a][state.levels_taken[a.a]]
                spot = ev.spot_value((a.b, a.c), cat.level_sides[li])[0]
                if a.d != NO_TILE:
                    spot += ev._tile_value(a.a, a.d)
                prev = mon_spots.get(a.a)
                if prev is None or spot > prev[0]:
                    mon_spots[a.a] = (spot, a)
                continue
            else:
                continue
            if v > best_v:
                best_v, best_a = v, a
        for m, (spot, a) in mon_spots.items():
            cost = state.level_cost(p, m)
            dom = state.level_domain(m)
            if dom == ANY:
                paid = ev.pay_any(K, cost)
            elif K[dom] >= cost:
                paid = K.copy()
                paid[dom] -= cost
            else:
                paid = None
            if paid is None:
                continue
            v = ev.monument_gain(m) + spot + ev.plan(paid, 0, -1, build=False)
            if seen is not None:
                seen.append((v, a))
            if v > best_v:
                best_v, best_a = v, a
        ex = self._exchange(state, ev, acts, best_v, ev.builds(), build=True)
        return ex if ex is not None else best_a

    def _develop(self, state: DominationsState, p: int, acts: list[Action]) -> Action:
        ev = self._eval(state, p)
        K = ev.K
        cat = state.catalog
        best_v = ev.resid(K)
        best_a = next((a for a in acts if a.kind == PASS), acts[0])
        seen = self._seen
        if seen is not None:
            seen.append((best_v, best_a))
        by_skill: dict[int, list[Action]] = {}
        for a in acts:
            if a.kind == ACQUIRE:
                by_skill.setdefault(cat.copy_skill[a.a], []).append(a)
            elif a.kind == ADVANCE:
                skill = cat.skills[a.a]
                cost = state.upgrade_cost(p, a.a)
                K1 = K.copy()
                K1[skill.upgrade_domain] -= cost
                v = ev.advance_gain(a.a, cost) + ev.resid(K1)
                if seen is not None:
                    seen.append((v, a))
                if v > best_v:
                    best_v, best_a = v, a
        # each skill apart from its place first; the places of the most promising only
        ranked = []
        for si in by_skill:
            skill = cat.skills[si]
            cost = state.acquire_cost(p, si)
            K1 = K.copy()
            K1[skill.domain] -= cost
            ranked.append((ev.card_base(si, cost) + ev.resid(K1), si, cost))
        ranked.sort(reverse=True)
        for base, si, cost in ranked[:6]:
            # a card paying for the nodi it forms counts those of each place
            counts_nodi = any(isinstance(e, Triggered) and e.trigger == ON_NODUS
                              for e in cat.skills[si].basic)
            plain = ev.card_base(si, cost) if counts_nodi else 0.0
            for a in by_skill[si]:
                spot, formed = ev.spot_value((a.b, a.c), cat.copy_sides[a.a])
                v = base + spot
                if counts_nodi:
                    v += ev.card_base(si, cost, formed) - plain
                if seen is not None:
                    seen.append((v, a))
                if v > best_v:
                    best_v, best_a = v, a
        ex = self._exchange(state, ev, acts, best_v, ev.devs(), build=False)
        return ex if ex is not None else best_a

    def _exchange(self, state: DominationsState, ev: _Eval, acts: list[Action], best_v: float,
                  options: list[tuple[int, int, float]], build: bool) -> Action | None:
        """A campfire exchange towards an option it makes affordable and best, or None."""
        if not any(a.kind == EXCHANGE for a in acts):
            return None
        targets = state.exchanged  # domains exchanged into this turn: never paid away again
        ps = ev.ps
        K = ev.K
        best: tuple[float, int, int] | None = None
        for d, cost, value in options:
            if d == ANY or d < 0 or K[d] >= cost or cost > ev.limits[d]:
                continue
            K1 = K.copy()
            first = -1
            while K1[d] < cost:
                pick, loss = -1, 1.0e9
                for e in range(6):
                    if e == d or targets >> e & 1:
                        continue
                    pay, get = ps.exchange_price(e)
                    if pay <= 0 or get <= 0 or K1[e] < pay:
                        continue
                    lost = (ev.r(e, K1[e]) - ev.r(e, K1[e] - pay)) / get
                    if lost < loss:
                        pick, loss = e, lost
                if pick < 0:
                    break
                pay, get = ps.exchange_price(pick)
                K1[pick] -= pay
                K1[d] += get
                if first < 0:
                    first = pick
            if K1[d] < cost or first < 0:
                continue
            K1[d] -= cost
            rest = ev.plan(K1, 0, -1, build=False) if build else ev.resid(K1)
            v = value + rest
            if v > best_v + EXCHANGE_MARGIN and (best is None or v > best[0]):
                best = (v, first, d)
        if best is None:
            return None
        action = Action(EXCHANGE, best[1], best[2])
        if action not in acts:
            return None
        return action


def holdings_worth(state: DominationsState, p: int) -> float:
    """What player ``p``'s holdings will still bring, in VP-equivalents, as this bot values
    them when it buys them: the recurring effects of every face-up side in their tree (each
    × how often it will still fire: turns, ages, expected nodi, cities or production left)
    and their cities' future activations (the open sides around them). Immediate effects
    and VP already scored are not in it. The search's cut-off score adds it to the VP, so
    that a card bought for what it will do later is not judged a loss one round on.

    At setup no one has a city yet, and the first card of a tree does nothing later; two
    rounds on, the cards bought and the cities founded are worth something:

    >>> from dominari.dominations.engine import DominationsConfig
    >>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
    >>> holdings_worth(s, 0)
    0.0
    >>> bot = DominationsGreedyBot()
    >>> while s.round < 2 or s.mover != 0 or s.stack:
    ...     s.apply(bot.act(s))
    >>> [len(s.players[p].tree.cards) for p in (0, 1)], holdings_worth(s, 0) > 10.0
    ([3, 3], True)
    """
    ev = _Eval(state, p)
    cat = state.catalog
    worth = 0.0
    for pos, card in ev.tree.cards.items():
        worth += ev.effects_value(cat.effects(card_source(cat, card.id, pos), card.advanced))[1]
    per_side = 0.5 * min(1.0, ev.left_game * ev.n / 10) * KU_GAIN  # as :meth:`_Eval.city_gain`
    if per_side > 0.0:
        worth += per_side * sum(ev.open_sides(key) for key in ev.my_cities)
    return worth


def _difficulty(goal: Goal) -> float:
    """How hard a goal looks at setup (1 ≈ what a strong player reaches)."""
    kind = goal.kind
    if kind == "cities_of_levels":
        return sum(n * (0.6 + 0.4 * lv) for lv, n in goal.levels) / 8.0
    if kind == "adjacent_cities":
        return goal.count / 4.0
    if kind == "city_groups":
        return goal.count / 5.0
    if kind == "monuments":
        return goal.count / 1.2
    if kind == "nodi":
        return sum(n for _, n in goal.nodi) / 7.0
    if kind == "influence":
        return goal.count / 25.0
    if kind == "mastery_cards":
        return sum(q.count * (1.0 if q.value < 9 else 1.6) for q in goal.cards) / 5.0
    return 1.0
