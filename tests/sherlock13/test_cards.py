"""Cards and icons: the rulebook's facts and the name aliases of the spec."""

import numpy as np
import pytest

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import (
    HAND_SIZE,
    ICON_MATRIX,
    ICON_TOTALS,
    ICONS,
    N_CARDS,
    N_ICONS,
    SUSPECT_ICONS,
    SUSPECTS,
    icon_count,
    icon_index,
    suspect_index,
)


def test_thirteen_suspects_eight_icons_in_rulebook_order():
    assert N_CARDS == 13 and len(SUSPECTS) == 13
    assert N_ICONS == 8
    assert ICONS == ("pipe", "light bulb", "fist", "badge", "book", "necklace", "eye", "skull")
    assert SUSPECTS[0] == "Sherlock Holmes"
    assert SUSPECTS[2] == "James Moriarty"
    assert SUSPECTS[12] == "Inspector Hopkins"


def test_icon_totals_per_icon():
    totals = dict(zip(ICONS, ICON_TOTALS))
    assert totals == {
        "pipe": 5, "light bulb": 5, "fist": 5, "badge": 5,
        "book": 4, "necklace": 3, "eye": 3, "skull": 3,
    }
    assert sum(ICON_TOTALS) == 33


def test_icon_matrix_matches_the_card_table():
    assert ICON_MATRIX.shape == (13, 8)
    assert not ICON_MATRIX.flags.writeable
    for c, name in enumerate(SUSPECTS):
        shown = {ICONS[i] for i in np.flatnonzero(ICON_MATRIX[c])}
        assert shown == set(SUSPECT_ICONS[name])
    # a few rows spelled out from the rulebook
    assert {ICONS[i] for i in np.flatnonzero(ICON_MATRIX[SUSPECTS.index("Mary Morstan")])} == {"book", "necklace"}
    assert int(ICON_MATRIX[SUSPECTS.index("Inspector Hopkins")].sum()) == 3
    assert int(ICON_MATRIX[SUSPECTS.index("Inspector Baynes")].sum()) == 2


def test_icon_count():
    skull = ICONS.index("skull")
    pipe = ICONS.index("pipe")
    moriarty, adler, moran, holmes = 2, 3, 7, 0
    assert icon_count([moriarty, adler, moran], skull) == 3
    assert icon_count([moriarty, adler, holmes], skull) == 2
    assert icon_count([holmes, 1, 4, 5, 12], pipe) == 5
    assert icon_count([], pipe) == 0


def test_hand_sizes():
    assert HAND_SIZE == {2: 5, 3: 4, 4: 3}


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("moriarty", "James Moriarty"),
        ("MORIARTY", "James Moriarty"),
        ("lestrade", "Inspector G. Lestrade"),
        ("mrs hudson", "Mrs. Hudson"),
        ("Mrs. Hudson", "Mrs. Hudson"),
        ("mrshudson", "Mrs. Hudson"),
        ("sherlock", "Sherlock Holmes"),
        ("Mycroft", "Mycroft Holmes"),
        ("watson", "John H. Watson"),
        ("moran", "Sebastian Moran"),
        ("morstan", "Mary Morstan"),
        ("  Inspector Baynes  ", "Inspector Baynes"),
    ],
)
def test_suspect_aliases(text, canonical):
    assert SUSPECTS[suspect_index(text)] == canonical


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("bulb", "light bulb"),
        ("lightbulb", "light bulb"),
        ("Light-Bulb", "light bulb"),
        ("LIGHT BULB", "light bulb"),
        ("light", "light bulb"),
        ("Skull", "skull"),
        ("necklace", "necklace"),
    ],
)
def test_icon_aliases(text, canonical):
    assert ICONS[icon_index(text)] == canonical


def test_every_canonical_name_resolves_to_itself():
    for i, name in enumerate(SUSPECTS):
        assert suspect_index(name) == i
        assert suspect_index(name.lower()) == i
    for i, name in enumerate(ICONS):
        assert icon_index(name) == i
        assert icon_index(name.upper()) == i


def test_ambiguous_holmes_lists_both_candidates():
    with pytest.raises(InputError) as info:
        suspect_index("holmes")
    msg = str(info.value)
    assert "ambiguous" in msg
    assert "Sherlock Holmes" in msg and "Mycroft Holmes" in msg
    assert "Watson" not in msg


def test_ambiguous_inspector_lists_all_five():
    with pytest.raises(InputError) as info:
        suspect_index("inspector")
    msg = str(info.value)
    assert "ambiguous" in msg
    for name in ("Inspector G. Lestrade", "Inspector Gregson", "Inspector Baynes",
                 "Inspector Bradstreet", "Inspector Hopkins"):
        assert name in msg
    assert "Sherlock" not in msg


def test_unknown_suspect_suggests_close_names():
    with pytest.raises(InputError) as info:
        suspect_index("moriarti")
    msg = str(info.value)
    assert "unknown suspect 'moriarti'" in msg
    assert "James Moriarty" in msg


def test_unknown_icon_suggests_close_names_and_names_the_place():
    with pytest.raises(InputError) as info:
        icon_index("skulls", where="game.json: event 3, field 'icon'")
    msg = str(info.value)
    assert msg.startswith("game.json: event 3, field 'icon': ")
    assert "unknown icon 'skulls'" in msg and "did you mean skull" in msg
    assert info.value.where == "game.json: event 3, field 'icon'"


def test_unknown_name_without_close_match_lists_the_known_names():
    with pytest.raises(InputError) as info:
        icon_index("zzzzzzzz")
    msg = str(info.value)
    for name in ICONS:
        assert name in msg


@pytest.mark.parametrize("bad", ["", "   ", "...", None, 3])
def test_empty_or_non_text_names_are_input_errors(bad):
    with pytest.raises(InputError):
        suspect_index(bad)


def test_a_prefix_of_one_name_resolves_by_containment():
    # "skul" is contained in exactly one icon name, so it is an unambiguous alias
    assert ICONS[icon_index("skul")] == "skull"


def test_the_test_names_follow_the_card_and_icon_order():
    from deduce.models.sherlock13.cards import ICONS, SUSPECTS
    from tests.sherlock13 import names

    assert [getattr(names, n) for n in ("PIPE", "BULB", "FIST", "BADGE", "BOOK", "NECKLACE",
                                         "EYE", "SKULL")] == [ICONS.index(i) for i in ICONS]
    assert ICONS[names.BULB] == "light bulb" and ICONS[names.SKULL] == "skull"
    assert SUSPECTS[names.HOLMES] == "Sherlock Holmes"
    assert SUSPECTS[names.MORSTAN] == "Mary Morstan"
    assert SUSPECTS[names.HOPKINS] == "Inspector Hopkins"
