"""Every page of the registry, at its defaults, under the en-XA pseudo-locale: no visible
English sentence left unbracketed (issue 37). Each page's own tests (tests/lessons/<name>/
test_zh.py, tests/classroom/test_zh.py, tests/shell/test_language.py) go further: settings off
the defaults and the zh-CN page's numbers against the English page's. This one makes sure a
page added to the menu cannot be left out of the translation."""

from __future__ import annotations

import pytest

from shell.registry import menu
from tests.support.page_language import NAMES, data_words, open_in, unwrapped

PAGES = [lesson.path.removeprefix("app_pages/").removesuffix(".py")
         for group in menu().values() for lesson in group]
# Names, not words: methods, libraries, symbols, the sources' citations' authors and titles.
SHOWN_AS_THEY_ARE = NAMES | {
    "Isomap", "MDS", "SVM", "ROC", "LLE", "Nyström", "scikit", "learn", "kpca_core", "Sigmoid",
    "eigenvalues_", "spectral_embedding", "MB", "GB", "KB", "px", "PNG", "poly", "rbf",
    "d'Isidoro", "numpy", "NumPy", "eig", "eigh", "linalg", "np", "SciPy", "scipy", "ARPACK",
    "LAPACK", "Mika", "Kwok", "Tsang", "Schölkopf", "Smola", "Müller", "Hoffmann",
}


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_every_page_of_the_menu_is_translated(page):
    at = open_in(page, {}, "en-XA")
    left = unwrapped(at, SHOWN_AS_THEY_ARE | data_words("circles"))
    assert left == [], left[:5]
