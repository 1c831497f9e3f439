"""Information measures over count tables (exact counts in, bits out)."""

from __future__ import annotations

import numpy as np

#: information below this many bits is rounding noise of the entropy sums
_NOISE = 1e-12


def entropy_bits(counts: np.ndarray) -> float:
    """Shannon entropy in bits of the distribution proportional to ``counts``.

    >>> entropy_bits(np.array([1, 1, 0, 2]))
    1.5
    """
    c = np.asarray(counts, dtype=float)
    total = c.sum()
    if total <= 0:
        return 0.0
    p = c[c > 0] / total
    return float(-(p * np.log2(p)).sum()) + 0.0


def expected_bits(joint: np.ndarray) -> float:
    """Expected drop in entropy of the column variable once the row (answer) is known.

    ``joint[a, x]`` counts worlds with answer ``a`` and hidden value ``x``; the result is the
    mutual information I(A; X) = H(A) + H(X) - H(A, X), in bits.

    >>> expected_bits(np.array([[1, 0], [0, 1]]))
    1.0
    >>> expected_bits(np.array([[1, 1], [1, 1]]))
    0.0
    """
    j = np.asarray(joint, dtype=float)
    if j.sum() <= 0:
        return 0.0
    mi = entropy_bits(j.sum(axis=1)) + entropy_bits(j.sum(axis=0)) - entropy_bits(j.ravel())
    return mi if mi > _NOISE else 0.0


def expected_bits_many(joints: np.ndarray) -> np.ndarray:
    """``expected_bits`` of each table in a (questions, answers, values) stack, vectorised."""
    j = np.asarray(joints, dtype=float)
    total = j.sum(axis=(1, 2), keepdims=True)
    p = np.divide(j, total, out=np.zeros_like(j), where=total > 0)

    def h(q, axes):
        logs = np.log2(q, out=np.zeros_like(q), where=q > 0)
        return -(q * logs).sum(axis=axes)

    mi = h(p.sum(axis=2), 1) + h(p.sum(axis=1), 1) - h(p, (1, 2))
    return np.where(mi > _NOISE, mi, 0.0)
