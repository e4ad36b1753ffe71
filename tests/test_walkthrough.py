"""docs/walkthrough.md cannot rot (issue 19): every command line in it parses with the real command
line (or, for make and the shell, names what exists), every address path it names is a route of the
Flask app, every button it names in brackets exists in the pages' templates and scripts or in the
rule sets' host actions, and a headless Chromium at phone size (390x844) follows its sections 2 to 7
in order on a fresh server: the serve command as written, the host link it prints, the lobby with
the doc's table id and players, the invitation, the practice round's table row by row (each tap and
the words the answer line must show), the timeline saved and replayed by the doc's command, the
replay page and another game."""
from __future__ import annotations

import html
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import start_tableref

from referee import all_rules
from web.cli import build_parser
from chromium import launched, needs_chromium

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "walkthrough.md").read_text()
EXAMPLE_BASE = "http://192.168.1.20:8000"      # the doc's stand-in for the printed address
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:tableref|make|\.|\.venv/bin/tableref) ")


# -- what the doc says ------------------------------------------------------------------------------
def sh_lines() -> list[str]:
    """Each command line of the doc's ```sh blocks, then each inline `command with arguments`."""
    found = []
    for block in re.findall(r"^[ \t]*```sh\n(.*?)^[ \t]*```", DOC, re.M | re.S):
        found += [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]
    prose = re.sub(r"```.*?```", "", DOC, flags=re.S)
    found += [c.strip() for c in re.findall(r"`([^`\n]+)`", prose) if COMMAND.match(c.strip())]
    return list(dict.fromkeys(found))


def paths() -> list[str]:
    """The address paths of this server the doc names: full example URLs and `/...` in code."""
    found = [urlsplit(u).path or "/" for u in re.findall(re.escape(EXAMPLE_BASE) + r"[^\s`)]*", DOC)]
    found += [urlsplit(p).path for p in re.findall(r"`(/[^`\s]*)`", DOC)]
    return list(dict.fromkeys(found))


def buttons() -> list[str]:
    return list(dict.fromkeys(re.findall(r"\[([^\]\n]+)\](?!\()", DOC)))


def practice_rows() -> list[dict]:
    section = DOC.split("## 6.")[1].split("## 7.")[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows.append({"who": cells[1], "pick": cells[2].strip("`"),
                         "taps": re.findall(r"\[([^\]]+)\]", cells[3]), "answer": cells[4]})
    return rows


def field(name: str) -> str:
    m = re.search(r"\*\*" + re.escape(name) + r"\*\*: `([^`]+)`", DOC)
    assert m, f"the walkthrough names no {name}"
    return m.group(1)


# -- 1. commands ------------------------------------------------------------------------------------
def make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][a-z0-9-]*):", (ROOT / "Makefile").read_text(), re.M))


def test_the_doc_shows_the_commands_a_host_needs():
    lines = sh_lines()
    assert "make demo" in lines
    assert any(l.startswith("tableref serve ") for l in lines)
    assert any(l.startswith("tableref replay ") for l in lines)


@pytest.mark.parametrize("line", sh_lines())
def test_every_command_line_parses_with_the_real_command_line(line):
    words = shlex.split(line)
    while words and re.match(r"^[A-Z_]+=", words[0]):
        words.pop(0)                           # VAR=value before the command
    if words[0] in ("tableref", ".venv/bin/tableref"):
        try:
            args = build_parser().parse_args(words[1:])
        except SystemExit as e:
            pytest.fail(f"`{line}` does not parse (argparse exit {e.code})")
        assert callable(args.run)
    elif words[0] == "make":
        assert set(words[1:]) <= make_targets(), f"`{line}`: no such make target"
    elif words[:2] == [".", ".venv/bin/activate"]:
        # the virtual environment `make` installs into has its activate script
        assert "-m venv $(VENV)" in (ROOT / "Makefile").read_text()
    else:
        pytest.fail(f"`{line}`: the walkthrough test does not know how to check this command")


# -- 2. addresses -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from web.app import create_app
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    yield app
    app.extensions["tableref"].shutdown()


def test_the_doc_names_the_pages_of_an_evening():
    assert {"/", "/t/main", "/t/practice", "/t/practice/replay", "/t/main/camera"} <= set(paths())


@pytest.mark.parametrize("path", paths())
def test_every_address_is_a_route_of_the_app(app, path):
    from werkzeug.exceptions import HTTPException
    try:
        endpoint, _ = app.url_map.bind("localhost").match(path, method="GET")
    except HTTPException as e:
        pytest.fail(f"{path}: no such page or endpoint ({e.code})")
    assert endpoint != "static"


# -- 3. buttons ------------------------------------------------------------------------------------------
def page_texts() -> str:
    web = ROOT / "web"
    text = "\n".join(p.read_text() for p in [*(web / "templates").glob("*.html"), *(web / "static").glob("*.js")])
    labels = [a["label"] for r in all_rules().values() for a in r.describe()["host_actions"]]
    return html.unescape(text) + "\n" + "\n".join(labels)


@pytest.mark.parametrize("label", buttons())
def test_every_button_named_exists_on_the_pages(label):
    assert label in page_texts(), f"[{label}] is named in the walkthrough but on no page"


def test_the_practice_round_is_a_whole_round():
    rows = practice_rows()
    assert len(rows) >= 10 and rows[0]["taps"] == ["Turn up first card"]
    assert "wins" in rows[-1]["answer"]


# -- 4. a browser follows the doc -----------------------------------------------------------------------
WAIT = 20000


