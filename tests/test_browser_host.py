"""The host's evening in a real browser (issue 19): headless Chromium (/usr/bin/chromium) driven by
Playwright against a real `tableref serve`, at phone size (390x844) and at desktop size.

Every host tap is answered at the bottom of the screen at once and then with the verdict (naming the
player and the reason of a refusal); undo says what it undid; the host controls come from the rule
set's host actions (no typed JSON); a stale host token can be replaced; the lobby's table id, option
labels and default rule set; long names; the camera page and a lost connection in words; a whole
DINO 2 round and a whole snake-cup round from the buttons only. Screenshots of the host page of every
rule set go to docs/screenshots/ with TABLEREF_SCREENSHOTS=docs (else a temporary folder)."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import start_tableref

from chromium import needs_chromium  # noqa: E402

pytestmark = needs_chromium
TOKEN = "host-test-token-0123"
SHOTS = (Path(__file__).resolve().parent.parent / "docs" / "screenshots"
         if os.environ.get("TABLEREF_SCREENSHOTS") == "docs"
         else Path(tempfile.gettempdir()) / "tableref-screenshots")
WAIT = 20000          # ms: the machine may be busy; waits end as soon as the page is ready
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


class Server:
    def __init__(self, data: Path, *extra: str):
        self.proc, self.base, _ = start_tableref("serve", "--rules", "ono", "--players", "Ana,Ben,Cy",
                                                 "--data", str(data), "--host-token", TOKEN, *extra)

    def post(self, event: dict, table: str = "main", token: str = TOKEN) -> dict:
        req = urllib.request.Request(f"{self.base}/api/tables/{table}/events", data=json.dumps(event).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def state(self, table: str = "main") -> dict:
        with urllib.request.urlopen(f"{self.base}/api/tables/{table}/state", timeout=10) as r:
            return json.load(r)

    def tables(self) -> list[str]:
        with urllib.request.urlopen(f"{self.base}/api/tables", timeout=10) as r:
            return [t["id"] for t in json.load(r)["tables"]]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve"))
    yield s
    s.stop()



def open_page(browser, url, size=PHONE, token=None):
    """A page at phone (touch) or desktop size; `token` is put in localStorage before any script runs."""
    phone = size == PHONE
    ctx = browser.new_context(viewport=size, device_scale_factor=2 if phone else 1, is_mobile=phone,
                              has_touch=phone, bypass_csp=True, accept_downloads=True)
    if token is not None:
        ctx.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1'); "
                            f"localStorage.setItem('tableref.host-token', {json.dumps(token)}); }}")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" and "401" not in m.text else None)
    page.goto(url)
    return ctx, page


def new_table(server, table, rules, players=("Ana", "Ben", "Cy"), **options):
    v = server.post({"type": "setup", "rules": rules, "players": list(players), "dealer": 0, "options": options},
                    table=table)
    assert v["verdict"]["accepted"], v


def host(browser, server, table, size=PHONE):
    ctx, page = open_page(browser, f"{server.base}/t/{table}", size, token=TOKEN)
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    sync(page, server, table)
    return ctx, page


def sync(page, server, table):
    """Waits until the page shows the table's latest state (the stream is pushed after each answer)."""
    n = server.state(table)["event_count"]
    page.wait_for_function(f"state && state.event_count === {n}", timeout=WAIT)


def pick(page, *cards):
    for card in cards:
        color = page.evaluate(f"Cards.info({json.dumps(card)}).color || 'wild'")
        page.click(f'#colorpicks button[data-color="{color}"]')
        page.click(f'#symbolpicks button[data-card="{card}"]')


def tap(page, selector) -> tuple[str, str]:
    """Taps a control and waits for its answer; returns (kind, text) of the answer line."""
    page.click(selector, timeout=WAIT)
    page.wait_for_function("!document.getElementById('result').classList.contains('pending')", timeout=WAIT)
    el = page.query_selector("#result")
    kind = next(k for k in ("ok", "bad", "info") if k in el.get_attribute("class").split())
    return kind, el.inner_text()


def ok(page, server, table, selector) -> str:
    kind, text = tap(page, selector)
    assert kind == "ok", f"{selector}: {text}"
    sync(page, server, table)
    return text


def visible_actions(page) -> set[str]:
    return set(page.eval_on_selector_all("#actions button[data-action], #actions-anytime button[data-action]",
                                         "bs => bs.map(b => b.dataset.action)"))


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


