"""The balance report: ``index.html`` (Jinja2), ``results.json`` and ``figures/*.svg``
(Matplotlib), from a study file alone (``ecliptic balance report FILE``).

The page is self-contained: plain HTML and CSS, the figures as SVG files beside it, no script
and no address outside the folder. Each figure is drawn from the rows of the table shown with
it (:class:`Block`), so what is plotted can always be read as numbers. Jinja2 and Matplotlib are
the balance extra; they are imported only here, when a report is written.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecliptic.balance import results as folding
from ecliptic.balance import stats
from ecliptic.balance.tables import COMPARISONS, WIN_RATES, write_tables
from ecliptic.engine.errors import EclipticError

EXTRA = "install the balance extra: pip install 'ecliptic[balance]'"
SOURCE_LABELS = {
    "tau": "TAU", "cards": "Cards", "orbitals": "Orbitals", "cubes": "Resource cubes", "gp_tokens": "GP tokens",
    "assists": "Assists", "virus_crystals": "Virus crystals", "specialization_raised": "Specialization raised",
    "home_crises": "Crises at home", "asteroids": "Asteroids", "tail_tokens": "Tail tokens",
    "nucleus_tables": "Nucleus tables", "total": "Total",
}
"""The score sheet's names of the engine's score sources (the browser's score.js says the same)."""
TITLES = {"tauceti": "Tau Ceti: Planetary Crisis", "ceres": "Ceres"}
COMET_LABELS = {"launches": "Launches", "stays": "Stays", "jumps": "Jumps", "explosions": "Explosions"}
TOP_PLANETS = 10
STAND_INS = {
    "tauceti": ("invented where the rulebook prints no value: docs/content-stand-ins.md",
                "the packaged content, in which every number the rulebook does not print (card GP, the "
                "factions' Interfaces, tile values and more) is an invented stand-in (docs/content-stand-ins.md)."),
    "ceres": ("a reconstructed host game, its numbers invented: docs/ceres.md",
              "a reconstructed host game: base Ceres is not public, and its belt, Ice, Mining Probes and "
              "Asteroid values are invented stand-ins (docs/ceres.md, docs/rules-decisions.md)."),
}
"""How the page names the packaged content of each game: short (the facts) and in a sentence."""
FOLDER_GAPS = "a file the folder does not have is still the stand-ins'."
"""What a content folder leaves to the stand-ins, as the page and ``ecliptic simulate`` say it."""

Json = dict[str, Any]


class ReportError(EclipticError, ValueError):
    """The report cannot be written (the balance extra is missing)."""


@dataclass(frozen=True)
class Table:
    caption: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    folded: bool = False
    """Long tables (every bin, every round) are shown folded (a <details> element)."""


@dataclass(frozen=True)
class Block:
    """A figure and the tables behind it (or tables alone)."""

    title: str
    text: str = ""
    figure: str | None = None
    alt: str = ""
    tables: Sequence[Table] = ()


@dataclass
class Section:
    id: str
    title: str
    text: str = ""
    blocks: list[Block] = field(default_factory=list)


@dataclass(frozen=True)
class Written:
    """A report written: its page and the results it shows (for the terminal's summary)."""

    page: Path
    results: Mapping[str, Any]


def write_report(study_file: Path, out: Path) -> Written:
    """Read the study file, fold it, write the report into ``out``: the path of ``index.html``
    and the results."""
    _require_extra()
    from ecliptic.balance.stream import read_study

    study = read_study(study_file)
    results = folding.fold(study.header, study.records(), str(study_file))
    page = render(results, out, command=f"ecliptic balance report {shlex.quote(str(study_file))}",
                  again=f"{results['command']} --out {shlex.quote(str(study_file.parent))}")
    return Written(page, results)


def _require_extra() -> None:
    missing = [name for name in ("jinja2", "matplotlib") if importlib.util.find_spec(name) is None]
    if missing:
        raise ReportError(f"the report needs {' and '.join(missing)}: {EXTRA}")


def render(results: Mapping[str, Any], out: Path, *, command: str, again: str | None = None) -> Path:
    """Write ``results.json``, the figures and ``index.html`` of folded results into ``out``
    (``command`` rebuilds the report, ``again`` plays the study again: default, the results'
    ``command`` without ``--out``)."""
    _require_extra()
    try:
        return _render(results, out, command, again or str(results.get("command") or "not known"))
    except OSError as exc:  # a folder that is a file, a full disk, no permission: a message, not a traceback
        raise ReportError(f"cannot write the report into {out}: {exc.strerror or exc}") from None


def _render(results: Mapping[str, Any], out: Path, command: str, again: str) -> Path:
    import jinja2

    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(folding.results_json(results), encoding="utf-8")
    write_tables(results, out)
    figures = out / "figures"
    for old in figures.glob("*.svg") if figures.is_dir() else ():
        old.unlink()  # a figure of an earlier report (another arm) must not linger beside the new ones
    page = _Page(results, figures)
    env = jinja2.Environment(loader=jinja2.PackageLoader("ecliptic.balance", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["intervals"] = keep_intervals
    html = env.get_template("report.html.j2").render(
        title=f"Balance study: {TITLES[results['game']]}", facts=page.facts(command, again), arms=page.arm_rows(),
        conclusions=page.conclusions(), notes=page.notes(), sections=page.sections())
    index = out / "index.html"
    index.write_text(html, encoding="utf-8")
    return index


# Formatting --------------------------------------------------------------------------------


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:,.{digits}f}"


def p_text(p: float | None) -> str:
    if p is None:
        return "–"
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


def keep_intervals(text: object) -> str:
    """A table cell with each bracketed interval kept on one line (its spaces made no-break): the
    cells of a wide table wrap to fit a laptop's width, between a mean and its interval, never
    inside "[9.64, 10.32]"."""
    return re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\u00a0"), str(text))


def yes_no(flag: bool | None) -> str:
    return "–" if flag is None else ("yes" if flag else "no")


def significant_text(flag: bool | None, games: int, needed: int, *, constant: bool = False) -> str:
    """The "Significant" cell: a "no" on fewer games than the test needs to see the difference
    the table names is not a finding of balance, and the cell says so where it is read; a
    comparison of a measure the same in every game of both arms is no test, and says so."""
    if constant:
        return "yes (the same in every game, exactly)" if flag else "no (the same in every game of both)"
    if flag is False and games < needed:
        return "no (too few games to tell)"
    return yes_no(flag)


def mean_text(m: Mapping[str, float], digits: int = 2) -> str:
    return f"{num(m['mean'], digits)} [{num(m['low'], digits)}, {num(m['high'], digits)}]"


# The terminal's summary ---------------------------------------------------------------------


def group_label(kind: str, g: Mapping[str, Any]) -> str:
    """A win-rate row's name, on the page and in the terminal alike: a faction or bot, or a position."""
    return position_name(g["position"]) if kind == "positions" else str(g["name"])


def summary(results: Mapping[str, Any]) -> Any:
    """The report's headline figures as Rich tables, for the terminal: per arm, the win rate of
    each faction (Ceres: each position from the first player; and each bot when the seats mix
    bots) with its interval, its fair share and a star when the Holm-corrected test finds it off
    that share, then the games, the mean total points per seat and the mean rounds. Narrow
    enough for 80 columns (an arm's label folds). Every figure is one of ``results`` (the fold
    the page is drawn from), formatted as on the page: the terminal and the page never disagree."""
    from rich import box
    from rich.console import Group
    from rich.table import Table as RichTable
    from rich.text import Text

    game = results["game"]
    arms = results["arms"]
    multi = len(arms) > 1
    unit = "GP" if game == "tauceti" else "VP"
    played = sorted({a["games"] for a in arms})
    games = ", ".join(f"{g:,}" for g in played)
    if isinstance(results["games"], int) and played[0] < results["games"]:
        games += f" of the {results['games']:,} asked (unfinished)"
    parts: list[Any] = [Text(f"{TITLES[game]}, balance study: {games} games per arm, seed {results['seed']}, "
                             f"bots {','.join(map(str, results['bots']))}, {version_text(results.get('ecliptic'))}",
                             style="bold")]
    stand_ins = [a for a in arms if not a.get("content")]
    if stand_ins:
        which = ("every arm plays" if len(stand_ins) == len(arms)
                 else f"{len(stand_ins)} of the {len(arms)} arms play{'s' if len(stand_ins) == 1 else ''}")
        parts.append(Text(stand_ins_line(game, which), style="yellow"))
    kinds = ["factions" if game == "tauceti" else "positions"]
    if any(len(a["bots"]) > 1 for a in arms):
        kinds.append("bots")
    for kind in kinds:
        word = {"factions": "Faction", "positions": "Position", "bots": "Bot"}[kind]
        table = RichTable(title=f"Win rate per {word.lower()} (* significantly off the fair share, after Holm)",
                          title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        if multi:  # a long label folds onto more lines; the figures never wrap
            table.add_column("Arm", overflow="fold", min_width=10)
        for col in (word, "Games", "Win rate", "95% interval", "Fair"):
            table.add_column(col, justify="left" if col == word else "right", no_wrap=True)
        for a in arms:
            for g in a[kind]:
                table.add_row(*([Text(str(a["label"]))] if multi else []), Text(group_label(kind, g)),
                              f"{g['games']:,}",
                              Text(pct(g["win_rate"]) + ("*" if g["significant"] else " ")),
                              f"[{pct(g['interval'][0])}, {pct(g['interval'][1])}]", pct(g["fair_share"]))
        parts.append(table)
    short = sum(1 for a in arms for kind in kinds for g in a[kind]
                if g["significant"] is False and g["games"] < g["games_needed"])
    if short:
        parts.append(Text(f"{short} of these win rates without a * rest on fewer games than needed to see 5 points: "
                          "not measured, which is not a sign of balance (the page's 'What this study shows' says "
                          "which).", style="dim"))
    means = RichTable(title="Points and length (means, 95% intervals)", title_justify="left", box=box.SIMPLE_HEAD,
                      pad_edge=False, collapse_padding=True)
    means.add_column("Arm", overflow="fold", min_width=10)
    for col in ("Games", f"{unit} per seat", "Rounds"):
        means.add_column(col, justify="right", no_wrap=True)
    for a in arms:
        means.add_row(Text(str(a["label"])), f"{a['games']:,}", mean_text(a["total_points"]), mean_text(a["rounds"]))
    parts.append(means)
    tested = [c for c in results["comparisons"] if not c.get("constant")]
    significant = [c for c in tested if c["significant"]]
    if tested:
        fixed = len(results["comparisons"]) - len(tested)
        verb = "is" if fixed == 1 else "are"
        left = (f"; {fixed} more cannot differ (the same in every game of both arms) and {verb} left out of the "
                "correction" if fixed else "")
        parts.append(Text(f"{len(significant)} of the {len(tested)} comparisons with the base arm are significant "
                          f"after Holm{left} (the report's page lists them).", style="dim"))
    return Group(*parts)


def version_text(version: object) -> str:
    """The Ecliptic version that began the study, in words (a file begun before studies
    recorded it says so rather than guess)."""
    return f"begun with Ecliptic {version}" if version else "Ecliptic version not recorded (an older study file)"


def stand_ins_line(game: str, which: str) -> str:
    """The one line a terminal summary gives content's invented numbers (the balance report's,
    ``ecliptic simulate``'s): ``which`` says who plays them ("every arm plays", "these games play")."""
    return f"Stand-in numbers: {which} the packaged stand-ins ({STAND_INS[game][0]}), not the printed game."


def source_label(source: str) -> str:
    """A score source as the score sheet names it (:data:`SOURCE_LABELS`); an unknown one as it is."""
    return SOURCE_LABELS.get(source, source)


def position_name(i: int) -> str:
    return "first player (0)" if i == 0 else f"position {i}"


def compared_group(c: Mapping[str, Any]) -> str:
    """A comparison's faction or position, named as the win-rate tables name it (results.json
    keys a position ``position 0``; the page calls it the first player everywhere)."""
    found = re.fullmatch(r"position (\d+)", str(c["group"]))
    return position_name(int(found.group(1))) if found else str(c["group"])


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-").lower() or "arm"


# The page ---------------------------------------------------------------------------------


class _Page:
    """The sections of one report, drawing each figure as its block is built."""

    def __init__(self, results: Mapping[str, Any], figures: Path) -> None:
        from ecliptic.balance import figures as draw

        self.draw = draw
        self.r = results
        self.dir = figures
        self.game: str = results["game"]
        self.unit = "GP" if self.game == "tauceti" else "VP"
        self.arms: list[Json] = results["arms"]
        self.multi = len(self.arms) > 1

    def path(self, name: str) -> tuple[Path, str]:
        return self.dir / f"{name}.svg", f"figures/{name}.svg"

    def label(self, arm: Mapping[str, Any]) -> str:
        return str(arm["label"])

    # Header -------------------------------------------------------------------------------

    def facts(self, command: str, again: str) -> list[tuple[str, str]]:
        r = self.r
        played = sorted({a["games"] for a in self.arms})
        games = ", ".join(f"{g:,}" for g in played)
        if isinstance(r["games"], int) and played[0] < r["games"]:
            games += f" (of the {r['games']:,} asked: the study is unfinished; resume it to play the rest)"
        players = ", ".join(str(n) for n in sorted({a["players"] for a in self.arms}))
        out = [("Game", TITLES[self.game]), ("Players", players), ("Bots", ", ".join(map(str, r["bots"]))),
               ("Games per arm", games), ("Seed", str(r["seed"])), ("Sweep", str(r["sweep"] or "none")),
               ("Content", self.content()), ("Base arm", self.label(self.arms[0])),
               ("Ecliptic version", f"{r['ecliptic']} (the version that began the study)" if r.get("ecliptic")
                else "not recorded (a study file begun before the version was recorded)"),
               ("Play this study again", again),
               ("Rebuild this report", command),
               ("For a spreadsheet", f"{WIN_RATES} (every win rate, its interval and test), {COMPARISONS} "
                                     "(every arm against the base), beside this page")]
        return out

    def content(self) -> str:
        """The packaged stand-ins, or the digest of each content pack an arm plays."""
        packs = _union(f"{c.get('folder', '?')} (digest {c.get('digest', '?')})"
                       for a in self.arms if (c := a.get("content")))
        stand_ins = any(not a.get("content") for a in self.arms)
        return ", ".join([*([f"the packaged stand-ins ({STAND_INS[self.game][0]})"] if stand_ins else []),
                          *packs])

    def compared_games(self, c: Mapping[str, Any], arms: Mapping[str, Any]) -> int:
        """The games per arm a comparison rests on: the fewer of its arm's and the base's."""
        return min(int(arms[c["arm"]]["games"]), int(self.arms[0]["games"]))

    def conclusions(self) -> list[str]:
        """What the figures support and what they do not, in words, before any table: the
        stand-ins and the bots the games rest on, each win rate off its fair share, the rates
        too few games were played to judge (a "not significant" there is not "balanced"), and
        the differences between arms."""
        out = []
        on_stand_ins = [a for a in self.arms if not a.get("content")]
        if on_stand_ins:
            which = "every arm plays" if len(on_stand_ins) == len(self.arms) else (
                f"the arm{'s' if len(on_stand_ins) > 1 else ''} on the stand-ins ("
                + ", ".join(self.label(a) for a in on_stand_ins) + f") play{'' if len(on_stand_ins) > 1 else 's'}")
            out.append(f"Stand-in numbers: {which} {STAND_INS[self.game][1]} Their figures say how the stand-ins "
                       "play, not how the printed game does: play the printed values (--content) before changing "
                       "the game on the strength of this report.")
        if len(on_stand_ins) < len(self.arms):
            out.append(f"An arm on a content folder plays that folder's files; {FOLDER_GAPS}")
        out.append(f"Bots, not people: every seat is played by a bot ({', '.join(map(str, self.r['bots']))}; "
                   "docs/bots.md). The figures are what these bots find; check a finding with other players "
                   "(--bots) before acting on it.")
        kinds = ["factions", "positions"] if self.game == "tauceti" else ["positions"]
        for a in self.arms:
            for kind in kinds:
                sentence = self._fair_share_finding(a, kind)
                if sentence:
                    out.append(f"{self.label(a)}: {sentence}" if self.multi else sentence)
        out += self._comparison_findings()
        if any("not measured" in line for line in out):
            out.append('To measure what is "not measured", continue the study with a larger --games and --resume: '
                       "the games already played are kept.")
        return out

    def _fair_share_finding(self, arm: Mapping[str, Any], kind: str) -> str:
        groups = [g for g in arm[kind] if g["significant"] is not None]
        if not groups:
            return ""
        off = [g for g in groups if g["significant"]]
        unmeasured = [g for g in groups if not g["significant"] and g["games"] < g["games_needed"]]
        measured = [g for g in groups if not g["significant"] and g["games"] >= g["games_needed"]]
        parts = []
        if off:
            parts.append("significantly off the fair share after Holm: " + "; ".join(_finding(kind, g) for g in off)
                         + ".")
        if unmeasured:
            names = ", ".join(group_label(kind, g) for g in unmeasured)
            who = ("none is" if len(unmeasured) == len(groups)
                   else f"{names} {'is' if len(unmeasured) == 1 else 'are'} not")
            parts.append(f"{who} significantly off it, but with {_span([g['games'] for g in unmeasured])} games "
                         f"each a difference of 5 points needs about {_span([g['games_needed'] for g in unmeasured])} "
                         "games: not measured, which is not evidence of balance.")
        if measured:
            names = ", ".join(group_label(kind, g) for g in measured)
            parts.append(f"{names} {'is' if len(measured) == 1 else 'are'} within about 5 points of it (not "
                         "significantly off it, on enough games to see 5 points four times in five).")
        title = "Factions" if kind == "factions" else "Seat order, from the first player"
        shares = ", ".join(sorted({pct(g["fair_share"]) for g in groups}))
        return f"{title} (fair share {shares}): " + " ".join(
            [parts[0], *(part[:1].upper() + part[1:] for part in parts[1:])])

    def _comparison_findings(self) -> list[str]:
        every = self.r["comparisons"]
        rows = [c for c in every if not c.get("constant")]
        if not every:
            return []
        by_name = {a["name"]: a for a in self.arms}
        found = [c for c in rows if c["significant"]]
        short = [c for c in rows if not c["significant"] and self.compared_games(c, by_name) < c["games_needed"]]
        out = [f"Against the base arm ({self.label(self.arms[0])}): {len(found)} of the {len(rows)} comparisons "
               "are significant after Holm" + (":" if found else ".")]
        shown = 12
        for c in found[:shown]:
            if c["measure"] == "win_rate":
                diff = f"win rate of {compared_group(c)} {pct(c['base_value'])} → {pct(c['value'])}"
            else:
                unit = self.unit if c["measure"] == "total" else "rounds"
                word = "mean total" if c["measure"] == "total" else "mean rounds"
                diff = f"{word} {num(c['base_value'])} → {num(c['value'])} {unit}"
            out[-1] += f" {self.label(by_name[c['arm']])}, {diff};"
        if found:
            out[-1] = out[-1].rstrip(";") + (f"; and {len(found) - shown} more (the table below)." if len(found) > shown
                                             else ".")
        if short:
            out.append(f"{len(short)} of the other comparisons {'rests' if len(short) == 1 else 'rest'} on fewer "
                       "games per arm than needed to see the difference the table names: there, \"not significant\" "
                       "means \"not measured\", not \"no difference\".")
        fixed = [c for c in every if c.get("constant")]
        if fixed:
            named = "; ".join(f"{self.label(by_name[c['arm']])}, {self._measure_name(c)} "
                              f"{self._value(c, c['base_value'])} in every game of both" for c in fixed)
            out.append(f"Not tested, as the same in every game of the arm and of the base (known exactly, left out "
                       f"of Holm's correction, which they would only make stricter): {named}.")
        return out

    def _measure_name(self, c: Mapping[str, Any]) -> str:
        if c["measure"] == "win_rate":
            return f"win rate of {compared_group(c)}"
        return "mean total" if c["measure"] == "total" else "mean rounds"

    def _value(self, c: Mapping[str, Any], x: float) -> str:
        if c["measure"] == "win_rate":
            return pct(x)
        return f"{num(x)} {self.unit if c['measure'] == 'total' else 'rounds'}"

    def arm_rows(self) -> Table:
        rows = []
        for a in self.arms:
            content = a.get("content")
            where = ("stand-ins" if not content  # the digest's start, as simulate's heading: the facts give it whole
                     else f"{content.get('folder', '?')} (digest {str(content.get('digest', '?'))[:12]})")
            config = a.get("config") or {}
            shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(config.items()) if k != "players")
            rows.append([a["name"], self.label(a), str(a["players"]), f"{a['games']:,}", where, shown])
        return Table("The arms of the study (the first is the base every other arm is compared with)",
                     ["Arm", "Label", "Players", "Games", "Content", "Config"], rows)

    def notes(self) -> list[str]:
        comparisons = len(self.r["comparisons"])
        out = [
            "Intervals are 95%: Wilson's score interval for a win rate, Student's t for a mean. A win shared by k "
            "players counts 1/k for each of them. A win rate's interval takes each game as one value (the seats of "
            "a game are not independent: a bot in two seats of a game wins in one at most): Wilson's at the "
            "effective number of seat-games, p(1 − p) over the variance the spread of the games' totals gives; "
            "with one seat a game and no shared win it is the plain Wilson interval, and a bot in every seat has "
            "exactly 1/players.",
            "The interval of a mean is cut at 0 where the quantity cannot cross it (the t interval of few or "
            "skewed values would reach values no game can have): " + (
                "from below for a count (rounds, decisions, margins, crises prevented, rounds without a crisis) and "
                "for the GP the components give (TAU, cards, Orbitals, Resource cubes, GP tokens), from above for "
                "a deduction (Advanced Rules 7-9); assists, the total and the differences between arms are not "
                "cut." if self.game == "tauceti" else
                "from below for a count (rounds, decisions, margins, comet outcomes) and for every source of VP "
                "and the total (VP are only gained); the differences between arms are not cut.")
            + " An interval is not cut where a game of the arm had a value across 0 (a content printing a "
            "negative value).",
            "A win rate is tested against its fair share (1/players) by the score test (the test the Wilson "
            "interval inverts, at the same effective number), two-sided at 5%; the p-values are corrected by Holm's "
            "method over the factions of an arm, and separately over its positions and over its bots. A bot's "
            "games are its seats: a bot in two seats of a game counts two games.",
            f"Games for ±5 points: the games (in which that faction, position or bot plays) a two-sided test at 5% "
            f"needs to detect a win rate 5 percentage points away from the one measured, with power "
            f"{stats.POWER:.0%}: n = ((1.96 √(p₀q₀) + 0.84 √(p₁q₁)) / 0.05)², p₁ = p₀ ± 0.05 toward ½, where p₀ is "
            f"the measured rate or the fair share, whichever is nearer ½ (½ in a solo game): at a rate of 0% or "
            f"100% the measured rate has no variance and the formula would promise a few games, so the figure is "
            f"never below that of a rate at the fair share.",
        ]
        if comparisons:
            fixed = sum(1 for c in self.r["comparisons"] if c.get("constant"))
            left = (f" ({fixed} more, a measure the same in every game of both arms, is known exactly: no test, "
                    "left out of the family)" if fixed == 1 else
                    f" ({fixed} more, measures the same in every game of both arms, are known exactly: no tests, "
                    "left out of the family)" if fixed else "")
            out.append(
                f"All {comparisons - fixed} comparisons of arms against the base arm on this page that can differ "
                f"(win rates, mean totals, mean rounds) form ONE Holm family{left}: a difference is called "
                f"significant only after that correction. "
                f"Win rates are compared by the unpooled z-test with Newcombe's interval, each rate taken at its "
                f"effective number of seat-games (a shared win varies less than a win or a loss), means by "
                f"Welch's t-test. "
                f"Games per arm: n = (1.96 √(2 p̄ q̄) + 0.84 √(p₁q₁ + p₂q₂))² / 0.05² for a win rate (p₁ the base's "
                f"rate or its fair share, whichever is nearer ½), "
                f"n = 2 (1.96 + 0.84)² σ² / δ² for a mean (δ = {num(folding.DELTA_MEANS['total'], 1)} {self.unit} of "
                f"total, {num(folding.DELTA_MEANS['rounds'], 1)} round).")
            out.append(
                "Game i of every arm has the same seed and seating (common random numbers), so the arms' results "
                "are usually positively correlated; the tests treat the arms as independent samples, which makes "
                "them conservative: a real difference may need fewer games than the tables say.")
        return out

    # Sections -----------------------------------------------------------------------------

    def sections(self) -> list[Section]:
        out = []
        if self.game == "tauceti":
            out.append(Section("factions", "Win rate per faction", blocks=[self.win_rates("factions")]))
        out.append(Section("seats", "Seat order: win rate by position from the first player",
                           "Position 0 is the first player, 1 the next in turn order, and so on.",
                           [self.win_rates("positions")]))
        if any(len(a["bots"]) > 1 for a in self.arms):
            out.append(Section("bots", "Win rate per bot", blocks=[self.win_rates("bots")]))
        groups = "factions" if self.game == "tauceti" else "positions"
        out.append(Section("points", f"{self.unit} by source per {'faction' if groups == 'factions' else 'position'}",
                           "Mean per game with its 95% interval; a source that is 0 in every game of an arm is left "
                           "out of its table.", [self.points(a, i, groups) for i, a in enumerate(self.arms)]))
        out.append(Section("distributions", "Game length, winning margin, decisions",
                           "The winning margin is the winner's total minus the best other total (0 for a shared "
                           "win; not counted in solo games).", self.distributions()))
        if any(a["crises"] for a in self.arms):
            out.append(Section("crises", "Crises", blocks=self.crises()))
        if any(a["market"] for a in self.arms):
            out.append(Section("market", "Market levels over the rounds",
                               "The mean level of each resource on the TCX at the start of each round (over the "
                               "games that reached that round).", [self.market()]))
        if any(a["comets"] for a in self.arms):
            out.append(Section("comets", "Comets", blocks=[self.comets()]))
        if self.r["comparisons"]:
            out.append(Section("comparisons", "Arms compared with the base arm", blocks=self.comparisons()))
        return out

    def win_rates(self, kind: str) -> Block:
        categories = _union(group_label(kind, g) for a in self.arms for g in a[kind])
        if kind != "positions":
            categories.sort()
        series = []
        for a in self.arms:
            by = {group_label(kind, g): g for g in a[kind]}
            found = [by.get(c) for c in categories]
            series.append(self.draw.Series(self.label(a), [g["win_rate"] if g else math.nan for g in found],
                                           [g["interval"][0] if g else math.nan for g in found],
                                           [g["interval"][1] if g else math.nan for g in found]))
        shares = sorted({1 / a["players"] for a in self.arms if a["players"] > 1})
        path, src = self.path(f"win-rate-{kind}")
        word = {"factions": "faction", "positions": "position", "bots": "bot"}[kind]
        self.draw.intervals(path, f"Win rate per {word} (95% intervals)", categories, series, "win rate",
                            [(s, f"fair share {pct(s)}") for s in shares], percent=True)
        columns = [*(["Arm"] if self.multi else []), word.capitalize(), "Games", "Win rate", "95% interval",
                   "Fair share", "p", f"p (Holm, over the {kind})", "Significant", "Games for ±5 points"]
        rows: list[list[str]] = []
        for a in self.arms:
            for g in a[kind]:
                rows.append([*([self.label(a)] if self.multi else []), group_label(kind, g), f"{g['games']:,}",
                             pct(g["win_rate"]), f"[{pct(g['interval'][0])}, {pct(g['interval'][1])}]",
                             pct(g["fair_share"]), p_text(g["p"]), p_text(g["p_holm"]),
                             significant_text(g["significant"], g["games"], g["games_needed"]),
                             f"{g['games_needed']:,}"])
        return Block(f"Win rate per {word}", figure=src, alt=f"win rate per {word} with 95% intervals",
                     tables=[Table(f"Win rate per {word}", columns, rows)])

    def points(self, arm: Mapping[str, Any], index: int, kind: str) -> Block:
        groups = arm[kind]
        sources = [s for s in (groups[0]["points"] if groups else {})
                   if s == "total" or any(g["points"][s]["mean"] != 0 for g in groups)]
        labels = [group_label(kind, g) for g in groups]
        parts = [self.draw.Series(source_label(s), [g["points"][s]["mean"] for g in groups])
                 for s in sources if s != "total"]
        path, src = self.path(f"points-{index}-{_slug(arm['name'])}")
        self.draw.stacked(path, f"{self.label(arm)}: mean {self.unit} by source", labels, parts,
                          f"{self.unit} per game")
        rows = [[lab, *(mean_text(g["points"][s]) for s in sources)] for lab, g in zip(labels, groups, strict=True)]
        table = Table(f"{self.label(arm)}: mean {self.unit} by source [95% interval]",
                      [kind[:-1].capitalize(), *(source_label(s) for s in sources)], rows)
        return Block(self.label(arm), figure=src, alt=f"{self.label(arm)}: mean {self.unit} by source", tables=[table])

    def distributions(self) -> list[Block]:
        blocks = []
        for key, title, unit in (("rounds", "Game length", "rounds"), ("margin", "Winning margin", self.unit),
                                 ("decisions", "Decisions per game", "decisions")):
            arms = [a for a in self.arms if a[key] and a[key]["games"]]
            if not arms:
                continue
            edges = bins([dict((v, c) for v, c in a[key]["histogram"]) for a in arms])
            names = [_bin_name(lo, hi) for lo, hi in edges]
            series = [self.draw.Series(self.label(a), _shares(a[key]["histogram"], edges)) for a in arms]
            path, src = self.path(f"distribution-{key}")
            self.draw.histograms(path, title, names, series, unit)
            summary = Table(f"{title}: summary", ["Arm", "Games", "Mean [95% interval]", "SD", "Min", "Max"],
                            [[self.label(a), f"{a[key]['games']:,}", mean_text(a[key]), num(a[key]["sd"]),
                              str(a[key]["min"]), str(a[key]["max"])] for a in arms])
            counts = [_counts(a[key]["histogram"], edges) for a in arms]
            table = Table(f"{title}: games per bin (share of the arm's games)",
                          [unit[:1].upper() + unit[1:], *(self.label(a) for a in arms)],
                          [[name, *(f"{c[i]:,} ({pct(s.values[i])})" for c, s in zip(counts, series, strict=True))]
                           for i, name in enumerate(names)], folded=len(names) > 12)
            blocks.append(Block(title, figure=src, alt=f"distribution of {title.lower()}", tables=[summary, table]))
        return blocks

    def crises(self) -> list[Block]:
        arms = [a for a in self.arms if a["crises"]]
        types = _union(t["name"] for a in arms for t in a["crises"]["types"])
        values = [[next((t["per_game"] for t in a["crises"]["types"] if t["name"] == k), 0.0) for k in types]
                  for a in arms]
        src: str | None = None
        if types:
            path, src = self.path("crises-per-game")
            self.draw.heatmap(path, "Crises that became active, per game", [self.label(a) for a in arms], types,
                              values, "crises per game")
        rows = []
        for a in arms:
            for t in a["crises"]["types"]:
                rows.append([self.label(a), t["name"], num(t["per_game"]), pct(t["share_of_games"]),
                             f"{t['activations']:,}"])
        kinds = Table("Crisis types: how often each became active", ["Arm", "Crisis type", "Per game",
                      "Games with at least one", "Activations"], rows)
        planets = Table(f"The planets of the most crises (top {TOP_PLANETS})", ["Arm", "Planet", "Crises", "Per game"],
                        [[self.label(a), p["name"], f"{p['activations']:,}", num(p["per_game"])]
                         for a in arms for p in a["crises"]["planets"][:TOP_PLANETS]])
        quiet = Table("Prevented crises and rounds with no crisis", ["Arm", "Games", "Prevented per game",
                      "Rounds with no crisis per game"],
                      [[self.label(a), f"{a['crises']['games']:,}", mean_text(a["crises"]["prevented"]),
                        mean_text(a["crises"]["no_crisis_rounds"])] for a in arms])
        return [Block("Crisis types", "" if types else "No crisis became active in any game.", figure=src,
                      alt="crises per game by type and arm", tables=[kinds]),
                Block("Planets, prevented crises, quiet rounds", tables=[planets, quiet])]

    def market(self) -> Block:
        arms = [a for a in self.arms if a["market"]]
        resources = _union(res for a in arms for res in a["market"]["resources"])
        lines = [[(self.label(a), [row["round"] for row in a["market"]["rounds"] if res in row["levels"]],
                   [row["levels"][res] for row in a["market"]["rounds"] if res in row["levels"]]) for a in arms]
                 for res in resources]
        path, src = self.path("market-levels")
        self.draw.panels(path, "Mean Market level at the start of each round", resources, lines, "round", "level")
        tables = [Table(f"{self.label(a)}: mean Market level", ["Round", "Games", *resources],
                        [[str(row["round"]), f"{row['games']:,}", *(num(row["levels"].get(res)) for res in resources)]
                         for row in a["market"]["rounds"]], folded=True) for a in arms]
        return Block("Market levels", figure=src, alt="mean Market level per resource over the rounds", tables=tables)

    def comets(self) -> Block:
        arms = [a for a in self.arms if a["comets"]]
        outcomes = list(folding.COMET_OUTCOMES)
        series = [self.draw.Series(self.label(a), [a["comets"][k]["mean"] for k in outcomes],
                                   [a["comets"][k]["low"] for k in outcomes],
                                   [a["comets"][k]["high"] for k in outcomes]) for a in arms]
        path, src = self.path("comets")
        self.draw.bars(path, "Comet outcomes per game", [COMET_LABELS[k] for k in outcomes], series, "per game")
        table = Table("Comet outcomes per game [95% interval]", ["Arm", "Games", *(COMET_LABELS[k] for k in outcomes)],
                      [[self.label(a), f"{a['comets']['games']:,}", *(mean_text(a["comets"][k]) for k in outcomes)]
                       for a in arms])
        without = [self.label(a) for a in self.arms if not a["comets"]]
        text = f"Arms played without the Comets: {', '.join(without)}." if without else ""
        return Block("Comet outcomes", text=text, figure=src, alt="comet outcomes per game", tables=[table])

    def comparisons(self) -> list[Block]:
        by_name = {a["name"]: a for a in self.arms}
        rows = self.r["comparisons"]
        blocks = []
        rates = [c for c in rows if c["measure"] == "win_rate"]
        solo = [self.label(a) for a in self.arms if a["players"] == 1]
        if solo:
            blocks.append(Block("Solo games", f"Win rates are not compared with {', '.join(solo)}: a solo game is "
                                              "won against the game, not shared among players."))
        if rates:
            path, src = self.path("comparisons-win-rate")
            self.draw.intervals(path, "Win rate: arm minus base (beyond the change of fair share)",
                                [f"{self.label(by_name[c['arm']])} · {compared_group(c)}" for c in rates],
                                _by_significance(rates, 100.0), "percentage points", [(0.0, "no difference")],
                                overlay=True)
            blocks.append(Block("Win rates", figure=src, alt="differences of win rate with 95% intervals",
                                tables=[self._comparison_table(rates, by_name, "Win rate: arm against base")]))
        for measure, title in (("total", f"Mean total {self.unit} per seat"), ("rounds", "Mean rounds")):
            chosen = [c for c in rows if c["measure"] == measure]
            if not chosen:
                continue
            path, src = self.path(f"comparisons-{measure}")
            self.draw.intervals(path, f"{title}: arm minus base", [self.label(by_name[c["arm"]]) for c in chosen],
                                _by_significance(chosen, 1.0), self.unit if measure == "total" else "rounds",
                                [(0.0, "no difference")], overlay=True)
            blocks.append(Block(title, figure=src, alt=f"differences of {title.lower()}",
                                tables=[self._comparison_table(chosen, by_name, f"{title}: arm against base")]))
        return blocks

    def _comparison_table(self, rows: Sequence[Mapping[str, Any]], arms: Mapping[str, Any], caption: str) -> Table:
        out = []
        for c in rows:
            rate = c["measure"] == "win_rate"
            fmt = pct if rate else num
            what = self._measure_name(c)
            delta = "5 points" if rate else f"{num(c['delta'], 1)} {self.unit if c['measure'] == 'total' else 'round'}"
            out.append([self.label(arms[c["arm"]]), str(what), fmt(c["base_value"]), fmt(c["value"]),
                        f"{fmt(c['difference'])} [{fmt(c['low'])}, {fmt(c['high'])}]", fmt(c["null"]),
                        p_text(c["p"]), p_text(c["p_holm"]),
                        significant_text(c["significant"], self.compared_games(c, arms), c["games_needed"],
                                         constant=bool(c.get("constant"))),
                        f"{c['games_needed']:,} (for {delta})"])
        return Table(caption, ["Arm", "Measure", "Base", "Arm's", "Difference [95% interval]",
                               "Expected without an effect", "p", "p (Holm, all comparisons that can differ)",
                               "Significant after Holm", "Games per arm needed"], out)


def _finding(kind: str, g: Mapping[str, Any]) -> str:
    """A win rate as a finding reads: the group, its rate and its interval."""
    return f"{group_label(kind, g)} {pct(g['win_rate'])} [{pct(g['interval'][0])}, {pct(g['interval'][1])}]"


def _span(values: Sequence[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


def _by_significance(rows: Sequence[Mapping[str, Any]], scale: float) -> list[Any]:
    """Differences beyond the one expected without an effect (scaled), as two series of the
    same rows: not significant after Holm, and significant (each row has its point in one)."""
    from ecliptic.balance.figures import Series

    out = []
    for label, wanted in (("not significant", False), ("significant after Holm", True)):
        def pick(x: float | None, row: Mapping[str, Any], wanted: bool = wanted) -> float:
            return scale * (_or_nan(x) - row["null"]) if row["significant"] == wanted else math.nan
        out.append(Series(label, [pick(r["difference"], r) for r in rows], [pick(r["low"], r) for r in rows],
                          [pick(r["high"], r) for r in rows]))
    return out


def _union(items: Iterable[str]) -> list[str]:
    """The distinct items in the order they first come."""
    return list(dict.fromkeys(items))


def _or_nan(x: float | None) -> float:
    return math.nan if x is None else x


# Histogram bins ------------------------------------------------------------------------------


def bins(histograms: Sequence[Mapping[int, int]], most: int = 25) -> list[tuple[int, int]]:
    """Bins [low, high) shared by several histograms of whole numbers: one per value when the
    values span at most ``most``, else of a round width (1, 2 or 5 times a power of ten) that
    makes at most ``most`` bins, starting at a multiple of the width."""
    values = [v for h in histograms for v in h]
    if not values:
        return []
    low, high = min(values), max(values)
    width = 1
    while (high - low) // width + 1 > most:
        width = _next_round(width)
    start = low - low % width
    return [(lo, lo + width) for lo in range(start, high + 1, width)]


def _next_round(width: int) -> int:
    digits = str(width)
    head, zeros = int(digits[0]), len(digits) - 1
    return int({1: 2, 2: 5, 5: 10}[head] * 10 ** zeros)


def _bin_name(low: int, high: int) -> str:
    return str(low) if high == low + 1 else f"{low}–{high - 1}"


def _counts(histogram: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]]) -> list[int]:
    out = [0] * len(edges)
    for value, count in histogram:
        for i, (lo, hi) in enumerate(edges):
            if lo <= value < hi:
                out[i] += count
                break
    return out


def _shares(histogram: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]]) -> list[float]:
    counts = _counts(histogram, edges)
    total = sum(counts)
    return [c / total if total else 0.0 for c in counts]