def tap_label(page, label: str) -> None:
    """Taps the visible button, link-button or fold title whose first line reads `label`."""
    found = page.evaluate("""label => {
        const els = [...document.querySelectorAll('button, a.button, summary')]
          .filter(e => e.getClientRects().length && e.innerText.split('\\n')[0].trim() === label);
        document.querySelectorAll('[data-walk]').forEach(e => e.removeAttribute('data-walk'));
        if (els.length !== 1) return els.length;
        els[0].setAttribute('data-walk', '1');
        return 1;
    }""", label)
    assert found == 1, f"[{label}]: {found} visible controls read so"
    page.click("[data-walk='1']", timeout=WAIT)


def pick(page, card: str) -> None:
    color = page.evaluate(f"Cards.info({card!r}).color || 'wild'")
    page.click(f'#colorpicks button[data-color="{color}"]')
    page.click(f'#symbolpicks button[data-card="{card}"]')


def sync(page, base: str, table: str) -> None:
    import json
    import urllib.request
    with urllib.request.urlopen(f"{base}/api/tables/{table}/state", timeout=10) as r:
        n = json.load(r)["event_count"]
    page.wait_for_function(f"state && state.event_count === {n}", timeout=WAIT)


@needs_chromium
def test_a_browser_at_phone_size_follows_the_walkthrough(tmp_path):
    serve = next(l for l in sh_lines() if l.startswith("tableref serve ") and "--camera" not in l
                 and "--host-token" not in l)
    proc, base, out = start_tableref(*shlex.split(serve)[1:], "--data", str(tmp_path / "data"))
    try:
        # 2. the server prints the links the doc shows
        for words in ("phones and viewers:", "overlay for OBS:", "lobby (more tables):", "host (keep private):"):
            assert words in out
        host_link = next(l for l in out.splitlines() if "host (keep private):" in l).split()[-1]
        with launched() as browser:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, accept_downloads=True, bypass_csp=True)
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))

            # 3. the host link: the host controls, and the token out of the address bar
            page.goto(host_link)
            page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
            assert "token" not in page.url

            # 4. the lobby: the doc's table id and players, ONO! chosen to start with
            page.goto(f"{base}/")
            page.wait_for_selector("#rules option", state="attached", timeout=WAIT)
            assert page.input_value("#rules") == "ono"
            table = field("table id")
            page.fill("#tid", table)
            page.fill("#players", field("players"))
            tap_label(page, "Create table")
            page.wait_for_url(f"**/t/{table}", timeout=WAIT)
            page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
            sync(page, base, table)

            # 5. before the first card the invitation is open, with the doc's links
            page.wait_for_function("document.body.dataset.moment === 'setup'", timeout=WAIT)
            assert page.is_visible("#qr")
            assert page.inner_text("#overlay-link").endswith(f"/t/{table}/overlay")
            assert page.inner_text("#camera-link").endswith(f"/t/{table}/camera")

            # 6. the practice round, row by row
            for k, row in enumerate(practice_rows(), 1):
                if row["who"] and page.is_visible("#who-row"):
                    shown = page.eval_on_selector("#who", "s => s.options[s.selectedIndex].text")
                    assert shown == row["who"], f"step {k}: the player picker shows {shown}"
                if row["pick"]:
                    pick(page, row["pick"])
                for label in row["taps"]:
                    tap_label(page, label)
                want = row["answer"]
                try:
                    page.wait_for_function("w => document.getElementById('result').innerText.includes(w)", arg=want,
                                           timeout=WAIT)
                except Exception:
                    pytest.fail(f"step {k}: the answer line says {page.inner_text('#result')!r}, not {want!r}")
                sync(page, base, table)

            # 7. the end of the round: the timeline open, saved, replayed by the doc's command
            page.wait_for_function("document.body.dataset.moment === 'over'", timeout=WAIT)
            assert page.evaluate("document.getElementById('timeline-fold').open")
            with page.expect_download(timeout=WAIT) as d:
                tap_label(page, "Save the timeline as a file")
            replay = next(l for l in sh_lines() if l.startswith("tableref replay "))
            name = shlex.split(replay)[2]
            assert d.value.suggested_filename == name
            d.value.save_as(str(tmp_path / name))
            run = subprocess.run([sys.executable, "-m", "web", *shlex.split(replay)[1:]], cwd=tmp_path,
                                 capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
            assert run.returncode == 0, run.stderr
            assert "winner: Ben" in run.stdout and " 0 rejected" in run.stdout

            tap_label(page, "Replay this game step by step")
            page.wait_for_url(f"**/t/{table}/replay*", timeout=WAIT)
            # the setup and the 11 taps of the round that were accepted, less the one undone: 10 steps
            steps = 10
            page.wait_for_function(f"document.getElementById('where').innerText.startsWith('step {steps} of {steps}')",
                                   timeout=WAIT)
            tap_label(page, "« First")
            page.wait_for_function("document.getElementById('where').innerText.startsWith('step 1 of')", timeout=WAIT)
            tap_label(page, "Next ▶")
            page.wait_for_function("document.getElementById('where').innerText.startsWith('step 2 of')", timeout=WAIT)
            assert "red-5 is turned up" in page.inner_text("#ruling")
            tap_label(page, "Last »")
            page.wait_for_function(f"document.getElementById('where').innerText.startsWith('step {steps} of')",
                                   timeout=WAIT)
            assert "Ben has no cards left and wins" in page.inner_text("#ruling")

            page.go_back()
            page.wait_for_selector("#host:not([hidden])", timeout=WAIT)
            sync(page, base, table)
            tap_label(page, "Start another game with the same players")
            page.wait_for_function("document.body.dataset.moment === 'setup'", timeout=WAIT)
            assert not errors, errors
    finally:
        proc.terminate()
        proc.wait(10)