# -- 1. every tap answered where the thumb is ------------------------------------------------------------
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_tap_is_answered_at_once_under_the_thumb_and_names_the_refused_player(server, browser, size):
    table = "feedback-" + ("phone" if size == PHONE else "desk")
    new_table(server, table, "ono")
    server.post({"type": "flip", "card": "red-5"}, table=table)
    ctx, page = host(browser, server, table, size)
    before = server.state(table)
    assert before["current_player"] == 1

    # A refused play: the answer line changes within 100 ms of the tap (measured in the page), sits
    # in the bottom part of the screen, and then names the player and the referee's reason.
    pick(page, "blue-9")
    page.evaluate("""() => {
        window.__tap = null; window.__answer = null;
        document.addEventListener('click', () => { window.__tap = performance.now(); }, {capture: true, once: true});
        new MutationObserver((m, o) => { if (window.__tap !== null && window.__answer === null) {
            window.__answer = performance.now(); o.disconnect(); } })
          .observe(document.getElementById('result'), {childList: true, characterData: true, subtree: true, attributes: true});
    }""")
    kind, text = tap(page, "#act-play")
    latency = page.evaluate("window.__answer - window.__tap")
    assert latency < 100, f"the tap was answered after {latency:.0f} ms"
    assert kind == "bad"
    assert "Ben" in text and "blue-9" in text and "not allowed" in text
    box = page.query_selector("#result").bounding_box()
    assert box["y"] >= size["height"] * 0.6 and box["y"] + box["height"] <= size["height"] + 1, box
    page.wait_for_selector("#verdict.rejected", timeout=WAIT)
    assert "Ben" in page.inner_text("#verdict")
    assert server.state(table)["event_count"] == before["event_count"]     # nothing changed

    # The next good tap replaces the refusal: in the answer line and in the banner.
    pick(page, "red-7")
    text = ok(page, server, table, "#act-play")
    assert "Ben plays red-7" in text
    page.wait_for_selector("#verdict:not(.rejected)", timeout=WAIT)
    assert "NOT ALLOWED" not in page.inner_text("#verdict")

    # One-tap undo says beforehand and afterwards what it takes back.
    assert "Ben plays red-7" in page.inner_text("#undo-what")
    text = ok(page, server, table, "#do-undo")
    assert text.startswith("✓ undone:") and "Ben plays red-7" in text
    assert server.state(table)["event_count"] == before["event_count"]
    assert server.state(table)["top_card"] == "red-5"

    # A tap that cannot be sent yet says what is missing, also at once.
    page.click("#clear-picked")
    kind, text = tap(page, "#act-play")
    assert kind == "bad" and "pick the card first" in text
    assert not page.errors, page.errors
    ctx.close()


# -- 2. host controls from the rule set ------------------------------------------------------------------
def test_rules_declare_their_host_actions_as_data(server):
    with urllib.request.urlopen(f"{server.base}/api/rules", timeout=10) as r:
        rules = {x["id"]: x for x in json.load(r)["rules"]}
    actions = {rid: {a["id"]: a for a in r["host_actions"]} for rid, r in rules.items()}
    assert "challenge" in actions["regulation"]
    for rid in ("ono", "prison", "dino2", "snake-cup", "snake-cup-rainbow"):
        assert not any(a["event"] == "challenge" for a in actions[rid].values()), rid
    assert {"fuego", "give-card", "give-none", "more", "color"} <= set(actions["dino2"])
    assert actions["dino2"]["fuego"]["inputs"][1]["choices"][1]["value"] == "draw"
    assert {"turn", "crosses"} <= set(actions["snake-cup"])
    assert actions["prison"]["jump-in"]["event"] == "play"
    assert any(i["kind"] == "flag" and i["field"] == "announced" for i in actions["prison"]["jump-in"]["inputs"])


