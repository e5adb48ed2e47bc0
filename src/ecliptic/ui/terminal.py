"""Drawing a game of Tau Ceti for one seat in the terminal, with Rich.

Everything drawn here comes from ``game.observe(state, seat)`` (a JSON-ready dict) and
from the events that seat may see, plus the printed components (tile names, faction
colours, card faces), which are public. Nothing reads the engine's state directly, so
the screen can never show another player's hand or a face-down token.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from rich import box
from rich.color import Color, ColorParseError
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ecliptic.engine.actions import Action
from ecliptic.engine.events import Event
from ecliptic.engine.wording import plural
from ecliptic.present.decision import Why, not_possible, tauceti_prompt
from ecliptic.present.groups import order
from ecliptic.present.names import event_text
from ecliptic.present.tauceti_components import card_label, commodity_label
from ecliptic.present.tauceti_components import tile_name as tile_name  # the map and the CLI name tiles
from ecliptic.present.view import Presented
from ecliptic.tauceti.content import Content, default_content

Obs = dict[str, Any]

DICE_FACES = "⚀⚁⚂⚃⚄⚅"
CELL_RE = re.compile(r"^-?\d+,-?\d+$")
HALF_CELL = 4  # characters between two neighbouring hexes of adjacent rows

HELP = """[bold]At the prompt[/bold]
  [cyan]3[/cyan]              choose action number 3 of the menu
  [cyan]GO 05[/cyan]          type an action's notation (the verb's case does not matter)
  [cyan]board[/cyan]          show the whole table again (map, your Interface, the TCX)
  [cyan]log[/cyan]            show the recent events again
  [cyan]undo[/cyan]           take back your last action, if nobody has moved since and it
                 rolled no die and showed you nothing hidden
  [cyan]save FILE[/cyan]      save the game (resume with: ecliptic play --resume FILE);
                 asks before replacing a file, [cyan]save! FILE[/cyan] does not
  [cyan]help[/cyan]           this help
  [cyan]quit[/cyan]           leave the game; it is kept (as when Ctrl-D, Ctrl-C or closing
                 the terminal ends it): ecliptic play --resume autosave goes on"""
"""The commands, in lines that fit an 80-column terminal (Rich would break longer ones anywhere,
leaving a word alone at the left edge)."""



def content() -> Content:
    return default_content()


# -- small pieces ----------------------------------------------------------------


def faction_style(faction: str) -> str:
    """The faction's colour as a Rich style (the printed colour of its Resource cubes)."""
    try:
        colour = content().faction(faction).colour
        Color.parse(colour)
    except (KeyError, ColorParseError):
        return "bold"
    return f"bold {colour}"


def faction_text(faction: str, label: str | None = None) -> Text:
    return Text(label or faction, style=faction_style(faction))


def dice_glyphs(values: Iterable[int]) -> str:
    return " ".join(DICE_FACES[v - 1] if 1 <= v <= 6 else str(v) for v in values)


def _counts(items: Iterable[str]) -> Text:
    """``['Xunon', 'Xunon', 'Azars']`` as coloured ``Xunon 2  Azars 1``."""
    out = Text()
    for i, (faction, n) in enumerate(sorted(Counter(items).items())):
        if i:
            out.append("  ")
        out.append(f"{faction} {n}", style=faction_style(faction))
    return out


def _seat_faction(obs: Obs, seat: int) -> str:
    return str(obs["players"][seat]["faction"])


def _home_owner(tile: str) -> str | None:
    for f in content().factions:
        if f.home_planet == tile:
            return f.name
    return None


# -- the map -----------------------------------------------------------------------


