"""Shipped data: demo records, sample cases, card sets."""

from importlib import resources
from pathlib import Path


def puzzle_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``puzzle_path("sherlock13", "demo-4p.json")``."""
    return Path(str(resources.files(__name__).joinpath(*parts)))


def named_sample(path: str | Path, game: str, samples: dict[str, str]) -> str | Path:
    """``path`` as given, or, when it is one of the words of ``samples`` (word -> file of
    ``game``'s shipped data) and no file has that name, the shipped file the word names."""
    if str(path) in samples and not Path(path).exists():
        return puzzle_path(game, samples[str(path)])
    return path
