"""The browser tests' Chromium: one headless Chromium for the whole run (each start costs
1.5-3 s), handed to each test with a clean slate (no cookies, no storage, a blank page),
so a token cookie one test's server set never reaches the next test's server (cookies
ignore the port)."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def chromium():
    from tests.web.test_browser import phone_browser

    driver, profile = phone_browser()
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser(chromium):
    chromium.get("about:blank")
    chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})
    chromium.execute_cdp_cmd("Storage.clearDataForOrigin",
                             {"origin": "*", "storageTypes": "all"})
    yield chromium
    chromium.get("about:blank")
