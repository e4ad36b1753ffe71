"""DINO 2, PLACE 2: whom the placed cards reach (issue 18), through `tableref replay --json`.

The text (shared/seeds/dino2.txt), PLACE 2: "The user can place any two additional cards on top
of it. If these cards have effects, all of them will affect the next player(s) in the order that
they are placed." The user of a PLACE 2 is never its own "next player": docs/rules/dino2.md,
interpretation 10, says whom each placed effect reaches with 2, 3 and more players.

Seats: Ana (0), Ben (1), Cy (2), Dee (3) clockwise; the dealer is the last seat, so Ana starts,
holds five cards and puts down PLACE 2 and two more (she holds two afterwards).
"""
import itertools

import pytest

from helpers import replay_json, replayed_state

NAMES = ("Ana", "Ben", "Cy", "Dee")


def setup(n, **options):
    return {"type": "setup", "rules": "dino2", "players": list(NAMES[:n]), "dealer": n - 1, "options": options}


def flip(card):
    return {"type": "flip", "card": card}


def play(player, *cards, **extra):
    return {"type": "play", "player": player, "cards": list(cards), **extra}


def give(player, count=1):
    return {"type": "give", "player": player, "count": count}


# -- the cases the issue names, worked out by hand ----------------------------------------------------
def test_two_players_dino_then_draw3_both_reach_the_opponent():
    """'all of them will affect the next player(s)': with two players the next player of both cards
    is Ben. DINO: Ben draws 5 and is skipped; DRAW 3: Ben draws 3 more. Ben's turn is skipped, so
    Ana plays again; Ana owes nothing."""
    s = replayed_state(setup(2), flip("red-candy"), play("Ana", "red-place2", "dino", "red-draw3", color="blue"))
    assert s["owed"] == [0, 8]
    assert s["current_player"] == 0 and s["active_color"] == "blue" and s["phase"] == "play"


def test_three_players_skip2_then_draw3_comes_round_to_the_first_other_player():
    """SKIP 2 skips Ben and Cy; the DRAW 3's next player is not Ana (the user) but, the walk going on
    round the table, Ben. Every skip is used, so Ana plays again."""
    s = replayed_state(setup(3), flip("red-candy"), play("Ana", "red-place2", "red-skip2", "red-draw3"))
    assert s["owed"] == [0, 3, 0] and s["current_player"] == 0


def test_two_players_skip_then_give_gives_to_the_opponent():
    """SKIP skips Ben; the GIVE's next player is Ben again (never Ana herself)."""
    data = replay_json([setup(2), flip("red-candy"), play("Ana", "red-place2", "red-skip", "red-give")])
    s = data["state"]
    assert s["phase"] == "give" and s["give_to"] == 1
    s = replayed_state(setup(2), flip("red-candy"), play("Ana", "red-place2", "red-skip", "red-give"), give("Ana"))
    assert [p["hand_count"] for p in s["players"]] == [1, 6] and s["current_player"] == 0


def test_four_players_skip_then_draw3_reaches_the_player_after_the_skipped_one():
    """SKIP: Ben is skipped; DRAW 3: the next player is Cy, who draws three and then plays (the
    starred rule: the victim of a DRAW 3 is not skipped)."""
    s = replayed_state(setup(4), flip("red-candy"), play("Ana", "red-place2", "red-skip", "red-draw3"))
    assert s["owed"] == [0, 0, 3, 0] and s["current_player"] == 2


def test_four_players_skip_then_reverse_turns_play_round_at_the_user():
    """SKIP: Ben is skipped. REVERSE: 'The flow of the game changes to the opposite direction', so
    the turn goes from Ana the other way round: Dee. (Ben, just skipped, does not play at once.)"""
    s = replayed_state(setup(4), flip("red-candy"), play("Ana", "red-place2", "red-skip", "red-reverse"))
    assert s["current_player"] == 3 and s["direction"] == "counterclockwise"
    s = replayed_state(setup(4), flip("red-candy"), play("Ana", "red-place2", "red-skip2", "orange-reverse"))
    assert s["current_player"] == 3


