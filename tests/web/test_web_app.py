"""The browser app's shell (issue 8 §1, §4): lobby, invitation links, my games, the table
chrome (seats, turn, undo, reconnect after a reload), replays, and the pure helpers of
``format.js``. Each test drives Debian's Chromium against a real server."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from webserver import LiveServer


@pytest.fixture
def page(checked_page: Page) -> Page:
    return checked_page


def _random_move(server: LiveServer, gid: str, tokens: list[str], rng: random.Random
                 ) -> tuple[int, dict[str, Any]]:
    """The deciding seat plays a random legal action: (that seat, the answer's view)."""
    seat = server.view(gid, tokens[0])["current_seat"]
    mine = server.view(gid, tokens[seat])
    return seat, server.call("POST", f"/api/games/{gid}/actions",
                             {"action": rng.choice(mine["view"]["legal_actions"]),
                              "version": mine["version"]}, tokens[seat])


def _finish_by_random_play(server: LiveServer, gid: str, tokens: list[str], seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        if server.view(gid, tokens[0])["status"] == "finished":
            return
        try:
            _random_move(server, gid, tokens, rng)
        except urllib.error.HTTPError:  # raced a bot; look again
            continue
    raise AssertionError("the game did not finish")


def test_lobby_creates_a_game_with_invitation_links(live_server: LiveServer, page: Page,
                                                    artifacts: Path) -> None:
    page.goto(live_server.url + "/")
    expect(page.get_by_test_id("new-game")).to_be_visible()
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.select_option("#f-game", "dominion")
    page.select_option("#f-players", "3")
    # Each bot is offered with a few words on it (under its row); the default opponent is
    # Smithy-BM.
    seat3 = page.locator("select[name=seat2]")
    expect(seat3.locator("option[value='bot:mcts-hard']")).to_have_text("Bot: mcts-hard")
    expect(seat3.locator("option[value='bot:mcts-hard']")).to_have_attribute(
        "title", "search, 3 times the work of mcts for no gain measured; up to 0.05 s a move "
                 "(measured without a cut: less time may weaken it), longer on a busy server")
    expect(seat3).to_have_value("bot:smithy")
    expect(page.get_by_test_id("seat2-about")).to_have_text("smithy: Smithy Big Money")
    page.select_option("select[name=seat1]", "human")
    page.fill("input[aria-label='Seat 1 name']", "Ann")
    page.fill("input[aria-label='Seat 2 name']", "Bob")
    page.select_option("#f-kingdom", "interaction")
    page.get_by_role("button", name="Create game").click()
    box = page.get_by_test_id("invitations")
    expect(box).to_be_visible()
    links = [box.locator("input").nth(i).input_value() for i in range(3)]
    assert all("/#/play/" in u for u in links[:2]) and "/#/watch/" in links[2]
    gid, token = links[1].split("/#/play/")[1].split("/")
    assert live_server.view(gid, token)["seat"] == 1  # Bob's link holds seat 2
    view = live_server.view(gid, token)
    assert [s["name"] for s in view["seats"]][:2] == ["Ann", "Bob"]
    assert view["seats"][2]["kind"] == "bot"
    assert view["view"]["kingdom"] == sorted(view["view"]["kingdom"])  # a real kingdom
    page.screenshot(path=str(artifacts / "invitations.png"), full_page=True)
    page.goto(links[0])
    expect(page.locator(".seat-chip[data-seat='0']")).to_contain_text("Ann (you)")


def test_lobby_refuses_a_kingdom_of_other_than_ten_cards(live_server: LiveServer,
                                                         page: Page) -> None:
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.select_option("#f-kingdom", "choose")
    for card in ("Cellar", "Moat", "Witch"):
        page.get_by_label(card, exact=True).check()
    page.get_by_role("button", name="Create game").click()
    expect(page.locator(".form-error")).to_contain_text(
        "choose exactly 10 kingdom cards (3 chosen)")


def test_the_lobby_offers_no_seed_for_a_game_of_several_people(live_server: LiveServer,
                                                               page: Page) -> None:
    """The server refuses a chosen seed for a game with two or more human seats (whoever
    chose the deal would know the others' hidden cards): the lobby's seed field is off
    for such a game, says why, and sends none; a game against bots keeps it."""
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    seed, note = page.locator("#f-seed"), page.locator("#f-seed-note")
    page.fill("#f-seed", "7")
    expect(seed).to_be_enabled()
    expect(note).to_be_hidden()
    page.select_option("select[name=seat1]", "human")
    expect(seed).to_be_disabled()
    expect(note).to_be_visible()
    expect(note).to_contain_text("know the other players' hidden cards")
    page.get_by_role("button", name="Create game").click()
    box = page.get_by_test_id("invitations")
    expect(box).to_be_visible()
    gid = box.locator("input").nth(0).input_value().split("/#/play/")[1].split("/")[0]
    assert live_server.service.table(gid).config["seed"] != 7  # dealt at random
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.select_option("#f-players", "3")
    page.select_option("select[name=seat1]", "human")
    expect(seed).to_be_disabled()
    page.select_option("select[name=seat1]", "bot:bmu")
    expect(seed).to_be_enabled()
    expect(note).to_be_hidden()


def test_quick_game_against_a_bot_and_my_games(live_server: LiveServer, page: Page) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("quick-dominion").click()
    page.wait_for_url("**/#/play/**")
    expect(page.get_by_test_id("seats")).to_contain_text("You")
    expect(page.get_by_test_id("seats")).not_to_contain_text("You (you)")
    gid, token = page.url.split("/#/play/")[1].split("/")
    view = live_server.view(gid, token)
    assert view["game"] == "dominion" and view["seats"][1]["kind"] == "bot"
    page.goto(live_server.url + "/#/games")
    row = page.locator(f"tr[data-game='{gid}']")
    expect(row).to_contain_text("Dominion")
    expect(row.get_by_role("link", name="Play")).to_have_attribute(
        "href", f"#/play/{gid}/{token}")


def test_table_chrome_follows_the_server_and_undo_works(live_server: LiveServer,
                                                        page: Page) -> None:
    g = live_server.create(game="dominations", seats=[{"kind": "human", "name": "Ann"},
                                                      {"kind": "human", "name": "Bob"}],
                           seed=4)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    page.goto(f"{live_server.url}/#/play/{gid}/{tokens[0]}")
    expect(page.get_by_test_id("version")).to_have_text("move 0")
    rng = random.Random(1)
    for _ in range(300):  # random moves by both seats until seat 1 can undo its own
        seat, after = _random_move(live_server, gid, tokens, rng)
        if after["can_undo"] and seat == 0:
            break
    else:
        raise AssertionError("no undoable action for seat 1")
    expect(page.get_by_test_id("version")).to_have_text(f"move {after['version']}")
    expect(page.get_by_test_id("turn")).to_have_text("Your decision")
    expect(page.get_by_test_id("undo")).to_be_enabled()
    page.keyboard.press("u")
    expect(page.get_by_test_id("version")).to_have_text(f"move {after['version'] + 1}")
    expect(page.get_by_test_id("undo")).to_be_disabled()
    # (a screen reader is told: the view alone says nothing of it)
    expect(page.get_by_test_id("announce")).to_have_text("Undone: your last action is taken back")
    back = live_server.view(gid, tokens[0])
    assert back["version"] == after["version"] + 1 and not back["can_undo"]
    # A reload restores the table at the same version.
    page.reload()
    expect(page.get_by_test_id("version")).to_have_text(f"move {back['version']}")


def test_a_rule_bot_without_its_cards_says_so_at_the_table(live_server: LiveServer,
                                                            page: Page) -> None:
    """A rule bot whose Kingdom cards the game lacks (Witch on First Game) is seated: its
    seat chip says which cards it plays without, to players and spectators."""
    g = live_server.create(game="dominion", kingdom="first-game", seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "witch"}, {"kind": "bot", "bot": "smithy"}])
    for url in (f"#/play/{g['game_id']}/{g['seats'][0]['token']}", f"#/watch/{g['spectator']}"):
        page.goto(f"{live_server.url}/{url}")
        chip = page.locator(".seat-chip[data-seat='1']")
        expect(chip.get_by_test_id("missing-cards")).to_have_text("without Witch")
        expect(chip).to_have_attribute("title", "bot: witch; buys Witch, not in this game's "
                                                "kingdom: plays without it")
        expect(page.locator(".seat-chip[data-seat='2'] [data-testid=missing-cards]")
               ).to_have_count(0)


