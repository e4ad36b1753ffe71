"""bench/teach.py runs and prints its table (a tiny run: two dino2 cards)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_teach_prints_its_table():
    r = subprocess.run([sys.executable, "bench/teach.py", "--cards", "2", "--only", "dino2"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    rows = [line for line in r.stdout.splitlines() if line.startswith("| dino2")]
    assert len(rows) == 3, r.stdout
    assert "taught from 1" in rows[0] and "taught from 3" in rows[1] and "built-in" in rows[2]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == "4"                                  # 2 cards x 2 test photos
        assert 0.0 <= float(cells[2]) <= 1.0 and 0.0 <= float(cells[3]) <= 1.0
