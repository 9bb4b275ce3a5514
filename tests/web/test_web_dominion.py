"""The Dominion table in the browser: two people play a whole game through the page only
(clicks and keys), and at every step the page shows what the server's view says: counters,
hand, pile sizes, the decision and exactly the legal actions. A spectator sees no hand.

The policy that plays is :func:`choose`, a function of the seat's view. Two games are played:
"attacks" (the Interaction kingdom: Militia discards, Moat reveals, Spy and Thief choices,
Library set-asides) and "trashing" (Cellar and Chapel selections, Remodel, Mine, Workshop and
Feast gains, Throne Room, Chancellor); their seeds were picked with ``_simulate`` (the same
policy on the engine alone) so that each meets those decisions and ends with one winner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from webserver import LiveServer

from dominari.dominion.catalog import catalog

NAMES = ("Ann", "Bob")
# (kingdom, seed, turns each): the seeds were picked with ``_simulate`` so that the games
# go through the decisions named in GAMES_MEET.
GAMES = {
    "attacks": ("interaction", 32, 10),
    "trashing": (["Cellar", "Chapel", "Chancellor", "Workshop", "Bureaucrat", "Feast",
                  "Remodel", "Mine", "Throne Room", "Thief"], 47, 10),
}
GAMES_MEET = {
    "attacks": {"militia", "moat", "spy", "library", "thief-gain"},
    "trashing": {"cellar", "chapel", "remodel", "gain", "throne-room", "mine", "chancellor"},
}
COST = {name: card["cost"] for name, card in catalog()["cards"].items()}
PLAY_FIRST = ("Village", "Festival", "Throne Room", "Cellar")
BUY_FIRST = {8: ("Province",), 6: ("Gold",), 5: ("Library", "Festival", "Council Room", "Mine"),
             3: ("Village", "Chancellor", "Workshop", "Silver")}
JUNK = ("Curse", "Estate", "Copper")


# -- the policy: a function of the deciding seat's view ---------------------------------

def choose(view: dict[str, Any]) -> tuple[str, Any]:
    """``("act", text)`` for one legal action, or ``("select", cards)`` for the hand cards
    a Cellar / Chapel / Militia selection picks (then confirmed with the page's button)."""
    legal: list[str] = view["legal_actions"]
    kind = view["decision"]["kind"]
    hand: list[str] = view["hand"]
    if kind == "militia":
        return "select", hand[: len(hand) - 3]
    if kind in ("cellar", "chapel"):
        # Junk cards, at most two; a single card is one step followed by "done".
        turn = view["piles"][view["player"]]["turns"]
        return "select", [c for c in hand if c in JUNK][: 1 + turn % 2]
    if kind == "action":
        plays = [a for a in legal if a.startswith("play ")]
        first = [a for a in plays if a[5:] in PLAY_FIRST]
        return "act", (first or plays or ["end"])[0]
    if kind == "buy":
        return "act", _buy(view)
    if kind in ("gain", "mine-gain"):
        return "act", max(legal, key=lambda a: (COST[a[5:]], a))
    if kind == "remodel":
        junk = [a for a in legal if a[6:] in JUNK]
        return "act", (junk or legal)[0]
    preferred = {"moat": "reveal Moat", "chancellor": "discard-deck"}.get(kind)
    if preferred in legal:
        return "act", preferred
    if kind == "spy":  # the card stays on the deck, seen by everyone
        return "act", next((a for a in legal if a.startswith("keep ")), legal[0])
    return "act", legal[0]


def _buy(view: dict[str, Any]) -> str:
    """Money and Victory by coins; with 4 or 2 coins one of the kingdom's 4s or 2s in turn."""
    legal = set(view["legal_actions"])
    coins = view["coins"]
    turn = view["piles"][view["player"]]["turns"]
    options: list[str] = []
    for cost in (8, 6, 5, 4, 3, 2):
        if coins < cost:
            continue
        rotate = sorted(c for c in view["kingdom"] if COST[c] == cost and cost in (2, 4))
        options += BUY_FIRST.get(cost, ()) + tuple(rotate[turn % len(rotate or [0]):]
                                                   + rotate[: turn % len(rotate or [0])])
    for card in options:
        if f"buy {card}" in legal:
            return f"buy {card}"
    return "end"


def _selection_text(view: dict[str, Any], cards: list[str]) -> str:
    verb = "trash" if view["decision"]["kind"] == "chapel" else "discard"
    return f"{verb} {' '.join(cards)}" if cards else "done"


def _simulate(kingdom: Any, seed: int, turns: int) -> tuple[set[str], Any]:  # pragma: no cover
    """The decision kinds the policy meets in a game and its outcome (engine only): how the
    seeds of GAMES were picked."""
    from dominari.server.tables import new_state

    s = new_state("dominion", {"players": 2, "seed": seed, "kingdom": kingdom,
                               "max_turns": turns, "names": list(NAMES)}, {})
    kinds = set()
    while not s.is_terminal():
        v = s.view(s.current_player())
        kinds.add(v["decision"]["kind"])
        how, what = choose(v)
        text = what if how == "act" else _selection_text(v, what)
        s.apply(s.parse_action(text))
        if how == "select" and len(what) == 1 and "done" in s.view(s.current_player())[
                "legal_actions"] and s.view(s.current_player())["decision"] == v["decision"]:
            s.apply(s.parse_action("done"))
    return kinds, s.outcome()


# -- the page ---------------------------------------------------------------------------

READ_PAGE = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const root = document.querySelector("[data-testid=dominion]");
  const value = (id) => {
    const e = document.querySelector(`[data-testid=${id}]`);
    return e ? Number(e.dataset.value) : null;
  };
  const facts = q("[data-testid^=player-]").map((p) => ({
    player: Number(p.dataset.player),
    hand: Number(p.querySelector("[data-testid=hand-size] strong").textContent),
    deck: Number(p.querySelector("[data-testid=deck-size] strong").textContent),
    discard: Number(p.querySelector("[data-testid=discard-size] strong").textContent),
    shown: [...p.querySelectorAll("[data-testid^=shown-] .dmn-chip")].map((e) => e.dataset.card),
    deckTop: [...p.querySelectorAll("[data-testid^=deck-top-] .dmn-chip")]
      .map((e) => e.dataset.card),
  }));
  const decision = document.querySelector("[data-testid=decision]");
  return {
    version: root ? Number(root.dataset.version) : -1,
    coins: value("coins"), actions: value("actions"), buys: value("buys"),
    hand: q("[data-testid=hand] .dmn-card").map((e) => e.dataset.card),
    offered: q("[data-action]").filter((e) => !e.disabled).map((e) => e.dataset.action),
    selectable: q("[data-select]").map((e) => e.dataset.card),
    supply: Object.fromEntries(q("[data-testid=supply] .dmn-pile").map((e) => [e.dataset.card,
      e.classList.contains("is-empty") ? 0 : parseInt(e.querySelector(".dmn-count").textContent)])),
    facts,
    kind: decision ? decision.dataset.kind : null,
    prompt: decision ? decision.textContent : "",
    log: q("[data-testid=log] li").length,
  };
}"""


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Makes browser contexts (one per person); fails the test on a JavaScript error."""
    made: list[BrowserContext] = []
    errors: list[str] = []

    def new(width: int = 1280, height: int = 900) -> BrowserContext:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.on("weberror", lambda e: errors.append(str(e.error)))
        made.append(ctx)
        return ctx

    yield new
    for ctx in made:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _open(ctx: BrowserContext, url: str) -> Page:
    page = ctx.new_page()
    page.goto(url)
    expect(page.get_by_test_id("dominion")).to_be_visible()
    return page


