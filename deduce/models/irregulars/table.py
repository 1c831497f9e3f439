"""The Baker Street Irregulars live table: a game entered one line at a time as it happens,
multiplayer or solo, each accepted entry saved atomically before it is acknowledged.

The record (JSON)::

    {"game": "irregulars",
     "setup": {"position": <the start, as I see it>, "log": <my log of it>},
     "seed": null | S,
     "entries": [{"action": <an action>, "told": {<what came>}}, ...]}

``action`` is a ``rules`` action's JSON (``arrest``, ``tail``, ``take``, ...; solo:
``pick`` or ``pass``, ``resupply``), or ``{"action": "picks", "picks": {player: card or
null}}`` (one multiplayer Investigate cycle, every pick revealed together) or
``{"action": "inspector", "player": P, "inspector": I}`` (another player's Inspector
shown); ``told`` is ``table_play.Told``'s JSON (refill, twist, hand, middle, holmes,
track, check, and ok: Holmes's arrest confirmed; only what was said).

**How an entry is played (the design).** The session holds my observation (position and
log) as the engine's own state: a ``rules.State`` in which what I see is exact and the
rest is one guess agreeing with everything entered (``table_setup.initial_state``: the
start built with ``State.from_parts`` from a guessed ``Hidden``). Each entry forces what it
states into a copy of that state (``forcing.Guess``: a revealed pick into its picker's
hand, a refill to the top of the Villain deck, ...), the engine plays the action and
checks every rule (a pick in hand and affordable, an arrest's icons, the order of turns,
forced turns skipped, the Plot Twists' effects, Holmes's whole cycle and arrest), and what
chance gave that the entry did not say makes the entry wait for it (``refill V12``, ``hand
E011, ...``). My next observation is that state's. The table never re-implements a rule.
With a seed the program dealt the game: the state is the real one, nothing is guessed,
and the accepted entry says what came. The states after each entry are kept, so ``undo``
drops the last; opening a record replays it (``Record.replay``), and an entry the rules
refuse names the entry.

``TableSession`` holds the record's lock (``core.records.RecordLock``) from ``open`` to
``close``. An entry the rules or what I have seen refuse is refused with the reason and
nothing changes, in memory or on disk; so is an entry whose write fails (the session goes
on). Entries are for the player to act (the prompt says who); see ``HELP``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from deduce.core.errors import ContradictionError, InputError
from deduce.core.names import normalise, resolve
from deduce.core.records import RecordLock, check_fields, json_kind, read_json, write_json_atomic
from deduce.core.table_session import (
    EntryTableSession,
    Reply,
    read_record_object,
    rebase_cards,
    record_entries,
    record_seed,
    relative_path,
)
from deduce.models.irregulars import rules
from deduce.models.irregulars.cards import SHIPPED, load_cards
from deduce.models.irregulars.log import parse_log
from deduce.models.irregulars.position import (
    BOARDS,
    GAME,
    MULTI,
    SOLO,
    Position,
    parse_position,
)
from deduce.models.irregulars.table_play import (
    TOLD_KEYS,
    TOLD_SHORT,
    TOLD_WORDS,
    Picks,
    Reveal,
    Told,
    play,
)
from deduce.models.irregulars.table_setup import (
    Setup,
    check_start,
    dealt,
    initial_state,
    resolve_evidence,
    resolve_inspector,
    resolve_twist,
    resolve_villain,
    split_list,
    start_log,
)

#: the most entries a record holds (a real game has about 150)
ENTRY_KEYS = ("action", "told")
PARTS = ("refill", "twist", "hand", "middle", "holmes", "track", "check", "ok")
#: the words that start a part of an entry's line, by mode (``board holmes`` is a board)
KEYWORDS = {MULTI: ("refill", "twist", "hand", "middle", "with", "ignore"),
            SOLO: ("refill", "hand", "holmes", "track", "check", "ok", "with")}
ENTRIES = ("pick", "pass", "reveal", "arrest", "jump", "watson", "wiggins", "tail", "take",
           "board", "resupply", "inspector")
VIEWS = ("show", "hands", "score", "best")
COMMANDS = ENTRIES + PARTS + VIEWS + ("undo", "help", "quit")
ALIASES = {"exit": "quit", "skip": "pass", "none": "pass", "confirm": "ok"}

HELP = """\
Cards, Villains, Plot Twists, Inspectors: by id (E031, V07) or name. The player
to act acts (the prompt says who); pass declines (no arrest, no tail; yours: no
card affordable).
pick CARD | pass                 investigate: your pick
reveal NAME CARD, NAME pass      investigate: the others' revealed picks
arrest VILLAIN [with CARD, ...] [ignore]
                                 default: a smallest set; ignore: the Holmes
                                 board ignores one icon
