"""The rules reference over HTTP: ``GET /api/rules/{game}`` (the rulebook by section) and
``GET /api/rules/{game}/{rule_id}`` (one rule), and the browser's Rules page at ``/rules``.

A refusal's rule id becomes a link to the page (``/rules#tauceti:TC-MOV-3``), which reads the
same data through the API, so the sentence a player is shown is the one the terminal shows
(:mod:`ecliptic.present.rules`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

import ecliptic
from ecliptic.present import rules as reference
from ecliptic.server.games import NotFound

STATIC = Path(ecliptic.__file__).resolve().parent / "web" / "static"

router = APIRouter()


class DecisionOut(BaseModel):
    id: str
    topic: str
    text: str = Field(description="the entry of docs/rules-decisions.md, as written (markdown)")
    heading: list[str] = Field(description="its headings in docs/rules-decisions.md")


class RuleOut(BaseModel):
    game: str
    id: str = Field(description="the rule id, as a refusal names it (TC-MOV-3)")
    section: str = Field(description="the id of its section")
    section_title: str
    sentences: list[str] = Field(description="the rulebook's sentences for this rule")
    paragraphs: list[str] = Field(description="the same sentences by rulebook paragraph (each list item alone)")
    text: str
    source: str = Field(description="rulebook, ruling (the designers' published ruling) or reconstruction")
    summary: str = Field(description="the rule as docs/rules-coverage.md quotes it")
    anchor: str = Field(description="the Rules page's link to it")
    decisions: list[DecisionOut] = Field(description="the recorded decisions that concern it")


class SectionOut(BaseModel):
    id: str
    title: str
    path: list[str] = Field(description="the rulebook headings above it")
    rules: list[RuleOut]
    decisions: list[DecisionOut] = Field(description="recorded decisions about the section, not one rule of it")


class RuleBookOut(BaseModel):
    game: str
    title: str
    sections: list[SectionOut]


def _decision(d: reference.Decision) -> DecisionOut:
    return DecisionOut(id=d.id, topic=d.topic, text=d.text, heading=list(d.heading))


def _rule(r: reference.Rule) -> RuleOut:
    return RuleOut(game=r.game, id=r.id, section=r.section, section_title=r.section_title,
                   sentences=list(r.sentences), paragraphs=list(r.paragraphs), text=r.text, source=r.source,
                   summary=r.summary, anchor=r.anchor, decisions=[_decision(d) for d in r.decisions])


def _known(game: str) -> None:
    if game not in reference.GAMES:
        raise NotFound(f"no rulebook for {game[:40]!r}; the rulebooks are: {', '.join(reference.GAMES)}")


@router.get("/api/rules/{game}", response_model=RuleBookOut)
async def rulebook(game: str) -> RuleBookOut:
    _known(game)
    return RuleBookOut(game=game, title=reference.title(game), sections=[
        SectionOut(id=s.id, title=s.title, path=list(s.path), rules=[_rule(r) for r in s.rules],
                   decisions=[_decision(d) for d in s.decisions]) for s in reference.book(game)])


@router.get("/api/rules/{game}/{rule_id}", response_model=RuleOut)
async def one_rule(game: str, rule_id: str) -> RuleOut:
    _known(game)
    found = reference.rule(game, rule_id)
    if found is None:
        owner = reference.game_of(rule_id)
        hint = (f"; {rule_id.upper()} is a rule of {owner}: /api/rules/{owner}/{rule_id.upper()}"
                if owner and owner != game and reference.rule(owner, rule_id) else "")
        raise NotFound(f"{game} has no rule {rule_id[:40]!r}{hint}; its rule ids are listed at /api/rules/{game}")
    return _rule(found)


@router.get("/rules", include_in_schema=False)
async def rules_page() -> FileResponse:
    return FileResponse(STATIC / "rules.html", media_type="text/html")

