"""deduce.core.keys: keys to JSON and back, exactly, for any hash seed; refusals."""

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deduce.core import keys as K


class Pair(NamedTuple):
    left: object
    right: object = None


@dataclass(frozen=True)
class Box:
    label: str
    items: tuple = ()


TYPES = {"Pair": Pair, "Box": Box}

atoms = st.none() | st.booleans() | st.integers() | st.text(max_size=5) | \
    st.floats(allow_nan=False)
values = st.recursive(
    atoms,
    lambda inner: (st.tuples(inner, inner) | st.lists(inner, max_size=3).map(tuple)
                   | st.frozensets(atoms, max_size=4)
                   | st.builds(Pair, inner, inner) | st.builds(Box, st.text(max_size=3),
                                                          st.lists(inner, max_size=2).map(tuple))),
    max_leaves=12)


def same(a, b) -> bool:
    """Equal, and of the same types all the way down (True is not 1 here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, frozenset):
        return a == b and all(any(same(x, y) for y in b) for x in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, Box):
        return same(a.label, b.label) and same(a.items, b.items)
    return a == b


@given(values)
def test_round_trip_through_json_text_is_exact(value):
    text = json.dumps(K.encode(value, TYPES), sort_keys=True)
    back = K.decode(json.loads(text), TYPES)
    assert same(back, value)
    assert hash(back) == hash(value)


def test_bool_and_int_stay_apart():
    out = K.decode(json.loads(json.dumps(K.encode((True, 1, 1.0), TYPES))), TYPES)
    assert [type(x) for x in out] == [bool, int, float]


def test_sets_encode_the_same_under_any_hash_seed():
    code = ("import json; from deduce.core import keys; "
            "print(json.dumps(keys.encode(frozenset({'m405', 'm406', 'c201', 'x', 'y'}), {})))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed}, check=True).stdout
            for seed in ("1", "2", "3")}
    assert outs == {'{"f": ["c201", "m405", "m406", "x", "y"]}\n'}


def test_unknown_types_are_refused_both_ways():
    with pytest.raises(TypeError):
        K.encode([1, 2], TYPES)
    with pytest.raises(TypeError):
        K.encode(Pair(1), {})  # a NamedTuple the caller did not name
    for bad in ({"n": "os.system", "v": ["true"]}, [1], {"t": 3}, {"x": [1]},
                {"n": "Pair", "v": [1, 2, 3]}):
        with pytest.raises(ValueError):
            K.decode(bad, TYPES)
