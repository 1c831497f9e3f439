"""Hashable keys (memo keys, context parts) as JSON, exactly and reversibly.

``encode(value, types)`` turns a key into JSON-able data and ``decode(data, types)`` turns
that data back into an equal object of the same types:

- ``None``, ``bool``, ``int``, ``float`` and ``str`` stay as they are (JSON keeps ``true``
  apart from ``1``);
- a tuple becomes ``{"t": [items]}``; a frozenset ``{"f": [items]}``, its items sorted by
  their JSON text, so equal sets give equal JSON (``json.dumps(..., sort_keys=True)``)
  whatever the process's hash seed;
- a NamedTuple or a dataclass whose class is in ``types`` (name -> class) becomes
  ``{"n": name, "v": [its fields in order]}``.

Anything else is a ``TypeError`` on encoding, and data that is not such an encoding a
``ValueError`` on decoding: only the classes the caller names are ever built (no code is
looked up by name, as pickle would).
"""

from __future__ import annotations

import dataclasses
import json


def encode(value, types: dict[str, type]):
    """The JSON-able form of ``value`` (see the module's docstring)."""
    names = {cls: name for name, cls in types.items()}
    return _encode(value, names)


def _encode(value, names: dict):
    cls = type(value)
    if value is None or cls in (bool, int, float, str):  # not a subclass: decoded the same
        return value
    if cls in names:
        if dataclasses.is_dataclass(value):
            fields = [getattr(value, f.name) for f in dataclasses.fields(value)]
        else:
            fields = list(value)
        return {"n": names[cls], "v": [_encode(x, names) for x in fields]}
    if cls is tuple:
        return {"t": [_encode(x, names) for x in value]}
    if cls is frozenset:
        items = [_encode(x, names) for x in value]
        return {"f": sorted(items, key=lambda x: json.dumps(x, sort_keys=True))}
    raise TypeError(f"cannot encode a {cls.__name__} as a key: {value!r}")


def decode(data, types: dict[str, type]):
    """The key ``data`` (``encode``'s output) stands for; ``ValueError`` if it is not one."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, dict) and len(data) == 1:
        (tag, items), = data.items()
        if tag in ("t", "f") and isinstance(items, list):
            out = tuple(decode(x, types) for x in items)
            return out if tag == "t" else frozenset(out)
    if isinstance(data, dict) and data.keys() == {"n", "v"} and isinstance(data["v"], list):
        cls = types.get(data["n"]) if isinstance(data["n"], str) else None
        if cls is None:
            raise ValueError(f"unknown key type {data['n']!r}")
        values = [decode(x, types) for x in data["v"]]
        try:
            return cls(*values)
        except TypeError as exc:
            raise ValueError(f"bad fields for {data['n']}: {exc}") from None
    raise ValueError(f"not an encoded key: {str(data)[:80]}")