jump | watson | wiggins VILLAIN  the boards, in your arrest turn
tail VILLAIN | pass              the Tail Phase
take CARD | board NAME           the BSI Bonus (board holmes|watson|wiggins)
resupply keep|back               solo: a resupply while you tail
inspector NAME INSPECTOR         another player's Inspector, shown at the end
What came, on the entry's line or after it when it waits:
  refill VILLAIN | twist PLOT-TWIST | hand CARD, ... | middle CARD, ...
  solo: holmes CARD (his pick) | track CARD | check CARD (deck III) | ok
arrest [PLAYER] | hands | score | best | show
                                 views (arrest: me by default; best: the advice)
undo                             take back the last entry (or the one waiting)
help | quit                      this text | leave (everything is saved)"""


# ----------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class Entry:
    action: Any
    told: Told

    def to_json(self) -> dict:
        return {"action": self.action.to_json(), "told": self.told.to_json()}


@dataclass
class Record:
    """A table record: the start (``setup``, my position there; ``log`` its JSON), the
    ``seed`` of a dealt game (or None) and the accepted ``entries``."""

    setup: Position
    log: dict
    seed: int | None
    entries: list[Entry] = field(default_factory=list)
    source: str = "record"

    @property
    def me(self) -> int:
        return self.setup.players.index(self.setup.me)

    def to_json(self) -> dict:
        return {"game": GAME, "setup": {"position": self.setup.to_json(), "log": self.log},
                "seed": self.seed, "entries": [e.to_json() for e in self.entries]}

    def start(self):
        """The engine's state at the start (a dealt game: its deal, checked)."""
        setup = self.setup
        if self.seed is None:
            return initial_state(setup, f"{self.source}: setup.position")
        state = dealt(self.seed, setup.mode, list(setup.players), setup.me, setup.cards,
                      setup.cards_field)
        if state.observation(self.me) != {"position": setup.to_json(), "log": self.log}:
            raise InputError(f"not the deal of seed {self.seed} (edited by hand?)",
                             where=f"{self.source}: field 'setup'")
        return state

    def replay(self) -> list:
        """The states from the start through every entry; ``InputError`` naming the first
        entry that cannot be played."""
        states = [self.start()]
        revealed: dict[str, str] = {}
        for i, e in enumerate(self.entries):
            at = f"{self.source}: field 'entries[{i}]'"
            try:
                played = play(states[-1], e.action, e.told, self.me, self.seed is not None,
                              revealed)
            except InputError as exc:
                raise InputError(f"the entry cannot be played: {exc}", where=at) from None
            if played.missing:
                raise InputError("the entry does not say what came: "
                                 + ", ".join(TOLD_WORDS[m] for m in played.missing), where=at)
            if isinstance(e.action, Reveal):
                revealed[e.action.player] = e.action.inspector
            states.append(played.state)
        return states


def load_record(path: str | Path) -> Record:
    """Read and check a table record (its entries are played by ``Record.replay``);
    ``InputError`` naming the file and the field otherwise."""
    where = str(path)
    data = read_record_object(path, GAME, "villains", "Baker Street Irregulars")
    setup = data["setup"]
    if not isinstance(setup, dict) or set(setup) != {"position", "log"}:
        raise InputError(f'expected {{"position": ..., "log": ...}}, got {json_kind(setup)}',
                         where=f"{where}: field 'setup'")
    pos = parse_position(setup["position"], f"{where}: setup.position", base=Path(path).parent)
    log = parse_log(setup["log"], pos.cards, pos.players, where, "setup.log")
    check_start(pos, f"{where}: setup.position")
    if log.to_json() != parse_log(start_log(pos), pos.cards, pos.players).to_json():
        raise InputError("the log of a start holds my hand only", where=f"{where}: field "
                                                                         "'setup.log'")
    return Record(pos, log.to_json(), record_seed(data["seed"], where),
                  record_entries(data["entries"], where, lambda v, at: _entry(v, pos, where, at)),
                  where)


def _entry(value: Any, pos: Position, where: str, path: str) -> Entry:
    at = lambda key: f"{where}: field '{path}{key}'"  # noqa: E731
    if not isinstance(value, dict):
        raise InputError(f"expected an object with action and told, got {json_kind(value)}",
                         where=at(""))
    check_fields(value, ENTRY_KEYS, fail=lambda m, k: InputError(m, where=at(f".{k}")))
    return Entry(_action(value["action"], pos, at(".action")), _told(value["told"], pos, at))


