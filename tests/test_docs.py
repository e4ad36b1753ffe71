"""The docs cannot fall behind the code: every event type and every rule option is documented."""
from pathlib import Path

import pytest

from referee import all_rules
from referee.events import EVENT_TYPES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def all_docs_text() -> str:
    return (DOCS / "events.md").read_text() + "".join(p.read_text() for p in (DOCS / "rules").glob("*.md"))


@pytest.mark.parametrize("type_name", sorted(EVENT_TYPES))
def test_every_event_type_is_documented(type_name):
    assert f"`{type_name}`" in all_docs_text(), f"event type {type_name} is not in docs/events.md or docs/rules/"


@pytest.mark.parametrize("rules_id", sorted(all_rules()))
def test_every_rule_set_has_its_page_with_interpretations_and_every_option(rules_id):
    page = DOCS / "rules" / f"{rules_id}.md"
    assert page.exists(), f"docs/rules/{rules_id}.md is missing"
    text = page.read_text()
    assert "## Interpretations" in text
    for option in all_rules()[rules_id].options:
        assert f"`{option.name}`" in text, f"option {option.name} of {rules_id} is not documented"
