"""The rule language: Python expression syntax, parsed with ``ast`` and a whitelist.

``parse_rule(text, schema, where)`` gives a typed condition tree, ``parse_value`` the tree
of a question's answer (any expression). Nothing is ever evaluated as Python: the ``ast``
tree is walked node by node and anything not in the spec's table is an ``InputError`` that
names ``where`` (file and note), the column (1-based, in characters) and, for a misspelt
name, the closest names; the message ends with the rule and a caret under the column.

Typed tree (every node records ``col``). Four kinds of expression:

- ``row``: a row of the grid, seen through an *anchor* category (the category whose item
  the expression names): ``Item(cat, index)``, ``URow(unknown)``, ``Var(name, cat)`` (a
  quantified variable) and ``CatOf(cat, row)`` (``room(A)``: A's row, anchored at room).
- ``num``: integers: ``Num``, ``AsNum(row)`` (the item of an ordered anchor category),
  ``Arith(op, a, b)``, ``Abs``, ``Neg``, ``Count`` (``sum`` of conditions).
- ``sym``: values of attributes and free-list unknowns: ``AttrOf(attr, row)``, ``UFree``,
  ``Sym(value)`` (a constant, already resolved to the canonical value).
- ``bool``: ``And``, ``Or``, ``Not``, ``Implies``, ``Iff``, ``Xor``, ``BoolConst``,
  ``RowEq`` (same row), ``NumCmp(op, a, b)``, ``SymEq``, ``Quant(all|any, comp)``.

``one_of``, ``pairs`` and ``distinct`` are expanded into these while parsing.

Caps, checked before any work is spent on a rule (each message names its cap): at most
``MAX_RULE_CHARS`` characters; nesting at most ``MAX_DEPTH`` levels, counted on the text
before ``ast.parse`` sees it (``prescan``: brackets and runs of ``not`` and signs) and again
on the tree (``RecursionError``/``MemoryError`` from ``ast`` are caught as a backstop);
numbers at most ``MAX_NUMBER`` in size (a longer digit string never reaches Python's int
conversion); at most ``MAX_RULE_PARTS`` parts with ``one_of``/``pairs``/``distinct``
expanded, and ``MAX_CASE_PARTS`` over all the rules of a case (``PartsBudget``).

Decisions where the spec is silent: ``==`` between two row expressions always means "same
row" (so ``hour(A) == floor(B)`` says A and B are one row; write ``hour(A) + 0 == floor(B)``
for equal numbers); a bare number is a number, never an item (``hour[9]`` names the item);
comparisons chain (``a < b < c``); comprehensions may have several ``for`` and ``if``
clauses (the ``if`` clauses filter); ``sum`` also takes a list of conditions; ``xor`` takes
exactly two conditions; ``pairs`` takes lists of up to 6; ``True`` and ``False`` are
conditions; ``*`` and unary ``-`` are allowed in arithmetic.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import itertools
import math
import re
import warnings
from dataclasses import dataclass
from typing import ClassVar

from deduce.core.errors import InputError
from deduce.core.names import normalise
from deduce.models.casenotes.schema import RESERVED, Schema, Value

#: the longest rule (characters)
MAX_RULE_CHARS = 4000
#: the deepest nesting in a rule: brackets and runs of ``not``/``-`` in the text, and the
#: levels of its parsed tree
MAX_DEPTH = 60
#: the longest list ``pairs`` takes
MAX_PAIRS = 6
#: the largest number (in size) a rule or an ordered category may use
MAX_NUMBER = 10**9
#: the parts one rule may have once ``one_of``, ``pairs`` and ``distinct`` are expanded
MAX_RULE_PARTS = 20_000
#: the parts all the rules of one case (notes and question answers) may have together
MAX_CASE_PARTS = 100_000

FUNCTIONS = ("abs", "all", "any", "sum", "one_of", "pairs", "distinct", "implies", "xor")


# ----------------------------------------------------------------------------- the tree
class Expr:
    """A typed node; ``kind`` is ``row``, ``num``, ``sym`` or ``bool``."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class Item(Expr):
    cat: str
    index: int
    col: int = 0
    kind: ClassVar[str] = "row"