def _action(data: Any, pos: Position, where: str):
    cards = pos.cards
    if isinstance(data, dict) and data.get("action") == "picks":
        check_fields(data, ("action", "picks"), fail=lambda m, k: InputError(
            m, where=f"{where[:-1]}.{k}'"))
        picks = data["picks"]
        if not isinstance(picks, dict) or sorted(picks) != sorted(pos.players):
            raise InputError(f"expected a pick (a card id or null) for each of "
                             f"{', '.join(pos.players)}", where=f"{where[:-1]}.picks'")
        for name, card in picks.items():
            if card is not None and card not in cards.evidence_by_id:
                raise InputError(f"expected an Evidence id or null, got {json_kind(card)}",
                                 where=f"{where[:-1]}.picks.{name}'")
        return Picks({p: picks[p] for p in pos.players})
    if isinstance(data, dict) and data.get("action") == "inspector":
        check_fields(data, ("action", "player", "inspector"), fail=lambda m, k: InputError(
            m, where=f"{where[:-1]}.{k}'"))
        if data["player"] not in pos.players:
            raise InputError(f"not a player: {json_kind(data['player'])}",
                             where=f"{where[:-1]}.player'")
        if data["inspector"] not in cards.inspector_by_id:
            raise InputError(f"not an Inspector id: {json_kind(data['inspector'])}",
                             where=f"{where[:-1]}.inspector'")
        return Reveal(data["player"], data["inspector"])
    return rules.action_from_json(data, where=where)


def _told(data: Any, pos: Position, at) -> Told:
    if not isinstance(data, dict):
        raise InputError(f"expected an object of what came, got {json_kind(data)}",
                         where=at(".told"))
    check_fields(data, (), TOLD_KEYS + ("ok",),
                 fail=lambda m, k: InputError(m, where=at(f".told.{k}")))
    cards = pos.cards
    known = {"refill": cards.villain_by_id, "twist": cards.plot_twist_by_id,
             "hand": cards.evidence_by_id, "middle": cards.evidence_by_id,
             "holmes": cards.evidence_by_id, "track": cards.evidence_by_id,
             "check": cards.evidence_by_id}
    told = Told()
    for key, value in data.items():
        if key == "ok":
            if value is not True:
                raise InputError(f"expected true, got {json_kind(value)}", where=at(".told.ok"))
            told.ok = True
            continue
        listed = key in ("refill", "hand", "middle")
        items = value if listed else [value]
        if not isinstance(items, list) or len(items) > 25:
            raise InputError(f"expected a list of at most 25 ids, got {json_kind(value)}",
                             where=at(f".told.{key}"))
        for i, v in enumerate(items):
            if not isinstance(v, str) or v not in known[key]:
                raise InputError(f"not a known id: {json_kind(v)}",
                                 where=at(f".told.{key}" + (f"[{i}]" if listed else "")))
        setattr(told, key, list(items) if listed else value)
    return told


# ----------------------------------------------------------------------------- the session
@dataclass
class Pending:
    """An entry waiting for what came: its action (None: picks still being revealed), the
    picks so far (multi investigate), what is said so far, its words."""

    action: Any
    told: Told
    text: str
    picks: dict[str, str | None] | None = None
    missing: list[str] = field(default_factory=list)


