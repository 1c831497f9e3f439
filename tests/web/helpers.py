"""What the web tests share: a served folder behind Starlette's test client, and the
demo game's events as the entry form's fields (the chips a player taps)."""

from __future__ import annotations

import json
import re
import warnings

from deduce.models.sherlock13.cards import ICONS, SUSPECTS
from deduce.models.sherlock13.rules import SIDES
from deduce.puzzles import puzzle_path
from deduce.web.s13 import KINDS

BASE = "http://127.0.0.1:8765"
FETCH = {"X-Deduce-Fetch": "1"}


def demo() -> dict:
    """The shipped demo game's record (``deduce demo``)."""
    return json.loads(open(puzzle_path("sherlock13", "demo-4p.json"), encoding="utf-8").read())


def setup_fields(record: dict, name: str) -> dict:
    """The new-record form's fields for ``record``'s setup."""
    names = record["players"]
    return {"game": "sherlock13", "name": name, "variant": str(["standard", "expert"].index(record["variant"])),
            "player": names, "me": str(names.index(record["me"])),
            "card": [str(SUSPECTS.index(c)) for c in record["hand"]]}


def event_fields(event: dict, names: list[str]) -> list[tuple[str, str]]:
    """The entry form's fields (chip name, value) for one spec event."""
    seat = {n: str(i) for i, n in enumerate(names)}
    fields = [("actor", seat[event["actor"]]), ("action", str(KINDS.index(event["action"])))]
    if "icon" in event:
        fields.append(("icon", str(ICONS.index(event["icon"]))))
    fields += [("raised", seat[n]) for n in event.get("raised", [])]
    if "target" in event:
        fields += [("target", seat[event["target"]]), ("count", str(event["count"]))]
    if "suspect" in event:
        fields += [("suspect", str(SUSPECTS.index(event["suspect"]))),
                   ("verdict", "0" if event["correct"] else "1")]
    if "side" in event:
        fields.append(("side", str(SIDES.index(event["side"]))))
    for key in ("revealed", "took"):
        if key in event:
            fields.append((key, str(SUSPECTS.index(event[key]))))
    return fields


def client(tables, token=None):
    """Starlette's test client on the app serving ``tables``, at the loopback address."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note that it prefers httpx2 to httpx
        from starlette.testclient import TestClient
    from deduce.web.app import make_app

    return TestClient(make_app(tables, token=token, port=8765), base_url=BASE)


def version_of(html: str) -> str:
    return re.search(r'name="version" value="(\w+)"', html).group(1)


def post_act(c, slug: str, fields, version: str | None = None, script: bool = True):
    """POST an entry form (``fields``: a dict, a list value for a field given several
    times, or (name, value) pairs) to the record
    ``slug`` on the version now (or ``version``), as the page's script does."""
    version = version or c.get(f"/r/{slug}/version").json()["version"]
    pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
    data: dict[str, list[str]] = {}
    for key, value in [("version", version), *pairs]:
        values = value if isinstance(value, (list, tuple)) else [value]
        data.setdefault(key, []).extend(str(v) for v in values)
    return c.post(f"/r/{slug}/act", data=data, headers=FETCH if script else {})


def served_folder(tmp_path):
    """A folder served by a fresh ``Tables`` and its test client (closed by the caller)."""
    from deduce.web.tables import Tables

    folder = tmp_path / "games"
    folder.mkdir()
    tables = Tables(folder)
    return tables, client(tables), folder


def check_any_form_is_answered(page, session, names: list[str], values) -> None:
    """Property: whatever fields of ``names`` a form posts (values from the hypothesis
    strategy ``values``), the game ``page``'s ``act`` answers with a reply (a refusal with
    its reason) and never raises; a refused entry leaves the record on disk as it was;
    the page renders after it."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from deduce.web.forms import Form
    from deduce.web.tables import Served

    served = Served("p", session.path, page, session)

    @settings(max_examples=80)
    @given(st.lists(st.tuples(st.sampled_from(names), values), max_size=6))
    def check(pairs):
        before = session.path.read_bytes()
        reply = page.act(served, Form(pairs))
        assert reply.kind in ("accepted", "refused", "info")
        if reply.kind == "refused":
            assert reply.message and session.path.read_bytes() == before
        page.render(served, "", None)

    check()


def on_disk(folder, name="g.json") -> dict:
    """The record ``name`` in ``folder`` as saved."""
    return json.loads((folder / name).read_text(encoding="utf-8"))


def referee(session_class, tmp_path, name="g.json", **setup):
    """The terminal's table session (``session_class.open``) on a record of its own in
    ``tmp_path/referee``, with ``setup``: the page's entries are checked against it."""
    ref = tmp_path / "referee"
    ref.mkdir(exist_ok=True)
    return session_class.open(ref / name, **setup)


def check_refused_as_the_terminal(c, slug: str, folder, ref, cases):
    """Each ``(form, line)`` of ``cases``, posted to record ``slug`` in ``folder``, is
    refused (422) with the message the terminal's session ``ref`` gives ``line``, and the
    record on disk stays as it was; returns the last answer."""
    answer = None
    for form, line in cases:
        before = (folder / f"{slug}.json").read_bytes()
        expected = ref.handle(line)
        answer = post_act(c, slug, form)
        assert (answer.status_code, answer.json()["kind"]) == (422, "refused")
        assert answer.json()["message"] == expected.message
        assert (folder / f"{slug}.json").read_bytes() == before
    return answer