def test_host_controls_follow_the_rule_set_with_no_json_in_the_way(server, browser):
    new_table(server, "h-ono", "ono")
    new_table(server, "h-prison", "prison")
    new_table(server, "h-regulation", "regulation", players=("Ana", "Ben"))
    new_table(server, "h-dino2", "dino2")
    new_table(server, "h-snake-cup", "snake-cup")
    new_table(server, "h-snake-cup-rainbow", "snake-cup-rainbow")
    for t, card in (("h-ono", "red-5"), ("h-prison", "red-5"), ("h-regulation", "red-5"), ("h-dino2", "red-candy")):
        server.post({"type": "flip", "card": card}, table=t)
    seen = {}
    for rules in ("ono", "prison", "regulation", "dino2", "snake-cup", "snake-cup-rainbow"):
        ctx, page = host(browser, server, f"h-{rules}")
        assert page.is_hidden("#json")                         # folded away, under "for developers"
        seen[rules] = visible_actions(page)
        assert not any(a == "challenge" for a in seen[rules]), (rules, seen[rules])
        shot(page, f"host-{rules}.png")
        ctx.close()
    assert {"play", "draw", "pass", "call"} <= seen["ono"]
    assert {"play", "jump-in", "call"} <= seen["prison"]
    assert {"play", "draw", "show-trio", "show-captains", "cheating"} <= seen["dino2"] and "call" not in seen["dino2"]
    assert seen["snake-cup"] == {"turn"}
    assert {"play", "draw"} <= seen["snake-cup-rainbow"]

    # Regulation: the challenge shows when a wild-draw4 waits for it, and only then.
    server.post({"type": "play", "player": 1, "cards": ["wild-draw4"], "color": "blue"}, table="h-regulation")
    ctx, page = host(browser, server, "h-regulation")
    assert "challenge" in visible_actions(page)
    shot(page, "host-regulation-challenge.png")
    ok(page, server, "h-regulation", "#act-challenge")
    assert server.state("h-regulation")["phase"] == "reveal"
    page.wait_for_selector("#act-answer", timeout=WAIT)
    assert page.input_value("#who") == "1"                  # the wild-draw4's player shows the hand
    ctx.close()


def test_prison_double_and_jump_in_from_the_buttons(server, browser):
    new_table(server, "prison-jump", "prison")
    server.post({"type": "flip", "card": "red-5"}, table="prison-jump")
    ctx, page = host(browser, server, "prison-jump")
    first = server.state("prison-jump")["current_player"]
    pick(page, "blue-5", "green-5")                           # a double: both cards in the tray
    assert page.eval_on_selector_all("#picked .card", "cs => cs.map(c => c.dataset.card)") == ["blue-5", "green-5"]
    ok(page, server, "prison-jump", "#act-play")
    s = server.state("prison-jump")
    assert s["top_card"] == "green-5" and s["players"][first]["hand_count"] == 8
    # Someone else jumps in on the green-5 with the other green-5, saying "jump in".
    other = next(i for i in range(3) if i not in (first, s["current_player"]))
    pick(page, "green-5")
    page.select_option("#in-jump-in-player", str(other))
    assert page.is_checked("#in-jump-in-announced")
    text = ok(page, server, "prison-jump", "#act-jump-in")
    assert server.state("prison-jump")["players"][other]["hand_count"] == 9, text
    ctx.close()


def dealt(server, table):
    return [p["hand_count"] for p in server.state(table)["players"]]


