"""The host page's sections are folded by the moment (issue 19), in headless Chromium at phone size
(390x844) against a real `tableref serve`: at the setup the invitation and the controls are open; during
a turn the controls only; with regulation's +4 challenge pending the controls with the challenge
first; at the end of a round the timeline (its file and the replay) and no controls. A folded section
still opens with a tap, and a section the host opened stays open until the moment changes."""
from __future__ import annotations


import pytest
from chromium import needs_chromium
from test_browser_host import PHONE, TOKEN, WAIT, Server, new_table, open_page, shot, sync

pytestmark = needs_chromium
SECTIONS = ("now-fold", "invite-fold", "timeline-fold")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve"))
    yield s
    s.stop()



def host_page(browser, server, table):
    ctx, page = open_page(browser, f"{server.base}/t/{table}", PHONE, token=TOKEN)
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    sync(page, server, table)
    return ctx, page


def opened(page) -> set[str]:
    return {s for s in SECTIONS if page.evaluate(f"document.getElementById('{s}').open")}


def moment(page, server, table, name):
    sync(page, server, table)
    page.wait_for_function(f"document.body.dataset.moment === '{name}'", timeout=WAIT)


def test_sections_follow_setup_turn_challenge_and_a_pending_question(server, browser):
    t = "moments-reg"
    new_table(server, t, "regulation", players=("Ana", "Ben", "Cy", "Dee"))
    ctx, page = host_page(browser, server, t)
    # setup: no card turned up yet; the invitation and the first card's button are open
    moment(page, server, t, "setup")
    assert opened(page) == {"now-fold", "invite-fold"}
    assert page.is_visible("#qr") and page.is_visible("#act-flip")

    server.post({"type": "flip", "card": "red-5"}, table=t)
    moment(page, server, t, "turn")
    assert opened(page) == {"now-fold"}
    assert page.is_visible("#act-play") and not page.is_visible("#qr")
    # folded, not gone: the host opens the invitation, and it stays open through the turn's taps
    page.click("#invite-fold summary")
    assert page.is_visible("#qr")
    server.post({"type": "play", "player": 1, "cards": ["red-7"]}, table=t)
    sync(page, server, t)
    assert "invite-fold" in opened(page) and page.evaluate("document.body.dataset.moment") == "turn"

    # Cy plays a wild draw four naming blue: Dee may challenge it
    server.post({"type": "play", "player": 2, "cards": ["wild-draw4"], "color": "blue"}, table=t)
    moment(page, server, t, "challenge")
    assert opened(page) == {"now-fold"}
    assert page.is_visible("#act-challenge")
    assert "challenge" in page.inner_text("#moment-words")
    shot(page, "host-moment-challenge.png")
    # the challenge is answered (Dee draws four): back to a turn
    server.post({"type": "draw", "player": 3, "count": 4}, table=t)
    moment(page, server, t, "turn")
    assert not page.is_visible("#act-challenge")
    assert not page.errors, page.errors
    ctx.close()


def test_the_end_of_a_round_opens_the_timeline_and_folds_the_controls(server, browser):
    # DINO 2 speed round for two (three cards each): Ben's SWITCH HANDS as his last card makes Ana win
    t = "moments-end"
    new_table(server, t, "dino2", players=("Ana", "Ben"), speed_round=True)
    ctx, page = host_page(browser, server, t)
    moment(page, server, t, "setup")
    for e in ({"type": "flip", "card": "orange-candy"},
              {"type": "play", "player": 1, "cards": ["orange-girl"]}, {"type": "play", "player": 0, "cards": ["orange-shoe"]},
              {"type": "play", "player": 1, "cards": ["orange-spork"]}, {"type": "play", "player": 0, "cards": ["orange-chill"]}):
        assert server.post(e, table=t)["verdict"]["accepted"], e
    moment(page, server, t, "turn")
    assert opened(page) == {"now-fold"}
    server.post({"type": "play", "player": 1, "cards": ["orange-switch-hands"]}, table=t)
    assert server.state(t)["phase"] == "over"
    moment(page, server, t, "over")
    assert opened(page) == {"timeline-fold"}
    # what the end of a round needs is on screen: another game, the replay, the timeline's file
    for sel in ("#do-new-game", "#host-replay-link", "#export"):
        assert page.is_visible(sel), sel
    page.wait_for_function("document.querySelectorAll('#timeline li').length === 7", timeout=WAIT)
    shot(page, "host-moment-over.png")
    # another game with the same players: the setup moment again, controls and invitation open
    page.click("#do-new-game")
    page.wait_for_function("document.body.dataset.moment === 'setup'", timeout=WAIT)
    assert opened(page) == {"now-fold", "invite-fold"}
    assert not page.errors, page.errors
    ctx.close()
