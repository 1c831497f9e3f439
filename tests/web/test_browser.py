"""The Sherlock 13 page in a real browser (headless Chromium through Selenium) against
the real server (uvicorn in a thread, on a free port, with an access token): the token
refused then accepted, a 4-player record made from the page, the demo game entered by
taps (the record on disk equals the demo's; the page's criminal probabilities equal
``deduce s13 analyze --json`` after every entry), a refused contradiction (the file
unchanged), an undo, no horizontal scroll at 360 x 800, and a why answer kept open (asked
again of the record) when another device enters.

Skipped when the system's chromium or chromedriver is missing (``.ci/run`` installs them).
With ``DEDUCE_SCREENSHOT_DIR`` set, the page at 360 x 800 is saved there as
``serve-s13.png`` (the README's picture: ``docs/serve-s13.png``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from tests.web.helpers import demo, event_fields

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=360,800"]
TOKEN = "browser-test-token"

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason=f"no system Chromium ({CHROMIUM}) or chromedriver ({DRIVER}): install the "
           "chromium and chromium-driver packages (.ci/run does)")


@pytest.fixture
def server(tmp_path):
    from deduce.web.serve import Running
    from deduce.web.tables import Tables

    tables = Tables(tmp_path)
    running = Running.local(tables, token=TOKEN)
    port = running.port
    yield f"http://127.0.0.1:{port}", tmp_path
    running.stop()
    tables.close()


def phone_browser():
    """Headless Chromium (the system's) with a new profile and a phone's 360 x 800
    viewport: ``(driver, profile folder)``; quit the driver and remove the folder after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="deduce-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    return driver, profile


def tap(driver, ident: str) -> None:
    """Tap the chip of the input ``ident`` (its label: the input itself is hidden)."""
    from selenium.webdriver.common.by import By

    label = driver.find_element(By.CSS_SELECTOR, f'label[for="{ident}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()


def press(driver, ident: str) -> str:
    """Press the button ``ident`` and wait until the live part is swapped in; the kind of
    the message box shown (accepted, refused, ...)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    old = driver.find_element(By.ID, "notice").id if driver.find_elements(By.ID, "notice") else None
    button = driver.find_element(By.ID, ident)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.ID, "notice") and d.find_element(By.ID, "notice").id != old)
    return driver.find_element(By.ID, "notice").get_attribute("class").split()[-1]


def bars(driver) -> dict[str, float]:
    return driver.execute_script(
        "var out = {}; document.querySelectorAll('#criminal .bar').forEach(function (b) {"
        " out[b.dataset.suspect] = parseFloat(b.dataset.p); }); return out;")


def analyze_json(path: Path) -> dict:
    result = CliRunner().invoke(cli, ["s13", "analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def no_horizontal_scroll(driver) -> bool:
    width, inner = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert inner == 360  # the phone's viewport
    return width <= 360


def test_the_demo_game_by_taps_in_a_real_browser(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    url, folder = server
    record = demo()
    names = record["players"]

    browser.get(url + "/")
    assert "403 forbidden" in browser.find_element(By.TAG_NAME, "body").text
    browser.get(url + "/?token=" + TOKEN)
    assert browser.find_element(By.TAG_NAME, "h1").text == "deduce"
    assert no_horizontal_scroll(browser)

    browser.find_element(By.ID, "name").send_keys("demo")
    for i, name in enumerate(names):
        browser.find_element(By.ID, f"player-{i}").send_keys(name)
    tap(browser, f"me-{names.index(record['me'])}")
    from deduce.models.sherlock13.cards import SUSPECTS

    for i, card in enumerate(record["hand"]):
        Select(browser.find_element(By.ID, f"card-{i}")).select_by_value(str(SUSPECTS.index(card)))
    browser.find_element(By.ID, "create").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/r/demo"))
    path = folder / "demo.json"

    def enter(event: dict) -> str:
        for key, value in event_fields(event, names):
            tap(browser, f"{key}-{value}")
        return press(browser, "enter")

    events = record["events"]
    for i, event in enumerate(events[:-1]):
        assert enter(event) == "accepted", browser.find_element(By.ID, "notice").text
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["events"] == events[:i + 1]
        criminal = analyze_json(path)["criminal"]
        assert bars(browser) == {s: p for s, p in criminal.items() if p > 0}
        if i == 3:
            assert no_horizontal_scroll(browser)
            shots = os.environ.get("DEDUCE_SCREENSHOT_DIR")
            if shots:  # the summary, the end of the entry form, the odds, the advice
                browser.execute_script("document.getElementById('enter').scrollIntoView()")
                browser.save_screenshot(str(Path(shots) / "serve-s13.png"))

    # a contradiction: Dan asks Ann for eyes, 0, but I (Ann) hold John H. Watson
    before = path.read_bytes()
    wrong = {"actor": "Dan", "action": "count", "target": "Ann", "icon": "eye", "count": 0}
    assert enter(wrong) == "refused"
    assert "contradicts the record" in browser.find_element(By.ID, "notice").text
    assert path.read_bytes() == before and no_horizontal_scroll(browser)

    # undo the last entry, then enter it again
    assert press(browser, "undo") == "accepted"
    assert json.loads(path.read_text(encoding="utf-8"))["events"] == events[:-2]
    assert enter(events[-2]) == "accepted" and enter(events[-1]) == "accepted"
    assert json.loads(path.read_text(encoding="utf-8")) == record
    assert bars(browser) == {s: p for s, p in analyze_json(path)["criminal"].items() if p > 0}
    assert "game over: Dan wins" in browser.find_element(By.ID, "turn").text

    # a why answer stays open when another device enters: the page's own poll (every 2 s)
    # refreshes it with the same question
    link = browser.find_element(By.CSS_SELECTOR, 'a.live-link[data-why="0"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "why-answer"))
    answer = browser.find_element(By.ID, "why-answer").text
    import httpx

    with httpx.Client(follow_redirects=True) as device:  # the token sets its cookie
        version = device.get(f"{url}/r/demo/version?token={TOKEN}").json()["version"]
        undone = device.post(f"{url}/r/demo/act", data={"version": version, "op": "undo"},
                             headers={"X-Deduce-Fetch": "1"})
    assert undone.status_code == 200 and undone.json()["kind"] == "accepted"
    WebDriverWait(browser, 10).until(
        lambda d: "changed on another device" in d.find_element(By.ID, "live").text)
    assert json.loads(path.read_text(encoding="utf-8"))["events"] == events[:-1]
    terminal = CliRunner().invoke(cli, ["s13", "why", str(path), "Sherlock Holmes"]).output
    refreshed = browser.find_element(By.ID, "why-answer").text
    assert refreshed != answer  # the question asked again of the record as it is now
    assert " ".join(refreshed.split()) == " ".join(terminal.split())
