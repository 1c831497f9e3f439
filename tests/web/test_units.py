"""The pieces under the web app: record names (never a path elsewhere), the form
reader's caps and choices, HTML escaping, record versions."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.web.forms import Form
from deduce.web.html import h
from deduce.web.tables import record_name, record_version


@given(st.text(max_size=80))
def test_an_accepted_record_name_is_a_plain_file_in_the_folder(text):
    try:
        name = record_name(text)
    except InputError as exc:
        assert "field 'name'" in str(exc)
        return
    folder = Path("/srv/games")
    assert (folder / name).parent == folder and name.endswith(".json")
    assert "/" not in name and "\\" not in name and not name.startswith(".") and ".." not in name


@pytest.mark.parametrize("text, name", [("game-1", "game-1.json"), ("Game_2.json", "Game_2.json"),
                                        ("a.JSON", "a.json"), (" x ", "x.json")])
def test_record_names(text, name):
    assert record_name(text) == name


@pytest.mark.parametrize("text", ["../x", "x/y", ".x", "x.y", "", "a" * 65, "x\x00", "é"])
def test_record_names_refused(text):
    with pytest.raises(InputError):
        record_name(text)


def test_the_form_reader_picks_choices_and_keeps_order():
    form = Form.parse(b"raised=2&raised=0&op=enter&blank=&icon=7")
    assert form.pick_all("raised", ["Ann", "Ben", "Cat"], "e") == ["Cat", "Ann"]
    assert form.get("blank") is None and form.get("op") == "enter"
    assert form.pick("icon", list("abcdefgh"), "e") == "h" and form.pick("none", ["a"], "e") is None
    for bad in ("8", "-1", "1.0", "٣", " 1"):
        with pytest.raises(InputError, match="not one of the 8 choices shown"):
            Form([("icon", bad)]).pick("icon", list("abcdefgh"), "e")
    with pytest.raises(InputError, match="not UTF-8"):
        Form.parse(b"x=\xff\xfe%")
    Form.parse("x=%FF".encode())  # percent escapes that are not UTF-8 become U+FFFD, not a crash


def test_escaping_and_versions():
    assert h("<a href='x'>&</a>") == "&lt;a href=&#x27;x&#x27;&gt;&amp;&lt;/a&gt;"
    assert h("\u202eevil") == "\\u202eevil"
    assert record_version({"a": 1, "b": [2]}) == record_version({"b": [2], "a": 1})
    assert record_version({"a": 1}) != record_version({"a": 2}) and len(record_version({})) == 16
