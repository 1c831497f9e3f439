"""The case file (TOML, spec "File format"): loading, validation, shipped cases by name.

``load_case(arg)`` reads a case from a path or a shipped case's name (file stem or title,
case-insensitive unambiguous aliases) and returns a validated ``Case``. Every problem is an
``InputError`` naming the file and the place: ``cases/key.toml: note 3: column 8: ...``,
``...: categories.room: ...``, ``...: unknown top-level key 'notes'; did you mean note?``.

Validated: only the spec's keys (plus an optional ``intro``, the case introduction read
aloud); every category a non-empty list of distinct names or of distinct integers, all of
one size; identifiers for category, attribute and unknown names, none reserved or repeated;
attributes ``{of = category, values = [...]}``; unknowns a category name or a list of
values; questions with ``text`` and an ``answer`` expression, texts distinct; notes with a
``rule`` (and optional ``text``, ``source``); ``[solution]`` keys: an unknown (its value),
a non-key category (a list: its item in each row, in key order), or an attribute (a list:
the value of each item of its category, in that category's order).

Reading: through ``core.records`` (regular files only, at most ``MAX_FILE_BYTES``, a UTF-8
byte-order mark accepted, integers past Python's integer-string limit and nesting past
``MAX_NESTING`` refused); a path that exists is always read as a file, so a folder, a FIFO
or a device is refused as such, never looked up as a shipped case's name.

Caps (each message names its cap): ``MAX_CATEGORIES``, ``MAX_ITEMS`` and ``MAX_GRID``
(categories x items), ``MAX_VALUES``, ``MAX_ATTRIBUTES``, ``MAX_UNKNOWNS``,
``MAX_QUESTIONS``, ``MAX_NOTES``; per rule ``language.MAX_RULE_CHARS``, ``MAX_DEPTH``,
``MAX_NUMBER``, ``MAX_RULE_PARTS``; for the whole file ``language.MAX_CASE_PARTS`` (parsing)
and ``model.CASE_WORK`` (compiling). Together they keep loading and compiling any file
to seconds.

Decision: a note without ``source`` is known from the start (the case introduction); it is
never counted in the minimal set of sources.
"""

from __future__ import annotations

import datetime
import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from deduce.core.errors import InputError
from deduce.core.names import normalise, resolve
from deduce.core.records import parse_toml_text, read_text, read_toml
from deduce.models.casenotes.language import MAX_NUMBER, Expr, PartsBudget, parse_rule, parse_value
from deduce.models.casenotes.schema import RESERVED, Attribute, Category, Schema, Unknown, Value

TOP_KEYS = ("title", "intro", "categories", "attributes", "unknowns", "question", "note", "solution")
NOTE_KEYS = ("source", "text", "rule")
QUESTION_KEYS = ("text", "answer")
ATTRIBUTE_KEYS = ("of", "values")
#: caps on the size of a case (with ``language.MAX_RULE_CHARS``, ``MAX_DEPTH``,
#: ``MAX_RULE_PARTS``, ``MAX_CASE_PARTS`` and ``model.CASE_WORK``, they bound the time a
#: case file takes to load and to compile)
MAX_CATEGORIES = 10
MAX_ITEMS = 12
#: categories x items: the grid's axioms grow with categories^3 x items^3, and every solver
#: call (counting solutions, each cell's possible values) with them
MAX_GRID = 64
MAX_VALUES = 50
MAX_ATTRIBUTES = 20
MAX_UNKNOWNS = 20
MAX_QUESTIONS = 50
MAX_NOTES = 2000


@dataclass(frozen=True)
class Note:
    index: int
    rule: str
    text: str
    source: str | None
    expr: Expr

    def describe(self) -> str:
        """``note 2 (Location 3: The Workshop): "text"  [rule]`` for messages."""
        where = f" ({self.source})" if self.source else ""
        quoted = f'"{self.text}"' + (f"  [{self.rule}]" if self.text != self.rule else "")
        return f"note {self.index}{where}: {quoted}"


@dataclass(frozen=True)
class Question:
    index: int
    text: str
    answer: str
    expr: Expr


@dataclass
class Case:
    """A validated case file."""

    path: str
    name: str
    title: str
    schema: Schema
    questions: list[Question] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    solution: dict[str, Value | list[Value]] = field(default_factory=dict)
    intro: str | None = None

    @property
    def sources(self) -> list[str]:
        """The distinct note sources, in file order."""
        seen: dict[str, None] = {}
        for n in self.notes:
            if n.source is not None:
                seen.setdefault(n.source, None)
        return list(seen)


