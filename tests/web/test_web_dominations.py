"""The Dominations table in a real browser: a whole two-player game against the greedy bot,
played through the page only (hand tiles, rotation, board cells, tree places, prompts), with
what the page shows checked against the server's view after every step.

Screenshots (the board mid-game, a placement preview, a tree, the final scoring) go to
``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from webserver import watch_policy

pytestmark = pytest.mark.timeout(600)

DOMAINS = "TCASGR"
SHOT_MS = 120_000
"""A screenshot's time limit: they are artefacts, and a busy machine can take long to
paint a whole game's page (30 s, the default, once ran out)."""
HUMAN = 0


def _page(browser: Any, width: int, height: int) -> tuple[Any, list[str]]:
    """A new page of that size, and the list its uncaught script errors (and what the
    content policy refused it) are put in."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    watch_policy(page, errors)
    return page, errors


class Game:
    """A seat at a live table, driven through the page."""

    def __init__(self, server: Any, page: Any, seed: int) -> None:
        made = server.create(game="dominations", seed=seed, seats=[
            {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        self.server = server
        self.page = page
        self.game_id = made["game_id"]
        self.token = made["seats"][HUMAN]["token"]
        self.rng = random.Random(seed)
        self.steps = 0
        self.seen: set[str] = set()
        page.goto(f"{server.url}/#/play/{self.game_id}/{self.token}")
        page.wait_for_selector("[data-testid=dominations]")

    def message(self) -> dict[str, Any]:
        return dict(self.server.view(self.game_id, self.token))

    def settle(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until the bot is done and the page shows the server's latest version."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.message()
            ready = msg["status"] == "finished" or (
                msg["current_seat"] == HUMAN and not msg["bot_thinking"])
            shown = self.page.get_attribute("[data-testid=dominations]", "data-version")
            if ready and shown == str(msg["version"]):
                return msg
            if time.monotonic() > deadline:
                raise AssertionError(f"the page shows version {shown}, the server "
                                     f"{msg['version']} ({msg['status']})")
            time.sleep(0.03)

    def check(self, msg: dict[str, Any]) -> None:
        """The page shows the view's phase, knowledge, hand and VP."""
        view = msg["view"]
        page = self.page
        status = page.locator("[data-testid=status]")
        assert status.get_attribute("data-phase") == view["phase"]
        assert status.get_attribute("data-age") == str(view["age"])
        known = view["supply_bottom"]  # tiles put back under the supply (D-SET-5, D-AGE-9)
        assert status.get_attribute("data-supply-known") == str(len(known))
        supply = page.locator("[data-testid=supply]")
        assert supply.inner_text().endswith(f"({len(known)} known at the bottom)"
                                            if known else f"tiles in supply: {view['supply']}")
        # ... and drawn in the order they will be drawn, beside the hand.
        assert page.eval_on_selector_all("[data-testid=supply-bottom] [data-tile]",
                                          "els => els.map(e => e.dataset.tile)") == known
        if known:
            assert ", ".join(known) in (supply.get_attribute("title") or "")
            self.seen.add("supply known")
        shown = page.eval_on_selector_all(
            "[data-testid=knowledge] .k",
            "els => els.map(e => [e.dataset.player, e.dataset.domain, e.dataset.value,"
            " e.dataset.limit])")
        expected = [[str(p), d, str(pl["knowledge"][d]), str(pl["limits"][d])]
                    for p, pl in enumerate(view["players"]) for d in DOMAINS]
        assert shown == expected
        vps = page.eval_on_selector_all("[data-testid=knowledge] [data-vp]",
                                        "els => els.map(e => Number(e.dataset.vp))")
        assert vps == [pl["vp"] for pl in view["players"]]
        hand = page.eval_on_selector_all("[data-testid=hand] [data-tile]",
                                         "els => els.map(e => e.dataset.tile)")
        assert hand == view["players"][HUMAN]["hand"]
        cells = page.eval_on_selector_all("[data-testid=board] .cell:not(.empty)",
                                          "els => els.map(e => e.dataset.cell)")
        assert sorted(cells) == sorted(c["cell"] for c in view["board"])
        # Every legal action has its own control: none is left to the generic list.
        assert page.locator("[data-testid=pending] .other-actions").count() == 0
        if view["legal_actions"]:
            assert f"({len(view['legal_actions'])})" in page.inner_text(
                "[data-testid=pending] .all-actions summary")

    # -- one decision through the page ----------------------------------------------------

    def click_action(self, selector: str) -> str:
        """Click one of the elements matching ``selector``, at random; return its action."""
        items = self.page.locator(selector)
        n = items.count()
        assert n, f"nothing matches {selector}"
        item = items.nth(self.rng.randrange(n))
        text = item.get_attribute("data-action") or ""
        item.click()
        return text

    def place_tile(self, legal: list[str], shots: Path | None) -> str:
        page = self.page
        hand = page.eval_on_selector_all("[data-testid=hand] .hand-tile.pickable",
                                         "els => els.map(e => e.dataset.tile)")
        all_tiles = page.eval_on_selector_all("[data-testid=hand] [data-tile]",
                                              "els => els.map(e => e.dataset.tile)")
        tile = self.rng.choice(hand)
        page.keyboard.press(str(all_tiles.index(tile) + 1))
        page.wait_for_selector(f"[data-tile='{tile}'].selected")
        for _ in range(self.rng.randrange(3)):
            before = page.inner_text("[data-testid=rotate]")
            if self.rng.random() < 0.5:
                page.keyboard.press("r")
            else:  # clicking the selected tile turns it too
                page.click(f"[data-tile='{tile}']")
            page.wait_for_function(
                "b => document.querySelector('[data-testid=rotate]').textContent !== b", arg=before)
        rot = int(page.inner_text("[data-testid=rotate]").strip()[-2])
        cells = page.eval_on_selector_all("[data-testid=board] .cell.empty.legal",
                                          "els => els.map(e => e.dataset.cell)")
        expected = {a.split()[1] for a in legal if a.startswith(f"{tile} ")
                    and a.split()[2] == f"r{rot}"}
        assert set(cells) == expected
        # Prefer cells that ask for a link (several connections or loci), to try that prompt.
        asking = page.eval_on_selector_all(
            "[data-testid=board] .cell.empty.legal:not([data-action])",
            "els => els.map(e => e.dataset.cell)")
        cell = self.rng.choice(asking or cells)
        target = page.locator(f"[data-testid=board] .cell.empty.legal[data-cell='{cell}']")
        if "preview" not in self.seen or (shots and self.steps % 7 == 0):
            target.hover()
            page.wait_for_selector("[data-testid=preview] .totals, [data-testid=preview] .items")
            assert tile in page.get_attribute("[data-testid=preview]", "data-preview")
            if "preview" not in self.seen and shots:
                page.screenshot(timeout=SHOT_MS, path=str(shots / "dominations-preview.png"))
            self.seen.add("preview")
        action = target.get_attribute("data-action")
        target.click()
        if action:
            return str(action)
        # Several links: the page asks which one, in the prompt and on the board.
        page.wait_for_selector("[data-testid=pending] .links [data-action]")
        options = page.eval_on_selector_all("[data-testid=pending] .links [data-action]",
                                            "els => els.map(e => e.dataset.action)")
        assert sorted(options) == sorted(a for a in legal if a.startswith(f"{tile} {cell} r{rot} "))
        self.seen.add("link choice")
        on_board = ("[data-testid=board] .cell.link[data-action], "
                    "[data-testid=board] .vertex.target[data-action]")
        if self.rng.random() < 0.5 and page.locator(on_board).count():
            self.seen.add("link on board")
            return self.click_action(on_board)
        return self.click_action("[data-testid=pending] .links [data-action]")

    def pick_in_tree(self) -> str:
        slots = self.page.locator("[data-testid=tree] .legal[data-pos]")
        slots.first.wait_for()
        slot = slots.nth(self.rng.randrange(slots.count()))
        action = slot.get_attribute("data-action") or ""
        slot.click()
        return action

    def develop(self, legal: list[str]) -> str:
        page = self.page
        acquire = [a for a in legal if a.startswith("acquire ")]
        if acquire and self.rng.random() < 0.8:
            page.click("[data-tab=market]")
            copies = page.locator("[data-testid=market] [data-copy]:not([disabled])")
            copies.first.wait_for()
            copy = copies.nth(self.rng.randrange(copies.count()))
            card = copy.get_attribute("data-copy")
            copy.click()
            action = self.pick_in_tree()
            assert action.startswith(f"acquire {card} ")
            self.seen.add("acquire")
            return action
        upgrades = page.locator("[data-testid=pending] [data-action^='upgrade ']")
        if upgrades.count():
            self.seen.add("upgrade card")
            return self.click_action("[data-testid=pending] [data-action^='upgrade ']")
        return self.pass_turn()

    def pass_turn(self) -> str:
        """Pass, by the ``p`` key or the button."""
        if self.rng.random() < 0.5:
            self.seen.add("p key")
            self.page.keyboard.press("p")
            return "pass"
        return self.click_action("[data-testid=pending] [data-action=pass]")

    def build(self, legal: list[str]) -> str:
        page = self.page
        monuments = [a for a in legal if a.startswith("monument ")]
        if monuments and ("monument" not in self.seen or self.rng.random() < 0.3):
            return self.monument()
        if page.locator("[data-testid=board] .cell.legal[data-action]").count():
            self.seen.add("city")
            return self.click_action("[data-testid=board] .cell.legal[data-action]")
        return self.pass_turn()

    def monument(self) -> str:
        page = self.page
        page.click("[data-testid=pending] [data-monument]")
        self.seen.add("monument")
        action = self.pick_in_tree()
        if action:
            return action
        # Level 1: its tile goes on the board (cells of a diamond, or a locus).
        for _ in range(3):
            page.wait_for_selector("[data-testid=board] .cell.legal, "
                                   "[data-testid=board] .vertex.target")
            done = page.locator("[data-testid=board] .cell.legal[data-action], "
                                "[data-testid=board] .vertex.target[data-action]")
            if done.count():
                self.seen.add("monument tile")
                return self.click_action("[data-testid=board] .cell.legal[data-action], "
                                         "[data-testid=board] .vertex.target[data-action]")
            page.locator("[data-testid=board] .cell.legal").first.click()
        raise AssertionError("the monument tile could not be placed")

    def decide(self, msg: dict[str, Any], shots: Path | None) -> str:
        view = msg["view"]
        legal = view["legal_actions"]
        page = self.page
        kind = (view["pending"] or {}).get("kind") or view["phase"]
        self.seen.add(kind)
        if any(a.split()[0].startswith("L") for a in legal):
            return self.place_tile(legal, shots)
        if kind == "draft":
            later = view["drawn"].get("monuments") if view["pending"]["what"] == "objective" \
                else None
            if later:  # both pairs were drawn at once: the monuments to come are shown
                self.seen.add("drawn later")
                text = page.inner_text("[data-testid=pending] [data-testid=drawn-later]")
                assert all(f"({m})" in text for m in later), text
            return self.click_action("[data-testid=pending] .choice-card [data-action]")
        if kind == "tiles":
            if self.rng.random() < 0.3 and page.locator("[data-testid=hand] [data-action]").count():
                self.seen.add("return")
                return self.click_action("[data-testid=hand] [data-action]")
            return self.click_action("[data-testid=pending] [data-action=done]")
        if kind == "pay":
            return self.click_action("[data-testid=pending] .pay [data-action]")
        if kind == "vestigium":
            return self.click_action("[data-testid=pending] [data-action^=vestigium]")
        if view["phase"] == "develop":
            return self.develop(legal)
        if view["phase"] == "build":
            return self.build(legal)
        if kind == "copy":
            copies = page.locator("[data-testid=pending] [data-copy]")
            if copies.count():
                copies.nth(self.rng.randrange(copies.count())).click()
                self.seen.add("copy")
                return self.pick_in_tree()
        # Anything else: one of the actions the page offers.
        self.seen.add(kind)
        return self.click_action("[data-testid=pending] [data-action]:visible")

    def play(self, shots: Path | None) -> dict[str, Any]:
        msg = self.settle()
        while msg["status"] != "finished":
            self.check(msg)
            version = msg["version"]
            action = self.decide(msg, shots)
            assert action, "the page gave no action"
            self.steps += 1
            if shots and self.steps == 60:
                self.page.screenshot(timeout=SHOT_MS, path=str(shots / "dominations-board.png"),
                                     full_page=True)
            deadline = time.monotonic() + 30
            while self.message()["version"] == version:
                assert time.monotonic() < deadline, f"{action!r} did not reach the server"
                time.sleep(0.03)
            msg = self.settle()
        self.check(msg)
        return msg