@pytest.mark.rule("N-END-2")
def test_a_win_on_the_tie_break_says_why_and_a_finished_game_offers_its_record(
        live_server: LiveServer, page: Page) -> None:
    """N-END-2: with equal VP the player with fewer turns wins. The browser audit found
    "bmu (2) wins." under a 33–33 table, the turns column the only hint; the line now says
    how the tie was broken. A finished game offers its record to download (for
    ``dominari replay``), and the one-click buttons name the bot they seat."""
    page.goto(live_server.url + "/")
    expect(page.get_by_test_id("quick-dominion")).to_have_text("Play Dominion against smithy")
    expect(page.get_by_test_id("quick-dominations")).to_have_text(
        "Play Dominations against greedy")
    expect(page.locator("input[aria-label='Seat 1 name']")).to_have_attribute(
        "placeholder", "name (optional)")  # (it said "You", and a blank seated "Player 1")
    g = live_server.create(game="dominion", kingdom="first-game", seed=22, seats=[
        {"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "bmu"}])
    page.goto(f"{live_server.url}/#/watch/{g['spectator']}")
    scores = page.get_by_test_id("scores")
    expect(scores).to_be_visible(timeout=60_000)
    record = live_server.call("GET", f"/api/games/{g['game_id']}/record")
    out = record["outcome"]
    assert out["scores"] == [33, 33] and out["ranks"] == [2, 1], out  # bmu on fewer turns
    turns = out["turns"]
    assert turns[1] < turns[0]
    expect(scores.locator("p")).to_have_text(
        "The game ended because the Province pile is empty. bmu (2) wins the tie with bm (1) "
        f"at 33 VP, in fewer turns ({turns[1]} against {turns[0]}).")
    link = page.get_by_test_id("record-link")
    expect(link).to_have_attribute("href", f"/api/games/{g['game_id']}/record")
    expect(link).to_have_attribute("download", f"dominari-dominion-{g['game_id']}.json")
    with page.expect_download() as got:
        link.click()
    saved = got.value.path()
    assert json.loads(Path(saved).read_text(encoding="utf-8")) == record


def test_play_again_makes_one_next_game_for_every_player(live_server: LiveServer, page: Page,
                                                          browser: Browser) -> None:
    """A finished game offers its players "Play again" (the browser audit found nothing
    on the final screen to start another): a new game with the same seats, names and
    options, dealt anew. With two people on two browsers, the one who clicks goes to
    their seat of it, and the other is told and offered "Join the next game", which
    takes their own seat (the first version put both links in the clicker's browser
    only); a spectator is offered to watch it. A browser holding every seat (one shared
    screen) gets the invitation links of them all."""
    g = live_server.create(game="dominion", seats=[{"kind": "human", "name": "Ann"},
                                                   {"kind": "human", "name": "Bob"}],
                           seed=9, kingdom="first-game", max_turns=3)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    first = live_server.view(gid, tokens[0])
    assert (first["kingdom"], first["max_turns"]) == ("first-game", 3)
    assert "seed" not in first  # (the seed would reveal every hidden card)
    _finish_by_random_play(live_server, gid, tokens, 3)
    page.goto(f"{live_server.url}/#/watch/{g['spectator']}")
    expect(page.get_by_test_id("record-link")).to_be_visible()
    expect(page.get_by_test_id("again")).to_have_count(0)  # a spectator holds no seat

    bob_context = browser.new_context(viewport={"width": 1280, "height": 860})
    ann_context = browser.new_context(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    try:
        bob, ann = bob_context.new_page(), ann_context.new_page()
        for p in (bob, ann):
            p.on("pageerror", lambda e: errors.append(str(e)))
        bob.goto(f"{live_server.url}/#/play/{gid}/{tokens[1]}")
        expect(bob.get_by_test_id("again")).to_have_text("Play again")
        ann.goto(f"{live_server.url}/#/play/{gid}/{tokens[0]}")
        ann.get_by_test_id("again").click()
        ann.wait_for_url(lambda url: "/#/play/" in url and gid not in url)
        new_id, ann_token = ann.url.split("/#/play/")[1].split("/")
        assert new_id != gid
        expect(ann.get_by_test_id("seats")).to_be_visible()
        nxt = live_server.view(new_id, ann_token)
        assert (nxt["seat"], nxt["status"], nxt["version"]) == (0, "active", 0)
        assert (nxt["kingdom"], nxt["max_turns"]) == ("first-game", 3)
        assert [(s["kind"], s["name"]) for s in nxt["seats"]] == [("human", "Ann"),
                                                                  ("human", "Bob")]
        # Bob, on his own browser, is told and takes his own seat
        expect(bob.get_by_text("Another player started the next game")).to_be_visible()
        expect(bob.get_by_test_id("again")).to_have_text("Join the next game")
        bob.get_by_test_id("again").click()
        bob.wait_for_url(f"**/#/play/{new_id}/**")
        bob_token = bob.url.split(f"/#/play/{new_id}/")[1]
        assert bob_token not in (ann_token, *tokens)
        assert live_server.view(new_id, bob_token)["seat"] == 1
        # the spectator may watch it
        page.get_by_test_id("watch-again").click()
        page.wait_for_url(f"**/#/watch/{nxt['spectator']}")
    finally:
        bob_context.close()
        ann_context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"

    # one browser with both seats of a game: the links of both seats of the next one
    h = live_server.create(game="dominion", seats=[{"kind": "human", "name": "Ann"},
                                                   {"kind": "human", "name": "Bob"}],
                           seed=4, kingdom="first-game", max_turns=2)
    hid, both = h["game_id"], [s["token"] for s in h["seats"]]
    _finish_by_random_play(live_server, hid, both, 4)
    page.goto(f"{live_server.url}/#/play/{hid}/{both[1]}")
    expect(page.get_by_test_id("again")).to_be_visible()
    page.goto(f"{live_server.url}/#/play/{hid}/{both[0]}")
    page.get_by_test_id("again").click()
    box = page.get_by_test_id("invitations")
    expect(box).to_be_visible()
    links = [box.locator("input").nth(i).input_value() for i in range(2)]
    seats = [live_server.view(*link.split("/#/play/")[1].split("/"))["seat"] for link in links]
    assert seats == [0, 1]


def test_a_wrong_token_or_spectator_id_is_refused_clearly(live_server: LiveServer,
                                                          page: Page) -> None:
    g = live_server.create(game="dominion", seats=[{"kind": "human"}, {"kind": "bot",
                                                                       "bot": "bm"}])
    page.goto(f"{live_server.url}/#/play/{g['game_id']}/not-a-token")
    expect(page.get_by_text("This invitation link is not valid")).to_be_visible()
    page.goto(f"{live_server.url}/#/watch/nobody")
    expect(page.get_by_text("No game has this spectator link")).to_be_visible()
    page.goto(f"{live_server.url}/#/nowhere")
    expect(page.get_by_text("Page not found")).to_be_visible()


def test_replay_steps_forward_and_back(live_server: LiveServer, page: Page,
                                       artifacts: Path) -> None:
    g = live_server.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}],
                           seed=9, kingdom="first-game", max_turns=3)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    page.goto(f"{live_server.url}/#/replay/{g['spectator']}")
    expect(page.get_by_text("still being played")).to_be_visible()
    _finish_by_random_play(live_server, gid, tokens, 3)
    page.goto(f"{live_server.url}/#/play/{gid}/{tokens[0]}")
    page.get_by_test_id("replay-link").click()
    step = page.get_by_test_id("replay-step")
    total = live_server.call("GET", f"/api/replay/{g['spectator']}")["steps"]
    expect(step).to_have_text(f"0 / {total}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"2 / {total}")
    page.get_by_test_id("replay-back").click()
    expect(step).to_have_text(f"1 / {total}")
    page.keyboard.press("End")
    expect(step).to_have_text(f"{total} / {total}")
    expect(page.locator(".moves li.current")).to_have_attribute("data-step", str(total))
    final = live_server.view(gid, tokens[0])["view"]["outcome"]["scores"]
    for p, vp in enumerate(final):  # each player's VP at the step shown
        expect(page.get_by_test_id(f"player-{p}").get_by_test_id("vp")).to_have_text(f"VP {vp}")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    # The server's positions: step 0 is the start, the last one the finished game.
    start = live_server.call("GET", f"/api/replay/{g['spectator']}?step=0")
    end = live_server.call("GET", f"/api/replay/{g['spectator']}?step={total}&seat=1")
    assert start["version"] == 0 and start["status"] == "active"
    assert end["status"] == "finished" and end["view"]["hand"] is not None
    page.reload()
    expect(step).to_have_text(f"{total} / {total}")  # the URL keeps the position
    # The moves read as the log says them (a player's buy, not "buy Silver"), with
    # their notation on hover.
    first_move = page.locator(".moves li[data-step='1'] button")
    said = start["moves"][0]["text"]
    assert said and first_move.inner_text() == next(x for x in said if x[0] not in "—=")
    assert start["moves"][0]["action"] in (first_move.get_attribute("title") or "")
    # The step buttons keep the focus (the bar was drawn anew and the focus went to the
    # page: a second Enter did nothing).
    page.keyboard.press("Home")
    expect(step).to_have_text(f"0 / {total}")
    page.get_by_role("button", name="Step forward").focus()
    page.keyboard.press("Enter")
    expect(step).to_have_text(f"1 / {total}")
    page.keyboard.press("Enter")
    expect(step).to_have_text(f"2 / {total}")
    # The bar is made once: a control (a menu held open) is the same element at every
    # step; one disabled under the focus gives it to the count, which keeps it.
    speed = "document.querySelector('[aria-label=\"Speed of play\"]')"
    page.evaluate(f"() => {{ window.__speed = {speed}; }}")
    page.get_by_role("button", name="Last position").focus()
    page.keyboard.press("Enter")
    expect(step).to_have_text(f"{total} / {total}")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "replay-step"
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"{total - 1} / {total}")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "replay-step"
    assert page.evaluate(f"() => window.__speed === {speed}")
    page.keyboard.press("Home")
    # Play runs the moves at the speed chosen, and stops at the end.
    page.get_by_label("Speed of play").select_option("5")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_text("Pause")
    expect(step).to_have_text(f"{total} / {total}", timeout=total * 1000)
    expect(page.get_by_test_id("replay-play")).to_have_text("Play")
    # A seat's view is kept in the URL: a reload (a link shared) shows it again.
    page.get_by_label("Seen by").select_option("1")
    expect(page).to_have_url(re.compile(rf"#/replay/{g['spectator']}/{total}/1$"))
    page.reload()
    expect(page.get_by_label("Seen by")).to_have_value("1")
    page.goto(f"{live_server.url}/#/replay/{g['spectator']}/2/3")  # no such seat
    expect(step).to_have_text(f"2 / {total}")
    expect(page.get_by_label("Seen by")).to_have_value("")
    # A link to a step past the end opens the replay at its start.
    page.goto(f"{live_server.url}/#/replay/{g['spectator']}/{total + 50}")
    expect(step).to_have_text(f"0 / {total}")


def test_a_game_of_bots_made_in_the_lobby_is_paced_and_says_so(live_server: LiveServer,
                                                                page: Page) -> None:
    """The lobby's "Bots move" asks the bots to pause before each move, so that a game
    of bots can be followed as it is played; its page says how to watch it, not to
    send invitations to nobody."""
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.select_option("select[name=seat0]", "bot:bm")
    page.select_option("select[name=seat1]", "bot:smithy")
    page.select_option("#f-pause", "0.5")
    page.get_by_role("button", name="Create game").click()
    box = page.get_by_test_id("invitations")
    expect(box.get_by_role("heading")).to_have_text("Dominion: a game of bots")
    expect(box).to_contain_text("Bots play every seat")
    gid = page.url.rsplit("/", 1)[1]
    assert live_server.app.state.service.tables[gid].config["bot_pause"] == 0.5


def test_my_games_lists_the_games_of_bots_made_here(live_server: LiveServer,
                                                     page: Page) -> None:
    """A game of bots only holds no seat of the browser's: "My games" said "No games yet"
    and its link was lost. Such games made here are listed apart, to watch or replay."""
    g = live_server.create(game="dominion", kingdom="first-game", seed=3, max_turns=2,
                           seats=[{"kind": "bot", "bot": "witch"}, {"kind": "bot", "bot": "bm"}])
    page.goto(live_server.url + "/")
    page.evaluate("""async (made) => {
      const api = await import('/static/js/api.js');
      api.rememberCreation({ game_id: made.game_id, game: "dominion",
                             spectator: made.spectator, seats: made.seats });
    }""", g)
    until = time.monotonic() + 30
    while live_server.spectate(g["spectator"])["status"] != "finished":
        assert time.monotonic() < until, "the bots did not finish"
        time.sleep(0.05)
    page.goto(live_server.url + "/#/games")
    row = page.locator(f"[data-testid=watched-games] tr[data-game='{g['game_id']}']")
    expect(row).to_contain_text("witch (1), bm (2)")
    expect(row).to_contain_text("finished")
    expect(row.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"#/replay/{g['spectator']}")
    expect(page.get_by_test_id("my-games")).to_contain_text("No games of yours yet")
    row.get_by_role("button", name="Forget").click()
    expect(page.get_by_test_id("watched-games")).to_be_hidden()


FORMAT_CASES: list[tuple[str, list[Any], Any]] = [
    ("andList", [[]], ""), ("andList", [["A"]], "A"), ("andList", [["A", "B"]], "A and B"),
    ("andList", [["A", "B", "C"]], "A, B and C"),
    ("ordinal", [1], "1st"), ("ordinal", [2], "2nd"), ("ordinal", [3], "3rd"),
    ("ordinal", [4], "4th"), ("ordinal", [11], "11th"), ("ordinal", [12], "12th"),
    ("ordinal", [13], "13th"), ("ordinal", [21], "21st"), ("ordinal", [102], "102nd"),
    ("count", [1, "card"], "1 card"),
    ("count", [3, "card"], "3 cards"),
    ("count", [2, "city", "cities"], "2 cities"),
    ("parseRoute", ["#/play/G1/tok"], {"page": "play", "args": ["G1", "tok"]}),
    ("parseRoute", [""], {"page": "lobby", "args": []}),
    ("parseRoute", ["#/replay/abc/12"], {"page": "replay", "args": ["abc", "12"]}),
    ("route", ["play", "a b", "t/1"], "#/play/a%20b/t%2F1"),
    ("seatLabel", [{"seat": 1, "name": "Bob"}, 1], "Bob (you)"),
    ("seatLabel", [{"seat": 1, "name": "Bob"}, None], "Bob"),
    ("seatLabel", [{"seat": 0, "name": "You"}, 0], "You"),
    ("toJSON", [{"a": [1, "x"], "b": None}], '{"a":[1,"x"],"b":null}'),
    ("seedValue", ["7"], 7),
    ("seedValue", ["1e3"], 1000),
    ("seedValue", ["9.007199254740993e15"], "9.007199254740993e15"),  # not rounded
    ("ago", [0, 30_000], "just now"),
    ("ago", [0, 3 * 3600_000], "3 hours ago"),
    ("standings", [[5, 9, 5]], [{"seat": 1, "score": 9, "rank": 1},
                                {"seat": 0, "score": 5, "rank": 2},
                                {"seat": 2, "score": 5, "rank": 2}]),
]


def test_format_helpers(live_server: LiveServer, page: Page) -> None:
    page.goto(live_server.url + "/")
    got = page.evaluate(
        """async (cases) => {
             const f = await import('/static/js/format.js');
             return cases.map(([name, args]) => f[name](...args));
           }""", [[n, a] for n, a, _ in FORMAT_CASES])
    for (name, args, want), value in zip(FORMAT_CASES, got, strict=True):
        assert value == want, f"{name}({json.dumps(args)}) = {value!r}, not {want!r}"


def test_a_seed_beyond_two_to_the_53_reaches_the_server_exactly(live_server: LiveServer,
                                                                page: Page) -> None:
    """The lobby's seed is sent as typed: a JavaScript number would round 2^53 + 1 to 2^53,
    another game."""
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.fill("#f-seed", "9007199254740993")
    text = page.evaluate("""async () => {
        const f = await import('/static/js/format.js');
        return f.toJSON({seed: f.seedValue('9007199254740993'), n: 1});
      }""")
    assert text == '{"seed":9007199254740993,"n":1}'
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/#/play/**")
    gid = page.url.split("/#/play/")[1].split("/")[0]
    assert live_server.service.table(gid).config["seed"] == 9007199254740993


def test_log_tails_are_merged_into_the_whole_log(live_server: LiveServer, page: Page) -> None:
    page.goto(live_server.url + "/")
    got = page.evaluate(
        """async () => {
             const { mergeLog } = await import('/static/js/table.js');
             const a = mergeLog([], { log: ['a', 'b', 'c'], log_start: 0 });
             const b = mergeLog(a, { log: ['c', 'd'], log_start: 2 });      // grows
             const c = mergeLog(b, { log: ['c'], log_start: 2 });           // an undo
             const d = mergeLog(['x'], { log: ['q', 'r'], log_start: 40 }); // joined late
             const e = mergeLog(b, { view: {} });                           // no log
             return [a, b, c, d, e];
           }""")
    assert got == [["a", "b", "c"], ["a", "b", "c", "d"], ["a", "b", "c"], ["q", "r"],
                   ["a", "b", "c", "d"]]


def test_a_page_joining_a_long_game_shows_the_whole_log(live_server: LiveServer,
                                                        page: Page) -> None:
    g = live_server.create(game="dominations", seats=[{"kind": "human"}, {"kind": "human"}],
                           seed=6)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    rng = random.Random(3)
    for _ in range(400):
        v = live_server.view(gid, tokens[0])
        if v["log_start"] > 0:
            break
        _random_move(live_server, gid, tokens, rng)
    whole = live_server.call("GET", f"/api/games/{gid}/log")["log"]
    assert v["log_start"] > 0 and len(whole) > len(v["log"])
    page.goto(f"{live_server.url}/#/watch/{g['spectator']}")
    log = page.get_by_test_id("log")
    expect(log).to_contain_text(whole[0].strip())
    expect(log).to_contain_text(whole[-1].strip())
    # Later moves come as pieces of the log after the lines the page has.
    for _ in range(25):
        _random_move(live_server, gid, tokens, rng)
    version = live_server.view(gid, tokens[0])["version"]
    # (The page draws every view it gets: give a busy machine time.)
    expect(page.get_by_test_id("version")).to_have_text(f"move {version}", timeout=30_000)
    whole = live_server.call("GET", f"/api/games/{gid}/log")["log"]
    shown = page.evaluate("() => [...document.querySelectorAll('[data-testid=log] li')]"
                          ".map((e) => e.textContent)")
    assert shown == whole[-300:]