def test_four_players_reverse_then_skip_skips_the_players_on_the_other_side():
    s = replayed_state(setup(4), flip("red-candy"), play("Ana", "red-place2", "red-reverse", "red-skip"))
    assert s["current_player"] == 2          # Dee skipped, Cy plays


def test_three_players_skip2_then_skip_uses_every_skip():
    """Ben, Cy and then Ben again are skipped: the turn goes to Cy (the user is passed while a skip
    is still to be used)."""
    s = replayed_state(setup(3), flip("red-candy"), play("Ana", "red-place2", "red-skip2", "orange-skip"))
    assert s["current_player"] == 2


def test_two_players_switch_hands_after_a_skip_switches_with_the_opponent():
    s = replayed_state(setup(2), flip("orange-candy"),
                       play("Ana", "orange-place2", "orange-skip", "orange-switch-hands"))
    assert [p["hand_count"] for p in s["players"]] == [5, 2] and s["current_player"] == 0


# -- every pair of placeable effects with 2, 3 and 4 players --------------------------------------------
COLORS = ("red", "orange", "green", "blue")
WARM, COOL = ("red", "orange"), ("blue", "green")
EFFECTS = {       # effect -> (card id, colour or None for rainbow) that can carry it
    "skip": [(f"{c}-skip", c) for c in COLORS],
    "skip2": [(f"{c}-skip2", c) for c in COLORS],
    "draw3": [(f"{c}-draw3", c) for c in COLORS],
    "give": [(f"{c}-give", c) for c in COLORS],
    "reverse": [(f"{c}-reverse", c) for c in COLORS] + [("rainbow-reverse", None)],
    "skip-draw2": [(f"{c}-skip-draw2", c) for c in ("red", "orange", "blue")],
    "double": [("orange-double", "orange"), ("green-double", "green")],
    "draw7": [("green-draw7", "green")],
    "dino": [("dino", None)],
    "nathan": [("nathan", None)],
    "fuego": [("red-fuego", "red")],
    "ice": [("blue-ice", "blue")],
    "switch-hands": [("orange-switch-hands", "orange")],
}


def may_go_on(card, below):
    """FUEGO 'can only be played on a red or orange card', ICE 'on a blue or green card' (also as
    extra cards: the card right below); on a NATHAN 'the next player can place any color'."""
    cid, _ = card
    below_id, below_color = below
    if below_id == "nathan":
        return True
    if cid == "red-fuego":
        return below_color in WARM
    if cid == "blue-ice":
        return below_color in COOL
    return True


def choose_cards(first, second):
    """(PLACE 2 colour, first card, second card) putting the two effects down, or None."""
    for a in EFFECTS[first]:
        for b in EFFECTS[second]:
            if a[0] == b[0] or not may_go_on(b, a):
                continue
            for color in COLORS:
                if may_go_on(a, (f"{color}-place2", color)):
                    return color, a, b
    return None


