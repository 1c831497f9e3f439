"""Case-insensitive, unambiguous name aliases.

Rule (from the Sherlock 13 spec, used by every game): case, spaces and punctuation are
ignored; an exact match wins, otherwise the one canonical name that contains the text;
several such names make the text ambiguous and an unknown text is an error listing the
closest names. Where no name contains the text, a name whose words start with the text's
words, in order, also matches (``Inspector Lestrade`` -> ``Inspector G. Lestrade``).

>>> resolve("bulb", ["pipe", "light bulb", "fist"], "icon")
'light bulb'
>>> resolve("Light-Bulb", ["pipe", "light bulb"], "icon")
'light bulb'
>>> resolve("Insp Lestrade", ["Inspector G. Lestrade", "Inspector Gregson"], "suspect")
'Inspector G. Lestrade'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from deduce.core.errors import InputError

_NOISE = re.compile(r"[\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """Lower case with spaces and punctuation removed: ``"Mrs. Hudson" -> "mrshudson"``."""
    return _NOISE.sub("", text).casefold()


def _words_start(text: str, name: str) -> bool:
    """Does each word of ``text`` start a word of ``name``, in order?"""
    words = [normalise(w) for w in name.split()]
    i = 0
    for w in (normalise(t) for t in text.split()):
        if not w:
            continue
        while i < len(words) and not words[i].startswith(w):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def resolve(
    text: str,
    canonical: Iterable[str],
    kind: str,
    *,
    where: str | None = None,
    aliases: Mapping[str, str] | None = None,
) -> str:
    """The canonical name ``text`` stands for, or ``InputError`` naming the candidates.

    ``aliases`` maps extra spellings (normalised or not) to canonical names; they count as
    exact matches.
    """
    names = list(canonical)
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"expected a {kind} name, got {text!r}", where=where)
    key = normalise(text)
    exact = {normalise(n): n for n in names}
    if aliases:
        exact.update({normalise(a): n for a, n in aliases.items()})
    if key in exact:
        return exact[key]
    hits = [n for n in names if key and key in normalise(n)]
    if not hits:
        hits = [n for n in names if _words_start(text, n)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise InputError(
            f"{kind} {text!r} is ambiguous: could be {', '.join(hits)}", where=where
        )
    close = difflib.get_close_matches(key, list(exact), n=3, cutoff=0.5)
    suggestion = sorted({exact[c] for c in close}, key=names.index)
    hint = f"; did you mean {', '.join(suggestion)}?" if suggestion else f"; known: {', '.join(names)}"
    raise InputError(f"unknown {kind} {text!r}{hint}", where=where)
