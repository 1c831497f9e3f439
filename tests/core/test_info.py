import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from deduce.core.info import entropy_bits, expected_bits, expected_bits_many


def test_entropy_of_known_distributions():
    assert entropy_bits(np.array([1, 1, 1, 1])) == 2.0
    assert entropy_bits(np.array([5, 0, 0])) == 0.0
    assert math.isclose(entropy_bits(np.array([1, 2, 1])), 1.5)
    assert entropy_bits(np.array([0, 0])) == 0.0


def test_expected_bits_of_simple_questions():
    # the answer names the value exactly: all 2 bits of a uniform 4-way choice
    assert math.isclose(expected_bits(np.eye(4)), 2.0)
    # the answer splits 4 equally likely values into halves: 1 bit
    assert math.isclose(expected_bits(np.array([[1, 1, 0, 0], [0, 0, 1, 1]])), 1.0)
    # an answer independent of the value tells nothing
    assert expected_bits(np.array([[2, 2], [1, 1]])) == 0.0
    # by hand: worlds (a,x): (0,0)x2, (0,1)x1, (1,1)x1 -> H(X)=1, H(X|A)=3/4*0.9183
    h = -(2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3))
    assert math.isclose(expected_bits(np.array([[2, 1], [0, 1]])), 1 - 0.75 * h)


@settings(max_examples=50, deadline=None)
@given(arrays(np.int64, st.tuples(st.integers(1, 5), st.integers(1, 4), st.integers(1, 6)),
              elements=st.integers(0, 20)))
def test_batched_equals_one_by_one(stack):
    got = expected_bits_many(stack)
    want = [expected_bits(t) for t in stack]
    assert np.allclose(got, want)
