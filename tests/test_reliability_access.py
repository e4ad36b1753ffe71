"""Access: without the host token nothing changes.

Every mutating endpoint (every route of the app that takes a method other than GET/HEAD/OPTIONS,
found from the app's own URL map, so a new one is covered the day it is added) is called without
a token, with a wrong one, with the right one under the wrong scheme, and with every token-like
string that a viewer could take from the pages, scripts and read endpoints the server serves.
The pages must not contain the token at all, the check must go through hmac.compare_digest, and
the stream must be read-only.
"""
from __future__ import annotations

import hmac
import json
import re

import pytest

from reliability_helpers import bare, get_json, post_event, request, stop
from web.app import create_app

TOKEN = "Hq3v9-Zt_8KpL2mNwX4cR7yB1sD6fG0j"     # looks like `serve`'s own (token_urlsafe(24))
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0}
PLAY = {"type": "play", "player": "Ben", "cards": ["red-7"]}
READ_ONLY = {"GET", "HEAD", "OPTIONS"}


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.1,
                      "TOKEN_GUESSES": {"free": 10 ** 9}})     # every variant compared (slowing: test_reliability_tokens.py)
    c = app.test_client()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert c.post("/api/tables/main/events", json=SETUP, headers=auth).status_code == 200
    assert c.post("/api/tables/main/events", json={"type": "flip", "card": "red-5"}, headers=auth).status_code == 200
    yield app
    app.extensions["tableref"].shutdown()


def mutating_routes(app) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - READ_ONLY):
            path = re.sub(r"<(?:\w+:)?table_id>", "main", rule.rule)
            path = re.sub(r"<[^>]+>", "x", path)
            out.append((method, path))
    return out


