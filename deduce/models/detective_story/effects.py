"""Structured effects of paragraphs, villain options and special rules (parsed from TOML).

Every effect is an immutable value; lists of effects are tuples and are run in order by the
rules engine (``engine.run_effects``). ``Goto`` may only be the last effect of its list (the
loader checks it), so reading another paragraph is always the tail of what came before.
"""

from __future__ import annotations

from dataclasses import dataclass

Effects = tuple  # tuple of the effect classes below


@dataclass(frozen=True)
class SM:
    """Change the Solve Modifier (never below 0)."""

    n: int


@dataclass(frozen=True)
class Luck:
    """Change Luck (never below 0)."""

    n: int


@dataclass(frozen=True)
class Test:
    """A roll of R004. Quality (Brains, Brawn, Bravery): 2d6 <= Holmes's Quality + ``modifier``.
    Trait: 2d6 + the group's levels of the Trait (Holmes's only if ``holmes_only``) >= ``target``."""

    name: str
    quality: bool
    target: int
    modifier: int
    holmes_only: bool
    passed: Effects
    failed: Effects


@dataclass(frozen=True)
class Require:
    """No roll (R005a): the group's total Quality >= ``total``, or its Trait levels >= ``total``."""

    name: str
    quality: bool
    total: int
    passed: Effects
    failed: Effects


@dataclass(frozen=True)
class D6:
    """Roll 1d6: ``faces[i]`` are the effects of face ``i + 1``."""

    faces: tuple[Effects, ...]


@dataclass(frozen=True)
class Join:
    """The character of paragraph ``character`` joins as an Ally (if free to)."""

    character: str


@dataclass(frozen=True)
class Leave:
    """One random Ally leaves the case."""


@dataclass(frozen=True)
class Wound:
    """``who`` (holmes, watson, ally: a random Ally) suffers ``level`` (wounded, serious, killed)."""

    who: str
    level: str


@dataclass(frozen=True)
class Afflict:
    """``who`` (holmes, watson) gains ``levels`` of ``kind`` (Addiction, Madness)."""

    who: str
    kind: str
    levels: int


@dataclass(frozen=True)
class Reveal:
    """Reveal the Villain (roll the Adventure's Villain line) or the Motive."""

    what: str  # "villain" | "motive"


@dataclass(frozen=True)
class Unlock:
    """Investigate may be chosen next turn (R007c "if indicated by an event")."""


@dataclass(frozen=True)
class Goto:
    """Read paragraph ``target`` now (always the last effect of its list)."""

    target: str


@dataclass(frozen=True)
class Opponent:
    name: str
    brawn: int
    weaponry: int
    villain: bool


@dataclass(frozen=True)
class Combat:
    """Fight ``opponent`` (R009); ``won`` if the opponent is beaten, ``lost`` if our fighter is
    Wounded or worse. An escape reads the campaign's escape paragraph instead of both."""

    opponent: Opponent
    won: Effects
    lost: Effects


@dataclass(frozen=True)
class Arrest:
    """The Villain is arrested: the case is won."""


@dataclass(frozen=True)
class LoseCase:
    """The Villain escapes justice: the case is lost."""
