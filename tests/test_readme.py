"""The README cannot rot: every command in it (each line of its code blocks, and each `inline`
command with arguments) is run here, or is run by a named test, or by .ci/run. A command added to
the README without a line in COVERAGE fails `test_every_readme_command_is_covered`."""
from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import start_tableref

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:tableref|make|apt-get|sudo|pip|python3?|git|\.ci/run|\.venv/\S+) ")


def readme_commands() -> list[str]:
    found = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                found.append(line)
    prose = re.sub(r"```.*?```", "", README, flags=re.S)
    found += [c.strip() for c in re.findall(r"`([^`\n]+)`", prose) if COMMAND.match(c.strip())]
    return list(dict.fromkeys(found))


@dataclass
class Run:          # run here (tableref through this Python), with cheap arguments and outputs in tmp
    expect: str                     # in its output
    cheap: tuple = ()               # (pattern, replacement) on the command line


@dataclass
class Serve:        # start it here on a free port with its own data folder, check the table, stop it
    rules: str
    players: list
    dealer: int
    options: dict


@dataclass
class ByTest:       # a named test runs it (or its stand-in, said in `why`)
    path: str
    test: str | None                # None: the file itself
    fragments: tuple                # the test's source contains each
    why: str = ""


CHEAP_OUT = (r"--out (\S+)", r"--out {tmp}/\1")
COVERAGE = {
    "make demo": ByTest("Makefile", None, ("demo: install\n\t$(BIN)/tableref demo",),
                        "make demo is `tableref demo`, run by tests/test_e2e_demo.py"),
    "make test": ByTest(".ci/run", None, ("make test",), ".ci/run is the CI and runs it"),
    "TABLEREF_SCREENSHOTS=docs make test": ByTest("tests/test_browser_web.py", None,
                                                  ('os.environ.get("TABLEREF_SCREENSHOTS") == "docs"',
                                                   '"phone.png"', '"overlay.png"')),
    "apt-get install chromium chromium-driver": ByTest("Makefile", None,
                                                       ("apt-get install -y chromium chromium-driver",)),
    "tableref demo --once": ByTest("tests/test_e2e_demo.py",
                                   "test_the_demo_reaches_phone_and_overlay_with_the_true_final_state",
                                   ('"demo"', '"--once"')),
    "tableref demo --rules prison": ByTest("tests/test_e2e_prison_demo.py",
                                           "test_the_prison_demo_charges_every_play_to_the_hand_that_made_it",
                                           ('"demo", "--rules", "prison"',)),
    "tableref serve --camera 0": Serve("ono", ["Ana", "Ben", "Cy"], 0, {}),
    "tableref serve --camera http://192.168.1.23:8080/video": ByTest(
        "tests/test_web_camera.py", "test_serve_with_a_phone_stream_url_as_the_camera", ('"--camera", url', "/video"),
        "the phone is stood in for by a local MJPEG server"),
    "tableref rules": Run("prison"),
    "tableref serve --rules prison --players Ana,Ben,Cy,Dee --dealer 3 --option jump_in_penalty=4 --camera 0":
        Serve("prison", ["Ana", "Ben", "Cy", "Dee"], 3, {"jump_in_penalty": 4}),
    "tableref print-deck dino2 --out dino2.pdf": Run("wrote", (CHEAP_OUT, (r"$", " --dpi 72"))),
    "tableref print-deck snake-cup --out snake-cup.pdf --duplex": Run("wrote", (CHEAP_OUT, (r"$", " --dpi 72"))),
    "tableref train --deck ono --samples 20000 --epochs 30 --seed 1 --out my-symbols.npz": Run(
        "wrote", (CHEAP_OUT, (r"--samples \d+", "--samples 60"), (r"--epochs \d+", "--epochs 1"))),
    "tableref identify photo.jpg --deck uno --json": ByTest(
        "tests/test_vision_identify.py", "test_identify_command_json", ('"identify"', '"--json"'),
        "a rendered card on a table written to a file, read through the same command"),
    "pip install -e '.[train]'": ByTest("Makefile", None, ("-e '.[test,bench,train]'",),
                                        "make test installs the train extra"),
    "tableref train --detector --images 1200 --epochs 15 --imgsz 320 --seed 0 --out my-detector.onnx": ByTest(
        "tests/test_vision_detector_train.py", "test_train_detector_command_exports_a_model_the_detector_loads",
        ('"train", "--detector", "--images"', '"--epochs"', '"--imgsz"', '"--out"'),
        "a tiny run: 16 scenes, 1 epoch, 64 px"),
    "tableref train --confidence --deck uno --closeups 1500 --scenes 200": ByTest(
        "tests/test_vision_calibrate.py", "test_train_confidence_fits_a_map_on_synthetic_photos_from_the_command_line",
        ('"train", "--confidence", "--deck", "uno", "--closeups"', '"--scenes"'),
        "a tiny fit (6 close-ups, 1 scene) written beside the test, not over the committed map"),
    "tableref teach --deck dino2 --from my-dino2 --out dino2-taught.npz": ByTest(
        "tests/test_teach_cli.py", "test_teach_reports_and_identify_reads_the_taught_cards",
        ('"teach", "--deck", "dino2", "--from"', '"--out"', '"identify", "--deck", "dino2", "--taught"'),
        "a folder of rendered photos of three dino2 cards, taught and read back"),
    "tableref cards ono": Run("wild-draw4"),
    "tableref replay docs/examples/ono-game.jsonl": Run("winner"),
    "tableref simulate --rules prison --games 2000": Run("violations", ((r"--games \d+", "--games 20"),)),
    "tableref watch datasets/demo/demo.mp4 --deck ono": ByTest(
        "tests/test_vision_demo.py", "test_watch_demo_emits_exactly_the_recorded_plays",
        ('"watch"', '"demo.mp4"', '"--deck", "ono"')),
    "tableref synth --deck ono --out datasets/generated/ono --images 1000": Run(
        "", (CHEAP_OUT, (r"--images \d+", "--images 2"))),
}


