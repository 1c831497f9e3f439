"""The case notes and Detective Story pages in a real browser (headless Chromium through
Selenium, as ``test_browser``) against the real server: a record made from the page, one
entry by taps (the record on disk as the session writes it), and no horizontal scroll at
360 x 800 (a wide grid scrolls inside its own box). Skipped without the system's chromium
and chromedriver. With ``DEDUCE_SCREENSHOT_DIR`` set, the pages are saved there as
``serve-casenotes.png`` and ``serve-story.png``.

The story test makes its record from the tiny test campaign with the solve left out (a
fresh case's solve takes seconds), and enters on a late case of that campaign served
beside it (its solve takes milliseconds).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.detective_story.conftest import TINY, write_campaign
from tests.web.test_browser import (  # noqa: F401
    CHROMIUM,
    DRIVER,
    TOKEN,
    no_horizontal_scroll,
    press,
    tap,
)

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason=f"no system Chromium ({CHROMIUM}) or chromedriver ({DRIVER})")


@pytest.fixture
def server(tmp_path):
    """The real server on a free port with the access token; yields (url, folder, tables)."""
    from deduce.web.serve import Running
    from deduce.web.tables import Tables

    folder = tmp_path / "games"
    folder.mkdir()
    tables = Tables(folder)
    running = Running.local(tables, token=TOKEN)
    port = running.port
    yield f"http://127.0.0.1:{port}", folder, tables
    running.stop()
    tables.close()


def make_record(driver, url: str, game: str, name: str, taps: list[str]) -> None:
    """Fill the new-record form of ``game`` on the index page, tap ``taps``, make it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url + "/?token=" + TOKEN)
    driver.get(url + f"/?new={game}")
    assert no_horizontal_scroll(driver)
    form = driver.find_element(By.CSS_SELECTOR, f'form.new:has(input[name="game"][value="{game}"])')
    form.find_element(By.NAME, "name").send_keys(name)
    for ident in taps:
        tap(driver, ident)
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith(f"/r/{name}"))


def shot(driver, name: str) -> None:
    folder = os.environ.get("DEDUCE_SCREENSHOT_DIR")
    if folder:
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(Path(folder) / name))


def test_the_case_notes_page_in_a_real_browser(server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    from deduce.web.casenotes import shipped_names

    url, folder, _ = server
    make_record(browser, url, "case-notes", "notes", [f"case-{shipped_names().index('zebra')}"])
    assert no_horizontal_scroll(browser)  # the 6 x 5 grid scrolls in its own box
    tap(browser, "note-3")
    assert press(browser, "read-note") == "accepted"
    saved = json.loads((folder / "notes.json").read_text(encoding="utf-8"))
    assert saved == {"game": "case-notes", "case": "zebra", "read": [3]}
    assert "1 of 14 notes read" in browser.find_element(By.ID, "turn").text
    assert no_horizontal_scroll(browser)
    shot(browser, "serve-casenotes.png")


def test_the_story_page_in_a_real_browser(server, browser, tmp_path, monkeypatch):  # noqa: F811
    from selenium.webdriver.common.by import By

    from deduce.models.detective_story.campaign import new_record
    from deduce.models.detective_story.data import load_campaign
    from deduce.web import story

    url, folder, tables = server
    tiny = write_campaign(tmp_path / "tiny", TINY)
    monkeypatch.setattr(story, "CAMPAIGN_DIR", str(tiny))
    monkeypatch.setattr(story.StoryTable, "start_solve", lambda self: None)
    make_record(browser, url, "detective-story", "case", ["adventure-0", "equipment-0"])
    assert "turn 1/12" in browser.find_element(By.ID, "turn").text
    assert no_horizontal_scroll(browser)
    assert json.loads((folder / "case.json").read_text())["adventure"] == "a001"

    monkeypatch.undo()
    rec = new_record(load_campaign(str(tiny)), "a001", seed=2, data_dir=str(tiny))
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    (folder / "late.json").write_text(json.dumps(rec))
    tables.open(folder / "late.json").session.wait_solved()
    browser.get(url + "/r/late")
    labels = browser.find_elements(By.CSS_SELECTOR, "#question .chips label")
    wait = next(label for label in labels if label.text.startswith("Wait"))
    tap(browser, wait.get_attribute("for"))
    assert press(browser, "enter") == "accepted"
    saved = json.loads((folder / "late.json").read_text())
    assert (saved["turn"], saved["phase"], saved["waited"]) == (11, "encounter", True)
    assert "Encounter Matrix" in browser.find_element(By.ID, "question-text").text
    assert no_horizontal_scroll(browser)
    shot(browser, "serve-story.png")
