"""The TOML campaign format: the shipped campaign, and bad files (exit 2 naming the file,
the paragraph id and the field), the reference graph, random mutations."""

from __future__ import annotations

import copy
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.models.detective_story.data import load_campaign, parse_campaign

from .conftest import TINY, write_campaign
from tests.documents import places


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_shipped_campaign(shipped):
    assert len(shipped.adventures) >= 2
    assert len(shipped.villains) >= 6
    assert len(shipped.paragraphs) >= 20
    assert shipped.warnings == []
    line_villains = {v for a in shipped.adventures.values() for v in a.line("villain")}
    assert line_villains == set(shipped.villains)  # every Villain can be met
    assert {a.london for a in shipped.adventures.values()} == {True, False}


def test_tiny_campaign_loads(tiny_dir):
    data = load_campaign(tiny_dir)
    assert data.warnings == []
    assert set(data.graph.successors("a001")) >= {"c201", "m404", "m430"}


def _broken(tmp_path, file: str, old: str, new: str):
    files = dict(TINY)
    assert old in files[file], old
    files[file] = files[file].replace(old, new, 1)
    return str(write_campaign(tmp_path / "bad", files))


BAD = [
    ("memoirs.toml", 'effects = [{ luck = 1 }]', 'effects = [{ goto = "m999" }]',
     ["memoirs.toml", "m440", "effects[0].goto", "m999"]),
    ("adventures.toml", 'clue      = ["m420"', 'clue      = ["m42"',
     ["adventures.toml", "a001", "clue[0]", "m42"]),
    ("memoirs.toml", 'effects = [{ sm = 1 }]', 'effects = [{ sm = "one" }]',
     ["m450", "effects[0].sm", "integer"]),
    ("memoirs.toml", 'title = "Notes"', 'title = "Notes"\nefects = []',
     ["m450", "efects", "did you mean 'effects'"]),
    ("memoirs.toml", 'effects = [{ sm = 1 }]', 'effects = [{ goto = "m440" }, { sm = 1 }]',
     ["m450", "effects[0].goto", "last"]),
    ("memoirs.toml", 'effects = [{ luck = 1 }]', 'effects = [{ d6 = { "1-3" = [{ luck = 1 }] } }]',
     ["m440", "effects[0].d6", "faces 4, 5, 6"]),
    ("casebook.toml", '{ faces = "4-6", text = "spite", value = 3 }',
     '{ faces = "5-6", text = "spite", value = 3 }', ["c201", "motives", "missing 4"]),
    ("adventures.toml", 'holmes    = ["m440", "m440", "m440", "m440", "m440", "m440"]',
     'holmes    = ["m440", "m440", "m440", "m440", "m440"]', ["a001", "holmes", "exactly 6"]),
    ("memoirs.toml", 'pass = [{ join = "self" }]', 'pass = [{ join = "m440" }]',
     ["m404", "effects[0].pass[0].join", "character sheet"]),
    ("memoirs.toml", '{ test = "Charisma", target = 8,', '{ test = "Charisma!!x", target = 8,',
     ["m410", "effects[0].test", "unknown"]),
    ("memoirs.toml", '{ test = "Bravery", pass', '{ test = "Bravery", target = 7, pass',
     ["m430", "effects[0].target", "modifier, not a target"]),
    ("casebook.toml", 'hide_follow = { test = "Tracking", target = 8 }',
     'hide_follow = { test = "Tracking" }', ["c201", "option3.hide_follow.target", "missing"]),
    ("campaign.toml", 'escape = "m629"', 'escape = "m628"', ["campaign", "escape", "m628"]),
    ("memoirs.toml", 'id = "m421"', 'id = "m420"', ["m420", "used twice"]),
    ("memoirs.toml", 'kind = "clue"', 'kind = "clew"', ["m420", "kind"]),
]


@pytest.mark.parametrize("file,old,new,expect", BAD, ids=[b[3][1] for b in BAD])
def test_bad_data_exit_2_names_paragraph_and_field(tmp_path, file, old, new, expect):
    folder = _broken(tmp_path, file, old, new)
    res = run("story", "list", "--data", folder)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    for text in expect:
        assert text in res.output, (text, res.output)


def test_goto_cycle_is_an_error(tmp_path):
    files = dict(TINY)
    files["memoirs.toml"] = files["memoirs.toml"].replace(
        'effects = [{ luck = 1 }]', 'effects = [{ goto = "m450" }]').replace(
        'effects = [{ sm = 1 }]', 'effects = [{ goto = "m440" }]', 1)
    res = run("story", "list", "--data", str(write_campaign(tmp_path / "c", files)))
    assert res.exit_code == 2
    assert "goto cycle" in res.output and "m440" in res.output and "m450" in res.output


def test_unreachable_paragraph_is_a_warning(tmp_path):
    files = dict(TINY)
    files["memoirs.toml"] += '\n[[paragraph]]\nid = "m499"\nkind = "event"\ntitle = "Lost"\n'
    res = CliRunner().invoke(cli, ["story", "list", "--json", "--data",
                                   str(write_campaign(tmp_path / "c", files))])
    assert res.exit_code == 0
    assert "m499" in res.stderr and "unreachable" in res.stderr
    assert load_campaign(tmp_path / "c").warnings[0].endswith(
        "m499: unreachable (no campaign entry, Adventure line or effect leads to it)")


def test_toml_syntax_and_missing_folder(tmp_path):
    files = dict(TINY)
    files["campaign.toml"] += "\nthis is not toml\n"
    res = run("story", "list", "--data", str(write_campaign(tmp_path / "c", files)))
    assert res.exit_code == 2 and "campaign.toml" in res.output and "TOML" in res.output
    res = run("story", "list", "--data", str(tmp_path / "nowhere"))
    assert res.exit_code == 2 and "no such folder" in res.output


# ----------------------------------------------------------------------------- mutations
def _docs():
    return [(name, tomllib.loads(text)) for name, text in TINY.items()]


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.text(max_size=6),
                 st.sampled_from(["m403", "c201", "a001", "Charisma", "self", "1-3", "m999"]),
                 st.lists(st.integers(0, 3), max_size=3), st.just({}), st.just({"sm": 1}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_mutations_give_only_input_errors(data):
    docs = copy.deepcopy(_docs())
    for _ in range(data.draw(st.integers(1, 3))):
        f = data.draw(st.integers(0, len(docs) - 1))
        paths = [p for p in places(docs[f][1]) if p]
        if not paths:
            continue
        path = data.draw(st.sampled_from(paths))
        parent = docs[f][1]
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete"]))
        if action == "delete" and isinstance(parent, (dict, list)):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JUNK)
    try:
        parse_campaign(docs, "mutated")
    except InputError as exc:
        assert str(exc)


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7),
                          st.sampled_from(["goto", "line"])), max_size=20))
def test_the_plain_goto_cycle_search_agrees_with_networkx(edges):
    import networkx as nx

    from deduce.models.detective_story.graph import _goto_cycle

    edges = [(f"m{u}", f"m{v}", "effects[0].goto", kind) for u, v, kind in edges]
    gotos = nx.DiGraph([(u, v) for u, v, _, kind in edges if kind == "goto"])
    cycle = _goto_cycle(edges)
    assert (cycle is not None) == (not nx.is_directed_acyclic_graph(gotos))
    if cycle:  # a real cycle of goto edges
        assert cycle[0] == cycle[-1] and len(set(cycle[:-1])) == len(cycle) - 1
        assert all(gotos.has_edge(a, b) for a, b in zip(cycle, cycle[1:]))