def test_a_whole_dino2_round_from_the_lobby_and_the_host_buttons(server, browser):
    ctx, page = open_page(browser, f"{server.base}/", token=TOKEN)
    page.wait_for_selector("#rules option", state="attached", timeout=WAIT)
    page.fill("#tid", "dino-night")
    page.select_option("#rules", "dino2")
    page.fill("#players", "Ana, Ben, Cy")
    page.click("button[type=submit]")
    page.wait_for_url("**/t/dino-night", timeout=WAIT)
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    t = "dino-night"
    sync(page, server, t)
    assert dealt(server, t) == [5, 5, 5]

    pick(page, "red-candy"); ok(page, server, t, "#act-flip")
    pick(page, "red-fuego"); ok(page, server, t, "#act-play")                       # Ben
    shot(page, "host-dino2-fuego.png")
    text = ok(page, server, t, "#act-fuego-draw")                                   # FUEGO: everyone draws
    assert "everyone else draw one" in text
    assert page.input_value("#who") == "2" and page.input_value("#in-draw-count") == "1"
    ok(page, server, t, "#act-draw")                                                # Cy pays
    page.select_option("#who", "0"); ok(page, server, t, "#act-draw")              # Ana pays, out of turn
    pick(page, "red-place2"); ok(page, server, t, "#act-play")                      # Cy: PLACE 2 ...
    pick(page, "orange-give", "orange-candy")
    shot(page, "host-dino2-place2.png")
    ok(page, server, t, "#act-more")                                                # ... its two cards
    assert server.state(t)["phase"] == "give"
    pick(page, "blue-shoe")
    text = ok(page, server, t, "#act-give-card")                                    # GIVE: a known card
    assert "Cy gives 1 card (blue-shoe) to Ana" in text
    assert dealt(server, t) == [7, 4, 2]
    pick(page, "orange-switch-hands"); text = ok(page, server, t, "#act-play")     # Ana: SWITCH HANDS
    assert "Ana and Ben switch hands" in text and dealt(server, t) == [4, 6, 2]
    pick(page, "orange-make-it-rain"); ok(page, server, t, "#act-play")            # Ben: MAKE IT RAIN
    assert server.state(t)["more_allowed"] == 2
    pick(page, "orange-shoe", "orange-chill"); ok(page, server, t, "#act-more")
    pick(page, "dino"); ok(page, server, t, "#act-play")                            # Cy: DINO, names blue
    text = ok(page, server, t, "#act-color-blue")
    assert "Cy names blue" in text
    page.select_option("#who", "0"); page.fill("#in-draw-count", "5")
    ok(page, server, t, "#act-draw")                                                # Ana takes the five
    pick(page, "blue-girl"); ok(page, server, t, "#act-play")                       # Ben
    pick(page, "blue-candy"); text = ok(page, server, t, "#act-play")               # Cy's last card
    assert "Cy wins" in text
    s = server.state(t)
    assert s["phase"] == "over" and s["winner"] == 2
    page.wait_for_selector("#new-game-row:not([hidden])", timeout=WAIT)
    shot(page, "host-dino2-over.png")

    # The timeline has every event with its words, and is saved as a file: at the end of the round it
    # is open on the host page by itself, with the replay a tap away.
    assert page.evaluate("document.getElementById('timeline-fold').open")
    assert page.is_visible("#host-replay-link")
    page.wait_for_function("document.querySelectorAll('#timeline li').length === %d" % s["event_count"], timeout=WAIT)
    with page.expect_download(timeout=WAIT) as d:
        page.click("#export")
    saved = Path(d.value.path()).read_text()
    assert "Cy plays blue-candy; Cy wins" in saved and "Ana and Ben switch hands" in saved
    assert '{"type": "flip", "card": "red-candy"}' in saved or '"card":"red-candy"' in saved
    assert not page.errors, page.errors
    ctx.close()


def test_a_whole_snake_cup_round_from_the_lobby_and_the_host_buttons(server, browser):
    ctx, page = open_page(browser, f"{server.base}/", size=DESKTOP, token=TOKEN)
    page.wait_for_selector("#rules option", state="attached", timeout=WAIT)
    page.fill("#tid", "snake-night")
    page.select_option("#rules", "snake-cup")
    page.fill("#opt-coins", "2")
    page.select_option("#opt-crosses_short", "ask")
    page.fill("#players", "Ana, Ben, Cy")
    page.click("button[type=submit]")
    page.wait_for_url("**/t/snake-night", timeout=WAIT)
    t = "snake-night"
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    sync(page, server, t)
    assert server.state(t)["options"]["crosses_short"] == "ask"

    pick(page, "red-suns"); ok(page, server, t, "#act-turn")
    pick(page, "red-crosses"); ok(page, server, t, "#act-turn")
    page.wait_for_selector("#act-crosses-cup", timeout=WAIT)
    shot(page, "host-snake-cup-crosses.png")
    text = ok(page, server, t, "#act-crosses-cup")
    assert "Cy is out" in text
    pick(page, "snake"); ok(page, server, t, "#act-turn")
    pick(page, "orange-rain"); ok(page, server, t, "#act-turn")
    pick(page, "red-orchids"); text = ok(page, server, t, "#act-turn")
    assert "Ben wins with 6 coins" in text
    s = server.state(t)
    assert s["winner"] == 1 and [p["coins"] for p in s["players"]] == [0, 6, 0] and s["cup"] == 0
    assert not page.errors, page.errors
    ctx.close()


# -- 3. token recovery -------------------------------------------------------------------------------------
def test_host_page_says_the_token_is_refused_and_takes_a_new_one(server, browser):
    new_table(server, "token-host", "ono")
    before = server.state("token-host")
    ctx, page = open_page(browser, f"{server.base}/t/token-host", token="stale-token")
    page.wait_for_selector("#auth-note:not([hidden])", timeout=WAIT)
    assert "refuses" in page.inner_text("#auth-note")
    pick(page, "red-5")
    kind, text = tap(page, "#act-flip")
    assert kind == "bad" and "refused" in text
    assert server.state("token-host") == before
    # The host pastes the host link the server printed: the token in it replaces the stale one.
    page.fill("#token-input", f"{server.base}/t/main#token={TOKEN}")
    page.click("#auth-note button[type=submit]")
    page.wait_for_selector("#auth-note[hidden]", state="attached", timeout=WAIT)
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == TOKEN
    assert "replaces" in page.inner_text("#result")
    ok(page, server, "token-host", "#act-flip")
    assert server.state("token-host")["top_card"] == "red-5"
    ctx.close()