# ----------------------------------------------------------------------------- finding
def shipped_cases() -> list[Path]:
    """The shipped case files, sorted by name."""
    from deduce.puzzles import puzzle_path

    return sorted(puzzle_path("casenotes").glob("*.toml"))


_SOURCE_PREFIX = re.compile(r"^\s*location\s*\d+\s*[:.\-]?\s*", re.IGNORECASE)


def source_number(source: str) -> int | None:
    """The number printed on a source's Location card: the first number in its name.

    >>> source_number("Location 3: The Workshop"), source_number("The Mews")
    (3, None)
    """
    m = re.search(r"\d+", source)
    return int(m.group()) if m else None


def source_name(source: str) -> str:
    """A source's name without its ``Location N:`` prefix.

    >>> source_name("Location 3: The Workshop")
    'The Workshop'
    """
    return _SOURCE_PREFIX.sub("", source)


def case_summary(case: Case) -> dict:
    """``deduce case list``'s row: ``{"name", "title", "size": "4x5", "categories",
    "items", "notes", "questions", "sources"}``."""
    m, n = len(case.schema.categories), case.schema.size
    return {"name": case.name, "title": case.title, "size": f"{m}x{n}", "categories": m,
            "items": n, "notes": len(case.notes), "questions": len(case.questions),
            "sources": len(case.sources)}


def case_path(arg: str) -> Path:
    """The file ``arg`` names: an existing path (read as a file even when it is a folder, a
    FIFO or a device, so ``load_case`` refuses it as such), else a shipped case's stem or
    title."""
    p = Path(arg)
    if os.path.lexists(p):
        return p
    if p.suffix.lower() == ".toml" or "/" in arg or "\\" in arg:
        raise InputError("file not found", where=arg)
    shipped = {f.stem: f for f in shipped_cases()}
    aliases = {}
    for stem, f in shipped.items():
        try:
            title = read_toml(f).get("title")
        except InputError:
            continue
        if isinstance(title, str):
            aliases[title] = stem
    try:
        return shipped[resolve(arg, list(shipped), "case", aliases=aliases)]
    except InputError as exc:
        raise InputError(f"{exc} (no such file either; `deduce case list` shows the shipped "
                         f"cases)") from None


def load_case(arg: str | Path) -> Case:
    """Read and validate the case at a path or with a shipped name."""
    path = case_path(str(arg))
    return parse_case(read_text(path), str(path))


# ----------------------------------------------------------------------------- parsing
def parse_case(text: str, path: str = "<case>") -> Case:
    """Validate the TOML ``text`` of a case file (``path`` only names it in messages)."""
    data = parse_toml_text(text, path)
    _no_unknown_keys(data, TOP_KEYS, path, "top-level key")
    title = data.get("title", Path(path).stem)
    _expect(title, str, path, "title", "a string")
    intro = data.get("intro")
    if intro is not None:
        _expect(intro, str, path, "intro", "a string")
    schema = _schema(data, path)
    budget = PartsBudget()
    questions = _questions(data.get("question", []), schema, path, budget)
    notes = _notes(data.get("note", []), schema, path, budget)
    solution = _solution(data.get("solution", {}), schema, path)
    return Case(path=path, name=Path(path).stem, title=title, schema=schema,
                questions=questions, notes=notes, solution=solution, intro=intro)


def _expect(value, kind, path: str, field_: str, what: str) -> None:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise InputError(f"expected {what}, got {_tname(value)}", where=f"{path}: {field_}")


_TYPE_NAMES = {dict: "a table", list: "a list", str: "a string", bool: "a boolean",
               int: "an integer", float: "a number", datetime.datetime: "a date-time",
               datetime.date: "a date", datetime.time: "a time"}


