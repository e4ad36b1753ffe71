"""TableState's bookkeeping of cards it has seen."""
import pytest

from referee import Illegal, get_rules


def dealt(players=("Ana", "Ben")):
    return get_rules("ono").start({"type": "setup", "rules": "ono", "players": list(players)})


def test_a_fully_known_hand_cannot_play_a_card_it_does_not_hold():
    st = dealt()
    st.hand_counts[0] = 2
    st.reveal(0, ["red-1", "blue-2"])
    st.check_in_hand(0, ["red-1"])
    with pytest.raises(Illegal, match="known to be blue-2, red-1"):
        st.check_in_hand(0, ["green-3"])


def test_a_partly_known_hand_may_hold_unknown_cards():
    st = dealt()
    st.hand_counts[0] = 2
    st.reveal(0, ["red-1", "blue-2"])
    st.take(0, 1)                      # one unknown card joins the two known ones
    st.check_in_hand(0, ["green-3"])
    with pytest.raises(Illegal):
        st.check_in_hand(0, ["green-3", "yellow-4"])


def test_known_cards_travel_with_a_swapped_hand_and_are_forgotten_when_played():
    st = dealt()
    st.hand_counts[0] = 1
    st.reveal(0, ["red-1"])
    st.swap_hands(0, 1)
    assert st.known[1] == {"red-1": 1} and st.known[0] == {}
    st.discard.append("red-5")
    st.play_from_hand(1, ["red-1"])
    assert st.known[1] == {} and st.hand_counts[1] == 0 and st.top == "red-1"


def test_the_draw_pile_is_refilled_from_the_discards_under_the_top_card():
    st = dealt()
    st.discard = ["red-1", "red-2", "red-3"]
    st.draw_count = 1
    st.take(0, 2)
    assert (st.draw_count, st.discard, st.hand_counts[0]) == (1, ["red-3"], 9)
    assert ("reshuffle", 2) in st.effects
    with pytest.raises(Illegal, match="only 1 card is left"):
        st.take(0, 2)
