"""`tableref demo`: `serve` on the bundled recording instead of a camera (no camera, no network)."""
from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("demo", help="serve a table watched by the bundled demo recording instead of a camera")
    p.add_argument("--rules", choices=("ono", "prison"), default="ono",
                   help="which bundled recording: ono (default: an ONO! game of three) or prison (a California "
                        "Prison game of four with jump-ins and doubles, its seats marked so that each play is "
                        "charged to the hand that brought it)")
    p.add_argument("--once", action="store_true",
                   help="play the recording once and stay on the final state (default: deal the game again "
                        "after showing the result for a few seconds)")
    p.add_argument("--speed", type=_speed, default=1.0,
                   help="play the recording this many times its own speed (default 1; the camera pipeline "
                        "skips frames it has no time for, as with a live camera)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole network)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--host-token", help="the host's token (default: TABLEREF_HOST_TOKEN, or a new random one)")
    from .serve_cmds import add_taught_flag
    add_taught_flag(p)
    p.set_defaults(run=run_demo)


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a speed is a number, got {text!r}")
    if not 0.1 <= value <= 8:
        raise argparse.ArgumentTypeError(f"a speed between 0.1 and 8, got {value:g}")
    return value


def run_demo(args) -> int:
    import shutil
    import sys
    import tempfile

    from ..demo import DEMOS, DemoRecording, DemoTable
    from ..server import serve
    folder = DEMOS[args.rules]
    try:
        recording = DemoRecording(folder)
    except (OSError, ValueError, KeyError) as e:
        print(f"tableref: the demo recording is missing or damaged ({e}); it lives in datasets/{folder.name}/",
              file=sys.stderr)
        return 2
    if not recording.video.is_file():
        print(f"tableref: the demo recording {recording.video} is missing", file=sys.stderr)
        return 2
    # A fresh store each run, never a real table's ./data.
    data = tempfile.mkdtemp(prefix="tableref-demo-")
    setup = dict(recording.setup)
    serve_args = argparse.Namespace(rules=None, players=None, dealer=0, option=[], camera=str(recording.video),
                                    host=args.host, port=args.port, data=data, host_token=args.host_token,
                                    speed=args.speed, taught=args.taught)
    mode = "once, then stays on the final state" if args.once else "in a loop"
    print(f"demo: {recording.video.name} ({', '.join(setup['players'])}; {setup['rules']}) as a live camera "
          f"at {args.speed:g}x, {mode}; store in {data} (removed on exit)", flush=True)
    def ready(app, registry):
        if recording.seats:          # marked as a host would, before the first card
            registry.set_seats("main", {"seats": recording.seats})
            print(f"demo: seats marked: {', '.join(s['player'] for s in recording.seats)}", flush=True)
        DemoTable(app, "main", recording, loop=not args.once).start()

    try:
        return serve(serve_args, setup=setup, on_ready=ready)
    finally:
        shutil.rmtree(data, ignore_errors=True)
