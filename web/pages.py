"""The pages: lobby, phone view (with host controls when the browser holds the token), overlay and
camera view. Plain HTML with local CSS and JS; the pages never contain the host token: the host
page reads it from the URL fragment into localStorage in the browser."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from .tables import UnknownTable

pages = Blueprint("pages", __name__)


@pages.after_app_request
def security_headers(response):
    # No Referer leaves the page, nothing from elsewhere runs in it, and no other site frames it.
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'")
    return response


@pages.get("/favicon.ico")
def favicon():
    # browsers ask for /favicon.ico whatever the page says; answer with the page's own icon
    return current_app.send_static_file("favicon.svg"), 200, {"Cache-Control": "public, max-age=86400"}


def known_table(table_id: str) -> bool:
    try:
        current_app.extensions["tableref"].get(table_id)
        return True
    except UnknownTable:
        return False


def table_page(template: str, table_id: str):
    if not known_table(table_id):
        return render_template("missing.html", table_id=table_id), 404
    return render_template(template, table_id=table_id)


@pages.get("/")
def lobby():
    return render_template("lobby.html")


@pages.get("/t/<table_id>")
def phone(table_id: str):
    return table_page("phone.html", table_id)


@pages.get("/t/<table_id>/overlay")
def overlay(table_id: str):
    return table_page("overlay.html", table_id)


@pages.get("/t/<table_id>/camera")
def camera(table_id: str):
    return table_page("camera.html", table_id)