def expected(n, cards):
    """Worked out from the rule texts as docs/rules/dino2.md, interpretation 10, reads them: walk
    round the table from the user (seat 0) in the direction of play; a seat is passed once for each
    time this turn's cards have skipped it; the user is stepped over (never their own next player);
    the turn goes to the first seat of that walk not passed, the user only once every skip is used."""
    hands = [5] * n
    hands[0] = 2                     # Ana put down PLACE 2 and two more
    owed = [0] * n
    skipped = [0] * n
    direction = 1
    gives = []
    held_after = [3, 2]              # Ana's cards right after placing the first and the second extra

    def walk(is_turn=False, user_counts=False):
        left = skipped[:]
        seat = 0
        while True:
            seat = (seat + direction) % n
            if left[seat]:
                left[seat] -= 1
            elif seat != 0 or user_counts or (is_turn and not any(left)):
                return seat

    for i, (cid, _) in enumerate(cards):
        kind = next(k for k, options in EFFECTS.items() if any(c == cid for c, _ in options))
        target = walk()
        if kind == "skip":
            skipped[target] += 1
        elif kind == "skip2":
            skipped[target] += 1
            skipped[walk()] += 1
        elif kind in ("draw3", "draw7"):
            owed[target] += 3 if kind == "draw3" else 7
        elif kind in ("skip-draw2", "dino"):
            owed[target] += 2 if kind == "skip-draw2" else 5
            skipped[target] += 1
        elif kind == "double":
            owed[target] += hands[target] + owed[target]
        elif kind == "reverse":
            direction = -direction
        elif kind == "give":
            if hands[0]:
                hands[0] -= 1
                hands[target] += 1
                gives.append(target)
        elif kind == "switch-hands":
            hands[0], hands[target] = hands[target], hands[0]
        elif kind == "fuego":            # an extra card of a PLACE 2: everyone else draws one
            for seat in range(1, n):
                owed[seat] += 1
        elif kind == "ice":              # option ice_wraps (default): the count goes round, the user's seat too
            for _ in range(held_after[i]):
                skipped[walk(user_counts=True)] += 1
        # nathan: "used with a PLACE 2 ... the user does not have to draw any cards"
    winner = next((s for s in range(n) if hands[s] == 0 and owed[s] == 0), None)
    named = any(color is None for _, color in cards)
    color = "green" if named else cards[-1][1]
    return {"owed": owed, "hands": hands, "gives": gives, "winner": winner,
            "turn": None if winner is not None else walk(is_turn=True), "color": color,
            "direction": "clockwise" if direction == 1 else "counterclockwise"}


PAIRS = [(a, b) for a, b in itertools.product(EFFECTS, repeat=2)
         if not (a == b and len(EFFECTS[a]) == 1)]      # one copy in the deck: never twice in a turn


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("first,second", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_every_pair_of_placed_effects(n, first, second):
    chosen = choose_cards(first, second)
    if chosen is None:
        # FUEGO on a DINO, ICE on a FUEGO ...: the text's own placement rule refuses the pair
        a, b = EFFECTS[first][0], EFFECTS[second][0]
        extra = {"color": "green"} if a[1] is None or b[1] is None else {}
        data = replay_json([setup(n), flip("red-candy"), play("Ana", "red-place2", a[0], b[0], **extra)])
        assert not data["verdicts"][-1]["accepted"]
        assert "can only go on" in data["verdicts"][-1]["reason"]
        return
    color, a, b = chosen
    want = expected(n, [a, b])
    extra = {"color": "green"} if a[1] is None or b[1] is None else {}
    events = [setup(n), flip(f"{color}-candy"), play("Ana", f"{color}-place2", a[0], b[0], **extra)]
    events += [give("Ana") for _ in want["gives"]]
    data = replay_json(events)
    rejected = [v for v in data["verdicts"] if not v["accepted"]]
    assert not rejected, rejected
    s = data["state"]
    # the user is never reached by the cards she placed
    assert s["owed"][0] == 0
    assert s["owed"] == want["owed"]
    assert [p["hand_count"] for p in s["players"]] == want["hands"]
    assert s["winner"] == want["winner"]
    if want["winner"] is None:
        assert s["phase"] == "play" and s["current_player"] == want["turn"]
    assert s["active_color"] == want["color"] and s["direction"] == want["direction"]


def test_the_gives_reach_the_next_player_never_the_user():
    # two players: both GIVEs go to Ben, and Ana, giving her last two cards away, wins
    data = replay_json([setup(2), flip("red-candy"), play("Ana", "red-place2", "red-give", "orange-give")])
    assert data["state"]["give_to"] == 1
    s = replayed_state(setup(2), flip("red-candy"), play("Ana", "red-place2", "red-give", "orange-give"),
                       give("Ana"), give("Ana"))
    assert s["winner"] == 0 and [p["hand_count"] for p in s["players"]] == [0, 7]


def test_the_first_cases_also_hold_in_a_separate_tableref_process():
    s = replayed_state(setup(2), flip("red-candy"), play("Ana", "red-place2", "dino", "red-draw3", color="blue"),
                       subprocess_run=True)
    assert s["owed"] == [0, 8]
