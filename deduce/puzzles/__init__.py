"""Shipped data: demo records, sample cases, card sets."""

from importlib import resources
from pathlib import Path


def puzzle_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``puzzle_path("sherlock13", "demo-4p.json")``."""
    return Path(str(resources.files(__name__).joinpath(*parts)))