def test_every_readme_command_is_covered():
    commands = readme_commands()
    assert "make demo" in commands and "make test" in commands       # the extraction works
    uncovered = [c for c in commands if c not in COVERAGE]
    assert not uncovered, f"README commands run by no test: {uncovered} (add each to COVERAGE in {__file__})"
    stale = [c for c in COVERAGE if c not in commands]
    assert not stale, f"COVERAGE lists commands the README no longer has: {stale}"


def test_the_two_setup_commands_come_first():
    first_block = re.search(r"```[a-z]*\n(.*?)```", README, re.S).group(1)
    assert [l.split("#")[0].strip() for l in first_block.splitlines()] == ["make demo", "make test"]


def test_the_pictures_are_there():
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README):
        assert (ROOT / picture).is_file(), picture


def test_the_links_are_there():
    for link in re.findall(r"\]\(((?:docs|models)/[^)#]*)\)", README):
        assert (ROOT / link).exists(), link


def function_source(path: Path, name: str) -> str | None:
    text = path.read_text()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(text, node)
    return None


@pytest.mark.parametrize("command", [c for c, how in COVERAGE.items() if isinstance(how, ByTest)])
def test_commands_run_by_a_named_test(command):
    how = COVERAGE[command]
    path = ROOT / how.path
    source = path.read_text() if how.test is None else function_source(path, how.test)
    assert source is not None, f"{how.path}::{how.test} is gone; it ran `{command}`"
    for fragment in how.fragments:
        assert fragment in source, f"{how.path}::{how.test} no longer runs `{command}` ({fragment!r} not in it)"


def test_make_demo_runs_tableref_demo():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}  # under make test
    r = subprocess.run(["make", "--no-print-directory", "-n", "demo"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].endswith("/tableref demo"), r.stdout


@pytest.mark.parametrize("command", [c for c, how in COVERAGE.items() if isinstance(how, Run)])
def test_commands_run_here(command, tmp_path):
    how = COVERAGE[command]
    line = command
    for pattern, replacement in how.cheap:
        line = re.sub(pattern, replacement.format(tmp=tmp_path), line)
    argv = shlex.split(line)
    assert argv[0] == "tableref"
    r = subprocess.run([sys.executable, "-m", "web", *argv[1:]], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, f"`{line}` failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    assert how.expect in r.stdout + r.stderr
    for out in re.findall(r"--out (\S+)", line):
        assert Path(out).exists(), f"`{line}` wrote no {out}"


@pytest.mark.parametrize("command", [c for c, how in COVERAGE.items() if isinstance(how, Serve)])
def test_serve_commands_run_here(command, tmp_path):
    """The README's serve lines as they are, on a free local port and a fresh data folder. No camera
    is plugged in here: the table must still be served and the camera say it is retrying (with a
    camera at index 0, it is running)."""
    how = COVERAGE[command]
    argv = shlex.split(command)
    proc, base, _ = start_tableref(*argv[1:], "--data", str(tmp_path))
    try:
        with urllib.request.urlopen(f"{base}/api/tables/main/state", timeout=10) as r:
            state = json.load(r)
        assert state["rules"] == how.rules and [p["name"] for p in state["players"]] == how.players
        assert state["dealer"] == how.dealer
        for name, value in how.options.items():
            assert state["options"][name] == value
        end = time.monotonic() + 60
        while True:
            with urllib.request.urlopen(f"{base}/api/tables/main/camera", timeout=10) as r:
                camera = json.load(r)
            if camera["state"] in ("reconnecting", "running") and camera["pipeline"] or time.monotonic() > end:
                break
            time.sleep(0.3)
        assert camera["source"] == "0"
        assert camera["state"] == "reconnecting" and "camera 0 unavailable" in camera["message"] or \
               camera["state"] == "running", camera
    finally:
        proc.terminate()
        proc.wait(15)
    assert proc.returncode == 0