def test_a_whole_game_through_the_page(live_server: Any, browser: Any,
                                       artifacts: Path) -> None:
    page, errors = _page(browser, 1400, 1000)
    try:
        started = time.monotonic()
        game = Game(live_server, page, seed=5)
        msg = game.play(artifacts)
        took = time.monotonic() - started
        print(f"a whole game through the page: {game.steps} decisions in {took:.1f} s; "
              f"seen {sorted(game.seen)}")
        view = msg["view"]
        assert view["phase"] == "over"
        page.click("[data-tab=scores]")
        scoring = page.locator("[data-testid=scoring]")
        scoring.wait_for()
        for p, pl in enumerate(view["players"]):
            assert scoring.locator(f"[data-player='{p}'] .total").get_attribute(
                "data-total") == str(pl["vp"])
        page.screenshot(timeout=SHOT_MS, path=str(artifacts / "dominations-final.png"),
                        full_page=True)
        page.click("[data-tab=trees]")
        page.locator("[data-testid=tree]").first.wait_for()
        page.locator("[data-testid=tree]").first.screenshot(
            timeout=SHOT_MS, path=str(artifacts / "dominations-tree.png"))
        assert {"preview", "acquire", "city", "p key", "supply known", "drawn later"} <= game.seen
        # The finished game replays through the same table, with nothing to click.
        page.goto(f"{live_server.url}/#/replay/{msg['spectator']}/40")
        page.wait_for_selector("[data-testid=dominations][data-version='40']")
        assert page.locator("[data-testid=board] .cell:not(.empty)").count() > 6
        assert page.locator("[data-action]").count() == 0
        assert not errors, errors
    finally:
        page.close()