@dataclass(frozen=True)
class URow(Expr):
    name: str
    cat: str
    col: int = 0
    kind: ClassVar[str] = "row"


@dataclass(frozen=True)
class Var(Expr):
    name: str
    cat: str
    col: int = 0
    kind: ClassVar[str] = "row"


@dataclass(frozen=True)
class CatOf(Expr):
    cat: str
    row: Expr
    col: int = 0
    kind: ClassVar[str] = "row"


@dataclass(frozen=True)
class Num(Expr):
    value: int
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class AsNum(Expr):
    row: Expr
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class Arith(Expr):
    op: str  # "+", "-", "*"
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class Abs(Expr):
    a: Expr
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class Neg(Expr):
    a: Expr
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class Comp:
    """``for x in cat ... if cond``: variables with their categories, filters, body."""

    gens: tuple[tuple[str, str], ...]
    conds: tuple[Expr, ...]
    body: Expr


@dataclass(frozen=True)
class Count(Expr):
    """How many of the conditions hold: a comprehension or a plain tuple of conditions."""

    comp: Comp | None
    items: tuple[Expr, ...] = ()
    col: int = 0
    kind: ClassVar[str] = "num"


@dataclass(frozen=True)
class AttrOf(Expr):
    attr: str
    row: Expr
    col: int = 0
    kind: ClassVar[str] = "sym"


@dataclass(frozen=True)
class UFree(Expr):
    name: str
    col: int = 0
    kind: ClassVar[str] = "sym"


@dataclass(frozen=True)
class Sym(Expr):
    value: Value
    col: int = 0
    kind: ClassVar[str] = "sym"


@dataclass(frozen=True)
class BoolConst(Expr):
    value: bool
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class And(Expr):
    items: tuple[Expr, ...]
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Or(Expr):
    items: tuple[Expr, ...]
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Not(Expr):
    a: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Implies(Expr):
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Iff(Expr):
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Xor(Expr):
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class RowEq(Expr):
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class NumCmp(Expr):
    op: str  # "==", "!=", "<", "<=", ">", ">="
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class SymEq(Expr):
    a: Expr
    b: Expr
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Quant(Expr):
    which: str  # "all" or "any"
    comp: Comp
    col: int = 0
    kind: ClassVar[str] = "bool"


@dataclass(frozen=True)
class _Str(Expr):
    """A quoted string before its context says what it names (an item or a value)."""

    text: str
    col: int = 0
    kind: ClassVar[str] = "str"


def uses(e, kinds) -> bool:
    """Does expression ``e`` contain a node of one of ``kinds`` (a type or tuple of types)?"""
    if isinstance(e, kinds):
        return True
    if dataclasses.is_dataclass(e):
        return any(uses(getattr(e, f.name), kinds) for f in dataclasses.fields(e))
    if isinstance(e, tuple):
        return any(uses(x, kinds) for x in e)
    return False


def anchor(row: Expr) -> str:
    """The category a row expression names an item of."""
    return row.cat  # type: ignore[attr-defined]


def sym_domain(e: Expr, schema: Schema) -> tuple[Value, ...] | None:
    """The values a ``sym`` expression ranges over (None for a constant)."""
    if isinstance(e, AttrOf):
        return schema.attributes[e.attr].values
    if isinstance(e, UFree):
        return schema.unknowns[e.name].values
    return None


# ----------------------------------------------------------------------------- errors
class _RuleError(Exception):
    def __init__(self, col: int, message: str):
        self.col = col
        self.message = message
        super().__init__(message)


def rule_error(src: str, col: int, message: str, where: str | None) -> InputError:
    """The ``InputError`` for a problem at ``col`` (1-based) of rule ``src``."""
    col = max(1, min(col, len(src) + 1))
    shown = src if len(src) <= 200 else src[:200] + "..."
    caret = " " * (col - 1) + "^" if col <= 201 else ""
    return InputError(f"column {col}: {message}\n    {shown}\n    {caret}", where=where)


