"""`tableref rules`, `cards`, `replay` and `simulate`: the referee from the command line."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    p = sub.add_parser("rules", help="list the rule sets with their options and defaults")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_rules)

    p = sub.add_parser("cards", help="the card ids of a deck with their counts")
    p.add_argument("deck")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_cards)

    p = sub.add_parser("replay", help="feed recorded events (JSON Lines) to the referee")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_replay)

    p = sub.add_parser("simulate", help="play random games on a simulated deck and check invariants")
    p.add_argument("--rules", required=True)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option (JSON value), e.g. --option points_target=500")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_simulate)


def run_rules(args) -> int:
    from referee import all_rules
    described = [r.describe() for r in all_rules().values()]
    if args.json:
        print(json.dumps({"rules": described}, indent=1))
        return 0
    for r in described:
        print(f"{r['id']:<18} {r['title']} — deck {r['deck']}, {r['players'][0]}-{r['players'][1]} players, "
              f"{r['hand_size']} cards each")
        for o in r["options"]:
            allowed = f" (one of {', '.join(map(str, o['choices']))})" if "choices" in o else ""
            print(f"    {o['name']} = {json.dumps(o['default'])}{allowed}: {o['help']}")
    return 0


def run_cards(args) -> int:
    from referee import load_deck
    try:
        deck = load_deck(args.deck)
    except KeyError as e:
        print(f"tableref: {e.args[0]}", file=sys.stderr)
        return 2
    cards = [{"id": c.id, "count": deck.counts[c.id], "color": c.color, "symbol": c.symbol,
              "kind": c.kind, "points": c.points, **c.attrs} for c in deck.cards.values()]
    if args.json:
        print(json.dumps({"deck": deck.id, "name": deck.name, "size": deck.size, "colors": list(deck.colors),
                          "cards": cards}, indent=1))
        return 0
    print(f"{deck.name}: {deck.size} cards")
    for c in cards:
        extra = f"  {c['food']}" if c.get("food") else ""
        print(f"  {c['count']:>2} × {c['id']}{extra}")
    return 0


def read_events(path: str) -> list[tuple[int, dict]]:
    """(line number, event) for every line that is not blank or a comment (starting with #); raises
    SystemExit(2) on the first bad one."""
    from referee import MalformedEvent
    from referee.events import validate
    events = []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        print(f"tableref: cannot read {path}: {e.strerror}", file=sys.stderr)
        raise SystemExit(2)
    except UnicodeDecodeError as e:
        print(f"tableref: {path} is not UTF-8 text (byte {e.start})", file=sys.stderr)
        raise SystemExit(2)
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue        # blank, or a comment (the words of a timeline saved from a phone)
        try:
            events.append((number, validate(json.loads(line))))
        except (json.JSONDecodeError, MalformedEvent, RecursionError) as e:
            # RecursionError: JSON nested deeper than the parser goes is not an event either
            print(f"{path}:{number}: malformed event: {e}", file=sys.stderr)
            raise SystemExit(2)
    return events


def describe_state(state: dict) -> str:
    if state["phase"] == "setup":
        return "no game set up"
    players = ", ".join(f"{p['name']} {p['hand_count']}" + (f" ({p['coins']} coins)" if p["coins"] is not None else "")
                        + (" out" if p["out"] else "") for p in state["players"])
    lines = [f"rules {state['rules']}, phase {state['phase']} ({state.get('waiting_for', '')})",
             f"players: {players}"]
    if state["winner"] is not None:
        lines.append(f"winner: {state['players'][state['winner']]['name']}")
    else:
        cur = state["players"][state["current_player"]]["name"]
        lines.append(f"turn: {cur}, {state['direction']}, pending draw {state['pending_draw']}")
    lines.append(f"top card: {state['top_card']} (colour {state['active_color']}); "
                 f"draw pile {state['draw_pile']}, discard pile {state['discard_pile']}")
    if state.get("cup") is not None:
        lines.append(f"cup: {state['cup']} coins")
    return "\n".join(lines)


def run_replay(args) -> int:
    from referee import Game
    events = read_events(args.file)
    game = Game()
    verdicts = []
    for index, (line, event) in enumerate(events):
        v = game.submit(event)
        verdicts.append({"index": index, "line": line, "type": v.type, "accepted": v.accepted, "reason": v.reason})
        if not args.json:
            print(f"{line:>4} {'ok ' if v.accepted else 'NO '} {v.type:<13} {v.reason}")
    state = game.to_dict()
    if args.json:
        print(json.dumps({"verdicts": verdicts, "state": state}, indent=1))
    else:
        rejected = sum(not v["accepted"] for v in verdicts)
        print(f"\n{len(verdicts)} events, {len(verdicts) - rejected} accepted, {rejected} rejected")
        print(describe_state(state))
    return 0


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"tableref: --option takes NAME=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def run_simulate(args) -> int:
    from referee.errors import Illegal
    from referee.rules import get_rules
    from referee.simulate import simulate
    try:
        get_rules(args.rules)
    except Illegal as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2
    report = simulate(args.rules, args.games, args.players, args.seed, parse_options(args.option))
    if report.games == 0 and report.violations:
        print(f"tableref: {report.violations[0]['problem']}", file=sys.stderr)
        return 2
    d = report.to_dict()
    if args.json:
        print(json.dumps(d))
    else:
        print(f"{'rules':<12}{'games':>8}{'events':>10}{'seconds':>9}{'games/s':>10}{'events/s':>11}{'violations':>12}")
        print(f"{d['rules']:<12}{d['games']:>8}{d['events']:>10}{d['seconds']:>9.2f}{d['games_per_second']:>10.1f}"
              f"{d['events_per_second']:>11.0f}{len(d['violations']):>12}")
        if d["unfinished"]:
            print(f"{d['unfinished']} games stopped unfinished after the event limit")
        for v in d["violations"][:10]:
            print(f"violation in game {v['game']} at event {v['event']}: {v['problem']}")
    return 1 if report.violations else 0
