"""End to end: `tableref watch` on the demo recording emits exactly the recorded plays, in order,
none missed, invented or doubled (the recording's true log is datasets/demo/demo.events.jsonl)."""
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "datasets" / "demo"


@pytest.mark.skipif(not (DEMO / "demo.mp4").exists(), reason="demo recording not present")
def test_watch_demo_emits_exactly_the_recorded_plays(capsys):
    from web.cli import main
    assert main(["watch", str(DEMO / "demo.mp4"), "--deck", "ono", "--json"]) == 0
    seen = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    truth = [json.loads(line) for line in (DEMO / "demo.events.jsonl").read_text().splitlines() if line.strip()]
    expect_flip = [e["card"] for e in truth if e["type"] == "flip"]
    expect_plays = [e["cards"] for e in truth if e["type"] == "play"]
    assert [e["card"] for e in seen if e["type"] == "flip"] == expect_flip
    assert [e["cards"] for e in seen if e["type"] == "play"] == expect_plays
    assert all(not e.get("unconfirmed") for e in seen if e["type"] in ("play", "flip"))
    times = [e["t"] for e in seen]
    assert times == sorted(times)
