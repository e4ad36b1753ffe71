"""`tableref serve`: the app (camera pipeline, referee, web) on one table, `main`."""
from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("serve", help="serve the live table to phones and an OBS overlay")
    p.add_argument("--rules", help="rule set of a new table main (default ono; see `tableref rules`)")
    p.add_argument("--players", help="comma-separated names in clockwise seating order (default Ana,Ben,Cy)")
    p.add_argument("--dealer", type=int, default=0, help="seat index of the dealer of a new table (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option of a new table (JSON value), e.g. --option points_target=500")
    p.add_argument("--camera", metavar="SRC",
                   help="a camera index (0 is the first webcam), a video file (played as a live camera) "
                        "or a stream URL (a phone camera app's MJPEG or RTSP address)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="with a video file as the camera: play it this many times its own speed (default 1)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole network)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--data", default="data", help="folder of the event store (default ./data)")
    p.add_argument("--host-token", help="the host's token (default: TABLEREF_HOST_TOKEN, or a new random one)")
    add_taught_flag(p)
    add_limit_flags(p)
    p.set_defaults(run=run_serve)


def add_taught_flag(p) -> None:
    p.add_argument("--taught", action="append", default=[], metavar="TAUGHT",
                   help="a deck taught with `tableref teach` (repeatable, one per deck): tables playing with "
                        "that deck read its cards by what was taught. Default: DATA/taught/DECK.npz when there")


def add_limit_flags(p) -> None:
    """The server's limits (issue 17), each with a default that fits a game night."""
    g = p.add_argument_group("limits")
    g.add_argument("--max-tables", type=int, default=100, metavar="N", help="tables this server runs at most (default 100)")
    g.add_argument("--max-players", type=int, default=20, metavar="N", help="players at one table at most (default 20)")
    g.add_argument("--max-name-length", type=int, default=40, metavar="N", help="characters of a player's name at most (default 40)")
    g.add_argument("--max-id-length", type=int, default=40, metavar="N", help="characters of a table id at most (default 40)")
    g.add_argument("--max-client-connections", type=int, default=256, metavar="N",
                   help="open connections from one address at most (default 256; more are answered 429)")
    g.add_argument("--request-timeout", type=float, default=10.0, metavar="S",
                   help="seconds a request may take to arrive, headers and body (default 10; slower ones are closed)")


def run_serve(args) -> int:
    from ..server import serve
    return serve(args)