class TableSession(EntryTableSession):
    """A live session on one record, holding its lock from ``open`` to ``close``; a
    context manager. ``TableSession.open(path, source=..., seed=..., mode=..., players=...,
    me=..., cards=..., ask=...)``: the options of a new record are ``_new_record``'s."""

    COMMANDS, ALIASES, VIEWS, PARTS, HELP = COMMANDS, ALIASES, VIEWS, PARTS, HELP

    def __init__(self, path: str | Path, record: Record, lock: RecordLock | None,
                 created: bool = False):
        self.path = Path(path)
        self.record = record
        self.lock = lock
        self.created = created
        self.states = record.replay()
        self.pending: Pending | None = None

    # -- opening (``EntryTableSession.open`` locks, then loads or creates)
    @staticmethod
    def _load_record(path: Path) -> Record:
        return load_record(path)

    @staticmethod
    def _new_record(path: Path, *, source: str | None = None, seed: int | None = None,
                    mode: str = MULTI, players=None, me=None, cards: str | None = None,
                    ask: Callable[[str, Any], None] | None = None) -> Record:
        """A new record: from the start position ``source``, from the deal of ``seed``
        (with ``players`` and ``me``; solo: ``me``), or typed by hand (``ask(field,
        setup)`` asks until ``setup.set(field, answer)`` accepts; without ``ask``:
        ``InputError``). ``cards``: a card-set file for a new dealt or typed setup."""
        return _start_record(path, source, seed, mode, players, me, cards, ask)

    # -- what the table shows
    @property
    def state(self):
        return self.states[-1]

    @property
    def me(self) -> int:
        return self.record.me

    @property
    def seeded(self) -> bool:
        return self.record.seed is not None

    def names(self) -> tuple[str, ...]:
        return self.record.setup.players

    def observation(self) -> dict:
        """My observation now (``rules.State.observation``)."""
        return self.state.observation(self.me)

    def position(self) -> Position:
        return parse_position(self.observation()["position"], str(self.path),
                              base=self.path.parent)

    def log(self):
        pos = self.position()
        return parse_log(self.observation()["log"], pos.cards, pos.players, str(self.path))

    def revealed(self) -> dict[str, str]:
        return {e.action.player: e.action.inspector for e in self.record.entries
                if isinstance(e.action, Reveal)}

    def to_act(self) -> str | None:
        seat = self.state.current_player()
        return None if seat is None else self.names()[seat]

    def winner_known(self) -> bool:
        """Multi, not dealt: the winner needs every Inspector shown."""
        if self.seeded or self.state.solo:
            return True
        return len(self.revealed()) == len(self.names()) - 1

    def prompt(self) -> str:
        st = self.state
        if st.is_over():
            if not self.winner_known():
                return "game over: show the Inspectors (inspector NAME INSPECTOR)"
            won = self.names()[st.winner()[0]]
            return f"game over: {won} wins"
        where = (f"cycle {st.cycle}" if st.solo else f"round {st.round} cycle {st.cycle}")
        if self.pending is not None and self.pending.action is not None:
            return f"{where}: {self.pending.text}: waiting for {', '.join(self.pending.missing)}"
        phase = st.phase
        if phase == rules.INVESTIGATE and not st.solo:
            waiting = [n for n in self.names() if n not in (self.pending.picks if self.pending
                                                               else {})]
            return f"{where}: picks (to enter: {', '.join(waiting)})"
        if phase == rules.INVESTIGATE:
            return f"{where}: your pick"
        if phase == rules.RESET:
            return f"{where}: resupply keep or back (you tail)"
        verb = {rules.ARREST: "arrest", rules.FINAL: "arrest (final)", rules.TAIL: "tail",
                rules.BONUS: "take a bonus"}[phase]
        return f"{where}: {self.to_act()} to {verb}"

    # -- one line (``EntryTableSession.handle``)
    def _is_view(self, word: str, args: list[str]) -> bool:
        return word in VIEWS or (word == "arrest" and self._arrest_view(args))

    def _waiting(self) -> str | None:
        if self.pending is None or self.pending.action is None:
            return None
        return ", ".join(TOLD_SHORT[m] for m in self.pending.missing)

    def _entry(self, word: str, args: list[str]) -> Reply:
        head, parts = split_parts(args, KEYWORDS[self.record.setup.mode])
        told = self._told(parts)
        text = " ".join([word, *args])
        if word in ("pick", "pass", "reveal") and not self.state.solo and \
                self.state.phase == rules.INVESTIGATE:
            return self._picks(word, head, told, text)
        action = self._action(word, head, parts)
        return self._enter(action, told, text)

    def _arrest_view(self, args: list[str]) -> bool:
        """``arrest`` alone or ``arrest PLAYER`` is the view; ``arrest VILLAIN ...`` the
        entry."""
        if not args:
            return True
        text = normalise(" ".join(args))
        return any(normalise(n) == text for n in self.names())

    # -- parsing
    def _cards(self, tokens: list[str], usage: str) -> list[str]:
        if not tokens:
            raise InputError(f"usage: {usage}")
        cards = self.record.setup.cards
        word = usage.split()[0]
        text = " ".join(tokens)
        if "," in text:
            return [resolve_evidence(t, cards, word) for t in split_list(text)]
        try:
            return [resolve_evidence(text, cards, word)]
        except InputError:
            if len(tokens) == 1:
                raise
        return [resolve_evidence(t, cards, word) for t in tokens]

    def _villains(self, tokens: list[str], usage: str) -> list[str]:
        if not tokens:
            raise InputError(f"usage: {usage}")
        cards = self.record.setup.cards
        return [resolve_villain(t, cards, usage.split()[0]) for t in split_list(" ".join(tokens))]

    def _told(self, parts: dict[str, list[str]]) -> Told:
        told = Told()
        cards = self.record.setup.cards
        for key, words in parts.items():
            if key in ("with", "ignore"):
                continue
            if key == "ok":
                if words:
                    raise InputError("ok takes nothing after it")
                told.ok = True
            elif key == "refill":
                told.refill = self._villains(words, "refill VILLAIN")
            elif key == "twist":
                if not words:
                    raise InputError("usage: twist PLOT-TWIST")
                told.twist = resolve_twist(" ".join(words), cards, "twist")
            elif key in ("hand", "middle"):
                got = self._cards(words, f"{key} CARD, ...")
                twice = sorted({c for c in got if got.count(c) > 1})
                if twice:
                    raise InputError(f"{key}: {', '.join(twice)} is listed twice")
                setattr(told, key, got)
            else:
                got = self._cards(words, f"{key} CARD")
                if len(got) != 1:
                    raise InputError(f"usage: {key} CARD (one card)")
                setattr(told, key, got[0])
        return told

    def _action(self, word: str, head: list[str], parts: dict[str, list[str]]):
        st = self.state
        cards = self.record.setup.cards
        if "with" in parts or "ignore" in parts:
            if word != "arrest":
                raise InputError(f"{word} takes no {'with' if 'with' in parts else 'ignore'}")
        if word == "pass":
            if head:
                raise InputError("pass takes nothing after it")
            return {rules.INVESTIGATE: rules.PassHand(), rules.TAIL: rules.NoTail(),
                    rules.ARREST: rules.NoArrest(), rules.FINAL: rules.NoArrest()}.get(
                st.phase, rules.NoArrest())
        if word == "pick":
            return rules.Pick(self._cards(head, "pick CARD")[0])
        if word == "reveal":
            raise InputError("the others' picks are revealed in a multiplayer Investigate "
                             "Phase (solo: holmes CARD says Holmes's pick)")
        if word == "arrest":
            return self._arrest(head, parts)
        if word in ("jump", "watson"):
            if head:
                raise InputError(f"{word} takes nothing after it")
            return rules.Jump() if word == "jump" else rules.Watson()
        if word in ("wiggins", "tail"):
            v = self._villains(head, f"{word} VILLAIN")
            if len(v) != 1:
                raise InputError(f"usage: {word} VILLAIN")
            return rules.Wiggins(v[0]) if word == "wiggins" else rules.Tail(v[0])
        if word == "take":
            got = self._cards(head, "take CARD")
            if len(got) != 1:
                raise InputError("usage: take CARD (one card)")
            return rules.TakeCard(got[0])
        if word == "board":
            if not head:
                raise InputError(f"usage: board {'|'.join(BOARDS)}")
            return rules.TakeBoard(resolve(" ".join(head), BOARDS, "board", where="board"))
        if word == "resupply":
            choice = resolve(" ".join(head) or "?", ("keep", "back"), "resupply choice",
                             where="resupply keep|back")
            return rules.Resupply(choice == "keep")
        # inspector NAME INSPECTOR
        if len(head) < 2:
            raise InputError("usage: inspector NAME INSPECTOR")
        for k in range(len(head) - 1, 0, -1):
            name = " ".join(head[:k])
            if any(normalise(n) == normalise(name) for n in self.names()):
                break
        else:
            k = 1
        player = resolve(" ".join(head[:k]), self.names(), "player", where="inspector")
        return Reveal(player, resolve_inspector(" ".join(head[k:]), cards, "inspector"))

    def _arrest(self, head: list[str], parts: dict[str, list[str]]):
        """The arrest entry: the cards given, else a smallest set (``arrest.arrest``, its
        board use when it needs one)."""
        from deduce.models.irregulars.arrest import arrest

        v = self._villains(head, "arrest VILLAIN [with CARD, ...] [ignore]")
        if len(v) != 1:
            raise InputError("usage: arrest VILLAIN [with CARD, ...] [ignore]")
        villain = v[0]
        ignore = "ignore" in parts
        if "ignore" in parts and parts["ignore"]:
            raise InputError("ignore takes nothing after it (the Holmes board's ignore)")
        if "with" in parts:
            return rules.Arrest(villain, tuple(self._cards(parts["with"], "with CARD, ...")),
                                ignore)
        st = self.state
        seat = st.current_player()
        if seat is None:
            raise InputError("the game is over")
        pos = self.position()
        name = self.names()[seat]
        by_id = pos.cards.villain_by_id
        if villain not in by_id or villain not in pos.villains:
            return rules.Arrest(villain, (), ignore)  # refused by the engine with its reason
        board = ignore or (BOARDS[0] in pos.boards[name])
        found = arrest(pos.unused(name), by_id[villain], pos.tailing[name] == villain, board)
        if not found.arrestable:
            return rules.Arrest(villain, (), ignore)
        return rules.Arrest(villain, tuple(c.id for c in found.cards),
                            ignore or "holmes" in found.uses)

    # -- entries
    def _picks(self, word: str, head: list[str], told: Told, text: str) -> Reply:
        """A multiplayer Investigate cycle: my pick and the others' revealed picks, entered
        in any order, played and saved once all are known."""
        names = self.names()
        me = names[self.me]
        got: dict[str, str | None] = {}
        if word in ("pick", "pass"):
            if word == "pass" and head:
                raise InputError("pass takes nothing after it")
            got[me] = None if word == "pass" else self._cards(head, "pick CARD")[0]
        else:
            for part in split_list(" ".join(head)) or [""]:
                got.update([self._reveal_part(part)])
        pending = self.pending or Pending(None, Told(), "picks", {})
        picks = dict(pending.picks or {})
        for name, card in got.items():
            if name in picks:
                raise InputError(f"{name}'s pick is entered already (undo drops the picks so "
                                 "far)")
            self._check_pick(name, card)
            picks[name] = card
        told = pending.told.merge(told)
        if len(picks) < len(names):
            self.pending = Pending(None, told, "picks", picks)
            waiting = [n for n in names if n not in picks]
            return Reply("info", f"picks so far: {_picks_words(picks, names, me)}; waiting "
                                 f"for {', '.join(waiting)}")
        self.pending = None
        return self._enter(Picks({n: picks[n] for n in names}), told, "picks",
                           picks_so_far=picks)

    def _reveal_part(self, part: str) -> tuple[str, str | None]:
        usage = "reveal NAME CARD, NAME CARD (or NAME pass)"
        if "=" in part:
            name, _, card = part.partition("=")
        else:
            words = part.split()
            if len(words) < 2:
                raise InputError(f"usage: {usage}")
            name, card = words[0], " ".join(words[1:])
            for k in range(len(words) - 1, 0, -1):
                if any(normalise(n) == normalise(" ".join(words[:k])) for n in self.names()):
                    name, card = " ".join(words[:k]), " ".join(words[k:])
                    break
        player = resolve(name.strip(), self.names(), "player", where="reveal")
        if normalise(card) in ("pass", "none", "passed"):
            return player, None
        return player, resolve_evidence(card.strip(), self.record.setup.cards, "reveal")

    def _check_pick(self, name: str, card: str | None) -> None:
        """One pick checked at once by the engine on a copy (the card forced into the
        picker's hand first; the whole cycle is checked again when it is played)."""
        from deduce.models.irregulars.forcing import Guess

        probe = self.state.clone()
        seat = self.names().index(name)
        if not self.seeded and seat != self.me:
            guess = Guess(probe, self.me)
            if card is None:
                guess.cannot_afford(seat, name)
            else:
                guess.into_hand(card, seat, f"{name}'s hand")
        probe.turn = seat  # this seat's turn on the copy: the engine's own pick checks
        probe._legal = None
        probe.apply(rules.PassHand() if card is None else rules.Pick(card))

    def _enter(self, action, told: Told, text: str, picks_so_far=None) -> Reply:
        played = play(self.state, action, told, self.me, self.seeded, self.revealed())
        if played.missing:
            self.pending = Pending(action, told, text, picks_so_far, played.missing)
            note = ""
            if played.holmes_arrest is not None:
                v, used = played.holmes_arrest
                note = f" (Holmes arrests {v} with {', '.join(used)})"
            return Reply("info", f"{text}: waiting for "
                                 f"{', '.join(TOLD_SHORT[m] for m in played.missing)}{note}")
        self._check_knowledge(played.state)
        entry = Entry(action, told)
        record = replace(self.record, entries=[*self.record.entries, entry])
        write_json_atomic(self.path, record.to_json())
        before = self.state
        self.record = record
        self.states.append(played.state)
        self.pending = None
        return Reply("accepted", f"entry {len(record.entries)}: "
                                 f"{describe(before, played.state, action, self.me)}")

    def _check_knowledge(self, state) -> None:
        """Hand tracking (``knowledge.read``) on my next observation: a contradiction of
        what I have seen is refused (a log it cannot read is not: the engine played it)."""
        if self.seeded:
            return
        from deduce.models.irregulars import knowledge

        obs = state.observation(self.me)
        try:
            pos = parse_position(obs["position"], str(self.path), base=self.path.parent)
            knowledge.read(pos, parse_log(obs["log"], pos.cards, pos.players), str(self.path))
        except ContradictionError:
            raise
        except InputError:
            pass

    def _part(self, word: str, args: list[str]) -> Reply:
        if self.pending is None or self.pending.action is None and word != "ok" and \
                self.pending.picks is None:
            raise InputError(f"no entry waits for {word} (use it on the entry's line: "
                             "arrest V07 refill V12)")
        told = self._told({word: args})
        pending = self.pending
        merged = pending.told.merge(told)
        if pending.action is None:  # picks still being revealed
            self.pending = replace(pending, told=merged)
            return Reply("info", f"{word} noted for the picks")
        self.pending = None
        try:
            return self._enter(pending.action, merged, pending.text, pending.picks)
        except InputError:
            self.pending = pending
            raise

    def _undo_entry(self) -> Reply:
        record = replace(self.record, entries=self.record.entries[:-1])
        write_json_atomic(self.path, record.to_json())
        last = self.record.entries[-1]
        after = self.states[-1]
        self.record = record
        self.states.pop()
        return Reply("accepted", f"undone: entry {len(record.entries) + 1}: "
                                 f"{describe(self.state, after, last.action, self.me)}")

    # -- views
    def view_data(self) -> dict:
        """What ``show`` draws: my position and log, the entry waiting (if any)."""
        return {"position": self.position(), "log": self.log(), "pending": self.pending}

    def final_scores(self) -> list[tuple[str, int]] | None:
        """Every player's points once the game is over and every Inspector is known
        (the engine's ``scores``); None before."""
        if not self.state.is_over() or not self.winner_known():
            return None
        return list(zip(self.names(), self.state.scores()))

    def _view(self, word: str, args: list[str]) -> Reply:
        pos = self.position()
        if word == "show":
            return Reply("info", view="show", data=self.view_data())
        if word == "score":
            from deduce.models.irregulars.score import score_json

            return Reply("info", view="score", data=score_json(pos))
        if word == "hands":
            return Reply("info", view="hands", data=self.hands())
        if word == "best":
            return Reply("info", view="best", data=self.best())
        from deduce.models.irregulars.arrest import answer_json, position_arrests

        who = pos.me if not args else resolve(" ".join(args), pos.players, "player",
                                              where="arrest")
        options = position_arrests(pos, who)
        return Reply("info", view="arrest",
                     data={"player": who, "options": options,
                           "best": answer_json(who, options)["best"]})

    def best(self):
        """The advice now (``advice.advise`` of my observation, seed 0, the default
        rollouts: what ``deduce irregulars advise RECORD`` says); ``InputError`` when it
        is not my decision."""
        from deduce.models.irregulars.advice import Observed, advise

        return advise(Observed(self.position(), self.log(), str(self.path)))

    def hands(self):
        """My hand tracking now (``knowledge.read`` of my observation)."""
        from deduce.models.irregulars import knowledge

        return knowledge.read(self.position(), self.log(), str(self.path))


