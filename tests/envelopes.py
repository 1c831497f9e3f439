"""The self-play JSON envelope in tests: what must not depend on where or how fast the
games were played."""

from __future__ import annotations

#: the envelope's keys that say where and how long the games ran (``core.selfplay``)
WHERE_AND_HOW_LONG = ("workers", "scheduler", "elapsed_s")


def played(doc: dict) -> dict:
    """``doc`` without ``WHERE_AND_HOW_LONG``: equal for the same games wherever they ran."""
    return {k: v for k, v in doc.items() if k not in WHERE_AND_HOW_LONG}
