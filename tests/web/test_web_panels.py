"""The Dominations panels of the browser app (``js/dominations/{cardtext,tree,market,
monuments,objectives}.js``) rendered in Chromium from real views of a game stepped with the
greedy bot: effect texts, the tree's cards and nodi, the market's copies, the monuments'
level stacks, live objective progress (against Python's ``goal_progress``) and the scoring
table (against ``vp``). A screenshot of each panel goes to the artifacts folder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from dominari.bots import load_bot
from dominari.dominations.effects import city_groups
from dominari.dominations.objectives import goal_progress
from dominari.dominations.text import event_lines
from dominari.server.service import dominations_catalog
from dominari.server.tables import new_state

pytestmark = pytest.mark.timeout(180)

CATALOG = dominations_catalog(None)
SKILL_ID = re.compile(r"^[TCASGR]\d[a-z]$")


def _all_progress(state: Any) -> dict[str, Any]:
    """Python's progress of every goal of every objective card, for each player, and the
    sizes of each player's city groups."""
    out: dict[str, Any] = {"progress": [], "groups": []}
    for p, ps in enumerate(state.players):
        controlled = state.controlled(p)
        out["progress"].append({
            o.id: [list(goal_progress(g, p, state.board, ps.tree, ps.influence, controlled))
                   for g in o.goals]
            for o in state.data.objectives})
        out["groups"].append(sorted(len(g) for g in city_groups(state.board, p)))
    return out


def _snapshots() -> dict[str, Any]:
    """Views of one game (2 players, seed 3) at the moments the panels care about, each
    seen by the player to move (so its legal actions are filled in)."""
    state = new_state("dominations", {"players": 2, "seed": 3}, {})
    bot = load_bot("greedy", "dominations")
    want = {
        "develop": lambda v: v["age"] == 2 and any(a.startswith("acquire ")
                                                   for a in v["legal_actions"]),
        "upgrade": lambda v: any(a.startswith("upgrade ") and SKILL_ID.match(a.split()[1])
                                 for a in v["legal_actions"]),
        "monument": lambda v: any(a.startswith("monument ") for a in v["legal_actions"]),
        "pay": lambda v: v["phase"] == "pay" and bool(v["monuments"]),
        "end_of_age": lambda v: v["age"] == 2 and v["phase"] in ("copy", "end of age"),
    }
    found: dict[str, Any] = {}
    steps = 0
    while state.outcome() is None and steps < 5000:
        view = state.view(state.current_player())
        for name, test in want.items():
            if name not in found and test(view):
                found[name] = view
                if name == "end_of_age":
                    found["end_of_age_all"] = _all_progress(state)
        state.apply(bot.act(state))
        steps += 1
    outcome = state.outcome()
    assert outcome is not None, "the greedy game did not end"
    found["final"] = state.view(0)
    found["final_all"] = _all_progress(state)
    found["log"] = event_lines(state, state.events)
    found["ranks"] = list(outcome.ranks)
    return found


SNAP = _snapshots()

# Loads the five modules into window.P once per page.
LOAD = """async () => {
  const [cardtext, tree, market, monuments, objectives] = await Promise.all([
    import('/static/js/dominations/cardtext.js'), import('/static/js/dominations/tree.js'),
    import('/static/js/dominations/market.js'), import('/static/js/dominations/monuments.js'),
    import('/static/js/dominations/objectives.js')]);
  window.P = { cardtext, tree, market, monuments, objectives };
  const stage = document.createElement('div');
  stage.id = 'stage';
  stage.style.cssText = 'padding:8px;background:#f6f3ec;width:1100px';
  document.body.replaceChildren(stage);
  return true;
}"""


@pytest.fixture
def panels(live_server: Any, page: Page) -> Page:
    page.set_viewport_size({"width": 1140, "height": 900})
    page.goto(live_server.url)
    page.evaluate(LOAD)
    return page