# ----------------------------------------------------------------------------- parsing
def parse_rule(text: str, schema: Schema, where: str | None = None,
               budget: PartsBudget | None = None) -> Expr:
    """The condition ``text`` states, as a typed tree; ``InputError`` if it is not one
    (``budget``: the parts the case's rules may still use)."""
    return _parse(text, schema, where, want="bool", budget=budget)


def parse_value(text: str, schema: Schema, where: str | None = None,
                budget: PartsBudget | None = None) -> Expr:
    """Any expression (a question's answer): a row with its anchor, number, value or condition."""
    return _parse(text, schema, where, want="value", budget=budget)


class PartsBudget:
    """The parts the rules of one case may still use (``MAX_CASE_PARTS`` in all); pass one
    budget to every ``parse_rule``/``parse_value`` of a case."""

    def __init__(self, cap: int | None = None):
        self.cap = MAX_CASE_PARTS if cap is None else cap
        self.left = self.cap


TOO_DEEP = f"the rule is nested too deeply: more than the cap of {MAX_DEPTH} levels"


def _parse(text: str, schema: Schema, where: str | None, want: str,
           budget: PartsBudget | None = None) -> Expr:
    if not isinstance(text, str):
        raise InputError(f"a rule is a string, got {type(text).__name__}", where=where)
    src = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if not src.strip():
        raise InputError("the rule is empty", where=where)
    if len(src) > MAX_RULE_CHARS:
        raise InputError(f"the rule is too long: {len(src):,} characters, more than the cap of "
                         f"{MAX_RULE_CHARS:,}", where=where)
    try:
        prescan(src)
    except _RuleError as exc:
        raise rule_error(src, exc.col, exc.message, where) from None
    try:
        with warnings.catch_warnings():  # e.g. invalid escapes in strings: not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(src.strip(), mode="eval")
    except SyntaxError as exc:
        lead = len(src) - len(src.lstrip())
        msg = exc.msg
        if not exc.offset:  # the rule stops too early
            col, msg = len(src.rstrip()) + 1, f"{msg}: the rule ends too early"
        else:
            col = exc.offset + lead
        raise rule_error(src, col, f"not a valid rule ({msg})", where) from None
    except (RecursionError, MemoryError):  # a backstop: prescan refuses deep text first
        raise rule_error(src, 1, TOO_DEEP, where) from None
    except ValueError as exc:  # e.g. an integer past Python's integer-string limit
        raise rule_error(src, 1, f"not a valid rule ({exc})", where) from None
    parser = _Parser(schema, src, len(src) - len(src.lstrip()), budget)
    try:
        e = parser.expr(tree.body, {}, 0)
        if want == "bool":
            e = parser.as_cond(e)
        elif isinstance(e, _Str):
            e = parser.as_row(e)
        elif isinstance(e, Sym):
            raise _RuleError(e.col, "a constant is not a question's answer")
    except _RuleError as exc:
        raise rule_error(src, exc.col, exc.message, where) from None
    except (RecursionError, MemoryError):
        raise rule_error(src, 1, TOO_DEEP, where) from None
    if budget is not None:
        budget.left -= parser.parts
    return e


_OPERATOR_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "for", "lambda",
                             "await", "yield", "async"})
#: one token of rule text: a string's opening quote (with its prefix), a number, a word,
#: or any other character
_TOKEN = re.compile(r"""(?P<quote>[rRuUbBfF]{0,2}(?:'''|\"\"\"|'|"))|(?P<num>\.?\d[\w.]*)"""
                    r"""|(?P<word>[^\W\d]\w*)|(?P<other>\S)""")
_LONG_DIGITS = re.compile(r"\d{%d}" % (len(str(MAX_NUMBER)) + 1))
_STRING_END = {q: re.compile(r"(?:[^\\]|\\.)*?" + re.escape(q), re.DOTALL)
               for q in ("'''", '"""', "'", '"')}


