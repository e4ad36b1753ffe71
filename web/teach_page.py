"""The host page's "Teach this deck" (issue 15): /t/<id>/teach walks the host through the table's
deck with the live camera. The work is the JSON API of web/teach_api.py; this is only the page."""
from __future__ import annotations

from flask import Blueprint

from .pages import table_page

teach_page = Blueprint("teach_page", __name__)


@teach_page.get("/t/<table_id>/teach")
def teach(table_id: str):
    return table_page("teach.html", table_id)