def test_a_host_link_with_a_different_token_asks_before_replacing_it(server, browser):
    # issue 17: a #token= link must not silently take the place of the host's own token
    ctx, page = open_page(browser, f"{server.base}/t/main#token={TOKEN}", token="an-older-token-0123")
    page.wait_for_selector("#token-note:not([hidden])", timeout=WAIT)
    assert "different host token" in page.inner_text("#token-note")
    assert "token" not in page.url                                   # out of the address at once
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == "an-older-token-0123"
    page.click("#token-keep")                                        # keep: nothing changes
    page.wait_for_function("document.getElementById('token-note').textContent.includes('Kept')", timeout=WAIT)
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == "an-older-token-0123"
    ctx.close()
    ctx, page = open_page(browser, f"{server.base}/t/main#token={TOKEN}", token="an-older-token-0123")
    page.wait_for_selector("#token-use-link", timeout=WAIT)
    page.click("#token-use-link")                                    # use: stored, and the host page works
    page.wait_for_function("document.getElementById('token-note').textContent.includes('Using')", timeout=WAIT)
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == TOKEN
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    ctx.close()
    # The same link when the browser already holds that token says nothing.
    ctx, page = open_page(browser, f"{server.base}/t/main#token={TOKEN}", token=TOKEN)
    page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    assert page.is_hidden("#token-note")
    ctx.close()


def test_lobby_says_the_stored_token_is_refused_and_takes_a_new_one(server, browser):
    ctx, page = open_page(browser, f"{server.base}/", token="stale-token")
    page.wait_for_selector("#token-row:not([hidden])", timeout=WAIT)
    page.wait_for_selector("#token-why:not([hidden])", timeout=WAIT)
    assert "refused" in page.inner_text("#token-why")
    page.fill("#tid", "after-restart")
    page.fill("#token", TOKEN)
    page.click("button[type=submit]")
    page.wait_for_url("**/t/after-restart", timeout=WAIT)
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == TOKEN
    assert "after-restart" in server.tables()
    ctx.close()


# -- 4. the lobby ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_lobby_refuses_a_bad_table_id_offers_ono_and_readable_options(server, browser, size):
    ctx, page = open_page(browser, f"{server.base}/", size=size, token=TOKEN)
    page.wait_for_selector("#options .opt", timeout=WAIT)
    assert page.input_value("#rules") == "ono"
    # Chromium compiles the pattern (with the v flag): an invalid one is ignored and logged.
    assert not any("pattern" in e.lower() for e in page.errors), page.errors
    for bad in ("Kitchen", "no spaces", "-dash", "ümlaut", "a_b"):
        page.fill("#tid", bad)
        assert not page.evaluate("document.getElementById('tid').checkValidity()"), bad
    page.fill("#tid", "a" * 41)
    assert len(page.input_value("#tid")) == 40            # the field takes no more than an id can hold
    for good in ("kitchen", "table-2", "a" * 40):
        page.fill("#tid", good)
        assert page.evaluate("document.getElementById('tid').checkValidity()"), good
    # A bad id is refused by the form: nothing is posted, no table appears.
    tables = server.tables()
    page.fill("#tid", "Bad Id!")
    page.click("button[type=submit]")
    assert page.evaluate("document.getElementById('tid').validity.patternMismatch")
    assert page.inner_text("#result") == ""           # the form never reached create(): nothing was posted
    assert server.tables() == tables
    text = page.inner_text("#options")
    assert "Play for points (target)" in text and "points_target" not in text
    page.select_option("#rules", "prison")
    page.wait_for_selector("#options :text('Penalty for a silent jump-in (cards)')", timeout=WAIT)
    assert "_" not in " ".join(page.eval_on_selector_all("#options .opt b", "bs => bs.map(b => b.textContent)"))
    ctx.close()


# -- 5. long names -----------------------------------------------------------------------------------------
LONG = "Maximiliana Wolkenstein-Rabenhorst-Oberg"     # 40 characters


