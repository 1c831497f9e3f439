"""Counting the DP's solves: every whole-turn sweep a ``Solver.prepare`` runs (the solve
itself; reading the memo or the cache runs none), in this process and in the workers it
forks (each call appends a line to a file)."""

from __future__ import annotations

from pathlib import Path


def count_solves(monkeypatch, log: Path) -> None:
    """From now on every sweep, here or in a forked worker, appends a line to ``log``."""
    from deduce.models.detective_story.dp.sweep import Sweep

    original = Sweep.run

    def counted(self, *args, **kwargs):
        with open(log, "a", encoding="utf-8") as stream:
            stream.write("solve\n")
        return original(self, *args, **kwargs)

    log.write_text("", encoding="utf-8")
    monkeypatch.setattr(Sweep, "run", counted)


def solves(log: Path) -> int:
    """The sweeps counted in ``log`` so far."""
    return len(log.read_text(encoding="utf-8").splitlines())
