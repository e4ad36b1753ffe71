"""`tableref rules`, `cards`, `replay` and `simulate`, run as a user runs them."""
import json
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def tableref(*args, check=True):
    result = subprocess.run([sys.executable, "-m", "web", *args], capture_output=True, text=True, cwd=ROOT)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_rules_lists_every_rule_set_with_options():
    data = json.loads(tableref("rules", "--json").stdout)
    ono = next(r for r in data["rules"] if r["id"] == "ono")
    assert ono["deck"] == "ono" and ono["hand_size"] == 7
    assert {o["name"]: o["default"] for o in ono["options"]}["points_target"] == 0
    assert "points_target" in tableref("rules").stdout


def test_cards_lists_the_ids_and_counts():
    data = json.loads(tableref("cards", "ono", "--json").stdout)
    counts = {c["id"]: c["count"] for c in data["cards"]}
    assert sum(counts.values()) == 112 == data["size"]
    assert counts["red-0"] == 1 and counts["red-7"] == 2 and counts["wild"] == 8
    assert tableref("cards", "tarot", check=False).returncode == 2


def test_replay_prints_verdicts_and_final_state_of_the_example_game():
    example = ROOT / "docs" / "examples" / "ono-game.jsonl"
    data = json.loads(tableref("replay", str(example), "--json").stdout)
    events = [json.loads(line) for line in example.read_text().splitlines() if line.strip()]
    assert len(data["verdicts"]) == len(events)
    rejected = [v for v in data["verdicts"] if not v["accepted"]]
    # the example contains exactly two illegal plays, both shown with their reason
    assert [v["type"] for v in rejected] == ["play", "play"]
    assert all(v["reason"] for v in rejected)
    state = data["state"]
    assert state["winner"] == 2 and state["phase"] == "over"
    text = tableref("replay", str(example)).stdout
    assert "winner: Cy" in text


def test_replay_exits_2_with_the_line_number_on_malformed_input(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "setup", "rules": "ono", "players": ["A", "B"]}\n\n{"type": "play", "player": 1\n')
    result = tableref("replay", str(bad), check=False)
    assert result.returncode == 2 and ":3:" in result.stderr
    bad.write_text('{"type": "setup", "rules": "ono", "players": ["A", "B"]}\n{"type": "dance"}\n')
    result = tableref("replay", str(bad), check=False)
    assert result.returncode == 2 and ":2:" in result.stderr and "dance" in result.stderr


def test_replay_skips_comment_lines_as_in_a_timeline_saved_from_a_phone(tmp_path):
    saved = tmp_path / "tableref-main-timeline.txt"
    saved.write_text("# tableref · table main · ono\n#\n# 1. ONO!: Ana, Ben; Ana deals 7 each\n"
                     "# 2. red-5 is turned up\n#\n# the events, one JSON object a line:\n"
                     '{"type": "setup", "rules": "ono", "players": ["Ana", "Ben"], "dealer": 0}\n'
                     '  # an indented comment\n{"type": "flip", "card": "red-5"}\n')
    data = json.loads(tableref("replay", str(saved), "--json").stdout)
    assert [(v["line"], v["accepted"]) for v in data["verdicts"]] == [(7, True), (9, True)]
    assert data["state"]["top_card"] == "red-5" and data["state"]["current_player"] == 1
    # a comment does not hide a malformed line after it: still exit 2 with its number
    saved.write_text('# words\n{"type": "setup", "rules": "ono", "players": ["A", "B"]}\nnot json\n')
    result = tableref("replay", str(saved), check=False)
    assert result.returncode == 2 and ":3:" in result.stderr


def test_replay_exits_0_when_events_are_rejected(tmp_path):
    f = tmp_path / "g.jsonl"
    f.write_text('{"type": "play", "player": 0, "cards": ["red-1"]}\n')
    data = json.loads(tableref("replay", str(f), "--json").stdout)
    assert data["verdicts"][0]["accepted"] is False and data["state"]["phase"] == "setup"


def test_simulate_reports_throughput_and_no_violations():
    data = json.loads(tableref("simulate", "--rules", "ono", "--games", "50", "--players", "3", "--json").stdout)
    assert data["games"] == 50 and data["violations"] == []
    for key in ("rules", "events", "seconds", "games_per_second", "events_per_second"):
        assert key in data
    assert data["events"] > 50 * 10


def test_simulate_with_options_and_unknown_rules():
    data = json.loads(tableref("simulate", "--rules", "ono", "--games", "20", "--option", "points_target=300",
                               "--option", "longer_game=true", "--json").stdout)
    assert data["violations"] == []
    assert tableref("simulate", "--rules", "chess", "--games", "1", check=False).returncode == 2