def everything_a_viewer_sees(client) -> dict[str, str]:
    """Every page, script, style and read endpoint a viewer's browser can load, by path."""
    seen: dict[str, str] = {}
    todo = ["/", "/t/main", "/t/main/overlay", "/t/main/camera", "/api/tables", "/api/tables/main",
            "/api/tables/main/state", "/api/tables/main/events", "/api/tables/main/camera", "/api/rules",
            "/api/decks/ono", "/api/tables/main/qr.svg", "/t/main/overlay?position=top-left&size=xl&theme=light",
            "/t/main/replay", "/api/tables/main/replay", "/api/tables/main/seats", "/t/main/teach"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        r = client.get(path)
        assert r.status_code == 200, path
        text = r.get_data(as_text=True)
        seen[path] = text
        # follow every local script, style and link the page names
        for ref in re.findall(r'(?:src|href)="(/[^"#?]*)', text) + re.findall(r'(?:import|from)\s*"(\.?/[^"]+\.js)"', text):
            ref = "/static/" + ref[2:] if ref.startswith("./") else ref
            if "${" in ref:     # a path a script builds (a template literal), not one a page names
                continue
            if ref.startswith(("/static/", "/t/", "/api/")) and ref not in seen:
                todo.append(ref)
    # the stream: its first message
    r = client.get("/api/tables/main/stream", buffered=False)
    seen["/api/tables/main/stream"] = next(r.response).decode()
    r.close()
    return seen


def token_like(text: str) -> set[str]:
    """Strings a viewer might try as the host token: every run of 16+ token characters."""
    return set(re.findall(r"[A-Za-z0-9_\-]{16,}", text))


def test_no_page_script_or_read_endpoint_holds_the_token(app):
    seen = everything_a_viewer_sees(app.test_client())
    assert any(p.startswith("/static/") and p.endswith(".js") for p in seen), sorted(seen)
    for path, text in seen.items():
        assert TOKEN not in text, path
        assert TOKEN[:12] not in text, path          # not even a piece of it


def test_every_mutating_endpoint_refuses_without_the_host_token(app):
    client = app.test_client()
    routes = mutating_routes(app)
    assert ("POST", "/api/tables/main/events") in routes
    candidates = set()
    for text in everything_a_viewer_sees(client).values():
        candidates |= token_like(text)
    assert candidates, "the scrape found nothing to try"
    headers_to_try = [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer "},
                      {"Authorization": f"Basic {TOKEN}"}, {"Authorization": TOKEN},
                      {"Authorization": f"Bearer {TOKEN[:-1]}"}, {"Authorization": f"Bearer {TOKEN.lower()}"},
                      {"X-Host-Token": TOKEN}, {"Cookie": f"token={TOKEN}"}]
    headers_to_try += [{"Authorization": f"Bearer {c}"} for c in sorted(candidates)]
    before = bare(client.get("/api/tables/main/state").get_json())
    tables = client.get("/api/tables").get_json()
    tried = 0
    for method, path in routes:
        for headers in headers_to_try:
            for body in (PLAY, {**SETUP, "players": ["X", "Y"]}, {"type": "undo"}):
                r = client.open(path, method=method, json=body, headers=headers,
                                query_string={"token": TOKEN} if not headers else None)
                assert r.status_code in (401, 403, 404, 405), (method, path, headers, r.status_code)
                tried += 1
        # and a new table cannot be made without it either
        for headers in headers_to_try[:3]:
            r = client.open(path.replace("/main/", "/sneaky/"), method=method, json=SETUP, headers=headers)
            assert r.status_code in (401, 403, 404, 405)
    assert bare(client.get("/api/tables/main/state").get_json()) == before
    assert client.get("/api/tables").get_json() == tables
    # The right token does change things, so the refusals above were refusals of the token.
    r = client.post("/api/tables/main/events", json=PLAY, headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"]
    assert tried >= len(candidates) * 3


def test_the_token_is_compared_in_constant_time(app, monkeypatch):
    import web.api
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)
    monkeypatch.setattr(web.api.hmac, "compare_digest", spy)
    client = app.test_client()
    client.post("/api/tables/main/events", json=PLAY, headers={"Authorization": "Bearer guess"})
    client.get("/api/auth", headers={"Authorization": f"Bearer {TOKEN}"})
    assert calls == [(b"guess", TOKEN.encode()), (TOKEN.encode(), TOKEN.encode())]


def test_the_stream_is_read_only(app):
    client = app.test_client()
    before = bare(client.get("/api/tables/main/state").get_json())
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        r = client.open("/api/tables/main/stream", method=method, json=PLAY, headers=auth)
        assert r.status_code == 405 and "not allowed" in r.get_json()["error"]
    # a GET with a body, a token and a query changes nothing either
    r = client.get("/api/tables/main/stream?type=play&player=Ben&cards=red-7", json=PLAY, headers=auth,
                   buffered=False)
    first = next(r.response).decode()
    r.close()
    assert '"event_count": 2' in first
    assert bare(client.get("/api/tables/main/state").get_json()) == before


def test_a_real_server_with_a_made_token_serves_it_to_no_viewer(tmp_path):
    """`serve` without --host-token makes one and prints it in the host's link only."""
    from reliability_helpers import TOKEN as GIVEN
    from helpers import start_tableref
    proc, base, out = start_tableref("serve", "--data", str(tmp_path))
    try:
        token = out.split("#token=")[1].split()[0]
        assert token != GIVEN and len(token) >= 24
        for path in ["/", "/t/main", "/t/main/overlay", "/t/main/camera", "/static/phone.js", "/static/overlay.js",
                     "/static/lobby.js", "/static/cards.js", "/api/tables", "/api/tables/main/state"]:
            status, headers, body = request(base, "GET", path)
            assert status == 200 and token.encode() not in body, path
            assert token not in json.dumps(headers), path
        status, body = post_event(base, PLAY, token=None)
        assert status == 401
        status, body = post_event(base, {"type": "flip", "card": "red-5"}, token=token)
        assert status == 200 and body["verdict"]["accepted"]
        assert get_json(base, "/api/tables/main/state")["event_count"] == 2
    finally:
        stop(proc)
