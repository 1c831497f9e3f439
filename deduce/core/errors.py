"""Exit codes and the two errors every command reports without a traceback.

``InputError`` (exit 2): the input is malformed; the message names the place (file, event
index, field) and, for a misspelt name, the candidates.
``ContradictionError`` (exit 3): the input is well formed but no world fits it; ``conflict``
holds a minimal set of indices (events, notes, ...) that cannot all hold together.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    BAD_INPUT = 2
    CONTRADICTION = 3


class DeduceError(Exception):
    """Base of the errors a command turns into an exit code and a message."""

    exit_code: ExitCode = ExitCode.BAD_INPUT

    def to_json(self) -> dict:
        return {"error": "bad-input", "message": str(self)}


class InputError(DeduceError, ValueError):
    """Bad input: unreadable file, unknown or ambiguous name, illegal action, ..."""

    exit_code = ExitCode.BAD_INPUT

    def __init__(self, message: str, *, where: str | None = None, field: str | None = None):
        self.where = where
        self.field = field  # the input field at fault, when the raiser knows it
        super().__init__(f"{where}: {message}" if where else message)


class ContradictionError(DeduceError):
    """No world is consistent with the observations; ``conflict`` is a minimal conflicting set."""

    exit_code = ExitCode.CONTRADICTION

    def __init__(self, message: str, conflict: list[int]):
        self.conflict = list(conflict)
        super().__init__(message)

    def to_json(self) -> dict:
        return {"error": "contradiction", "conflict": self.conflict, "message": str(self)}