def wait_for_human(server: Any, game_id: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        msg = dict(server.view(game_id, token))
        if msg["status"] == "finished" or (msg["current_seat"] == HUMAN
                                           and not msg["bot_thinking"]):
            return msg
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.03)


def asking_placement(legal: list[str]) -> tuple[str, str, int, list[str]] | None:
    """A tile, cell and rotation with several links to choose from, if any."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        if a.startswith("L"):
            groups.setdefault(" ".join(a.split()[:3]), []).append(a)
    for head, options in sorted(groups.items()):
        if len(options) > 1:
            tile, cell, rot = head.split()
            return tile, cell, int(rot[1]), options
    return None


def test_link_choice_preview_keys_zoom_and_watching(live_server: Any, browser: Any,
                                                     artifacts: Path) -> None:
    """Played by the API up to a placement with several links (loci or sides), then through
    the page: select with a number key, rotate with r, the legal cells, the link prompt with
    its preview, Escape, zoom and pan; and the same table watched by a spectator."""
    made = live_server.create(game="dominations", seed=7, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    gid, token = made["game_id"], made["seats"][HUMAN]["token"]
    rng = random.Random(1)
    found = None
    for _ in range(400):
        msg = wait_for_human(live_server, gid, token)
        assert msg["status"] != "finished", "no placement with several links came up"
        legal = msg["view"]["legal_actions"]
        found = asking_placement(legal)
        if found:
            break
        places = [a for a in legal if a.startswith("L")]
        choice = (rng.choice(places) if places else
                  "done" if "done" in legal else "pass" if "pass" in legal else legal[0])
        live_server.call("POST", f"/api/games/{gid}/actions",
                         {"action": choice, "version": msg["version"]}, token)
    assert found
    tile, cell, rot, options = found

    page, errors = _page(browser, 1280, 900)
    try:
        page.goto(f"{live_server.url}/#/play/{gid}/{token}")
        page.wait_for_selector(f"[data-testid=dominations][data-version='{msg['version']}']")
        hand = msg["view"]["players"][HUMAN]["hand"]
        page.keyboard.press(str(hand.index(tile) + 1))
        page.wait_for_selector(f"[data-tile='{tile}'].selected")
        for _ in range(rot):
            page.keyboard.press("r")
        page.wait_for_selector(f"[data-testid=rotate]:has-text('r{rot}')")
        cells = page.eval_on_selector_all("[data-testid=board] .cell.empty.legal",
                                          "els => els.map(e => e.dataset.cell)")
        assert set(cells) == {a.split()[1] for a in msg["view"]["legal_actions"]
                              if a.startswith(f"{tile} ") and a.split()[2] == f"r{rot}"}
        target = page.locator(f"[data-testid=board] .cell.empty.legal[data-cell='{cell}']")
        assert target.get_attribute("data-action") is None
        target.click()
        prompt = page.locator("[data-testid=pending] .links [data-action]")
        prompt.first.wait_for()
        shown = prompt.evaluate_all("els => els.map(e => e.dataset.action)")
        assert sorted(shown) == sorted(options)
        # The choices are on the board too: neighbour cells or locus vertices.
        marks = page.eval_on_selector_all(
            "[data-testid=board] .cell.link[data-action], "
            "[data-testid=board] .vertex.target[data-action]",
            "els => els.map(e => e.dataset.action)")
        assert sorted(marks) == sorted(options)
        prompt.nth(1).hover()
        page.wait_for_selector(f"[data-testid=preview][data-preview='{options[1]}'] .items li")
        page.screenshot(timeout=SHOT_MS, path=str(artifacts / "dominations-link-choice.png"))
        # Escape drops the selection.
        page.keyboard.press("Escape")
        page.wait_for_selector("[data-testid=hand] .selected", state="detached")
        assert page.locator("[data-testid=board] .cell.empty.legal").count() == 0
        # Zoom and pan change the board's transform.
        transform = ("document.querySelector('[data-testid=board] .viewport')"
                     ".getAttribute('transform')")
        before = page.evaluate(transform)
        page.click("[data-testid=board] [aria-label='Zoom in']")
        zoomed = page.evaluate(transform)
        assert zoomed != before
        box = page.locator("[data-testid=board] svg").bounding_box()
        assert box
        page.mouse.move(box["x"] + 50, box["y"] + 50)
        page.mouse.down()
        page.mouse.move(box["x"] + 150, box["y"] + 120, steps=5)
        page.mouse.up()
        assert page.evaluate(transform) != zoomed
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 300)
        page.click("[data-testid=board] button:has-text('Fit')")
        # Choose through the page: the game goes on.
        page.keyboard.press(str(hand.index(tile) + 1))
        for _ in range(rot):
            page.keyboard.press("r")
        page.wait_for_selector(f"[data-testid=rotate]:has-text('r{rot}')")
        page.click(f"[data-testid=board] .cell.empty.legal[data-cell='{cell}']")
        page.click(f"[data-testid=pending] .links [data-action='{options[-1]}']")
        page.wait_for_function(
            "v => document.querySelector('[data-testid=dominations]').dataset.version !== v",
            arg=str(msg["version"]))
        after = wait_for_human(live_server, gid, token)
        assert after["version"] > msg["version"]
        assert not errors, errors
    finally:
        page.close()

    # A spectator sees the same board and no action at all; the layout fits a tablet.
    watcher = browser.new_page(viewport={"width": 820, "height": 1180})
    try:
        watcher.goto(f"{live_server.url}/#/watch/{made['spectator']}")
        watcher.wait_for_selector("[data-testid=dominations]")
        view = live_server.spectate(made["spectator"])
        watcher.wait_for_selector(f"[data-testid=dominations][data-version='{view['version']}']")
        cells = watcher.eval_on_selector_all("[data-testid=board] .cell:not(.empty)",
                                             "els => els.map(e => e.dataset.cell)")
        assert sorted(cells) == sorted(c["cell"] for c in view["view"]["board"])
        assert watcher.locator("[data-action]").count() == 0
        assert watcher.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        watcher.screenshot(timeout=SHOT_MS, path=str(artifacts / "dominations-tablet-watch.png"))
    finally:
        watcher.close()


def _shown(page: Any, selector: str) -> set[str]:
    return set(page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.cell)"))


def test_the_other_players_tiles_since_my_move_are_outlined_and_tab_walks_the_cells(
        live_server: Any, browser: Any) -> None:
    """With four players, the tiles placed since my last decision are all outlined as new
    (only the last bot's were: the others' moves were hard to find), my own not; with a
    tile selected, Tab goes from one legal cell to the next (the ghost tile follows the
    focus, and redrawing the board dropped it: Tab went back to the first cell); and the
    status line's initiative order wraps on a phone (it made the page 460 px wide)."""
    made = live_server.create(game="dominations", seed=11, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    gid, token = made["game_id"], made["seats"][HUMAN]["token"]
    rng = random.Random(2)
    page, errors = _page(browser, 1280, 900)
    try:
        page.goto(f"{live_server.url}/#/play/{gid}/{token}")
        page.wait_for_selector("[data-testid=dominations]")
        mine: set[str] | None = None  # the board as my last decision left it
        both = walked = False
        for _ in range(300):
            msg = wait_for_human(live_server, gid, token)
            assert msg["status"] != "finished"
            page.wait_for_selector(
                f"[data-testid=dominations][data-version='{msg['version']}']")
            board = {c["cell"] for c in msg["view"]["board"]}
            if mine is not None:
                new = board - mine
                assert _shown(page, "[data-testid=board] .cell.fresh") == new
                both = both or len(new) >= 2
            legal = msg["view"]["legal_actions"]
            places = [a for a in legal if a.startswith("L")]
            if places and not walked and both:
                tile = places[0].split()[0]
                hand = msg["view"]["players"][HUMAN]["hand"]
                page.keyboard.press(str(hand.index(tile) + 1))
                page.wait_for_selector(f"[data-tile='{tile}'].selected")
                cells = _shown(page, "[data-testid=board] .cell.empty.legal")
                assert len(cells) >= 3
                page.locator("[data-testid=board] .cell.empty.legal").first.focus()
                reached = []
                for _ in range(len(cells)):
                    reached.append(page.evaluate("document.activeElement.dataset.cell"))
                    page.keyboard.press("Tab")
                assert set(reached) == cells and len(reached) == len(cells), reached
                # each cell is named in words, a legal one by what choosing it does
                labels = page.eval_on_selector_all(
                    "[data-testid=board] .cell.empty.legal",
                    "els => els.map(e => e.getAttribute('aria-label'))")
                assert len(set(labels)) == len(labels) and all(
                    f"empty cell {c}" in x for c, x in zip(sorted(cells), sorted(
                        labels, key=lambda x: x.rsplit(" ", 1)[1]), strict=True)), labels
                filled = page.eval_on_selector_all(
                    "[data-testid=board] .cell:not(.empty):not(.legal)",
                    "els => els.map(e => [e.getAttribute('role'), e.getAttribute('aria-label')])")
                assert filled and all(role == "img" and "corners " in label
                                      and " C " not in label for role, label in filled)
                assert page.locator("[data-testid=pending] h3[data-prompt]").count() >= 1
                knowledge = page.eval_on_selector_all(
                    "[data-testid=knowledge] .k",
                    "els => els.map(e => e.getAttribute('aria-label'))")
                assert len(knowledge) == 4 * 6 and all(
                    x.split(":")[0] in ("Trade", "Craft", "Art", "Science", "Government",
                                        "Religion") and "of at most" in x for x in knowledge)
                # a placement chosen with Enter: the focus goes to the next decision's
                # heading, never to one of its buttons (a second Enter made a move)
                direct = page.locator("[data-testid=board] .cell.empty.legal[data-action]")
                if direct.count():
                    direct.first.focus()
                    page.keyboard.press("Enter")
                    page.wait_for_function(
                        "v => document.querySelector('[data-testid=dominations]')"
                        ".dataset.version !== v", arg=str(msg["version"]))
                    assert page.evaluate("""() => { const a = document.activeElement;
                        return a.tagName === 'H3' && !!a.closest('[data-testid=pending]'); }""")
                    break
                page.keyboard.press("Escape")
                walked = True
            if both and walked:
                break
            choice = (rng.choice(places) if places else
                      "done" if "done" in legal else "pass" if "pass" in legal else legal[0])
            after = live_server.call("POST", f"/api/games/{gid}/actions",
                                     {"action": choice, "version": msg["version"]}, token)
            mine = {c["cell"] for c in after["view"]["board"]}
        assert both, "no turn came after two other players' tiles"
        page.set_viewport_size({"width": 375, "height": 700})
        page.wait_for_function("() => document.documentElement.scrollWidth <= innerWidth + 1")
        assert not errors, errors
    finally:
        page.close()


@pytest.mark.parametrize("seed", [7, 3])
def test_monument_level_one_with_its_tile(live_server: Any, browser: Any, artifacts: Path,
                                          seed: int) -> None:
    """Played by the API until the first level of a monument can be built, then through the
    page: the monument, a place for its level card in the tree, its tile on the board (two
    cells of a diamond, or a locus for a circle), and paying the cost."""
    made = live_server.create(game="dominations", seed=seed, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    gid, token = made["game_id"], made["seats"][HUMAN]["token"]
    rng = random.Random(1)
    for _ in range(400):
        msg = wait_for_human(live_server, gid, token)
        assert msg["status"] != "finished", "no monument tile could be placed"
        legal = msg["view"]["legal_actions"]
        if any(a.startswith("monument ") and " on " in a for a in legal):
            break
        places = [a for a in legal if a.startswith("L")]
        cities = [a for a in legal if a.startswith("city ")]
        choice = (rng.choice(places) if places else cities[0] if cities else
                  "done" if "done" in legal else "pass" if "pass" in legal else legal[0])
        live_server.call("POST", f"/api/games/{gid}/actions",
                         {"action": choice, "version": msg["version"]}, token)
    with_tile = [a for a in legal if a.startswith("monument ") and " on " in a]
    monument, pos = with_tile[0].split()[1:3]
    options = [a for a in with_tile if a.split()[1:3] == [monument, pos]]

    page, errors = _page(browser, 1280, 900)
    try:
        page.goto(f"{live_server.url}/#/play/{gid}/{token}")
        page.wait_for_selector(f"[data-testid=dominations][data-version='{msg['version']}']")
        page.click(f"[data-testid=pending] [data-monument='{monument}']")
        page.click(f"[data-testid=tree] .legal[data-pos='{pos}']")
        if options[0].split()[4].startswith("@"):
            vertices = page.eval_on_selector_all(
                "[data-testid=board] .vertex.target", "els => els.map(e => e.dataset.action)")
            assert sorted(vertices) == sorted(options)
            page.click(f"[data-testid=board] .vertex.target[data-action='{options[0]}']")
        else:
            first, second = options[0].split()[4:6]
            firsts = page.eval_on_selector_all("[data-testid=board] .cell.legal",
                                               "els => els.map(e => e.dataset.cell)")
            assert set(firsts) == {a.split()[4] for a in options}
            page.click(f"[data-testid=board] .cell.legal[data-cell='{first}']")
            page.wait_for_selector(f"[data-testid=board] .cell.chosen[data-cell='{first}']")
            seconds = page.eval_on_selector_all("[data-testid=board] .cell.legal[data-action]",
                                                "els => els.map(e => e.dataset.action)")
            assert sorted(seconds) == sorted(a for a in options if a.split()[4] == first)
            page.screenshot(timeout=SHOT_MS, path=str(artifacts / "dominations-monument-tile.png"))
            page.click(f"[data-testid=board] .cell.legal[data-cell='{second}']")
        # The page has sent the action: wait until it shows the view that the action produced,
        # so that the server is read after the action and not before it (a stale version).
        page.wait_for_function(
            "v => document.querySelector('[data-testid=dominations]').dataset.version !== v",
            arg=str(msg["version"]))
        # The level's cost is paid through the prompt.
        for _ in range(40):
            msg = wait_for_human(live_server, gid, token)
            page.wait_for_selector(f"[data-testid=dominations][data-version='{msg['version']}']")
            if (msg["view"]["pending"] or {}).get("kind") != "pay":
                break
            page.locator("[data-testid=pending] .pay [data-action]").first.click()
            page.wait_for_function(
                "v => document.querySelector('[data-testid=dominations]').dataset.version !== v",
                arg=str(msg["version"]))
        placed = next(m for m in msg["view"]["monuments"] if m["id"] == monument)
        assert placed["taken"] == 1 and placed.get("tile")
        tree = msg["view"]["players"][HUMAN]["tree"]
        assert any(e["pos"] == pos and e["card"].startswith(monument) for e in tree)
        if isinstance(placed["tile"], list):
            for cell in placed["tile"]:
                assert page.locator(
                    f"[data-testid=board] .cell.monument[data-cell='{cell}']").count()
        else:
            assert page.locator("[data-testid=board] .circle-monument"
                                f"[data-vertex='{placed['tile']}']").count()
        assert not errors, errors
    finally:
        page.close()


def legal_texts_of_whole_games() -> list[str]:
    """Every distinct legal action met in greedy games of 2 and 3 players."""
    from dominari.bots import load_bot
    from dominari.server.tables import new_state

    seen: set[str] = set()
    for players, seed in ((2, 7), (3, 2)):
        state: Any = new_state("dominations", {"players": players, "seed": seed}, {})
        bot = load_bot("greedy", "dominations")
        while not state.is_terminal():
            seen.update(state.view(state.current_player())["legal_actions"])
            state.apply(bot.act(state))
    return sorted(seen)


def test_every_legal_action_has_a_control(live_server: Any, browser: Any) -> None:
    """js/dominations/actions.js sorts every legal action of whole games into a group the
    table shows a control for (nothing is left to the generic list), and reads placements,
    monuments and tree positions as the notation says."""
    texts = legal_texts_of_whole_games()
    page = browser.new_page()
    try:
        page.goto(live_server.url)
        got = page.evaluate("""async (texts) => {
          const a = await import('/static/js/dominations/actions.js');
          const g = a.groupActions(texts);
          const sizes = {};
          for (const [k, v] of Object.entries(g)) {
            sizes[k] = Array.isArray(v) ? v.length : (v ? 1 : 0);
          }
          const byCell = a.placementsByCell(g.place, g.place[0].tile, g.place[0].rot);
          const mon = g.monument.find((m) => m.tile) || null;
          return {sizes, rest: g.rest, first: g.place[0], byCell: [...byCell.keys()],
                  mon, monPos: mon ? [...a.positionsFor(g, 'monument', mon.id).keys()] : [],
                  acq: [...a.positionsFor(g, 'acquire', g.acquire[0].card).keys()],
                  acqCard: g.acquire[0].card};
        }""", texts)
    finally:
        page.close()
    assert got["rest"] == []
    assert sum(got["sizes"].values()) == len(texts)
    for kind in ("place", "city", "upgradeCity", "upgradeCard", "acquire", "monument", "pay",
                 "vestigium", "exchange", "choose", "ret", "order", "pass", "done"):
        assert got["sizes"][kind] > 0, kind
    first = got["first"]
    assert first["text"] == (f"{first['tile']} {first['cell']} r{first['rot']} "
                             f"{first['link']} {first['target']}")
    assert set(got["byCell"]) == {t.split()[1] for t in texts
                                  if t.startswith(f"{first['tile']} ")
                                  and t.split()[2] == f"r{first['rot']}"}
    mon = got["mon"]
    assert mon and mon["text"] == f"monument {mon['id']} {mon['pos']} on {' '.join(mon['tile'])}"
    assert set(got["monPos"]) == {t.split()[2] for t in texts
                                  if t.startswith(f"monument {mon['id']} ")}
    assert set(got["acq"]) == {t.split()[2] for t in texts
                               if t.startswith(f"acquire {got['acqCard']} ")}


def test_the_table_says_which_rules_it_is_played_by(live_server: Any, browser: Any) -> None:
    """A game under rules other than the retail defaults says so in its status line, to
    seats and spectators alike; a retail game shows no such line."""
    made = live_server.create(game="dominations", seed=3, variant="prototype",
                              rules={"connection": "all-sides"},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    plain = live_server.create(game="dominations", seed=3,
                               seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page, errors = _page(browser, 1280, 900)
    try:
        page.goto(f"{live_server.url}/#/watch/{made['spectator']}")
        page.wait_for_selector("[data-testid=rules]")
        assert page.inner_text("[data-testid=rules]") == (
            "rules: connection all-sides, variant prototype")
        assert errors == []
    finally:
        page.close()
    page, errors = _page(browser, 1280, 900)
    try:
        page.goto(f"{live_server.url}/#/play/{plain['game_id']}/{plain['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=supply]")  # the status line is drawn
        assert page.locator("[data-testid=rules]").count() == 0
        assert errors == []
    finally:
        page.close()
