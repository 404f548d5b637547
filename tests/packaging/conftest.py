"""Fixtures of the packaging tests."""

# The files an AppTest page offers for download (the take-home script test).
from tests.app.downloads import downloads  # noqa: F401  (a fixture: pytest finds it here)