def shoot(page: Page, testid: str, artifacts: Path, name: str) -> None:
    page.locator(f"[data-testid={testid}]").first.screenshot(path=str(artifacts / name))


# ------------------------------------------------------------------ effect text
def test_effect_text_of_real_skills(panels: Page) -> None:
    skills = {s["id"]: s for s in CATALOG["files"]["skills"]}
    roles = {r["id"]: r for r in CATALOG["files"]["roles"]}
    texts = panels.evaluate("""([skills, roles, campfire]) => {
      const t = window.P.cardtext;
      const out = {};
      for (const [id, s] of Object.entries(skills)) {
        out[id] = { basic: t.effectsText(s.basic), advanced: t.effectsText(s.advanced) };
      }
      for (const [id, r] of Object.entries(roles)) out[id] = t.effectsText(r.effects);
      out.F1 = t.effectsText(campfire.effects);
      out.upgradeCosts = t.effectText({modifier: 'cost_reduction', target: 'upg', amount: 2});
      return out;
    }""", [skills, roles, CATALOG["files"]["campfires"][0]])
    assert texts["T3a"] == {"basic": ["Start of your turn: +1 Trade"],
                            "advanced": ["Start of your turn: +2 Trade"]}
    assert texts["T3b"]["basic"] == ["Per 2 Trade you produce: +1 Trade"]
    assert texts["T3c"]["advanced"] == ["Per Trade nodus you complete: +4 Trade"]
    assert texts["C6b"]["basic"] == ["End of each age: +1 VP per Craft nodus"]
    assert texts["F1"] == ["Exchange 2 of one domain for 1 of another domain"]
    assert texts["DG"] == ["Choose the initiative order of the next age"]
    assert texts["upgradeCosts"] == "Upgrades cost 2 less"
    # Every effect of every skill, monument level and role reads as words.
    monuments = CATALOG["files"]["monuments"]
    every = panels.evaluate("""([skills, monuments]) => {
      const t = window.P.cardtext;
      const all = [];
      for (const s of skills) all.push(...s.basic, ...s.advanced);
      for (const m of monuments) for (const lv of m.levels) all.push(...lv.effects);
      return all.map((e) => t.effectText(e));
    }""", [list(skills.values()), monuments])
    assert len(every) > 150
    for line in every:
        assert line and "undefined" not in line and "[object" not in line, line
        assert not re.search(r"\b(acq|upg|settle|mcards|bcities|know)\b", line), line