def split_parts(tokens: list[str], keywords) -> tuple[list[str], dict[str, list[str]]]:
    """The words before the first of ``keywords``, and the words after each."""
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current = head
    for t in tokens:
        key = t.lower()
        if key in keywords:
            if key in parts:
                raise InputError(f"{key} is given twice")
            parts[key] = current = []
        else:
            current.append(t)
    return head, parts


def _picks_words(picks: dict, names, me: str) -> str:
    return ", ".join(f"{'you' if n == me else n} {'pass' if picks[n] is None else picks[n]}"
                     for n in names if n in picks)


# ----------------------------------------------------------------------------- words
def describe(before, after, action, me: int) -> str:
    """An entry in words, from the states before and after it: what the action did, and
    what followed (picks paid, Holmes's pick, draws and arrest, refills, a new round, the
    hand that reached me)."""
    names = before.names
    cards = before.cards
    out = []
    who = names[before.current_player()] if before.current_player() is not None else names[me]
    if isinstance(action, Picks):
        out.append("picks: " + ", ".join(f"{n} {'passes' if c is None else c}"
                                         for n, c in action.picks.items()))
    elif isinstance(action, Reveal):
        out.append(f"{action.player}'s Inspector: {action.inspector} "
                   f"({cards.inspector_by_id[action.inspector].name})")
    else:
        out.append(f"{who}: {rules.action_words(action, cards)}")
    if before.solo and isinstance(action, (rules.Pick, rules.PassHand)):
        h = rules.HOLMES_SEAT
        got = after.owned[h][len(before.owned[h]):]
        if before.hands[h] and got:
            out.append(f"Holmes picks {got[0]}")
            got = got[1:]
        if got:
            out.append(f"Holmes gets {', '.join(got)} from the decks")
    for s in range(before.n):
        new = after.arrested[s][len(before.arrested[s]):]
        if new and not isinstance(action, rules.Arrest):
            out.append(f"{names[s]} arrests {', '.join(new)}")
    came = [v for v in after.row if v not in before.row]
    if came:
        out.append(f"{', '.join(came)} comes into the row")
    if after.round != before.round and not after.solo:
        twist = f" (Plot Twist {after.twist})" if after.twist else ""
        out.append(f"round {after.round} begins{twist}")
    if after.is_over():
        out.append("the game is over")
    elif after.phase != rules.BONUS and after.hands[me] and (
            len(after.packets) != len(before.packets) or after.deal != before.deal
            or after.round != before.round):
        out.append(f"your hand: {', '.join(after.hands[me])}")
    return "; ".join(out)