def prescan(src: str) -> None:
    """Refuse, before ``ast.parse`` sees it, rule text nested deeper than ``MAX_DEPTH`` or
    with a whole number past ``MAX_NUMBER`` (``_RuleError`` at the column).

    Nesting is counted on the text, without recursion: each open bracket is a level, and so
    is each prefix operator (``not``, unary ``-``, ``+``, ``~``) of the longest run of them
    inside each open bracket (and at the top). So ``not not x``, ``(((x)))``, ``-(-(-1))``
    and ``a and (b and (c))`` count 2, 3, 5 and 2. Strings are skipped (their quotes and
    escapes are followed); text ``ast`` refuses anyway is left for it to report.
    """
    if sum(map(src.count, "([{+-~")) + src.count("not") <= MAX_DEPTH and \
            not _LONG_DIGITS.search(src):
        return  # too few brackets and signs to nest too deeply, no long number
    runs, bests = [0], [0]  # per open bracket (and the top): current and longest prefix run
    total = 0  # open brackets + the sum of ``bests``
    operand = False  # was the last token an operand (so + and - are binary)?
    pos, n = 0, len(src)
    while pos < n:
        m = _TOKEN.search(src, pos)
        if m is None:
            return
        pos, kind, text = m.end(), m.lastgroup, m.group()
        prefix = False
        if kind == "quote":
            end = _STRING_END[text.lstrip("rRuUbBfF")].match(src, pos)
            pos = end.end() if end else n
            operand = True
        elif kind == "num":
            _check_number(text, m.start() + 1)
            operand = True
        elif kind == "word":
            prefix = text == "not"
            operand = text not in _OPERATOR_WORDS
        elif text in "([{":
            runs.append(0)
            bests.append(0)
            total += 1
            operand = False
        elif text in ")]}":
            if len(runs) > 1:
                runs.pop()
                total -= 1 + bests.pop()
            operand = True
        else:
            prefix = text in "+-~" and not operand
            operand = False
        if prefix:
            runs[-1] += 1
            if runs[-1] > bests[-1]:
                bests[-1] += 1
                total += 1
        elif text not in "([{":
            runs[-1] = 0
        if total > MAX_DEPTH:
            raise _RuleError(m.start() + 1, TOO_DEEP)


def _check_number(token: str, col: int) -> None:
    """A whole number past ``MAX_NUMBER`` is refused here, before Python converts it."""
    digits = token.replace("_", "")
    if digits.isdigit() and len(digits.lstrip("0")) > len(str(MAX_NUMBER)):
        raise _RuleError(col, _too_large())


def _too_large() -> str:
    return f"number too large: more than the cap of {MAX_NUMBER:,} in size"


_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}


