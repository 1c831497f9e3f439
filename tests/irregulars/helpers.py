"""Hand-built positions of the irregulars tests (``positions/``), read and changed."""

from __future__ import annotations

import json
from pathlib import Path

from deduce.models.irregulars.position import parse_position

POSITIONS = Path(__file__).parent / "positions"
SOLO = POSITIONS / "solo.json"
GREGSON = POSITIONS / "gregson.json"
SAMPLE = Path(__file__).parents[2] / "deduce" / "puzzles" / "irregulars" / "sample-position.json"


def data(path: Path = SAMPLE, **changes) -> dict:
    out = json.loads(path.read_text())
    out.update(changes)
    return out


def position(path: Path = SAMPLE, **changes):
    return parse_position(data(path, **changes), path.name)
