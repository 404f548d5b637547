"""Fixtures of the AppTest suite."""

from tests.app.downloads import downloads  # noqa: F401  (a fixture: pytest finds it here)
