"""The Deductions and Baker Street Irregulars pages in a real browser (headless Chromium
through Selenium, at 360 x 800) against the real server: a dealt record made from the
page, one entry or two by taps, the record on disk equal to the terminal session's for
the same lines, and no horizontal scroll. Skipped without the system's chromium and
chromedriver (``.ci/run`` installs them), as ``test_browser.py``. With
``DEDUCE_SCREENSHOT_DIR`` set, each page at 360 x 800 after its entries is saved there
(``serve-deductions.png``, ``serve-irregulars.png``)."""

from __future__ import annotations

import json
import os

import pytest

from tests.web.test_browser import CHROMIUM, DRIVER, TOKEN, no_horizontal_scroll, press, tap
from tests.web.test_browser import server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason=f"no system Chromium ({CHROMIUM}) or chromedriver ({DRIVER}): install the "
           "chromium and chromium-driver packages (.ci/run does)")


def screenshot(driver, name: str) -> None:
    """The page at 360 x 800 from its top, when ``DEDUCE_SCREENSHOT_DIR`` is set."""
    shots = os.environ.get("DEDUCE_SCREENSHOT_DIR")
    if shots:
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(shots, name))


def make_dealt(driver, url: str, game: str, name: str, players: list[str], taps=()) -> None:
    """Make a dealt record (seed 7, me: the first player) from the page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{url}/?token={TOKEN}")
    driver.get(f"{url}/?new={game}")
    assert no_horizontal_scroll(driver)
    driver.find_element(By.ID, "name").send_keys(name)
    for i, player in enumerate(players):
        driver.find_element(By.ID, f"player-{i}").send_keys(player)
    for ident in ("me-0", *taps):
        tap(driver, ident)
    driver.find_element(By.ID, "seed").send_keys("7")
    button = driver.find_element(By.ID, "create")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith(f"/r/{name}"))


def test_deductions_by_taps(server, browser, tmp_path):  # noqa: F811
    from deduce.models.deductions import rules as R
    from deduce.models.deductions.position import cell_name
    from deduce.models.deductions.table import TableSession
    from deduce.web.deductions import CELLS

    url, folder = server
    make_dealt(browser, url, "deductions", "d", ["Ann", "Ben"])
    with TableSession.open(tmp_path / "referee.json", seed=7, players=["Ann", "Ben"], me="Ann") as ref:
        assert press(browser, "enter-draw") == "accepted"
        ref.handle("draw")
        take = next(a for a in ref.state.legal_actions() if isinstance(a, R.Take))
        tap(browser, f"take-cell-{CELLS.index(take.cell)}")
        line = f"take {cell_name(take.cell)}"
        if take.prop is not None:
            tap(browser, f"take-prop-{CELLS.index(take.prop)}")
            line += f" prop {cell_name(take.prop)}"
        assert press(browser, "enter-take") == "accepted"
        assert ref.handle(line).kind == "accepted"
        saved = json.loads((folder / "d.json").read_text(encoding="utf-8"))
        assert saved == json.loads(ref.path.read_text(encoding="utf-8"))
        assert len(saved["entries"]) == 2
    assert no_horizontal_scroll(browser)
    screenshot(browser, "serve-deductions.png")


def test_irregulars_by_taps(server, browser, tmp_path):  # noqa: F811
    from deduce.models.irregulars.cards import load_cards
    from deduce.models.irregulars.table import TableSession

    url, folder = server
    make_dealt(browser, url, "irregulars", "i", ["Ann"], taps=("mode-1",))
    evidence = [e.id for e in load_cards(None).evidence]
    with TableSession.open(tmp_path / "referee.json", seed=7, mode="solo", me="Ann") as ref:
        tap(browser, f"mine-{evidence.index('E005')}")
        assert press(browser, "enter-picks") == "accepted"
        assert ref.handle("pick E005").kind == "accepted"
        saved = json.loads((folder / "i.json").read_text(encoding="utf-8"))
        assert saved == json.loads(ref.path.read_text(encoding="utf-8"))
    assert no_horizontal_scroll(browser)
    screenshot(browser, "serve-irregulars.png")
