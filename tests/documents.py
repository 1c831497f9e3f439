"""Walking and editing parsed JSON/TOML documents in tests (fuzzing every field)."""

from __future__ import annotations

import copy
from typing import Any, Iterator


def places(obj: Any, prefix: tuple = (), root: bool = True) -> Iterator[tuple]:
    """Every place in ``obj`` as a path of dict keys and list indices, outermost first
    (``()``, the document itself, too unless ``root`` is False)."""
    if root:
        yield prefix
    if isinstance(obj, dict):
        items = obj.items()
    elif isinstance(obj, list):
        items = enumerate(obj)
    else:
        return
    for k, v in items:
        yield from places(v, prefix + (k,))


def with_value(doc: Any, path: tuple, value: Any) -> Any:
    """A deep copy of ``doc`` with ``value`` at ``path`` (a non-empty path)."""
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc
