"""Test-wide settings: hypothesis runs are deterministic unless asked otherwise.

The default profile ``ci`` derandomises every property test (the same examples on every
run and every machine, no example database), so a red run is reproducible and CI cannot
flake; ``HYPOTHESIS_PROFILE=explore python -m pytest`` draws fresh random examples.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
