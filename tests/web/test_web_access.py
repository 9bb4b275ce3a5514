"""Playing against the bots with the keyboard alone, or a screen reader (an accessibility
audit of the lobby and the tables): what the bots do is announced, the focus stays where
the keyboard is, and the lobby fits the screen."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect
from webserver import LiveServer

WATCH_ANNOUNCER = """() => {
  window.__heard = [];
  const box = document.querySelector('[data-testid=announce]');
  new MutationObserver(() => { if (box.textContent) window.__heard.push(box.textContent); })
    .observe(box, { childList: true, characterData: true, subtree: true });
}"""


@pytest.fixture
def page(checked_page: Page) -> Page:
    return checked_page


def _page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_the_lobby_fits_the_screen_and_says_each_bot_under_its_row(live_server: LiveServer,
                                                                   page: Page) -> None:
    """The audit: each bot's words in its option made the page 2,168 px wide at 1280 (the
    longest, mcts-hard's, is 170 characters), the second seat's name box off screen; and
    the hidden box of Kingdom cards showed, its 25 checkboxes in the Tab order."""
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.select_option("#f-players", "3")
    seat = page.locator("select[name=seat2]")
    page.select_option("select[name=seat2]", "bot:mcts-hard")
    expect(seat.locator("option[value='bot:mcts-hard']")).to_have_text("Bot: mcts-hard")
    about = page.get_by_test_id("seat2-about")
    expect(about).to_have_text(
        "mcts-hard: search, 3 times the work of mcts for no gain measured; up to 0.05 s a move "
        "(measured without a cut: less time may weaken it), longer on a busy server")
    expect(seat).to_have_attribute("aria-describedby", "seat2-about")
    expect(page.get_by_test_id("seat0-about")).to_be_hidden()  # a person: nothing to say
    assert _page_width(page) <= 1280
    page.set_viewport_size({"width": 640, "height": 800})  # as 200% zoom of 1280
    assert _page_width(page) <= 640
    expect(page.get_by_role("textbox", name="Seat 3 name")).to_be_in_viewport()
    # the Kingdom cards show only to choose them
    cards = page.locator(".kingdom-cards")
    expect(cards).to_be_hidden()
    page.select_option("#f-kingdom", "choose")
    expect(cards).to_be_visible()
    # the one-click buttons say their bot's words, and are described by them
    quick = page.get_by_test_id("quick-dominion")
    expect(quick).to_have_attribute("aria-describedby", "quick-dominion-about")
    expect(page.locator("#quick-dominion-about")).to_contain_text("smithy: ")


def test_a_screen_reader_is_told_the_bots_moves_its_turn_and_the_result(
        live_server: LiveServer, page: Page) -> None:
    """The panels are drawn anew at every view, so no live region of theirs was ever heard:
    the audit heard only "live", 47 times, in a whole game. One region of the table now
    says the log's new lines (the bot's moves), "Your decision", and the result."""
    g = live_server.create(game="dominion", kingdom="first-game", seed=5, max_turns=2,
                           seats=[{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "bot": "bm", "name": "Bea"}])
    gid, token = g["game_id"], g["seats"][0]["token"]
    page.goto(f"{live_server.url}/#/play/{gid}/{token}")
    expect(page.get_by_test_id("turn")).to_have_text("Your decision")
    page.evaluate(WATCH_ANNOUNCER)
    page.evaluate("""() => {  // the connection word, in a live region too: written once
      window.__conn = 0;
      new MutationObserver(() => { window.__conn += 1; }).observe(
        document.getElementById('conn'), { childList: true, characterData: true, subtree: true });
    }""")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = live_server.view(gid, token)
        if view["status"] == "finished":
            break
        if view["current_seat"] != 0:
            time.sleep(0.05)
            continue
        actions = view["view"]["legal_actions"]
        action = next((a for a in actions if a.startswith("end")), actions[0])
        live_server.call("POST", f"/api/games/{gid}/actions",
                         {"action": action, "version": view["version"]}, token)
    expect(page.get_by_test_id("turn")).to_have_text("Game over")
    page.wait_for_function("() => window.__heard.some((t) => t.includes('Game over.'))")
    heard: list[str] = page.evaluate("window.__heard")
    assert any("Bea" in t for t in heard), heard  # the bot's moves
    # with what is asked (the decision panel is no live region: it is drawn anew)
    assert any(re.search(r"Your decision: (Play an Action card|Buy a card)", t)
               for t in heard), heard
    expect(page.get_by_test_id("decision")).not_to_have_attribute("aria-live", "polite")
    result = page.locator("[data-result]").text_content()
    assert result and heard[-1].endswith(f"Game over. {result}"), heard
    assert result.startswith("The game ended because")
    assert page.evaluate("window.__conn") == 0  # "live" is not said again at every view


def test_the_focus_stays_with_the_keyboard_in_dominations(live_server: LiveServer,
                                                          page: Page) -> None:
    """The audit: each of 109 actions left the focus on the page's body (6 Tab presses
    back on average, 29 at most). A control that had the focus keeps it through the
    redraw, or the decision waiting takes it; the status line (a live region) is written
    only when it says something new; the tabs take the arrow keys."""
    g = live_server.create(game="dominations", seed=3, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    gid, token = g["game_id"], g["seats"][0]["token"]
    page.goto(f"{live_server.url}/#/play/{gid}/{token}")
    pending = page.get_by_test_id("pending")
    inside = "() => !!document.activeElement.closest('[data-testid=dominations]')"
    made = 0
    while made < 6:  # Ann's first decisions (the draft), each by the keyboard
        deadline = time.monotonic() + 30
        view = live_server.view(gid, token)
        while view["current_seat"] != 0 or view["bot_thinking"]:
            assert time.monotonic() < deadline, "the bot did not move"
            time.sleep(0.05)
            view = live_server.view(gid, token)
        # the table drawn at that version (its module's, not only the bar's)
        page.wait_for_selector(f"[data-testid=dominations][data-version='{view['version']}']")
        buttons = pending.locator(".choices:not(.all) button:not([disabled])")
        if buttons.count() == 0:  # tiles now: picked from the hand, placed on the board
            break
        buttons.last.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelector('[data-testid=version]')"
                               f".textContent !== 'move {view['version']}'")
        made += 1
        assert page.evaluate(inside), page.evaluate("document.activeElement.outerHTML")
    assert made >= 2
    # a redraw that changes nothing in the status line leaves it be
    page.evaluate("""() => {
      window.__status = 0;
      new MutationObserver(() => { window.__status += 1; }).observe(
        document.querySelector('[data-testid=status]'), { childList: true, subtree: true });
    }""")
    tab = page.locator("[role=tab][aria-selected=true]")
    tab.focus()
    name = tab.get_attribute("data-tab")
    page.keyboard.press("ArrowRight")
    now = page.locator("[role=tab][aria-selected=true]")
    assert now.get_attribute("data-tab") != name
    assert page.evaluate("document.activeElement.getAttribute('aria-selected')") == "true"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.tab") == name
    assert page.evaluate("window.__status") == 0


def test_the_shortcuts_dialog_keeps_the_focus_and_gives_it_back(live_server: LiveServer,
                                                               page: Page) -> None:
    g = live_server.create(game="dominion", kingdom="first-game", seed=5,
                           seats=[{"kind": "human"}, {"kind": "bot", "bot": "bm"}])
    page.goto(f"{live_server.url}/#/play/{g['game_id']}/{g['seats'][0]['token']}")
    opener = page.get_by_role("button", name="Keyboard shortcuts")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('[role=dialog]')")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "Keyboard shortcuts"


def test_domain_letters_are_legible_on_their_colours(live_server: LiveServer,
                                                     page: Page) -> None:
    """WCAG's 4.5:1 for small text: the audit measured the Science and Government letters
    at 3.42 and 4.26."""
    page.goto(live_server.url + "/")
    ratios = page.evaluate("""async () => {
      const { DOMAIN_FILL, DOMAIN_INK } = await import('/static/js/dominations/colours.js');
      const lum = (hex) => {
        const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
          .map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
      };
      const out = {};
      for (const d of Object.keys(DOMAIN_FILL)) {
        const [a, b] = [lum(DOMAIN_FILL[d]), lum(DOMAIN_INK[d])];
        out[d] = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      }
      return out;
    }""")
    assert set(ratios) == set("TCASGRVX")
    assert all(r >= 4.5 for r in ratios.values()), ratios


def test_the_lobby_ranks_a_seats_rule_bot_for_the_kingdom(live_server: LiveServer,
                                                         page: Page) -> None:
    """The notes left the lobby's 19 Dominion choices unranked, though the rankings by
    kingdom exist (KINGDOM_ORDERS, measured two by two): a seat's rule bot now says where
    it stands for the kingdom and the number of players chosen."""
    page.goto(live_server.url + "/")
    page.select_option("#f-game", "dominion")
    page.select_option("#f-kingdom", "first-game")
    about = page.get_by_test_id("seat1-about")
    expect(about).to_have_text("smithy: Smithy Big Money; the strongest rule bot for this "
                               "kingdom with 2 players")
    page.select_option("select[name=seat1]", "bot:militia")
    expect(about).to_have_text("militia: Double Militia; 2nd of the 5 rule bots that fit it, "
                               "for this kingdom with 2 players")
    page.select_option("select[name=seat1]", "bot:witch")
    expect(about).to_have_text("witch: Double Witch; its Kingdom cards are not all in this "
                               "kingdom (it plays without them)")
    page.select_option("select[name=seat1]", "bot:bm")
    expect(about).to_have_text("bm: Big Money")  # not ranked
    page.select_option("select[name=seat1]", "bot:smithy")
    page.select_option("#f-kingdom", "random")
    expect(about).to_have_text("smithy: Smithy Big Money")  # the kingdom is not known yet
    page.select_option("#f-kingdom", "choose")
    for card in ("Cellar", "Chapel", "Moat", "Village", "Workshop", "Gardens", "Smithy",
                 "Market", "Mine", "Witch"):
        page.get_by_label(card, exact=True).check()
    expect(about).to_have_text("smithy: Smithy Big Money; 3rd of the 6 rule bots that fit it, "
                               "for this kingdom with 2 players")
    gardens = page.locator("select[name=seat1] option[value='bot:workshop-gardens']")
    expect(gardens).to_have_attribute("title", "Workshop/Gardens; the strongest rule bot for "
                                             "this kingdom with 2 players")