def _tname(value) -> str:
    """The TOML type of a parsed value in words (``a table``, ``a date-time``)."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _no_unknown_keys(table: dict, allowed: tuple[str, ...], path: str, what: str,
                     where: str | None = None) -> None:
    for k in table:
        if k not in allowed:
            close = difflib.get_close_matches(k, allowed, n=2, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; allowed: {', '.join(allowed)}"
            raise InputError(f"unknown {what} {k!r}{hint}", where=where or path)


def _check_name(name: str, path: str, field_: str, taken: dict[str, str]) -> None:
    if not name.isidentifier() or name in RESERVED:
        raise InputError(f"{name!r} cannot be used as a name in rules: use letters, digits and _ "
                         f"(not starting with a digit) and none of {', '.join(sorted(RESERVED))}",
                         where=f"{path}: {field_}")
    if name in taken:
        raise InputError(f"{name!r} is already a {taken[name]}", where=f"{path}: {field_}")


def _values(raw, path: str, field_: str, what: str, limit: int) -> tuple[Value, ...]:
    """A non-empty list of distinct names or of distinct integers."""
    if not isinstance(raw, list) or not raw:
        raise InputError(f"expected a non-empty list of {what}, got {_tname(raw)}",
                         where=f"{path}: {field_}")
    _at_most(raw, limit, what, f"{path}: {field_}")
    seen: dict = {}
    for k, v in enumerate(raw):
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            raise InputError(f"item {k}: expected a name or an integer, got {_tname(v)}",
                             where=f"{path}: {field_}")
        if isinstance(v, str) and not normalise(v):
            raise InputError(f"item {k}: {v!r} has no letters or digits", where=f"{path}: {field_}")
        if isinstance(v, int) and abs(v) > MAX_NUMBER:
            raise InputError(f"item {k}: number too large: more than the cap of "
                             f"{MAX_NUMBER:,} in size", where=f"{path}: {field_}")
        key = normalise(v) if isinstance(v, str) else v
        if key in seen:
            raise InputError(f"duplicate item {v!r} (items {seen[key]} and {k})", where=f"{path}: {field_}")
        seen[key] = k
    return tuple(raw)


def _schema(data: dict, path: str) -> Schema:
    cats_raw = data.get("categories")
    if cats_raw is None:
        raise InputError("missing [categories]: the grid needs at least one category", where=path)
    _expect(cats_raw, dict, path, "categories", "a table of category = [items]")
    if not cats_raw:
        raise InputError("the grid needs at least one category", where=f"{path}: categories")
    _at_most(cats_raw, MAX_CATEGORIES, "categories", f"{path}: categories")
    taken: dict[str, str] = {}
    categories: dict[str, Category] = {}
    size = None
    for name, items in cats_raw.items():
        field_ = f"categories.{name}"
        _check_name(name, path, field_, taken)
        values = _values(items, path, field_, "items", MAX_ITEMS)
        if any(isinstance(v, int) for v in values) and not all(isinstance(v, int) for v in values):
            raise InputError("mixes numbers and names: a category's items are all names or all "
                             "integers (then it is ordered)", where=f"{path}: {field_}")
        if size is None:
            size, first = len(values), name
        elif len(values) != size:
            raise InputError(f"has {len(values)} items but {first} has {size}: every category of "
                             f"the grid has the same size", where=f"{path}: {field_}")
        taken[name] = "category"
        categories[name] = Category(name, values)
    if len(categories) * size > MAX_GRID:
        raise InputError(f"the grid is too large: {len(categories)} categories x {size} items = "
                         f"{len(categories) * size}, more than the cap of {MAX_GRID} (categories "
                         f"x items)", where=f"{path}: categories")
    attributes: dict[str, Attribute] = {}
    raw = data.get("attributes", {})
    _expect(raw, dict, path, "attributes", "a table")
    _at_most(raw, MAX_ATTRIBUTES, "attributes", f"{path}: attributes")
    for name, spec in raw.items():
        field_ = f"attributes.{name}"
        _check_name(name, path, field_, taken)
        _expect(spec, dict, path, field_, '{ of = "category", values = [...] }')
        _no_unknown_keys(spec, ATTRIBUTE_KEYS, path, "key", where=f"{path}: {field_}")
        if "of" not in spec or "values" not in spec:
            raise InputError("needs both 'of' (a category) and 'values'", where=f"{path}: {field_}")
        _expect(spec["of"], str, path, f"{field_}.of", "a category name")
        of = resolve(spec["of"], list(categories), "category", where=f"{path}: {field_}.of")
        values = _values(spec["values"], path, f"{field_}.values", "values", MAX_VALUES)
        taken[name] = "attribute"
        attributes[name] = Attribute(name, of, values)
    unknowns: dict[str, Unknown] = {}
    raw = data.get("unknowns", {})
    _expect(raw, dict, path, "unknowns", "a table")
    _at_most(raw, MAX_UNKNOWNS, "unknowns", f"{path}: unknowns")
    for name, spec in raw.items():
        field_ = f"unknowns.{name}"
        _check_name(name, path, field_, taken)
        if isinstance(spec, str):
            cat = resolve(spec, list(categories), "category", where=f"{path}: {field_}")
            unknowns[name] = Unknown(name, category=cat)
        elif isinstance(spec, list):
            unknowns[name] = Unknown(name, values=_values(spec, path, field_, "values", MAX_VALUES))
        else:
            raise InputError(f"expected a category name or a list of values, got {_tname(spec)}",
                             where=f"{path}: {field_}")
        taken[name] = "unknown"
    return Schema(categories, attributes, unknowns)


def _table_list(raw, path: str, what: str) -> list[dict]:
    if not isinstance(raw, list):
        raise InputError(f"expected [[{what}]] tables, got {_tname(raw)}", where=f"{path}: {what}")
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            raise InputError(f"expected a table, got {_tname(t)}", where=f"{path}: {what} {i}")
    return raw


def _at_most(raw, cap: int, what: str, where: str) -> None:
    if len(raw) > cap:
        raise InputError(f"too many {what}: {len(raw):,}, more than the cap of {cap:,}",
                         where=where)


def _questions(raw, schema: Schema, path: str, budget: PartsBudget) -> list[Question]:
    out: list[Question] = []
    seen: dict[str, int] = {}
    questions = _table_list(raw, path, "question")
    _at_most(questions, MAX_QUESTIONS, "questions", path)
    for i, q in enumerate(questions):
        where = f"{path}: question {i}"
        _no_unknown_keys(q, QUESTION_KEYS, path, "key", where=where)
        for k in QUESTION_KEYS:
            if k not in q:
                raise InputError(f"missing '{k}'", where=where)
            _expect(q[k], str, path, f"question {i}, field '{k}'", "a string")
        if q["text"] in seen:
            raise InputError(f"the same text as question {seen[q['text']]}: question texts are "
                             f"the keys of the answers", where=where)
        seen[q["text"]] = i
        expr = parse_value(q["answer"], schema, where=f"{where}, field 'answer'", budget=budget)
        out.append(Question(i, q["text"], q["answer"], expr))
    return out


def _notes(raw, schema: Schema, path: str, budget: PartsBudget) -> list[Note]:
    notes = _table_list(raw, path, "note")
    _at_most(notes, MAX_NOTES, "notes", path)
    out: list[Note] = []
    for i, n in enumerate(notes):
        where = f"{path}: note {i}"
        _no_unknown_keys(n, NOTE_KEYS, path, "key", where=where)
        if "rule" not in n:
            raise InputError("missing 'rule'", where=where)
        for k in NOTE_KEYS:
            if k in n:
                _expect(n[k], str, path, f"note {i}, field '{k}'", "a string")
        expr = parse_rule(n["rule"], schema, where=where, budget=budget)
        source = n.get("source")
        source = source.strip() if source and source.strip() else None
        out.append(Note(i, n["rule"], n.get("text", n["rule"]), source, expr))
    return out


def _solution(raw, schema: Schema, path: str) -> dict[str, Value | list[Value]]:
    _expect(raw, dict, path, "solution", "a table")
    out: dict[str, Value | list[Value]] = {}
    key_cat = schema.key.name
    allowed = list(schema.unknowns) + [c for c in schema.categories if c != key_cat] + \
        list(schema.attributes)
    for k, v in raw.items():
        where = f"{path}: solution.{k}"
        if k == key_cat:
            raise InputError(f"{k} is the grid's key (its items name the rows): give the other "
                             f"categories, each as a list in {k} order", where=where)
        if k not in allowed:
            close = difflib.get_close_matches(k, allowed, n=2, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else \
                f"; allowed: {', '.join(allowed) or 'nothing (no unknowns)'}"
            raise InputError(f"unknown solution key {k!r}{hint}", where=f"{path}: solution")
        if k in schema.unknowns:
            u = schema.unknowns[k]
            domain = schema.categories[u.category].items if u.category else u.values
            out[k] = _member(v, domain, where)
        elif k in schema.categories:
            out[k] = _column(v, schema.categories[k].items, schema.size, where, permutation=True)
        else:
            a = schema.attributes[k]
            out[k] = _column(v, a.values, len(schema.categories[a.of].items), where, permutation=False)
    return out


def _member(v, domain: tuple[Value, ...], where: str) -> Value:
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise InputError(f"expected a name or an integer, got {_tname(v)}", where=where)
    if isinstance(v, int):
        if v in domain:
            return v
        raise InputError(f"{v} is not one of {', '.join(map(str, domain))}", where=where)
    names = [d for d in domain if isinstance(d, str)]
    if not names:
        raise InputError(f"{v!r} is not one of {', '.join(map(str, domain))}", where=where)
    return resolve(v, names, "value", where=where)


def _column(v, domain: tuple[Value, ...], length: int, where: str, permutation: bool) -> list[Value]:
    if not isinstance(v, list) or len(v) != length:
        raise InputError(f"expected a list of {length} entries (one per row, in key order), "
                         f"got {_tname(v)}" + (f" of {len(v)}" if isinstance(v, list) else ""),
                         where=where)
    out = [_member(x, domain, f"{where}[{k}]") for k, x in enumerate(v)]
    if permutation and len(set(out)) != len(out):
        raise InputError("names an item twice: each item is in exactly one row", where=where)
    return out