class _Parser:
    def __init__(self, schema: Schema, src: str, lead: int, budget: PartsBudget | None = None):
        self.s = schema
        self.src_bytes = src.strip().encode("utf-8")
        self.lead = lead
        #: the character index of each byte offset (None when the rule is ASCII)
        self._chars: list[int] | None = None
        if not self.src_bytes.isascii():
            self._chars = [k for k, ch in enumerate(src.strip())
                           for _ in range(len(ch.encode("utf-8")))] + [len(src.strip())]
        self.budget = budget
        self.parts = 0

    def spend(self, n: int, col: int) -> None:
        """Count ``n`` more parts of the rule; past ``MAX_RULE_PARTS`` (or the case's
        ``PartsBudget``) a ``_RuleError`` at ``col`` naming the cap."""
        self.parts += n
        if self.parts > MAX_RULE_PARTS:
            raise _RuleError(col, f"the rule is too large: more than the cap of "
                                  f"{MAX_RULE_PARTS:,} parts (one_of, pairs and distinct "
                                  f"expanded)")
        if self.budget is not None and self.parts > self.budget.left:
            raise _RuleError(col, f"the case's rules are too large in all: more than the cap "
                                  f"of {self.budget.cap:,} parts over all notes and questions "
                                  f"(one_of, pairs and distinct expanded)")

    # ------------------------------------------------------------ positions and names
    def col(self, node: ast.AST) -> int:
        """The 1-based column (in characters) of ``node`` in the rule as written."""
        off = getattr(node, "col_offset", 0) or 0
        if self._chars is None:  # ASCII: bytes are characters
            return off + 1 + self.lead
        return self._chars[min(off, len(self._chars) - 1)] + 1 + self.lead

    def all_names(self, env: dict) -> list[str]:
        return list(env) + list(self.s.unknowns) + list(self.s.categories) + list(self.s.attributes)

    def unknown_name(self, text: str, col: int, env: dict, what: str = "name") -> _RuleError:
        if what == "function":
            callable_ = list(FUNCTIONS) + list(self.s.categories) + list(self.s.attributes)
            close = difflib.get_close_matches(text, callable_, n=3, cutoff=0.5)
        else:
            close = self.s.close_items(text, extra=self.all_names(env))
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return _RuleError(col, f"unknown {what} {text!r}{hint}")

    def item(self, text: str, col: int, env: dict, category: str | None = None) -> Item:
        hits = self.s.find_items(text, category)
        if len(hits) == 1:
            return Item(hits[0][0], hits[0][1], col)
        if hits:
            shown = ", ".join(f"{c}[{self.s.item_text(c, i)!r}]" for c, i in hits[:6])
            raise _RuleError(col, f"{text!r} is ambiguous: could be {shown}")
        if category:
            close = self.s.close_items(text, category)
            hint = f"; did you mean {', '.join(close)}?" if close else \
                f"; its items: {', '.join(map(str, self.s.categories[category].items))}"
            raise _RuleError(col, f"{category} has no item {text!r}{hint}")
        raise self.unknown_name(text, col, env)

    def value(self, text: Value, col: int, domain: tuple[Value, ...], what: str) -> Sym:
        """Resolve a constant among ``domain``: exact (case, spaces and punctuation ignored),
        else the one value that the text starts, or one of whose words it starts."""
        if isinstance(text, int):
            if text in domain:
                return Sym(text, col)
            raise _RuleError(col, f"{text} is not a {what} value; values: {', '.join(map(str, domain))}")
        key = normalise(text)
        exact = [v for v in domain if normalise(str(v)) == key]
        hits = exact or [v for v in domain if key and (normalise(str(v)).startswith(key) or any(
            normalise(w).startswith(key) for w in str(v).split()))]
        if len(hits) == 1:
            return Sym(hits[0], col)
        if hits:
            raise _RuleError(col, f"{text!r} is ambiguous: could be {', '.join(map(str, hits))}")
        close = difflib.get_close_matches(str(text), [str(v) for v in domain], n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}?" if close else f"values: {', '.join(map(str, domain))}"
        raise _RuleError(col, f"{text!r} is not a {what} value; {hint}")

    # ------------------------------------------------------------ coercions
    def as_cond(self, e: Expr) -> Expr:
        if e.kind == "bool":
            return e
        raise _RuleError(e.col, f"expected a condition, got {_describe(e)}")

    def as_row(self, e: Expr, env: dict | None = None) -> Expr:
        if e.kind == "row":
            return e
        if isinstance(e, _Str):
            return self.item(e.text, e.col, env or {})
        if isinstance(e, Num) and e.kind == "num":
            cats = [c.name for c in self.s.categories.values() if e.value in c.items]
            hint = f"; write {cats[0]}[{e.value}]" if cats else ""
            raise _RuleError(e.col, f"a bare number is not an item{hint}")
        raise _RuleError(e.col, f"expected an item or a row, got {_describe(e)}")

    def as_num(self, e: Expr) -> Expr:
        if e.kind == "num":
            return e
        if e.kind == "row":
            cat = anchor(e)
            if self.s.categories[cat].ordered:
                return AsNum(e, e.col)
            raise _RuleError(e.col, f"{cat} is not an ordered category (its items are not all "
                                    f"numbers): no arithmetic or <, > on it")
        raise _RuleError(e.col, f"expected a number, got {_describe(e)}")

    # ------------------------------------------------------------ comparisons
    def equal(self, a: Expr, b: Expr, col: int, env: dict) -> Expr:
        """The condition ``a == b`` for two typed expressions of compatible kinds."""
        ka, kb = a.kind, b.kind
        if ka == "bool" and kb == "bool":
            return Iff(a, b, col)
        if "bool" in (ka, kb):
            raise _RuleError(col, "compares a condition with a value")
        if "sym" in (ka, kb):
            s, o = (a, b) if ka == "sym" else (b, a)
            dom = sym_domain(s, self.s)
            what = s.attr if isinstance(s, AttrOf) else s.name  # type: ignore[attr-defined]
            if o.kind == "sym":
                return SymEq(s, o, col)
            if isinstance(o, _Str):
                return SymEq(s, self.value(o.text, o.col, dom, what), col)
            if isinstance(o, Num):
                return SymEq(s, self.value(o.value, o.col, dom, what), col)
            raise _RuleError(col, f"compares a {what} value with {_describe(o)}")
        if ka == "num" or kb == "num":
            r, o = (a, b) if ka != "num" else (b, a)
            if isinstance(o, Num) and r.kind == "row" and not self.s.categories[anchor(r)].ordered:
                self.as_row(o)  # a bare number is not an item: say how to name one
            return NumCmp("==", self.as_num(a), self.as_num(b), col)
        return RowEq(self.as_row(a, env), self.as_row(b, env), col)

    def compare(self, op: str, a: Expr, b: Expr, col: int, env: dict) -> Expr:
        if op == "==":
            return self.equal(a, b, col, env)
        if op == "!=":
            eq = self.equal(a, b, col, env)
            return Xor(eq.a, eq.b, col) if isinstance(eq, Iff) else Not(eq, col)
        for e in (a, b):
            if e.kind == "row" and not self.s.categories[anchor(e)].ordered:
                raise _RuleError(e.col, f"compares unordered items with {op}: {anchor(e)} is not "
                                        f"an ordered category")
        return NumCmp(op, self.as_num(a), self.as_num(b), col)

    # ------------------------------------------------------------ the walk
    def expr(self, node: ast.AST, env: dict, depth: int) -> Expr:
        col = self.col(node)
        if depth > MAX_DEPTH:
            raise _RuleError(col, TOO_DEEP)
        self.spend(1, col)
        d = depth + 1
        if isinstance(node, ast.BoolOp):
            items = tuple(self.as_cond(self.expr(v, env, d)) for v in node.values)
            return And(items, col) if isinstance(node.op, ast.And) else Or(items, col)
        if isinstance(node, ast.UnaryOp):
            inner = self.expr(node.operand, env, d)
            if isinstance(node.op, ast.Not):
                return Not(self.as_cond(inner), col)
            if isinstance(node.op, ast.USub):
                n = self.as_num(inner)
                return Num(-n.value, col) if isinstance(n, Num) else Neg(n, col)
            if isinstance(node.op, ast.UAdd):
                return self.as_num(inner)
            raise _RuleError(col, "the operator ~ is not allowed in a rule")
        if isinstance(node, ast.Compare):
            left = self.expr(node.left, env, d)
            parts = []
            for op, right_node in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    raise _RuleError(self.col(right_node), "'in' is not allowed: write "
                                     "one_of(A, [B, C])")
                if type(op) not in _CMP:
                    raise _RuleError(self.col(right_node), "'is' is not allowed: write == or !=")
                right = self.expr(right_node, env, d)
                parts.append(self.compare(_CMP[type(op)], left, right, col, env))
                left = right
            return parts[0] if len(parts) == 1 else And(tuple(parts), col)
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _ARITH:
                raise _RuleError(col, "only +, - and * are allowed in arithmetic")
            a = self.as_num(self.expr(node.left, env, d))
            b = self.as_num(self.expr(node.right, env, d))
            return Arith(_ARITH[type(node.op)], a, b, col)
        if isinstance(node, ast.Call):
            return self.call(node, env, d)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, env, d)
        if isinstance(node, ast.Name):
            return self.name(node.id, col, env)
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return BoolConst(v, col)
            if isinstance(v, int):
                if abs(v) > MAX_NUMBER:
                    raise _RuleError(col, _too_large())
                return Num(v, col)
            if isinstance(v, str):
                return _Str(v, col)
            raise _RuleError(col, f"{type(v).__name__} constants are not allowed in a rule")
        if isinstance(node, (ast.List, ast.Tuple)):
            raise _RuleError(col, "a list is only allowed as an argument of one_of, pairs, "
                                  "distinct, all, any or sum")
        what = type(node).__name__
        raise _RuleError(col, f"{what} is not allowed in a rule")

    def name(self, text: str, col: int, env: dict) -> Expr:
        if text in env:
            return Var(text, env[text], col)
        if text in self.s.unknowns:
            u = self.s.unknowns[text]
            return URow(text, u.category, col) if u.category else UFree(text, col)
        if text in self.s.categories:
            raise _RuleError(col, f"{text} is a category: write {text}(A) for the {text} of A's "
                                  f"row or {text}[item] for one of its items")
        if text in self.s.attributes:
            raise _RuleError(col, f"{text} is an attribute: write {text}(A)")
        if text in FUNCTIONS:
            raise _RuleError(col, f"{text} is a function: call it, {text}(...)")
        return self.item(text, col, env)

    def subscript(self, node: ast.Subscript, env: dict, d: int) -> Expr:
        col = self.col(node)
        base = node.value
        if not isinstance(base, ast.Name) or base.id not in self.s.categories:
            if isinstance(base, ast.Name):
                close = [n for n in self.s.close_items(base.id, extra=list(self.s.categories))
                         if n in self.s.categories]
                hint = f"; did you mean {', '.join(close)}?" if close else \
                    f"; categories: {', '.join(self.s.categories)}"
                raise _RuleError(self.col(base), f"{base.id!r} is not a category{hint}")
            raise _RuleError(col, "only a category can be indexed: category[item]")
        cat = base.id
        key = node.slice
        kcol = self.col(key)
        if isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.USub) and \
                isinstance(key.operand, ast.Constant) and type(key.operand.value) is int:
            return self._item_in(cat, -key.operand.value, kcol)
        if isinstance(key, ast.Constant) and type(key.value) in (int, str):
            return self._item_in(cat, key.value, kcol, env)
        if isinstance(key, ast.Name):
            return self._item_in(cat, key.id, kcol, env)
        raise _RuleError(kcol, f"{cat}[...] takes one item: a name, a quoted name or a number")

    def _item_in(self, cat: str, key: Value, col: int, env: dict | None = None) -> Item:
        items = self.s.categories[cat].items
        if isinstance(key, int):
            if key in items:
                return Item(cat, items.index(key), col)
            raise _RuleError(col, f"{cat} has no item {key}; its items: {', '.join(map(str, items))}")
        return self.item(key, col, env or {}, category=cat)

    # ------------------------------------------------------------ calls
    def call(self, node: ast.Call, env: dict, d: int) -> Expr:
        col = self.col(node)
        if not isinstance(node.func, ast.Name):
            raise _RuleError(col, "only named functions and categories can be called")
        fname = node.func.id
        if node.keywords:
            raise _RuleError(self.col(node.keywords[0].value), f"{fname}() takes no keyword arguments")
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise _RuleError(self.col(a), "* is not allowed in a rule")
        args = node.args

        def need(n: int) -> None:
            if len(args) != n:
                raise _RuleError(col, f"{fname}() takes {n} argument{'s' if n > 1 else ''}, "
                                      f"got {len(args)}")

        if fname in env or fname in self.s.unknowns:
            raise _RuleError(col, f"{fname} is not a function")
        if fname in self.s.categories:
            need(1)
            return CatOf(fname, self.as_row(self.expr(args[0], env, d), env), col)
        if fname in self.s.attributes:
            need(1)
            row = self.as_row(self.expr(args[0], env, d), env)
            return AttrOf(fname, row, col)
        if fname == "abs":
            need(1)
            return Abs(self.as_num(self.expr(args[0], env, d)), col)
        if fname in ("all", "any", "sum"):
            need(1)
            arg = args[0]
            if isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
                comp = self.comprehension(arg, env, d)
                return Count(comp, (), col) if fname == "sum" else Quant(fname, comp, col)
            if isinstance(arg, (ast.List, ast.Tuple)):
                items = tuple(self.as_cond(self.expr(e, env, d)) for e in arg.elts)
                if fname == "sum":
                    return Count(None, items, col)
                return And(items, col) if fname == "all" else Or(items, col)
            raise _RuleError(self.col(arg), f"{fname}() takes a list of conditions or "
                                            f"'... for x in category'")
        if fname == "one_of":
            need(2)
            a = self.expr(args[0], env, d)
            options = self.list_arg(args[1], fname)
            return Or(tuple(self.equal(a, self.expr(o, env, d), self.col(o), env) for o in options), col)
        if fname == "distinct":
            elts = self.list_arg(args[0], fname) if len(args) == 1 else args
            if len(elts) < 2:
                raise _RuleError(col, "distinct() needs at least two things to compare")
            typed = [self.expr(e, env, d) for e in elts]
            self.spend(len(typed) * (len(typed) - 1) // 2, col)
            return And(tuple(Not(self.equal(x, y, col, env), col)
                             for x, y in itertools.combinations(typed, 2)), col)
        if fname == "pairs":
            need(2)
            left = [self.as_row(self.expr(e, env, d), env) for e in self.list_arg(args[0], fname)]
            right = [self.as_row(self.expr(e, env, d), env) for e in self.list_arg(args[1], fname)]
            if len(left) != len(right) or not left:
                raise _RuleError(col, "pairs() takes two non-empty lists of the same length")
            if len(left) > MAX_PAIRS:
                raise _RuleError(col, f"pairs() takes lists of at most {MAX_PAIRS}")
            self.spend(math.factorial(len(left)) * len(left), col)
            parts = [Not(RowEq(x, y, col), col) for side in (left, right)
                     for x, y in itertools.combinations(side, 2)]
            matchings = tuple(And(tuple(RowEq(x, right[p[k]], col) for k, x in enumerate(left)), col)
                              for p in itertools.permutations(range(len(right))))
            return And(tuple(parts) + (Or(matchings, col),), col)
        if fname in ("implies", "xor"):
            need(2)
            a = self.as_cond(self.expr(args[0], env, d))
            b = self.as_cond(self.expr(args[1], env, d))
            return Implies(a, b, col) if fname == "implies" else Xor(a, b, col)
        raise self.unknown_name(fname, self.col(node.func), env, what="function")

    def list_arg(self, node: ast.AST, fname: str) -> list[ast.AST]:
        if isinstance(node, (ast.List, ast.Tuple)):
            return list(node.elts)
        raise _RuleError(self.col(node), f"{fname}() expects a list here: [A, B, ...]")

    def comprehension(self, node: ast.GeneratorExp | ast.ListComp, env: dict, d: int) -> Comp:
        inner = dict(env)
        gens, conds = [], []
        for g in node.generators:
            if g.is_async:
                raise _RuleError(self.col(g.target), "async is not allowed in a rule")
            if not isinstance(g.target, ast.Name):
                raise _RuleError(self.col(g.target), "write 'for x in category' with one name")
            var = g.target.id
            if var in self.s.categories or var in self.s.attributes or var in self.s.unknowns \
                    or var in RESERVED:
                raise _RuleError(self.col(g.target), f"{var!r} is already a name in this case: "
                                                     f"pick another variable")
            if not isinstance(g.iter, ast.Name) or g.iter.id not in self.s.categories:
                got = g.iter.id if isinstance(g.iter, ast.Name) else "an expression"
                close = [n for n in self.s.close_items(got, extra=list(self.s.categories))
                         if n in self.s.categories] if isinstance(g.iter, ast.Name) else []
                hint = f"; did you mean {', '.join(close)}?" if close else \
                    f"; categories: {', '.join(self.s.categories)}"
                raise _RuleError(self.col(g.iter), f"'for {var} in ...' must name a category, "
                                                   f"got {got}{hint}")
            inner[var] = g.iter.id
            gens.append((var, g.iter.id))
            conds.extend(self.as_cond(self.expr(c, inner, d)) for c in g.ifs)
        body = self.as_cond(self.expr(node.elt, inner, d))
        return Comp(tuple(gens), tuple(conds), body)


def _describe(e: Expr) -> str:
    return {"row": "an item", "num": "a number", "sym": "a value", "bool": "a condition",
            "str": "a quoted name"}.get(e.kind, "an expression")
