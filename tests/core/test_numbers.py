"""Whole numbers typed by a person: any script's decimal digits, nothing digit-like."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.core.numbers import read_whole_number, whole_number


@pytest.mark.parametrize("text,value", [("7", 7), (" 12 ", 12), ("٣", 3), ("۷", 7),
                                        ("०५", 5), ("-4", -4), ("0", 0)])
def test_decimal_digits_of_any_script(text, value):
    assert read_whole_number(text) == value


@pytest.mark.parametrize("text", ["²", "³4", "①", "1.5", "1e3", "", "-", "+3", "0x10", "½",
                                  "9" * 21, "4 2", "⁴"])
def test_digit_like_signs_and_other_shapes_are_not_numbers(text):
    assert read_whole_number(text) is None
    with pytest.raises(InputError, match="expected a die face from 1 to 6"):
        whole_number(text, 1, 6, "a die face")


def test_bounds_are_named():
    with pytest.raises(InputError) as info:
        whole_number("13", 2, 12, "a dice total", where="--answer 2")
    assert str(info.value) == "--answer 2: expected a dice total from 2 to 12, got '13'"


@given(st.text(max_size=30))
def test_any_text_is_a_number_in_bounds_or_an_input_error(text):
    try:
        value = whole_number(text, -50, 50)
    except InputError:
        return
    assert -50 <= value <= 50 and int(text.strip()) == value


def test_a_huge_number_is_refused_before_conversion():
    with pytest.raises(InputError):
        whole_number("9" * 100_000, 0, 10)