# ------------------------------------------------------------------ tree
def test_tree_of_a_mid_game_player(panels: Page, artifacts: Path) -> None:
    view = SNAP["develop"]
    me = view["current_player"]
    player = view["players"][me]
    acquires = [a.split() for a in view["legal_actions"] if a.startswith("acquire ")]
    copy = acquires[0][1]
    legal = sorted({a[2] for a in acquires if a[1] == copy})
    result = panels.evaluate("""([player, catalog, legal]) => {
      window.picked = [];
      const node = window.P.tree.treeView(player, catalog,
        { highlight: legal, onPick: (pos) => window.picked.push(pos), large: true });
      document.getElementById('stage').append(node);
      const cards = [...node.querySelectorAll('g.card')].map((g) => ({
        pos: g.dataset.pos, card: g.dataset.card,
        x: g.querySelector('rect.face').getAttribute('x'),
        y: g.querySelector('rect.face').getAttribute('y'),
        halves: [...g.querySelectorAll('g.half')].map((h) => h.dataset.colour) }));
      const nodi = [...node.querySelectorAll('g.nodus')].map((n) => n.dataset.colour);
      const slots = [...node.querySelectorAll('.legal[data-pos]')].map((s) => s.dataset.pos);
      const words = Object.fromEntries([...node.querySelectorAll('g.slot')].map(
        (s) => [s.dataset.pos, s.getAttribute('aria-label')]));
      return { cards, nodi, slots, words, letters: node.querySelectorAll('.domain-letter').length };
    }""", [player, CATALOG, legal])
    layouts = CATALOG["files"]["layouts"]
    assert len(result["cards"]) == len(player["tree"]) >= 4
    by_pos = {c["pos"]: c for c in result["cards"]}
    for entry in player["tree"]:
        drawn = by_pos[entry["pos"]]
        assert drawn["card"] == entry["card"]
        col, row = map(int, entry["pos"].split(","))
        # Geometry of tree_render.py: 150×120 cards, 18 apart, rows growing upward.
        assert float(drawn["x"]) == col * 168 - 75
        assert float(drawn["y"]) == -row * 138 - 60
        sides = layouts[entry["card"]]
        assert drawn["halves"] == (sides if isinstance(sides, list) else sides["sides"])
    # Complete nodi: as many per colour as the engine counts.
    for d, n in player["nodi"].items():
        assert result["nodi"].count(d) == n, d
    assert sorted(result["slots"]) == legal
    # An empty place is named by the cards beside it, the tree's shape in words.
    sides = {(0, 1): "below", (1, 0): "left of", (0, -1): "above", (-1, 0): "right of"}
    assert result["words"]
    for pos, words in result["words"].items():
        col, row = map(int, pos.split(","))
        beside = [f"{side} " for (dc, dr), side in sides.items()
                  if f"{col + dc},{row + dr}" in by_pos]
        assert words.startswith(f"place at {pos}: ") and all(b in words for b in beside), words
        assert ("the campfire" in words) == any(
            f"{col + dc},{row + dr}" == "0,0" for dc, dr in sides)
    assert result["letters"] == sum(1 for e in player["tree"] if e["pos"] != "0,0")
    # Click and keyboard both pick.
    tree = panels.locator("[data-testid=tree]")
    tree.locator(f'.legal[data-pos="{legal[0]}"]').click()
    tree.locator(f'.legal[data-pos="{legal[-1]}"]').focus()
    panels.keyboard.press("Enter")
    assert panels.evaluate("window.picked") == [legal[0], legal[-1]]
    shoot(panels, "tree", artifacts, "dominations-panel-tree.png")


# ------------------------------------------------------------------ market
def test_market_copies_and_actions(panels: Page, artifacts: Path) -> None:
    view = SNAP["develop"]
    legal = view["legal_actions"]
    copies = sorted({a.split()[1] for a in legal if a.startswith("acquire ")})
    upgrade = next((a for a in SNAP["upgrade"]["legal_actions"]
                    if a.startswith("upgrade ") and SKILL_ID.match(a.split()[1])), None)
    assert upgrade is not None, "the greedy game never could upgrade a card"
    legal = [*legal, upgrade]
    result = panels.evaluate("""([view, catalog, legal, pick]) => {
      window.selected = []; window.acted = [];
      const opts = { legal, selected: pick, onSelect: (c) => window.selected.push(c),
                     act: (t) => window.acted.push(t) };
      const node = window.P.market.marketView(view, catalog, opts);
      document.getElementById('stage').append(node);
      const left = {};
      for (const a of node.querySelectorAll('article.skill')) {
        left[a.dataset.skill] = Number(a.querySelector('.copies').dataset.left);
      }
      return { left, buttons: [...node.querySelectorAll('button[data-copy]')]
                 .map((b) => b.dataset.copy).sort(),
               pressed: [...node.querySelectorAll('button[aria-pressed=true]')]
                 .map((b) => b.dataset.copy),
               actions: [...node.querySelectorAll('button[data-action]')]
                 .map((b) => b.dataset.action) };
    }""", [view, CATALOG, legal, copies[0]])
    skills = [s["id"] for s in CATALOG["files"]["skills"]]
    assert sorted(result["left"]) == sorted(skills)
    for sid in skills:
        assert result["left"][sid] == sum(1 for c in view["mastery_supply"]
                                          if c.rsplit("-", 1)[0] == sid), sid
    assert result["buttons"] == copies
    assert result["pressed"] == [copies[0]]
    upgrades = [a for a in legal if a.startswith("upgrade ") and SKILL_ID.match(a.split()[1])]
    assert result["actions"] == upgrades
    market = panels.locator("[data-testid=market]")
    market.locator(f'button[data-copy="{copies[-1]}"]').click()
    market.locator(f'button[data-copy="{copies[0]}"]').click()  # the selected one: deselect
    market.locator(f'button[data-action="{upgrade}"]').click()
    assert panels.evaluate("window.selected") == [copies[-1], None]
    assert panels.evaluate("window.acted") == [upgrade]
    shoot(panels, "market", artifacts, "dominations-panel-market.png")
    market.locator("details.domain-group").first.screenshot(
        path=str(artifacts / "dominations-panel-market-trade.png"))


