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
