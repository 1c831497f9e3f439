"""Fixtures the CLI tests of every game share: the Detective Story campaigns are those of
``tests/detective_story/conftest.py``."""

from tests.detective_story.conftest import shipped, tiny_dir, tiny_session_dir  # noqa: F401