# ------------------------------------------------------------------ monuments
def test_monuments_levels_selection_and_pay(panels: Page, artifacts: Path) -> None:
    view = SNAP["monument"]
    chosen = sorted({a.split()[1] for a in view["legal_actions"] if a.startswith("monument ")})
    pay_view = SNAP["pay"]
    pays = [a for a in pay_view["legal_actions"] if a.startswith("pay ")]
    assert chosen and pays
    result = panels.evaluate("""([view, payView, catalog]) => {
      window.selected = []; window.acted = [];
      const stage = document.getElementById('stage');
      const opts = (v) => ({ legal: v.legal_actions, selected: null,
        onSelect: (m) => window.selected.push(m), act: (t) => window.acted.push(t) });
      const a = window.P.monuments.monumentsView(view, catalog, opts(view));
      const b = window.P.monuments.monumentsView(payView, catalog, opts(payView));
      b.dataset.testid = 'monuments-pay';
      stage.append(a, b);
      const info = (node) => [...node.querySelectorAll('article.monument')].map((m) => ({
        id: m.dataset.id, taken: m.querySelectorAll('li.level.taken').length,
        next: [...m.querySelectorAll('li.level.next')].map((l) => l.dataset.level),
        levels: m.querySelectorAll('li.level').length }));
      return { first: info(a), second: info(b),
        buttons: [...a.querySelectorAll('button[data-monument]')].map((x) => x.dataset.monument),
        pays: [...b.querySelectorAll('button[data-action]')].map((x) => x.dataset.action) };
    }""", [view, pay_view, CATALOG])
    for shown, source in ((result["first"], view), (result["second"], pay_view)):
        assert [m["id"] for m in shown] == [m["id"] for m in source["monuments"]]
        for m, entry in zip(shown, source["monuments"], strict=True):
            assert (m["taken"], m["levels"]) == (entry["taken"], entry["levels"])
            assert m["next"] == ([entry["next"]] if entry["next"] else [])
    assert sorted(result["buttons"]) == chosen
    assert result["pays"] == pays
    panels.locator(f'[data-testid=monuments] button[data-monument="{chosen[0]}"]').click()
    panels.locator(f'[data-testid=monuments-pay] button[data-action="{pays[0]}"]').click()
    assert panels.evaluate("window.selected") == [chosen[0]]
    assert panels.evaluate("window.acted") == [pays[0]]
    shoot(panels, "monuments", artifacts, "dominations-panel-monuments.png")