# ----------------------------------------------------------------------------- new records
def _start_record(path: Path, source, seed, mode, players, me, cards, ask) -> Record:
    from deduce.models.irregulars.position import load_position

    if source is not None:
        setup = load_position(source)
        if me:
            setup = replace(setup, me=resolve(str(me), setup.players, "player", where="--me"))
        check_start(setup, str(source))
        setup = rebase_cards(setup, Path(source).parent, path.parent, SHIPPED)
        return Record(setup, start_log(setup), None)
    cards_field = SHIPPED if cards is None else relative_path(Path(cards), path.parent)
    card_set = load_cards(cards)
    if seed is not None:
        if mode == SOLO:
            names = [str(me).strip() if me else "Ann"]
            names = [Setup(str(path), card_set, mode=SOLO).set("me", names[0])]
            who = names[0]
        else:
            if not players or not me:
                raise InputError("a dealt game needs --players and --me", where=str(path))
            setup = Setup(str(path), card_set, mode=MULTI)
            names = setup.set("players", players)
            who = setup.set("me", me)
        state = dealt(seed, mode, names, who, card_set, cards_field)
        obs = state.observation(state.names.index(who))
        pos = parse_position(obs["position"], str(path), base=path.parent)
        return Record(pos, obs["log"], seed)
    setup = Setup(str(path), card_set, cards_field, mode=mode, base=path.parent)
    if ask is None:
        raise InputError("the record does not exist yet: give --from POSITION (a start), or "
                         "--seed S with --players and --me (solo: --mode solo --me), or "
                         "start it on a terminal to type the table in", where=str(path))
    for key, value in (("players", players), ("me", me)):
        if value and key in setup.fields():
            setup.set(key, value)
    while setup.fields():
        ask(setup.fields()[0], setup)
    pos = setup.position()
    initial_state(pos, str(path))  # the hand fits the round's draw
    return Record(pos, start_log(pos), None)