def test_long_names_stay_inside_the_phone_view_and_the_overlay(server, browser):
    assert len(LONG) == 40
    new_table(server, "long-names", "ono", players=(LONG, "Ben", "Cy"))
    server.post({"type": "flip", "card": "red-5"}, table="long-names")
    server.post({"type": "play", "player": 1, "cards": ["red-7"]}, table="long-names")
    server.post({"type": "play", "player": 2, "cards": ["red-8"]}, table="long-names")   # LONG's turn
    for token in (None, TOKEN):
        ctx, page = open_page(browser, f"{server.base}/t/long-names", token=token)
        page.wait_for_selector("#players li", timeout=WAIT)
        page.wait_for_function("document.getElementById('turn').textContent.includes('Maximiliana')", timeout=WAIT)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide at 390"
        for sel in ("#turn", "#players li", "#verdict"):
            box = page.query_selector(sel).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, (sel, box)
        if token:
            page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            shot(page, "host-long-name.png")
        ctx.close()
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.goto(f"{server.base}/t/long-names/overlay")
    page.wait_for_selector("#players li", timeout=WAIT)
    panel = page.query_selector("#panel").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 1920, panel
    chip = page.query_selector("#players li").bounding_box()
    assert chip["width"] <= 400, chip
    assert page.evaluate("document.querySelector('#players li .name').scrollWidth > "
                         "document.querySelector('#players li .name').clientWidth")   # cut with an ellipsis
    ctx.close()


# -- 6. no camera, no server -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_camera_page_says_what_to_check_instead_of_a_broken_image(server, browser, size):
    ctx, page = open_page(browser, f"{server.base}/t/main/camera", size=size)
    page.wait_for_selector("#camera-missing:not([hidden])", timeout=WAIT)
    page.wait_for_function("document.getElementById('missing-title').textContent.includes('No camera')", timeout=WAIT)
    assert page.is_hidden("#frame")
    ctx.close()
    # A camera that is there but not answering (as GET .../camera reports it while it retries).
    ctx, page = open_page(browser, "about:blank", size=size)
    page.route("**/api/tables/main/camera", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({"state": "reconnecting", "message": "camera 1 is not answering", "source": "1",
                         "has_frame": False, "events_sent": 0})))
    page.goto(f"{server.base}/t/main/camera")
    page.wait_for_function("document.getElementById('missing-source').textContent.includes('1')", timeout=WAIT)
    text = page.text_content("#camera-missing")
    for words in ("No camera: here is what to check", "Plugged in", "Another app using it", "index or address",
                  "camera 1 is not answering"):
        assert words in text, words
    assert page.is_hidden("#frame")
    shot(page, f"camera-missing-{'phone' if size == PHONE else 'desktop'}.png")
    ctx.close()


def test_phones_say_connection_lost_in_words_when_the_server_stops(browser, tmp_path):
    s = Server(tmp_path)
    try:
        ctx, page = open_page(browser, f"{s.base}/t/main")
        page.wait_for_selector("#link.on", timeout=WAIT)
        assert page.is_hidden("#offline")
    finally:
        s.stop()
    page.wait_for_selector("#offline:not([hidden])", timeout=WAIT)
    assert "Connection lost" in page.inner_text("#offline") and "retrying" in page.inner_text("#offline")
    ctx.close()


# -- issue 17: every tap is a command with an event_id and the version it was made against -------------
def test_host_taps_carry_an_event_id_and_a_tap_on_a_moved_on_table_is_refused(server, browser):
    table = "fresh-taps"
    new_table(server, table, "ono")
    server.post({"type": "flip", "card": "red-5"}, table=table)
    ctx, page = host(browser, server, table)
    pick(page, "red-7")
    ok(page, server, table, "#act-play")
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}/events", timeout=10) as r:
        last = json.load(r)["events"][-1]
    assert last["type"] == "play" and len(last["event_id"]) > 24            # session-seq, not stored otherwise
    assert not {"version", "session", "sent_ms", "ttl_ms"} & set(last)
    # Another host (the camera, a second phone) changes the table; this page still shows the old
    # version when its undo is tapped: refused, with what came first, nothing changed.
    # (the page's next command is made against the version it shows now, as if its stream lagged)
    page.evaluate("window.__v = knownVersion; const w = Command.wrap.bind(Command); "
                  "Command.wrap = (e, v) => w(e, window.__v)")
    server.post({"type": "draw", "player": "Cy", "count": 1}, table=table)
    n = server.state(table)["event_count"]
    kind, text = tap(page, "#do-undo")
    assert kind == "bad" and "moved on" in text and "Cy draws" in text, text
    assert server.state(table)["event_count"] == n
    assert not [e for e in page.errors if "409" not in e], page.errors
    ctx.close()