# ------------------------------------------------------------------ objectives
@pytest.mark.parametrize("moment", ["develop", "monument", "end_of_age", "final"])
def test_objective_progress_matches_python(panels: Page, artifacts: Path, moment: str) -> None:
    view = SNAP[moment]
    result = panels.evaluate("""([view, catalog]) => {
      const stage = document.getElementById('stage');
      return view.players.map((_, p) => {
        const node = window.P.objectives.objectiveView(view, p, catalog);
        stage.append(node);
        return { title: node.querySelector('h3').textContent,
          vp: node.querySelector('.objective-vp').textContent,
          goals: [...node.querySelectorAll('li.goal')].map((g) => ({
            have: Number(g.dataset.have), need: Number(g.dataset.need),
            met: g.dataset.met === 'true', text: g.querySelector('.goal-desc').textContent })) };
      });
    }""", [view, CATALOG])
    for p, shown in enumerate(result):
        python = view["players"][p]["objective"]
        assert python is not None
        assert python["name"] in shown["title"]
        assert [(g["have"], g["need"], g["met"]) for g in shown["goals"]] == \
            [(g["have"], g["need"], g["met"]) for g in python["goals"]]
        assert [g["text"].strip() for g in shown["goals"]] == [g["text"] for g in python["goals"]]
        assert f": {python['vp_now']} VP now" in shown["vp"]  # the game's own scoring rule
    if moment == "final":
        shoot(panels, "objective", artifacts, "dominations-panel-objective.png")


@pytest.mark.parametrize("moment", ["end_of_age", "final"])
def test_every_goal_kind_matches_python(panels: Page, moment: str) -> None:
    """goalProgress of all 16 objective cards (every goal kind) and the city groups."""
    view = SNAP[moment]
    js = panels.evaluate("""([view, catalog]) => {
      const o = window.P.objectives;
      return view.players.map((_, p) => ({
        progress: Object.fromEntries(catalog.files.objectives.map((card) =>
          [card.id, card.goals.map((g) => o.goalProgress(g, p, view, catalog))])),
        groups: o.cityGroupSizes(view, p).sort((a, b) => a - b) }));
    }""", [view, CATALOG])
    python = SNAP[f"{moment}_all"]
    kinds = {g["kind"] for o in CATALOG["files"]["objectives"] for g in o["goals"]}
    assert len(kinds) == 7
    for p, mine in enumerate(js):
        assert mine["groups"] == python["groups"][p]
        assert mine["progress"] == python["progress"][p]
    assert any(python["groups"]), "no cities on the board to group"


def test_copy_phase_actions(panels: Page) -> None:
    """At the end of an age the influence leader's "copy <copy> <pos>" select copies and
    "copy upgrade <skill>" is an action button."""
    view = SNAP["end_of_age"]
    legal = [*view["legal_actions"], "copy upgrade T3a", "upgrade 2,-1", "pay 2 T",
             "monument M07 0,1 on @1,1"]
    got = panels.evaluate("""(legal) => {
      const m = window.P.market.marketActions(legal);
      const n = window.P.monuments.monumentActions(legal);
      return { copies: [...m.copies].sort(), upgrades: m.upgrades,
               monuments: [...n.monuments], pays: n.pays };
    }""", legal)
    copies = sorted({a.split()[1] for a in legal if a.startswith("copy ")} - {"upgrade"})
    assert copies and got["copies"] == copies
    # "upgrade 2,-1" upgrades a city, not a card.
    assert got["upgrades"] == [a for a in legal if a.startswith("copy upgrade ")]
    assert got["monuments"] == ["M07"] and got["pays"] == ["pay 2 T"]


# ------------------------------------------------------------------ scoring
def test_scoring_table_sums_and_winner(panels: Page, artifacts: Path) -> None:
    view = SNAP["final"]
    result = panels.evaluate("""([view, catalog, log]) => {
      const node = window.P.objectives.scoringView(view, catalog, log);
      document.getElementById('stage').append(node);
      const rows = [...node.querySelectorAll('tbody tr')].map((tr) => ({
        player: Number(tr.dataset.player),
        parts: [...tr.querySelectorAll('td[data-source]')].map((td) => Number(td.textContent)),
        total: Number(tr.querySelector('td.total').dataset.total),
        leader: tr.classList.contains('leader') }));
      return { rows, heading: node.querySelector('h3').textContent,
        log: [...node.querySelectorAll('.scoring-log li')].map((li) => li.textContent) };
    }""", [view, CATALOG, SNAP["log"]])
    assert len(result["rows"]) == len(view["players"])
    for row in result["rows"]:
        pl = view["players"][row["player"]]
        assert sum(row["parts"]) == row["total"] == pl["vp"]
        assert row["parts"] == list(pl["vp_breakdown"].values())
    winner = SNAP["ranks"].index(1)
    assert result["rows"][0]["player"] == winner and result["rows"][0]["leader"]
    assert view["players"][winner]["name"] in result["heading"]
    assert any("objective" in line for line in result["log"])
    assert any("=== End of age" in line for line in result["log"])
    shoot(panels, "scoring", artifacts, "dominations-panel-scoring.png")


