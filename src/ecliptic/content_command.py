"""``ecliptic content``: start a folder of printed values from the packaged files, and check one.

Why: trying a change to a stand-in (docs/content-stand-ins.md, "Playing your printed values")
begins with copies of the packaged content files, which live inside the installed package
(``site-packages/ecliptic/...`` for a designer who installed Ecliptic): ``content copy`` writes
them into a folder of the designer's, so no file of Ecliptic's own is edited or even looked for.
``content check`` reads a folder as ``--content`` would and says what it changes, so an edit
that changed nothing (a ``sed`` whose pattern matched no line) is seen before a study compares
the stand-ins with themselves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from ecliptic.engine.content import ContentSlot

content_app = typer.Typer(
    help="Content folders of printed values (docs/content-stand-ins.md): copy the packaged "
         "stand-in files to edit them, check a folder.",
    no_args_is_help=True,
    rich_markup_mode="markdown",   # (as the main app: a docstring's line breaks are not kept)
)

GameOption = Annotated[str, typer.Option(help="The game whose content files: tauceti or ceres.")]


@content_app.command("copy")
def copy(
    folder: Annotated[Path, typer.Argument(help="The folder to write the files into (made if missing).")],
    game: GameOption = "tauceti",
    file: Annotated[list[str] | None, typer.Option(
        "--file", help="Copy only this content file (e.g. factions.toml); may be repeated. Default: all.")] = None,
) -> None:
    """Copy the packaged stand-in content files into FOLDER, to edit their values and play them
    with --content FOLDER. A file already in FOLDER is never replaced: the copy is refused,
    and nothing is written."""
    from ecliptic.cli import _console, _fail

    err = _console(stderr=True)
    slot = _slot(err, game)
    texts = slot.packaged_texts()
    wanted = list(texts) if not file else [name if name.endswith(".toml") else f"{name}.toml" for name in file]
    unknown = [name for name in wanted if name not in texts]
    if unknown:
        raise _fail(err, f"{', '.join(unknown)}: not a {game} content file; the {game} content files are "
                         f"{', '.join(texts)}")
    if folder.exists() and not folder.is_dir():
        raise _fail(err, f"{folder} is a file, not a folder")
    there = [name for name in wanted if (folder / name).exists()]
    if there:
        raise _fail(err, f"{folder} already has {', '.join(there)}: nothing was copied (a file there is never "
                         "replaced; choose another folder or remove it)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in wanted:
            (folder / name).write_text(texts[name], encoding="utf-8")
    except OSError as exc:
        raise _fail(err, f"{folder} cannot be written ({exc.strerror})") from None
    _console().print(f"Copied the packaged {game} stand-ins ({', '.join(wanted)}) into {folder}. Edit the values "
                     f"(the '# STAND-IN' comments say which are invented), then play them beside the stand-ins: "
                     f"ecliptic balance --game {game} --content {folder} --out {folder.name or 'content'}-study",
                     soft_wrap=True)


@content_app.command("check")
def check(
    folder: Annotated[Path, typer.Argument(help="A folder of content files.")],
    game: GameOption = "tauceti",
) -> None:
    """Read FOLDER as --content would (schema, the rulebook's counts and values, the action ids)
    and say which of its files differ from the packaged stand-ins. Exits with 1 when the folder
    plays exactly the stand-ins (an edit that changed nothing)."""
    from ecliptic.cli import _console, _fail
    from ecliptic.engine.errors import ContentError
    from ecliptic.games import ContentPack

    err = _console(stderr=True)
    slot = _slot(err, game)
    try:
        pack = ContentPack.read(game, folder)
    except ContentError as exc:
        raise _fail(err, str(exc)) from None
    packaged = slot.packaged_texts()
    changed = [name for name, text in pack.texts if name in pack.from_folder and text != packaged[name]]
    if not changed:
        raise _fail(err, f"{folder} plays exactly the packaged stand-ins: its files ({', '.join(pack.from_folder)}) "
                         "are copies that change no value", 1)
    same = [name for name in pack.from_folder if name not in changed]
    out = _console()
    out.print(f"{folder}: valid {game} content, digest {pack.digest}", soft_wrap=True)
    out.print(f"Changed from the stand-ins: {', '.join(changed)}", soft_wrap=True)
    if same:
        out.print(f"Copied unchanged: {', '.join(same)}", soft_wrap=True)


def _slot(err: Console, game: str) -> ContentSlot[Any]:
    """The game's content slot, or the command stopped in one line for a game Ecliptic lacks."""
    from ecliptic.cli import _fail
    from ecliptic.games import GAME_NAMES, content_slot

    if game not in GAME_NAMES:
        raise _fail(err, f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    return content_slot(game)
