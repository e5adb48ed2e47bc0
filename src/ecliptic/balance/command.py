"""``ecliptic balance``: run a study and write its report; ``ecliptic balance report FILE``:
write the report again from a study file alone (docs/balance.md).

Both print the report's headline figures on stdout when it is written (a summary a script can
capture, or a reader see without opening the page); the progress bar, the count of games played
and the page's path go to stderr."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ecliptic.cli_options import (
    AdvancedOption,
    AdvancedSpecialistsOption,
    BackendName,
    ExpansionsOption,
    GameLengthOption,
    LayoutOption,
    PluginOption,
    RayAddress,
    RunSeedOption,
    Workers,
)

balance_app = typer.Typer(
    help="Balance studies: many bot games per variant, streamed to a file, and a report with figures.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode="markdown",   # (as the main app: a docstring's line breaks are not kept)
)

STUDY_FILE = "games.jsonl"
"""The study file's name in the --out folder."""
DEFAULT_PLAYERS = 4
"""--players when it is not given (it is ``None`` then, so that the players sweep can tell)."""


@balance_app.callback()
def balance(
    ctx: typer.Context,
    game: Annotated[str, typer.Option(help="The game to study.")] = "tauceti",
    players: Annotated[int | None, typer.Option(min=1, max=4, help="Players per game (default 4; the players sweep "
                                                                   "plays 1-4).")] = None,
    bots: Annotated[str, typer.Option(help="Bots, separated by commas (e.g. heuristic, or heuristic,ismcts:200it "
                                           "for two); they rotate over the seats.")] = "heuristic",
    games: Annotated[int, typer.Option(min=1, help="Games per arm (variant).")] = 1000,
    seed: RunSeedOption = 1,
    out: Annotated[Path, typer.Option(help="The report folder: games.jsonl, results.json, index.html, "
                                           "figures/.")] = Path("balance-report"),
    sweep: Annotated[str | None, typer.Option(help="Compare variants: advanced (Tau Ceti's Advanced Rules), "
                                                   "players (1-4), comets (Ceres without and with Comets).")] = None,
    content: Annotated[list[Path] | None, typer.Option(help="A folder of printed values (see content-stand-ins.md "
                                                            "in docs/), played beside the stand-ins; may be "
                                                            "repeated.")] = None,
    game_length: GameLengthOption = "full",
    layout: LayoutOption = "players",
    advanced: AdvancedOption = None,
    advanced_specialists: AdvancedSpecialistsOption = False,
    expansions: ExpansionsOption = None,
    backend: BackendName = "local",
    address: RayAddress = None,
    workers: Workers = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the study in --out where it stopped.")] = False,
    plugin: PluginOption = None,
) -> None:
    """Play a balance study and write its report: win rates per faction and seat with 95% intervals,
    points by source, game length, crises and Market levels (Tau Ceti), comets (Ceres), and every
    variant of a sweep against the first, with Holm-corrected significance."""
    if ctx.invoked_subcommand is not None:
        return
    from ecliptic.balance.study import Study, base_arms, with_contents
    from ecliptic.cli import _console, _fail, game_config
    from ecliptic.games import GAME_NAMES

    err = _console(stderr=True)
    if game not in GAME_NAMES:
        raise _fail(err, f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    clash = _swept_option(sweep, players, advanced, expansions)
    if clash:
        raise _fail(err, clash)
    players = DEFAULT_PLAYERS if players is None else players
    config = game_config(game, game_length=game_length, layout=layout, advanced=advanced,
                         advanced_specialists=advanced_specialists, expansions=expansions)
    specs = tuple(b.strip() for b in bots.split(",") if b.strip())
    try:
        packs = [_pack(game, folder) for folder in content or []]
        same = _same_content(game, packs)
        if same:
            raise _fail(err, same)
        study = Study(game, specs, games, seed, tuple(with_contents(base_arms(game, players, config, sweep), packs)),
                      sweep)
        study.check()
    except (ValueError, TypeError) as exc:  # BotSpecError, ContentError, a refused config
        raise _fail(err, str(exc)) from None
    _run(err, study, out, resume, backend, address, workers)
    write(err, out / STUDY_FILE, out)


def _swept_option(sweep: str | None, players: int | None, advanced: str | None, expansions: str | None) -> str | None:
    """Why an option given cannot be played, in words: a sweep sets, in each arm, the very
    option it sweeps, so a value given for it would be dropped without a word (``--sweep
    advanced --advanced 1`` would play all off, each rule alone, all on). Other options (the
    game length, another expansion) apply to every arm and are kept. ``None``: not given."""
    if sweep == "advanced" and advanced is not None:
        return ("--sweep advanced sets the Advanced Rules of each arm (all off, each alone, all on): leave out "
                "--advanced")
    if sweep == "players" and players is not None:
        return "--sweep players sets the players of each arm (1 to 4): leave out --players"
    from ecliptic.cli import parse_expansions

    if sweep == "comets" and "comets" in parse_expansions(expansions):
        return ("--sweep comets plays each arm without and with the Comets: leave 'comets' out of --expansions "
                "(any other expansion is played in both arms)")
    return None


@balance_app.command("report")
def report(
    file: Annotated[Path, typer.Argument(help="A study file (games.jsonl, or games.jsonl.gz).")],
    out: Annotated[Path | None, typer.Option(help="The report folder (default: the study file's).")] = None,
) -> None:
    """Write a study's report again from its file alone (results.json, index.html, figures/), and
    print its headline figures."""
    from ecliptic.cli import _console

    write(_console(stderr=True), file, out or file.parent)


def _same_content(game: str, packs: list[Any]) -> str | None:
    """Why a --content folder would compare nothing, in words: a folder whose files are the
    stand-ins' (an edit that changed no value, such as a ``sed`` whose pattern matched no line)
    plays the very games of the stand-in arms on the common seeds, and two folders of the same
    values play each other's; the report would then show "no difference" that is no finding.
    ``None``: every folder plays values of its own."""
    from ecliptic.games import ContentPack

    standins = ContentPack.packaged(game).digest
    seen: dict[str, str] = {}
    for pack in packs:
        if pack.digest == standins:
            return (f"--content {pack.folder} plays exactly the packaged stand-ins (its files change no value): "
                    f"its arms would repeat the stand-in arms' games; edit a value first (ecliptic content check "
                    f"{pack.folder} says which files differ)")
        if pack.digest in seen:
            return (f"--content {pack.folder} and --content {seen[pack.digest]} hold the same values: their arms "
                    "would repeat the same games; give each set of values once")
        seen[pack.digest] = str(pack.folder)
    return None


def _pack(game: str, folder: Path) -> Any:
    from ecliptic.games import ContentPack

    return ContentPack.read(game, folder)


def _run(err: Any, study: Any, out: Path, resume: bool, backend_name: str, address: str | None,
         workers: int | None) -> None:
    """Play the study into ``out``. The backend is checked first (a bad one leaves no file), then
    the study file is opened, or refused in one line, before the progress bar is drawn."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ecliptic.balance.stream import StudyFileError
    from ecliptic.balance.study import open_study, play_study
    from ecliptic.cli import _fail, _open_backend
    from ecliptic.sim.backends import BackendError
    from ecliptic.sim.simulate import SimulationError

    progress = Progress(TextColumn("Balance study"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), console=err, transient=True)
    try:
        with _open_backend(err, backend_name, workers, address) as backend, \
                open_study(study, out / STUDY_FILE, resume=resume) as writer, progress:
            task = progress.add_task("games", total=study.total, rate="")
            first: list[tuple[int, float]] = []

            def advance(done: int, total: int) -> None:
                import time

                now = time.perf_counter()
                if not first:
                    first.append((done, now))
                start_done, start = first[0]
                rate = (done - start_done) / (now - start) if now > start else 0.0
                progress.update(task, completed=done, rate=f"{rate:.2f} games/s" if rate else "")

            result = play_study(study, writer, backend=backend, progress=advance)
    except KeyboardInterrupt:
        raise _fail(err, f"interrupted: the finished games are kept in {out / STUDY_FILE}; continue with the same "
                         "options and --resume", 130) from None
    except (SimulationError, BackendError) as exc:
        raise _fail(err, str(exc), 1) from None
    except (StudyFileError, ValueError) as exc:
        raise _fail(err, str(exc)) from None
    err.print(f"{result.played} games played ({result.resumed} found done) in {result.seconds:.1f} s "
              f"· {result.games_per_second:.2f} games/s", highlight=False)


def write(err: Any, file: Path, out: Path) -> None:
    """The report of a study file and its summary on stdout, or a clear error."""
    from ecliptic.balance.report import summary, write_report
    from ecliptic.balance.stream import StudyFileError
    from ecliptic.cli import _console, _fail

    try:
        written = write_report(file, out)
    except (StudyFileError, ValueError) as exc:
        raise _fail(err, str(exc)) from None
    _console().print(summary(written.results))
    err.print(f"Report: {written.page}", highlight=False, soft_wrap=True)
