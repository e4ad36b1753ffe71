"""The replay page (issue 19) in a real browser: headless Chromium (/usr/bin/chromium) driven by
Playwright against a real `tableref serve`. Events are played into a table through the API; the
page steps through them with first / previous / next / last and the slider, and what it shows at
each step (top card, whose turn, direction, cards to draw, colour, hands, the ruling's words) is
checked against the referee's own state, worked out in this test by feeding the same events to a
referee.Game, and at a few steps against values worked out by hand. Screenshots go to
docs/screenshots/ with TABLEREF_SCREENSHOTS=docs (else a temporary folder)."""
from __future__ import annotations


import pytest
from chromium import needs_chromium
from test_browser_host import DESKTOP, PHONE, WAIT, Server, open_page, shot

from referee import Game

pytestmark = needs_chromium
TABLE = "replay-night"
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0, "options": {}}
# (event, accepted): an undone play and a refused play are part of what happened, not of the replay
PLAYED = [
    (SETUP, True),
    ({"type": "flip", "card": "red-5"}, True),
    ({"type": "play", "player": 1, "cards": ["red-7"]}, True),
    ({"type": "play", "player": 2, "cards": ["blue-7"]}, True),
    ({"type": "undo"}, True),
    ({"type": "play", "player": 2, "cards": ["red-reverse"]}, True),
    ({"type": "play", "player": 1, "cards": ["red-draw2"]}, True),
    ({"type": "play", "player": 0, "cards": ["green-3"]}, False),        # Ana owes two: refused
    ({"type": "draw", "player": 0, "count": 2}, True),
    ({"type": "play", "player": 2, "cards": ["wild"]}, True),
    ({"type": "choose_color", "player": 2, "color": "blue"}, True),
]
IN_FORCE = [PLAYED[k][0] for k in (0, 1, 2, 5, 6, 8, 9, 10)]      # without blue-7, its undo and green-3
# worked out by hand: (top card, whose turn, direction, to draw, hands of Ana, Ben, Cy)
BY_HAND = {
    3: ("red-7", "Cy's turn", "clockwise", 0, [7, 6, 7]),
    4: ("red-reverse", "Ben's turn", "counter-clockwise", 0, [7, 6, 6]),
    5: ("red-draw2", "Ana's turn", "counter-clockwise", 2, [7, 5, 6]),
    6: ("red-draw2", "Cy's turn", "counter-clockwise", 0, [9, 5, 6]),
    8: ("wild", "Ben's turn", "counter-clockwise", 0, [9, 5, 5]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve"))
    for event, accepted in PLAYED:
        assert s.post(event, table=TABLE)["verdict"]["accepted"] is accepted, event
    yield s
    s.stop()



def referee_steps():
    """The referee's own state after each event in force, and its words for that event."""
    game, out = Game(), []
    for event in IN_FORCE:
        v = game.submit(event)
        assert v.accepted, v.reason
        out.append((game.to_dict(), v.reason))
    return out


def shown(page) -> dict:
    return page.evaluate("""() => ({
        where: document.getElementById('where').innerText,
        ruling: document.getElementById('ruling').innerText,
        top: document.getElementById('pile').topCard || null,
        turn: document.getElementById('turn').innerText,
        direction: document.getElementById('direction').innerText,
        pending: document.getElementById('pending').innerText,
        color: document.getElementById('color').innerText,
        names: [...document.querySelectorAll('#players li .name')].map(e => e.innerText.replace('▶ ', '')),
        counts: [...document.querySelectorAll('#players li .count')].map(e => parseInt(e.innerText, 10)),
        current: [...document.querySelectorAll('#players li')].findIndex(li => li.classList.contains('current')),
    })""")


def expect(page, k: int, total: int, state: dict, words: str):
    """The page shows step k (1, 2, ...) of `total` as the referee's `state` after it, with `words`."""
    page.wait_for_function(f"document.getElementById('where').innerText.startsWith('step {k} of')", timeout=WAIT)
    s = shown(page)
    assert s["where"].startswith(f"step {k} of {total}"), s
    assert words in s["ruling"] and s["ruling"].startswith(f"{k}."), s
    assert s["top"] == state["top_card"], s
    assert s["names"] == [p["name"] for p in state["players"]]
    assert s["counts"] == [p["hand_count"] for p in state["players"]], s
    if state["phase"] not in ("setup", "over") and state["winner"] is None:
        assert s["current"] == state["current_player"], s
        assert s["turn"] == f"{state['players'][state['current_player']]['name']}'s turn"
    assert s["direction"].endswith("counter-clockwise" if state["direction"] == "counterclockwise" else " clockwise")
    assert s["pending"] == (f"+{state['pending_draw']} to draw" if state["pending_draw"] else "")
    assert (state["active_color"] or "no colour yet") in s["color"], s
    if k in BY_HAND:
        top, turn, direction, pending, counts = BY_HAND[k]
        assert (s["top"], s["turn"], s["counts"]) == (top, turn, counts), s
        assert s["direction"].endswith(direction) and s["pending"] == (f"+{pending} to draw" if pending else "")


def test_stepping_through_a_game_shows_the_referees_state_at_each_step(server, browser):
    ref = referee_steps()
    total = len(ref)
    assert total == 8        # the undone blue-7 and the refused green-3 are not steps
    ctx, page = open_page(browser, f"{server.base}/t/{TABLE}/replay")
    # it opens at the latest event: Cy named blue, Ben's turn
    expect(page, total, total, *ref[-1])
    assert page.is_disabled("#next") and page.is_disabled("#last") and not page.is_disabled("#prev")
    assert "blue" in shown(page)["color"]
    page.click("#first")
    expect(page, 1, total, *ref[0])
    assert page.is_disabled("#first") and page.is_disabled("#prev")
    for k in range(2, total + 1):
        page.click("#next")
        expect(page, k, total, *ref[k - 1])
        if k == 5:
            shot(page, "replay-phone.png")
    page.click("#prev")
    expect(page, total - 1, total, *ref[total - 2])
    # the slider: Home and the arrow keys move it, as a finger drags it
    page.focus("#slider")
    page.keyboard.press("Home")
    expect(page, 1, total, *ref[0])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page, 3, total, *ref[2])
    page.click("#last")
    expect(page, total, total, *ref[-1])
    # the address names the step, so a reload comes back to it
    page.click("#first"); page.click("#next"); page.click("#next"); page.click("#next")
    page.reload()
    expect(page, 4, total, *ref[3])
    # nothing is wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors, page.errors
    ctx.close()


def test_desktop_size_and_a_step_named_in_the_address(server, browser):
    ref = referee_steps()
    ctx, page = open_page(browser, f"{server.base}/t/{TABLE}/replay?step=5", size=DESKTOP)
    expect(page, 5, len(ref), *ref[4])
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    shot(page, "replay-desktop.png")
    assert not page.errors, page.errors
    ctx.close()


def test_a_bad_step_is_said_and_the_latest_step_shown(server, browser):
    ref = referee_steps()
    ctx, page = open_page(browser, f"{server.base}/t/{TABLE}/replay?step=99")
    page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
    assert "there is no step 99" in page.inner_text("#problem")
    expect(page, len(ref), len(ref), *ref[-1])
    before = server.state(TABLE)["event_count"]
    assert before == len(ref)          # reading a replay changed nothing
    ctx.close()
    ctx, page = open_page(browser, f"{server.base}/t/nowhere/replay")
    assert "There is no table" in page.inner_text("h1")
    ctx.close()


def test_the_phone_views_timeline_links_to_the_replay(server, browser):
    ctx, page = open_page(browser, f"{server.base}/t/{TABLE}")
    page.click("#timeline-fold summary")
    page.wait_for_selector("#timeline li a.n", timeout=WAIT)
    # an entry's number opens the replay at that event
    page.click("#timeline li a.n >> text='3'")
    page.wait_for_url(f"**/t/{TABLE}/replay?*", timeout=WAIT)
    page.wait_for_function("document.getElementById('where').innerText.startsWith('step 3 of')", timeout=WAIT)
    page.go_back()
    page.click("#timeline-fold summary")
    page.click("#replay-link")
    page.wait_for_url(f"**/t/{TABLE}/replay*", timeout=WAIT)
    page.wait_for_function("document.getElementById('where').innerText.startsWith('step 8 of 8')", timeout=WAIT)
    ctx.close()


def test_a_running_game_loads_its_newest_events_and_an_earlier_game_is_chosen(server, browser):
    # DINO 2 speed round for two (three cards each): Ben's SWITCH HANDS as his last card makes Ana win
    t = "replay-games"
    setup = {"type": "setup", "rules": "dino2", "players": ["Ana", "Ben"], "dealer": 0, "options": {"speed_round": True}}
    round_one = [setup, {"type": "flip", "card": "orange-candy"},
                 {"type": "play", "player": 1, "cards": ["orange-girl"]}, {"type": "play", "player": 0, "cards": ["orange-shoe"]},
                 {"type": "play", "player": 1, "cards": ["orange-spork"]}, {"type": "play", "player": 0, "cards": ["orange-chill"]},
                 {"type": "play", "player": 1, "cards": ["orange-switch-hands"]}]
    for e in round_one:
        assert server.post(e, table=t)["verdict"]["accepted"], e
    assert server.state(t)["winner"] == 0
    for e in (setup, {"type": "flip", "card": "red-candy"}):          # another game at the same table
        assert server.post(e, table=t)["verdict"]["accepted"], e

    ctx, page = open_page(browser, f"{server.base}/t/{t}/replay")
    # the latest game, still running: its two steps (timeline events 8 and 9), and a way to load more
    page.wait_for_function("document.getElementById('where').innerText.startsWith('step 2 of 2')", timeout=WAIT)
    assert "event 9" in page.inner_text("#where") and page.is_visible("#live-note")
    assert page.input_value("#game") == "2" and page.is_visible("#game-pick")
    assert server.post({"type": "play", "player": 1, "cards": ["red-shoe"]}, table=t)["verdict"]["accepted"]
    page.click("#reload")
    page.wait_for_function("document.getElementById('where').innerText.startsWith('step 3 of 3')", timeout=WAIT)
    assert "Ben plays red-shoe" in page.inner_text("#ruling")
    # the first game, chosen from the picker: it ends with Ana's win and is not running
    page.select_option("#game", "1")
    page.wait_for_function("document.getElementById('where').innerText.startsWith('step 7 of 7')", timeout=WAIT)
    ref = Game.replay(round_one).to_dict()
    assert "wins" in page.inner_text("#ruling") and page.inner_text("#turn") == "Ana wins!"
    assert shown(page)["counts"] == [p["hand_count"] for p in ref["players"]] == [0, 1]
    assert page.is_hidden("#live-note")
    assert not page.errors, page.errors
    ctx.close()