def _wait_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => { const r = document.querySelector('[data-testid=dominion]');"
        " return r && Number(r.dataset.version) === v; }", arg=version, timeout=10_000)


def _check(shown: dict[str, Any], msg: dict[str, Any]) -> None:
    """The page shows what the server's view message says."""
    view = msg["view"]
    where = f"version {msg['version']}, decision {view['decision']}"
    assert shown["version"] == msg["version"], where
    assert (shown["coins"], shown["actions"], shown["buys"]) == (
        view["coins"], view["actions"], view["buys"]), where
    assert shown["hand"] == view["hand"], where
    assert shown["supply"] == view["supply"], where
    assert shown["kind"] == view["decision"]["kind"], where
    for f in shown["facts"]:
        pile = view["piles"][f["player"]]
        assert (f["hand"], f["deck"], f["discard"], f["shown"], f["deckTop"]) == (
            pile["hand_size"], pile["deck_size"], pile["discard_size"], pile["shown"],
            pile["deck_top"]), where
    legal = set(view["legal_actions"])
    offered = set(shown["offered"])
    kind = view["decision"]["kind"]
    verb = {"cellar": "discard", "chapel": "trash", "militia": "discard"}.get(kind)
    if verb and legal:
        # A selection of hand cards: each card that may be chosen is offered for selection,
        # and the confirm button sends "done" (when legal) while nothing is selected.
        selectable = {f"{verb} {c}" for c in shown["selectable"]}
        assert offered <= legal, where
        assert selectable == {a for a in legal if a != "done"}, where
        assert ("done" in offered) == ("done" in legal), where
    else:
        assert offered == legal, where
        assert not shown["selectable"], where


