"""`tableref serve`: the referee, the event store, the camera and the web app in one process,
served by waitress (web/guard.py's limits); the phones' and overlays' event streams are served by
its event loop (web/streams.py), so a viewer costs a socket and a buffer, not a thread."""
from __future__ import annotations

import _thread
import logging
import os
import secrets
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from referee.store import SQLiteEventStore, StoreError

from .app import create_app
from .tables import ServerLimits
from .commands.referee_cmds import parse_options

MAIN = "main"
THREADS = 320             # requests, camera MJPEG views, and a stream that comes second on a kept-alive connection
CONNECTIONS = 4096        # in all; per client see web/guard.py (--max-client-connections)
MAX_HEADERS = 16 * 1024   # a browser sends 1-2 KiB
CAMERA_STOP_S = 5.0       # at most, waiting at stop for the cameras' last frames to be read


def lan_address() -> str:
    """The address other devices on the network reach this machine at (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_host(bound: str) -> str:
    if bound in ("0.0.0.0", "", "::"):
        return lan_address()
    return f"[{bound}]" if ":" in bound else bound


MIN_TOKEN = 16               # characters of a custom host token at least


def host_token(given: str | None) -> tuple[str, bool]:
    """(token, made here): --host-token, else TABLEREF_HOST_TOKEN, else a new random one of 192
    bits (32 URL-safe characters)."""
    token = given or os.environ.get("TABLEREF_HOST_TOKEN")
    if token:
        return token, False
    return secrets.token_urlsafe(24), True


def token_problem(token: str) -> str | None:
    """Why a custom host token is too weak to guard a table on a shared network."""
    where = "--host-token" if token != os.environ.get("TABLEREF_HOST_TOKEN") else "TABLEREF_HOST_TOKEN"
    if len(token) < MIN_TOKEN:
        return (f"the host token of {where} is {len(token)} characters long; use at least {MIN_TOKEN} "
                f"(anyone on the network could guess a short one), or leave it out and serve makes a strong one")
    if not token.isprintable() or any(c.isspace() for c in token):
        return f"the host token of {where} must be printable characters without spaces"
    return None


def camera_problem(source: str | None) -> str | None:
    """Why a --camera source cannot be right, before anything starts: a name that is neither a
    camera index nor a URL must be an existing video file. (A camera index that has no camera
    behind it is not refused: the feed keeps retrying and its status says so.)"""
    if not source or source.isdigit() or "://" in source:
        return None
    path = Path(source)
    if path.is_dir():
        return f"--camera {source} is a folder; give a camera index (0), a video file or a stream URL"
    if not path.exists():
        return f"--camera {source}: no such video file (a camera is given by its index, e.g. 0, a stream by its URL)"
    return None


def server_limits(args) -> ServerLimits:
    """The limits of --max-tables, --max-players, --max-name-length and --max-id-length (defaults
    where a command has no such flag, e.g. the demo)."""
    d = ServerLimits()
    return ServerLimits(max_players=getattr(args, "max_players", None) or d.max_players,
                        max_name=getattr(args, "max_name_length", None) or d.max_name,
                        max_tables=getattr(args, "max_tables", None) or d.max_tables,
                        max_id=getattr(args, "max_id_length", None) or d.max_id)


def make_server(app, args):
    """waitress with the limits of issue 17 (web/guard.py): bodies over 64 KiB (413) and headers
    over 16 KiB (431) refused before they are read; connections per client, idle connections per
    client and the time a request may take to arrive bounded in the event loop."""
    from waitress.adjustments import Adjustments
    from .app import MAX_BODY
    from .guard import GuardedServer, Limits
    adj = Adjustments(host=args.host, port=args.port, threads=THREADS, connection_limit=CONNECTIONS,
                      asyncore_use_poll=True, channel_timeout=60, cleanup_interval=1, ident="tableref",
                      max_request_body_size=MAX_BODY, max_request_header_size=MAX_HEADERS)
    guard = Limits(per_client=getattr(args, "max_client_connections", None) or 256,
                   request_s=getattr(args, "request_timeout", None) or 10.0)
    return GuardedServer(app, adj=adj, sockinfo=adj.listen[0], guard=guard)


def serve(args, setup: dict | None = None, on_ready=None) -> int:
    """Runs the server until SIGTERM/SIGINT. `setup` is the first event of a new table main (default:
    from --rules, --players, --dealer, --option); `on_ready(app, registry)` runs once the links are
    printed (the demo starts its table there)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    from .redact import redact_logs
    redact_logs()                   # no camera password in a log line
    problem = camera_problem(args.camera)
    if problem:
        print(f"tableref: {problem}", file=sys.stderr)
        return 2
    token, made = host_token(args.host_token)
    problem = None if made else token_problem(token)
    if problem:
        print(f"tableref: {problem}", file=sys.stderr)
        return 2
    try:
        store = SQLiteEventStore(Path(args.data) / "tableref.sqlite3")
    except StoreError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2

    from .taught import taught_decks
    try:
        taught = taught_decks(getattr(args, "taught", None) or [], Path(args.data))
    except ValueError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2
    try:
        late = _Late()
        server = make_server(late, args)
    except OSError as e:
        print(f"tableref: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 2
    port = server.effective_port
    base = f"http://{public_host(args.host)}:{port}"
    app = create_app({"STORE": store, "HOST_TOKEN": token, "PUBLIC_URL": base,
                      "CAMERAS": {MAIN: args.camera} if args.camera else {},
                      "CAMERA_SPEED": getattr(args, "speed", 1.0), "LIMITS": server_limits(args),
                      "TAUGHT": taught, "TEACH_DIR": str(args.data)})
    late.app = app
    registry = app.extensions["tableref"]
    from .streams import StreamHub
    server.hub = StreamHub(server, registry, heartbeat_s=float(app.config["HEARTBEAT_S"]))

    if MAIN in registry.tables:
        setup = registry.get(MAIN).setup
        print(f"resuming table {MAIN}: {setup.get('rules')}, {', '.join(setup.get('players', []))}, "
              f"{len(registry.get(MAIN).stored)} events from {store.path}")
        if args.rules or args.players or args.option:
            print("  (--rules, --players and --option only apply when the table is new)")
    else:
        setup = dict(setup) if setup else {
            "type": "setup", "rules": args.rules or "ono",
            "players": [p.strip() for p in (args.players or "Ana,Ben,Cy").split(",") if p.strip()],
            "dealer": args.dealer, "options": parse_options(args.option)}
        if args.camera:
            setup["camera"] = args.camera
        try:
            result = registry.submit(MAIN, setup)
        except Exception as e:
            print(f"tableref: cannot set up the table: {e}", file=sys.stderr)
            return 2
        if not result.verdict.accepted:
            print(f"tableref: cannot set up the table: {result.verdict.reason}", file=sys.stderr)
            return 2
        print(f"new table {MAIN}: {result.verdict.reason}")

    phone = f"{base}/t/{MAIN}"
    print_links(phone, base, token, made, camera=bool(args.camera))
    if args.host in ("0.0.0.0", "::", ""):
        print(f"  listening on every network interface, port {port}: anyone on this network can open these "
              "links (--host 127.0.0.1 keeps it to this machine)\n", flush=True)
    else:
        print(f"  listening on {args.host}, port {port}\n", flush=True)
    if on_ready is not None:
        on_ready(app, registry)

    def stop(signum, frame):
        # End the streams first and keep the loop running while their last bytes go out; the
        # loop is stopped from a helper thread once they are done (or after 3 s), by a simulated
        # SIGINT that lands here again.
        if registry.stopping.is_set():
            raise KeyboardInterrupt
        print("stopping: ending the streams", flush=True)
        registry.shutdown()
        threading.Thread(target=_interrupt_when_drained, args=(registry,), daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        registry.shutdown()
        server.close()
        server.task_dispatcher.shutdown(timeout=5)
        late = registry.join_cameras(CAMERA_STOP_S)
        if late:
            print(f"stopping: the camera of table {', '.join(late)} still reads a frame; leaving it", flush=True)
        store.close()
    return 0


def _interrupt_when_drained(registry, limit: float = 3.0) -> None:
    end = time.monotonic() + limit
    while registry.open_streams > 0 and time.monotonic() < end:
        time.sleep(0.02)
    time.sleep(0.2)            # the loop flushes the streams' final chunks
    _thread.interrupt_main()


def print_links(phone: str, base: str, token: str, made: bool, camera: bool = False) -> None:
    import segno
    print()
    print(f"  phones and viewers:  {phone}")
    print(f"  overlay for OBS:     {phone}/overlay   (1920x1080, ?position=&size=&theme=)")
    if camera:
        print(f"  camera view:         {phone}/camera   (what the camera sees and reads)")
    print(f"  lobby (more tables): {base}/")
    # The token rides in the fragment: browsers never send it to a server or in a Referer.
    print(f"  host (keep private): {phone}#token={token}")
    if made:
        print("  the host token was made for this run; pass --host-token or set TABLEREF_HOST_TOKEN to keep it")
    # The host's phone opens the host controls from a scan, with no typing of a 32-character token;
    # the code carries the token, so like the link it is for the host's eyes only.
    print("\n  scan with the host's phone to open the host controls (it carries the token: keep it private):")
    segno.make(f"{phone}#token={token}", error="l").terminal(compact=True, border=2)
    print("\n  scan to join as a viewer:")
    segno.make(phone, error="m").terminal(compact=True, border=2)
    print(flush=True)


class _Late:
    """The WSGI app, filled in once the port is known (the links in the app use the port)."""
    app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)