def current_observation(path: str | Path) -> dict:
    """The current observation (``{"position", "log"}``) of the table record ``path``: its
    entries replayed (for the one-shot commands given a record)."""
    record = load_record(path)
    return record.replay()[-1].observation(record.me)


def is_record(data: Any) -> bool:
    """Is the parsed JSON ``data`` a table record (not a position)?"""
    return isinstance(data, dict) and data.get("game") == GAME and "setup" in data and \
        "entries" in data


def record_observation(path: str | Path) -> tuple[Position, Any, str] | None:
    """``(position, log, where)`` now, as I see them, of the table record ``path`` (for
    ``deduce irregulars hands``); None when ``path`` is no table record."""
    p = Path(path)
    if not p.is_file() or not is_record(read_json(p)):
        return None
    obs = current_observation(p)
    pos = parse_position(obs["position"], str(p), base=p.parent)
    return pos, parse_log(obs["log"], pos.cards, pos.players, str(p)), str(p)


def record_position(path: str | Path) -> Position | None:
    """The position now, as I see it, of the table record ``path``; None when ``path`` is
    no table record (a position, ``sample``, a missing file: ``load_position``'s to say)."""
    p = Path(path)
    if not p.is_file():
        return None
    if not is_record(read_json(p)):
        return None
    return parse_position(current_observation(p)["position"], str(p), base=p.parent)