def hex_grid(obs: Obs, candidates: Iterable[str] = ()) -> Text:
    """The star system as a hex grid: tile ids, with the starships (faction initials) under
    them and ``!`` on a planet in crisis. ``candidates`` are empty positions an action can
    name (``PLACE 2,1``, ``GO -3,1``), drawn as their ``q,r``."""
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    ships: dict[str, list[str]] = {}
    for p in obs["players"]:
        ships.setdefault(p["position"], []).append(p["faction"])
    for tile, (q, r) in obs["layout"].items():
        cells[(q, r)] = (tile, "tile")
    for name in candidates:
        q, r = (int(x) for x in name.split(","))
        cells.setdefault((q, r), (name, "free"))
    if not cells:
        return Text("(no tiles placed)")
    xs = {pos: 2 * pos[0] + pos[1] for pos in cells}
    min_x = min(xs.values())
    rows = sorted({r for _, r in cells})
    lines: list[Text] = []
    for r in rows:
        top: list[tuple[int, str, str]] = []
        bottom: list[tuple[int, str, str]] = []
        for pos, (label, what) in cells.items():
            if pos[1] != r:
                continue
            col = (xs[pos] - min_x) * HALF_CELL
            if what == "free":
                top.append((col, f"({label})".center(8), "dim cyan"))
                continue
            top.append((col, label.center(8), _tile_style(label)))
            marks = "".join(f[0] for f in ships.get(label, []))
            crisis = "!" if obs["planet_crises"].get(label) else ""
            for i, f in enumerate(ships.get(label, [])):
                bottom.append((col + 4 - len(marks + crisis) // 2 + i, f[0], faction_style(f)))
            if crisis:
                bottom.append((col + 4 - len(marks + crisis) // 2 + len(marks), "!", "bold red"))
        lines.append(_place(top))
        lines.append(_place(bottom))
    return Text("\n").join(lines)


def _tile_style(tile: str) -> str:
    try:
        t = content().tile(tile)
    except KeyError:
        return ""
    if t.kind == "tau_ceti":
        return "bold yellow"
    if t.is_planet:
        owner = _home_owner(tile)
        return faction_style(owner) if owner else "bold"
    if t.outer_limit:
        return "magenta"
    return ""


def _place(pieces: list[tuple[int, str, str]]) -> Text:
    """Lay text pieces out at their columns on one line."""
    out = Text()
    for col, text, style in sorted(pieces):
        if col > len(out):
            out.append(" " * (col - len(out)))
        out.append(text, style=style)
    out.rstrip()
    return out


def _sort_key(tile: str) -> tuple[int, str]:
    return (0 if tile.isdigit() else 1 if tile != "TC" else -1, tile)


def _points_text(obs: Obs, tile: str) -> Text:
    out = Text()
    for pid, pt in sorted(obs["points"].items()):
        if pt["sector"] != tile:
            continue
        if out:
            out.append(" ")
        token = pt["token"]
        label = "?" if token == "hidden" else "–" if token is None else token
        out.append(f".{pid.rsplit('.', 1)[-1]} {label}", style="dim" if token is None else "")
        if pt["claimed_by"] is not None:
            faction = _seat_faction(obs, pt["claimed_by"])
            out.append(f" ⚑{faction}", style=faction_style(faction))
    return out


def _planet_text(obs: Obs, tile: str) -> Text:
    out = Text()
    commodity = obs["planet_commodity"].get(tile)
    if commodity:
        out.append(commodity_label(commodity))
    for crisis in obs["planet_crises"].get(tile, []):
        out.append(f"  ⚠ {crisis['crisis_type']} ({crisis['resource']})", style="bold red")
    return out


def map_table(obs: Obs) -> Table:
    """Every placed tile: position, name (on a planet, its commodity and crises under it),
    starships, cubes, orbitals and Exploration points (``?`` = a face-down Knowledge token).

    Why the planet is not a column of its own: at 80 columns seven columns left Rich no room
    but to cut words (``Zorhkon…``, ``quark-g…``); each column here keeps room for the longest
    word it shows, and what is left wraps."""
    ships: dict[str, list[str]] = {}
    for p in obs["players"]:
        ships.setdefault(p["position"], []).append(p["faction"])
    rows: list[list[Text]] = []
    for tile in sorted(obs["layout"], key=_sort_key):
        q, r = obs["layout"][tile]
        name = tile_name(tile)
        label = Text(tile, style=_tile_style(tile))
        if name not in (tile, f"Sector {tile}"):
            label.append(f" {name}")
        planet = _planet_text(obs, tile)
        if planet:
            label.append("\n")
            label.append_text(planet)
        ship_text = Text(" ").join(faction_text(f) for f in ships.get(tile, []))
        orbitals = [_seat_faction(obs, s) for s in obs["orbitals"].get(tile, [])]
        rows.append([Text(f"{q},{r}"), label, ship_text, _counts(obs["cubes"].get(tile, [])),
                     _counts(orbitals), _points_text(obs, tile)])
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    for n, col in enumerate(("Hex", "Sector", "Ships", "Cubes", "Orbitals", "Points")):
        longest = max(len(w) for w in [col, *(w for row in rows for w in row[n].plain.split())])
        table.add_column(col, no_wrap=col == "Hex", min_width=longest)
    for row in rows:
        table.add_row(*row)
    return table


def render_map(obs: Obs, candidates: Iterable[str] = ()) -> RenderableType:
    return Panel(Group(hex_grid(obs, candidates), Text(""), map_table(obs)),
                 title="Star system", title_align="left", box=box.ROUNDED)


# -- the players ---------------------------------------------------------------------


def _systems_text(view: dict[str, Any]) -> Text:
    out = Text()
    for i, (name, s) in enumerate(view["systems"].items()):
        if i:
            out.append("  ")
        out.append(f"{name} ")
        hurt = s["damage"] + s["virus"]
        style = "bold red" if s["effective"] <= 0 else "yellow" if hurt else "bold"
        out.append(f"{s['effective']}" if not hurt else f"{s['effective']}/{s['power']}", style=style)
        if hurt:
            out.append(f" ({s['damage']} dmg" + (f", {s['virus']} virus" if s["virus"] else "") + ")",
                       style="red")
        if s["token"]:
            out.append(f" [{s['token']}]", style="cyan")
    return out


def _knowledge_text(knowledge: dict[str, int]) -> str:
    held = [f"{k} {n}" for k, n in knowledge.items() if n]
    return ", ".join(held) or "none"


def _holdings_text(holdings: list[dict[str, Any]]) -> str:
    c = content()
    parts = []
    for h in holdings:
        try:
            label = c.commodity(c.commodity_token(h["token"]).commodity).label
        except KeyError:
            label = h["token"]
        parts.append(f"{label} ×{h['quantity']}" + (" (engineered)" if h.get("engineered") else ""))
    return ", ".join(parts) or "none"


def _missions_text(missions: list[dict[str, Any]]) -> str:
    parts = []
    for m in missions:
        flags = [f for f, on in (("picked up", m.get("picked_up")), ("unauthorized", m.get("unauthorized")))
                 if on]
        parts.append(card_label(m["card"]) + (f" ({', '.join(flags)})" if flags else ""))
    return "; ".join(parts) or "none"


def markers_left(view: dict[str, Any]) -> int:
    return int(view["markers_left"])


def render_interface(obs: Obs, seat: int) -> RenderableType:
    """The seat's own Interface: tracks, systems with damage, skills, knowledge, holdings,
    missions, GP tokens and the hand (shown only because it is this seat's own)."""
    me = obs["players"][seat]
    try:
        f = content().faction(me["faction"])
        materials_track = f.materials_track
        recruit = f" (recruit cost {materials_track[me['materials']]}T)"
        # The dice a check rolls, as the engine counts them (face-up Specialists add to the skill set).
        skills = Text("  ").join(
            Text(f"{k} {v}", style="bold" if v >= 3 else "") for k, v in me["skills"].items())
        costs = "  ".join(f"{a} {e}" for a, e in f.action_costs.items())
    except (KeyError, IndexError):
        recruit, skills, costs = "", Text(""), ""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    grid.add_row("Tracks", Text.assemble(
        ("TAU ", ""), (str(me["tau"]), "bold green"), ("   Energy ", ""), (str(me["energy"]), "bold yellow"),
        ("   Materials ", ""), (str(me["materials"]), "bold"), (recruit, "dim"),
        ("   Action markers left ", ""), (str(markers_left(me)), "bold"),
        (f" (lost {me['markers_lost']})" if me["markers_lost"] else "", "red")))
    grid.add_row("Starship", Text.assemble(
        ("at ", ""), (tile_name(me["position"]), "bold"), (f"  ({me['position']})", "dim"),
        ("   orbitals at home ", ""), (str(me["orbitals_home"]), "bold")))
    grid.add_row("Systems", _systems_text(me))
    grid.add_row("Skills", skills)
    grid.add_row("Knowledge", Text(_knowledge_text(me["knowledge"])))
    grid.add_row("Holdings", Text(_holdings_text(me["holdings"])))
    grid.add_row("Missions", Text(_missions_text(me["missions"])))
    hand = me.get("hand", [])
    grid.add_row("Hand", Text(", ".join(card_label(c) for c in hand) or "empty"))
    if me["face_up"]:
        grid.add_row("Face up", Text(", ".join(card_label(c) for c in me["face_up"])))
    grid.add_row("GP tokens", Text(f"{me['gp_tokens']} ({me['gp_token_points']} GP)"))
    extras = _extras(me)
    if extras:
        grid.add_row("Also", Text(extras))
    grid.add_row("Energy costs", Text(costs))
    title = Text.assemble(("Your Interface: ", ""), faction_text(me["faction"]),
                          (f", {me['character']} (seat {seat + 1})", ""))
    return Panel(grid, title=title, title_align="left", box=box.ROUNDED)


def _extras(view: dict[str, Any]) -> str:
    parts = []
    if view["claim"]:
        parts.append(f"Claim token on {view['claim']}")
    if view["diplomacy"]:
        parts.append("Diplomacy card")
    if view["exotic_tech"]:
        parts.append(f"Exotic Tech {view['exotic_tech']}")
    if view["cargo_cube"]:
        parts.append("a Resource cube in the cargo hold")
    if view["free_upgrades"]:
        parts.append(plural(view['free_upgrades'], 'free upgrade'))
    if view["battle_sector"]:
        parts.append(f"battle in {view['battle_sector']}")
    if view["passed"]:
        parts.append("passed")
    return "; ".join(parts)


def _short_knowledge(knowledge: dict[str, int]) -> str:
    return " ".join(f"{k[:3]} {n}" for k, n in knowledge.items() if n)


def render_players(obs: Obs, seat: int | None) -> RenderableType:
    """Every player's public side: what anyone at the table can see of them."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0),
                  caption="▶ you · ★ first player · Mk Action markers left (P passed) · "
                          "Hd cards in hand · GP GP tokens · Dm damage · Orb orbitals at home",
                  caption_justify="left", caption_style="dim")
    for col in ("#", "Faction", "At", "TAU", "En", "Mat", "Mk", "Hd", "GP", "Dm", "Orb"):
        table.add_column(col, no_wrap=True, justify="left" if col in ("#", "Faction", "At") else "right")
    table.add_column("Knowledge · face up", min_width=12)
    for p in obs["players"]:
        first = "★" if p["seat"] == obs["first_player"] else ""
        you = "▶" if p["seat"] == seat else ""
        name = faction_text(p["faction"])
        if p["seat"] == seat:
            name.stylize("underline")
        damage = sum(s["damage"] + s["virus"] for s in p["systems"].values())
        more = " · ".join(x for x in (_short_knowledge(p["knowledge"]), ", ".join(p["face_up"])) if x)
        table.add_row(
            f"{you}{p['seat'] + 1}{first}", name, p["position"], str(p["tau"]), str(p["energy"]), str(p["materials"]),
            "P" if p["passed"] else str(markers_left(p)), str(p["hand_size"]), str(p["gp_tokens"]),
            str(damage) if damage else "", str(p["orbitals_home"]), more)
    return Panel(table, title="Players", title_align="left", box=box.ROUNDED)


# -- the Tau Ceti Exchange -----------------------------------------------------------


def render_tcx(obs: Obs) -> RenderableType:
    """Market levels, crises on the planets and what is left in the Crisis token stacks,
    the supply, the Galactic Depot and the decks."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    levels = content().numbers.market_levels
    grid.add_row("Market", Text("  ").join(
        Text(f"{r} {lv}", style="bold red" if lv >= levels else "bold" if lv > 1 else "")
        for r, lv in obs["market"].items()))
    crises = [f"{tile_name(planet)}: " + ", ".join(f"{c['crisis_type']} ({c['resource']})" for c in toks)
              for planet, toks in sorted(obs["planet_crises"].items())]
    grid.add_row("Crises", Text("; ".join(crises) or "none", style="bold red" if crises else ""))
    grid.add_row("Crisis tokens", "  ".join(f"{k} {n}" for k, n in obs["crisis_stacks"].items()))
    supply: Counter[str] = Counter(obs["supply"])
    grid.add_row("Supply", ", ".join(f"{commodity_label(k)} {n}" for k, n in sorted(supply.items()))
                 + f"   (Demand pile {obs['demand_pile']})")
    grid.add_row("Depot", f"Knowledge: {_knowledge_text(obs['depot_knowledge'])}; "
                 f"{len(obs['depot_systems'])} Systems tokens")
    decks = obs["decks"]
    grid.add_row("Decks", "  ".join(f"{k.replace('_', ' ')} {n}" for k, n in decks.items() if n)
                 + f"   GP tokens {obs['gp_supply']}  Damage markers {obs['damage_supply']}")
    e = obs["enlightenment"]
    if e.get("affected") and obs["phase"] == "enlightenment":
        played = ", ".join(f"{_seat_faction(obs, int(s))} {n}" for s, n in e["played"].items())
        grid.add_row("Enlightenment", f"{tile_name(e['affected'])} at risk; Active deck "
                     f"{plural(e['active_deck'], 'card')}; played face down: {played or 'none'}")
    return Panel(grid, title="Tau Ceti Exchange", title_align="left", box=box.ROUNDED)


# -- the whole table, the decision, the events -----------------------------------------


def header(obs: Obs) -> Text:
    """``Round 3 · Action phase · first player Xunon``; the setup is no round (the engine counts
    it as round 0, which a person never reads)."""
    phase = str(obs["phase"]).capitalize()
    first = obs["players"][obs["first_player"]]["faction"]
    if not obs["round"]:
        return Text.assemble((f"{phase} phase", "bold"), " · first player ", faction_text(first))
    return Text.assemble(("Round ", "bold"), (str(obs["round"]), "bold"), (f" · {phase} phase · first player ", ""),
                         faction_text(first))


def cell_candidates(actions: Sequence[Action]) -> list[str]:
    """Empty positions named by the legal actions (``PLACE 1,2``, ``GO -3,1``)."""
    return sorted({a for act in actions for a in act.args if CELL_RE.match(a)})


def render_board(obs: Obs, seat: int, actions: Sequence[Action] = ()) -> RenderableType:
    return Group(header(obs), render_map(obs, cell_candidates(actions)), render_tcx(obs),
                 render_players(obs, seat), render_interface(obs, seat))


def describe_decision(obs: Obs, seat: int, verbs: Collection[str] | None = None, why: Why | None = None) -> Text:
    """What the pending decision asks, in words, with its public details
    (:func:`ecliptic.present.decision.tauceti_prompt`, the server's text too; ``verbs``: those
    of the legal actions, when known, and ``why`` they leave a verb out,
    :func:`ecliptic.present.decision.not_possible`)."""
    d = obs["decision"]
    if d is None:
        return Text("The game is over.")
    if d["player"] != seat:
        return Text.assemble(("Waiting for ", ""), faction_text(_seat_faction(obs, d["player"])))
    text, details = tauceti_prompt(obs, seat)
    out = Text(text, style="bold")
    data = d["data"]
    if "dice" in data and isinstance(data["dice"], list):
        details = "; ".join(x for x in (details, dice_glyphs(data["dice"])) if x)
    if details:
        out.append("  (" + details + ")", style="dim")
    missing = not_possible("tauceti", text, verbs, why)
    if missing:
        out.append(missing, style="bold")
    return out


def menu_item(number: int, width: int, p: Presented) -> Text:
    """``12 BUY algae 2 (note) · 1 Action marker, 2 energy, 2 TAU → +2 Xunari algae``."""
    item = Text.assemble((f"{number:>{width}}", "bold cyan"), " ", str(p.action))
    note = p.label.removeprefix(str(p.action)).strip()
    if note:
        item.append(f" {note}", style="dim")
    if p.cost:
        item.append(f" · {p.cost}", style="yellow")
    if p.effect:
        item.append(f" → {p.effect}", style="green")
    return item


def _hanging(item: Text, indent: int) -> RenderableType:
    """A menu item whose wrapped lines begin under its text, not under its number, so that on
    a narrow terminal the numbers stay alone at the left edge, where the eye looks for them."""
    number, rest = item[:indent], item[indent:]
    grid = Table.grid()
    grid.add_column(no_wrap=True, width=indent)
    grid.add_column()
    grid.add_row(number, rest)
    return grid


def grouped_menu(game: str, presented: Sequence[Presented]) -> RenderableType:
    """The legal actions numbered in the engine's order (the number the prompt takes), listed
    by group (:mod:`ecliptic.present.groups`) with each one's cost and effect."""
    width = len(str(len(presented)))
    by_group: dict[str, list[RenderableType]] = {}
    for i, p in enumerate(presented, 1):
        by_group.setdefault(p.group, []).append(_hanging(menu_item(i, width, p), width + 1))
    parts: list[RenderableType] = []
    for name in order(game):
        items = by_group.get(name)
        if items:
            parts.append(Text(name, style="bold underline"))
            parts.append(Columns(items, padding=(0, 3), expand=False))
    return Group(*parts)


def action_menu(presented: Sequence[Presented]) -> RenderableType:
    return grouped_menu("tauceti", presented)


def render_event(event: Event, game: str = "tauceti") -> Text:
    """One line of the log, its cards named as the browser's log names them (``event_text``);
    die rolls also as dice faces, private news marked as such."""
    if event.kind == "round":
        return Text(f"── {event.text} ──", style="bold cyan")
    style = "bold green" if event.kind == "game_over" else "bold" if event.kind == "phase" else ""
    out = Text("• ", style="dim")
    out.append(event_text(game, event.text), style=style)
    dice = event.data.get("dice")
    if isinstance(dice, list) and dice and all(isinstance(d, int) for d in dice):
        out.append(f"  {dice_glyphs(dice)}", style="bold")
    die = event.data.get("die")
    if isinstance(die, int):
        out.append(f"  {dice_glyphs([die])}", style="bold")
    if event.visible_to is not None:
        out.append("  (only you see this)", style="dim italic")
    return out


def render_final(obs: Obs) -> RenderableType:
    """Final Galactic Points by source (one row per source, one column per player), and the
    winner(s)."""
    scores: list[dict[str, int]] = obs["final_scores"]
    winners = set(obs["winners"])
    table = Table(box=box.SIMPLE_HEAD, title="Final scores (GP)", title_justify="left", show_edge=False)
    table.add_column("Source")
    for seat in range(len(scores)):
        name = _seat_faction(obs, seat)
        table.add_column(faction_text(name, ("★ " if seat in winners else "") + name), justify="right")
    sources = list(scores[0]) if scores else []
    for source in sources:
        style = "bold" if source == "total" else ""
        if source == "total":
            table.add_section()
        table.add_row(Text(source.replace("_", " "), style=style),
                      *(Text(str(row.get(source, 0)), style=style) for row in scores))
    if not winners:
        verdict = Text("No winner: the target was not reached.", style="bold red")
    else:
        names = " and ".join(_seat_faction(obs, s) for s in sorted(winners))
        verdict = Text(f"Winner{'s' if len(winners) > 1 else ''}: {names}", style="bold green")
    return Group(table, verdict)
