"""Secrets stay with the host (issue 17): a camera address may carry a user name and password
(`rtsp://user:pass@10.0.0.5/stream`) or a key in its query (`?password=...`). Everything a
viewer can read - the camera status, the stored setup in the event log and the timeline, the
stream's recent log, log lines - goes through `redact` first, which keeps the address readable
(scheme, host, path) and puts `***` where a secret was."""
from __future__ import annotations

import logging
import re

MASK = "***"
# scheme://user[:password]@  (up to the last @ before the path: a password may hold an @)
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<userinfo>[^\s/?#]+)@")
_QUERY = re.compile(r"(?P<key>[?&;](?:user(?:name)?|pass(?:word|wd)?|pwd|token|key|auth|secret|sig(?:nature)?|"
                    r"access_token|api_key|apikey)=)(?P<value>[^&#\s]*)", re.IGNORECASE)


def redact(value):
    """The value with every credential in a URL masked: strings, and the strings inside lists and
    dicts (a copy; the value itself is not changed)."""
    if isinstance(value, str):
        if "://" not in value and "=" not in value:
            return value
        value = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", value)
        return _QUERY.sub(lambda m: f"{m['key']}{MASK}", value)
    if isinstance(value, dict):
        return {k: redact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """Put on a log handler: the formatted message of every record is redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:           # noqa: BLE001 - a bad format string is logging's business, not ours
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


def redact_logs() -> None:
    """Adds the filter to every handler of the root logger (call after logging is configured)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
