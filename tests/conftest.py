"""Test-wide settings: hypothesis runs are deterministic unless asked otherwise, and no
test ever writes to the real user cache folder.

The default profile ``ci`` derandomises every property test (the same examples on every
run and every machine, no example database), so a red run is reproducible and CI cannot
flake; ``HYPOTHESIS_PROFILE=explore python -m pytest`` draws fresh random examples.

``DEDUCE_CACHE_DIR`` (``core.cache``) points to a fresh temporary folder of its own for
every test and every child process the test starts.
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def private_cache_folder(tmp_path_factory, monkeypatch):
    """The test's own cache folder, never the user's (beside the test's ``tmp_path``, not
    in it: a test may list what it wrote there)."""
    folder = tmp_path_factory.mktemp("deduce-cache")
    monkeypatch.setenv("DEDUCE_CACHE_DIR", str(folder))
    return folder
