"""The host actions each rule set declares as data (referee/host_actions.py): they name real event
types and fields, every phase where the referee waits for someone has a control for it, and the
listing (`tableref rules --json`, GET /api/rules) carries them."""
from __future__ import annotations

import json

import pytest

from referee import all_rules
from referee.host_actions import check

RULES = sorted(all_rules())


@pytest.mark.parametrize("rules_id", RULES)
def test_actions_name_real_events_and_fields(rules_id):
    rules = all_rules()[rules_id]
    assert rules.host_actions, f"{rules_id} declares no host actions"
    assert check(rules.host_actions) == []
    for action in rules.host_actions:
        assert hasattr(rules, f"on_{action.event}"), f"{rules_id} has no {action.event} events ({action.id})"
        for phase in action.phases:
            assert phase in rules.phases, f"{rules_id}: {action.id} names an unknown phase {phase!r}"


@pytest.mark.parametrize("rules_id", RULES)
def test_every_phase_that_waits_for_someone_has_a_control(rules_id):
    rules = all_rules()[rules_id]
    for phase in rules.phases:
        if phase == "over":
            continue
        shown = [a.id for a in rules.host_actions if a.section != "anytime" and (not a.phases or phase in a.phases)]
        assert shown, f"{rules_id}: nothing for the host to tap in phase {phase!r}"


def test_check_finds_mistakes():
    from referee.host_actions import HostAction, Input
    bad = (HostAction("x", "X", "nonsense", "?"),
           HostAction("y", "Y", "draw", "?", inputs=(Input("player", "player"),)),          # no count
           HostAction("z", "Z", "pass", "?", inputs=(Input("player", "wheel"),), section="later"))
    problems = "\n".join(check(bad))
    assert "unknown event type 'nonsense'" in problems
    assert "draw needs 'count'" in problems
    assert "unknown input kind 'wheel'" in problems and "unknown section 'later'" in problems


def test_only_regulation_has_a_challenge_and_the_cli_lists_the_actions(capsys):
    from web.cli import main
    assert main(["rules", "--json"]) == 0
    listed = {r["id"]: r for r in json.loads(capsys.readouterr().out)["rules"]}
    challenges = sorted(rid for rid, r in listed.items() if any(a["event"] == "challenge" for a in r["host_actions"]))
    assert challenges == ["regulation"]
    dino = {a["id"]: a for a in listed["dino2"]["host_actions"]}
    assert [c["value"] for c in dino["fuego"]["inputs"][1]["choices"]] == ["extra", "draw"]
    assert dino["give-none"]["fixed"] == {"count": 0}
    assert all(o["label"] and "_" not in o["label"] for r in listed.values() for o in r["options"])