def _blur(page: Page) -> None:
    """Keys go to the page, not to a focused button (Enter would press that button)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def _act(page: Page, view: dict[str, Any], shown: dict[str, Any], step: int) -> None:
    """Do the policy's choice on the page, by mouse or by keyboard, and wait until the page
    has the answer (for one card of a Cellar or Chapel, the "done" that follows too)."""
    how, what = choose(view)
    _do(page, how, what, view, shown, step)
    page.wait_for_function(
        "v => { const r = document.querySelector('[data-testid=dominion]');"
        " return Number(r.dataset.version) > v && !r.dataset.busy; }",
        arg=shown["version"], timeout=10_000)


def _do(page: Page, how: str, what: Any, view: dict[str, Any], shown: dict[str, Any],
        step: int) -> None:
    if how == "select":
        for card in what:
            page.locator(f"[data-testid=hand] [data-select][data-card='{card}']"
                         "[aria-pressed=false]").first.click()
        confirm = page.get_by_test_id("confirm")
        expect(confirm).to_have_attribute("data-action", _selection_text(view, what))
        if step % 2:
            confirm.click()
        else:
            _blur(page)
            page.keyboard.press("Enter")
        return
    if what == "end" and step % 2 == 0:
        _blur(page)
        page.keyboard.press("e")
        return
    if what.startswith("play ") and shown["kind"] == "action":
        index = shown["hand"].index(what[5:])
        if index < 9 and step % 3 == 0:
            _blur(page)
            page.keyboard.press(str(index + 1))
            return
    page.locator(f"[data-action='{what}']").first.click()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_players_play_a_whole_game_in_the_browser(
        live_server: LiveServer, contexts: Callable[..., BrowserContext], artifacts: Path,
        game: str) -> None:
    kingdom, seed, turns = GAMES[game]
    created = live_server.create(
        game="dominion", seats=[{"kind": "human", "name": n} for n in NAMES],
        seed=seed, kingdom=kingdom, max_turns=turns)
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    pages = [_open(contexts(), f"{live_server.url}/#/play/{gid}/{t}") for t in tokens]
    watcher = _open(contexts(1024, 768), f"{live_server.url}/#/watch/{created['spectator']}")
    kinds: set[str] = set()
    known: set[str] = set()  # cards the page showed as known to be in a hand
    on_top: set[str] = set()  # cards the page showed as seen put on top of a deck
    for step in range(600):
        msg0 = live_server.view(gid, tokens[0])
        if msg0["status"] == "finished":
            break
        seat = msg0["current_seat"]
        msg = live_server.view(gid, tokens[seat])
        page = pages[seat]
        _wait_version(page, msg["version"])
        shown = page.evaluate(READ_PAGE)
        _check(shown, msg)
        # The other seat sees the same public facts, its own hand, and is offered nothing.
        other = pages[1 - seat]
        _wait_version(other, msg["version"])
        theirs = other.evaluate(READ_PAGE)
        assert theirs["offered"] == [] and theirs["selectable"] == []
        assert theirs["hand"] == live_server.view(gid, tokens[1 - seat])["view"]["hand"]
        assert theirs["facts"] == sorted(shown["facts"], key=lambda f: f["player"] != 1 - seat)
        known.update(c for f in shown["facts"] for c in f["shown"])
        on_top.update(c for f in shown["facts"] for c in f["deckTop"])
        kind = msg["view"]["decision"]["kind"]
        if kind not in kinds and kind not in ("action", "buy"):
            page.screenshot(path=str(artifacts / f"dominion-{game}-{kind}.png"), full_page=True)
        kinds.add(kind)
        if step == 30:
            page.screenshot(path=str(artifacts / f"dominion-{game}-midgame.png"), full_page=True)
            watcher.screenshot(path=str(artifacts / f"dominion-{game}-spectator.png"))
        _act(page, msg["view"], shown, step)
    else:
        raise AssertionError("the game did not finish")
    assert GAMES_MEET[game] <= kinds, kinds
    if "moat" in GAMES_MEET[game]:  # a revealed Moat is shown as known in that hand
        assert "Moat" in known, known
    if "spy" in GAMES_MEET[game]:  # a card Spy left on a deck is shown on top of it
        assert on_top, "no card was seen put on top of a deck"
    final = live_server.view(gid, tokens[0])
    outcome = final["view"]["outcome"]
    assert outcome is not None and len(outcome["winners"]) == 1
    winner = outcome["winners"][0]
    # Each page put the log together from the pieces its socket got: the whole log.
    whole = live_server.call("GET", f"/api/games/{gid}/log")["log"]
    for page in [*pages, watcher]:
        _wait_version(page, final["version"])
        shown_log = page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=log] li')]"
            ".map((e) => e.textContent)")
        assert shown_log == whole[-300:]
        scores = page.get_by_test_id("scores")
        expect(scores).to_be_visible()
        for p, vp in enumerate(outcome["scores"]):
            expect(scores.get_by_test_id(f"score-{p}")).to_have_text(str(vp))
        expect(scores.locator("tr.is-winner")).to_have_count(1)
        expect(scores.locator(f"tr.is-winner[data-player='{winner}']")).to_contain_text("Winner")
        assert page.locator("[data-action]").count() == 0
    pages[0].screenshot(path=str(artifacts / f"dominion-{game}-final-scores.png"), full_page=True)
    expect(watcher.get_by_test_id("hand")).to_have_count(0)
    # The replay shows the same table, step by step, with nothing to click.
    watcher.goto(f"{live_server.url}/#/replay/{created['spectator']}/5")
    _wait_version(watcher, 5)
    watcher.keyboard.press("ArrowRight")
    _wait_version(watcher, 6)
    assert watcher.locator("[data-action]").count() == 0


def test_on_a_short_screen_the_prompt_and_hand_come_first(
        live_server: LiveServer, contexts: Callable[..., BrowserContext], artifacts: Path) -> None:
    """At 800×600 the dock (the prompt and the hand) is not pinned to the bottom: there is
    no room. The browser audit found it below the supply, the players, the trash and the
    log, about 1,150 px down on every turn. It now comes first, under the status line, as
    for watchers; a taller screen keeps it pinned to the bottom."""
    created = live_server.create(
        game="dominion", seats=[{"kind": "human", "name": n} for n in NAMES[:2]],
        seed=5, kingdom="first-game")
    gid, tokens = created["game_id"], [x["token"] for x in created["seats"]]
    seat = live_server.view(gid, tokens[0])["current_seat"]
    page = _open(contexts(800, 600), f"{live_server.url}/#/play/{gid}/{tokens[seat]}")
    for region in ("decision", "hand"):
        box = page.get_by_test_id(region).bounding_box()
        assert box is not None and box["y"] + min(box["height"], 60) <= 600, (region, box)
    status = page.locator(".dmn-slot-status").bounding_box()
    supply = page.get_by_test_id("supply").bounding_box()
    decision = page.get_by_test_id("decision").bounding_box()
    assert status and supply and decision and status["y"] < decision["y"] < supply["y"]
    page.screenshot(path=str(artifacts / "dominion-800x600.png"))
    tall = _open(contexts(1280, 900), f"{live_server.url}/#/play/{gid}/{tokens[seat]}")
    assert tall.locator(".dmn-dock").evaluate("e => getComputedStyle(e).position") == "sticky"


def test_a_spectator_sees_no_hand_and_nothing_to_click(
        live_server: LiveServer, contexts: Callable[..., BrowserContext], artifacts: Path) -> None:
    created = live_server.create(
        game="dominion", seats=[{"kind": "human", "name": n} for n in NAMES],
        seed=5, kingdom="first-game")
    page = _open(contexts(820, 1100), f"{live_server.url}/#/watch/{created['spectator']}")
    for region in ("supply", "play-area", "decision", "coins", "actions", "buys", "log", "trash"):
        expect(page.get_by_test_id(region)).to_be_visible()
    expect(page.get_by_test_id("hand")).to_have_count(0)
    assert page.locator("[data-action]").count() == 0
    assert page.locator("[data-testid=dominion] button").count() == 0
    seat_view = live_server.view(created["game_id"], created["seats"][0]["token"])
    for card, left in seat_view["view"]["supply"].items():
        expect(page.locator(f"[data-testid=supply] [data-card='{card}'] .dmn-count")
               ).to_have_text(f"{left} left")
    # Card text on hover and on keyboard focus; types are written, not only coloured.
    cards = catalog()["cards"]
    page.locator("[data-testid=supply] [data-card='Militia']").hover()
    expect(page.get_by_test_id("card-detail")).to_contain_text(cards["Militia"]["text"])
    expect(page.locator("[data-testid=supply] [data-card='Militia']")).to_contain_text(
        "Action – Attack")
    page.locator("[data-testid=supply] [data-card='Moat']").focus()
    expect(page.get_by_test_id("card-detail")).to_contain_text(cards["Moat"]["text"])
    # A tablet's width: everything wraps, nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "dominion-spectator-tablet.png"), full_page=True)


def test_keys_are_listed_and_every_card_has_rules_text(
        live_server: LiveServer, contexts: Callable[..., BrowserContext]) -> None:
    created = live_server.create(
        game="dominion", seats=[{"kind": "human", "name": n} for n in NAMES],
        seed=5, kingdom="first-game")
    seat = live_server.view(created["game_id"], created["seats"][0]["token"])["current_seat"]
    token = created["seats"][seat]["token"]
    page = _open(contexts(), f"{live_server.url}/#/play/{created['game_id']}/{token}")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog")
    for key in ("1–9", "e", "Enter"):
        expect(dialog.locator("kbd", has_text=key).first).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert all(card["text"] for card in catalog()["cards"].values())
    # Every button of the table has a name a screen reader can say.
    names = page.evaluate("""() => [...document.querySelectorAll("[data-testid=dominion] button")]
        .map((b) => (b.getAttribute("aria-label") || b.textContent).trim())""")
    assert names and all(names)