@pytest.mark.rule("D-END-4")
def test_a_win_on_the_initiative_tie_break_says_why(panels: Page) -> None:
    """D-END-4: equal VP go to initiative. The final heading said only "X wins" over a
    table of equal totals; it now says how the tie was broken, and nothing of a tie where
    there was none."""
    view = json.loads(json.dumps(SNAP["final"]))
    headings = panels.evaluate("""(view) => {
      const P = window.P;
      const heading = (v) => P.objectives.scoringView(v, null, []).querySelector('h3').textContent;
      const plain = heading(view);
      const order = P.objectives.ranking(view);
      const tied = JSON.parse(JSON.stringify(view));
      tied.players[order[1]].vp = tied.players[order[0]].vp;
      const again = P.objectives.ranking(tied);
      return { plain, tied: heading(tied), first: tied.players[again[0]].name,
               second: tied.players[again[1]].name, vp: tied.players[again[0]].vp,
               initiative: tied.initiative };
    }""", view)
    assert "tie" not in headings["plain"]
    assert headings["tied"] == (f"Final scoring — {headings['first']} wins the tie with "
                                f"{headings['second']} at {headings['vp']} VP, being earlier "
                                "in the initiative order")
    assert headings["initiative"], "the final view names the initiative order"


def test_the_scores_heading_names_the_ages_they_count(panels: Page) -> None:
    """Once an age's scoring is done the view's age is the next one: the heading said
    "Scores after age 2" as age 2 began. VP come during an age too, so the scores of an
    age in play are the game's so far."""
    view = json.loads(json.dumps(SNAP["develop"]))
    headings = panels.evaluate("""(view) => {
      const heading = (age, phase) => window.P.objectives.scoringView(
        { ...view, age, phase }, null, []).querySelector('h3').textContent;
      return [heading(1, "growth"), heading(2, "end of age"), heading(2, "growth"),
              heading(3, "develop")];
    }""", view)
    assert headings == ["Scores so far (age 1 in progress)", "Scores after age 2 (end of age)",
                        "Scores so far (age 2 in progress)", "Scores so far (age 3 in progress)"]


# ------------------------------------------------------------------ tablet width
def test_panels_fit_a_tablet(panels: Page, artifacts: Path) -> None:
    """At 768 px every panel fits its column (wide content scrolls inside the panel)."""
    panels.set_viewport_size({"width": 768, "height": 1024})
    view = SNAP["develop"]
    me = view["current_player"]
    widths = panels.evaluate("""([view, me, catalog, log]) => {
      const stage = document.getElementById('stage');
      stage.style.width = 'auto';
      const P = window.P;
      const nodes = [P.tree.treeView(view.players[me], catalog, { highlight: [] }),
        P.objectives.objectiveView(view, me, catalog),
        P.monuments.monumentsView(view, catalog, { legal: view.legal_actions }),
        P.objectives.scoringView(view, catalog, log),
        P.market.marketView(view, catalog, { legal: view.legal_actions })];
      stage.append(...nodes);
      return nodes.map((n) => [n.dataset.testid, n.scrollWidth, n.clientWidth]);
    }""", [view, me, CATALOG, SNAP["log"]])
    for testid, scroll, client in widths:
        assert scroll <= client + 1, (testid, scroll, client)
    panels.screenshot(path=str(artifacts / "dominations-panels-tablet.png"))
