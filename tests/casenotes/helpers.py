"""Shared helpers: tiny cases from TOML text, and an itertools brute force written here.

The brute force enumerates complete solutions with ``itertools`` (permutations per
category, products of attribute and unknown values) and tests each with a Python
predicate, so it shares nothing with the CNF compilation.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from deduce.models.casenotes.format import parse_case

TINY = """
[categories]
pos    = [1, 2, 3]
person = ["Ann", "Bob", "Cy"]
pet    = ["cat", "dog", "eel"]

[attributes]
hat = { of = "person", values = ["red", "blue"] }

[unknowns]
thief  = "person"
motive = ["debt", "envy"]
"""


def tiny_case(rules: list[str], header: str = TINY):
    """The TINY grid (3 categories x 3, an attribute, two unknowns) with these notes."""
    notes = "".join(f'\n[[note]]\nrule = """{r}"""\n' for r in rules)
    return parse_case(header + notes, "tiny.toml")


@dataclass(frozen=True)
class W:
    """A concrete TINY solution: ``pos[p]``/``pet[p]`` indexed by person index."""

    pos: tuple[int, ...]      # position (1..3) of each person
    pet: tuple[str, ...]      # pet of each person
    hat: tuple[str, ...]      # hat of each person
    thief: int                # person index
    motive: str

    def person_at(self, pos: int) -> int:
        return self.pos.index(pos)

    def person_with(self, pet: str) -> int:
        return self.pet.index(pet)


PEOPLE = ["Ann", "Bob", "Cy"]


def tiny_worlds():
    for pos in itertools.permutations([1, 2, 3]):
        for pet in itertools.permutations(["cat", "dog", "eel"]):
            for hat in itertools.product(["red", "blue"], repeat=3):
                for thief in range(3):
                    for motive in ["debt", "envy"]:
                        yield W(pos, pet, hat, thief, motive)


def brute_count(pred) -> int:
    return sum(1 for w in tiny_worlds() if pred(w))


#: A case whose names hold console markup and control characters (TOML escapes): every
#: human output must show them literally (markup as text, controls as ``\x1b``-style escapes).
HOSTILE = r'''
title = "[bold]Case\u001b[2J\u0007"
intro = "[red]Intro\u001b[31m"

[categories]
pos = [1, 2, 3]
who = ["[/bad]", "[bold]x", "Bel\u0007l"]

[attributes]
hat = { of = "who", values = ["[red]r", "b\u001b[2Jb"] }

[unknowns]
thief = "who"
motive = ["[red]debt", "\u001b[2Jenvy"]

[[question]]
text = "[b]Who?\u0007"
answer = "thief"

[[question]]
text = "Why?"
answer = "motive"

[[note]]
source = "[red]Loc 1\u001b[31m"
text = "[/]\u001b[2J first"
rule = '"[/bad]" == pos[1] and "[bold]x" == pos[2]'

[[note]]
source = "[i]Loc 2"
text = "[bold]thief\u0007"
rule = 'thief == "[bold]x" and motive == "[red]debt"'

[[note]]
source = "[i]Loc 2"
text = "hats"
rule = 'hat("[/bad]") == "[red]r" and hat("[bold]x") == "b\u001b[2Jb" and hat(Bel) == "[red]r"'
'''
#: what the human outputs of HOSTILE show for its names (escaped controls, markup as text)
HOSTILE_SHOWN = {
    "title": "[bold]Case\\x1b[2J\\x07", "items": ["[/bad]", "[bold]x", "Bel\\x07l"],
    "source": "[red]Loc 1\\x1b[31m", "text": "[/]\\x1b[2J first", "question": "[b]Who?\\x07",
    "hat": "b\\x1b[2Jb", "motive": "[red]debt", "envy": "\\x1b[2Jenvy",
}
