"""The downloaded 'Reproduce in Python' script runs as a student runs it, and prints the page.

`python ~/Downloads/kpca-lab-….py`: the file the page's "Download the script" button
gives is written into an empty folder and run there by a separate Python process that
can import nothing of KPCA Lab. Impostor packages named ``datasets``, ``ui`` and
``experiments`` sit beside it, where Python looks first (a clone's folders, or Hugging
Face's ``datasets``, would be found the same way): importing any of them fails the run.
What it prints must be what the page's "Eigenvalues (CSV)" and "Projections (CSV)"
downloads hold, to the printed precision and with the page's signs.

It runs with ``kpca_core`` installed (a copy beside it) and without it (scikit-learn's
KernelPCA), and, as a slow test, in a fresh virtual environment that holds only NumPy
and scikit-learn.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from shell import state
from tests.experiments.test_reproduce import assert_same_to_printed_precision, printed_numbers
from tests.lessons.explorer.test_take_home import with_script_open
from tests.packaging.tools import ROOT, clean_env, make_venv, pip_install, run
from tests.support.apptest import assert_clean, open_app
from tests.support.downloads import numbered_columns

VIEWS = {
    "circles-rbf": {"dataset": "circles", "n": 150, "kernel": "rbf", "gamma": 5,
                    "components": 3},
    "iris-poly-standardised": {"dataset": "iris", "kernel": "poly", "gamma": 0.1,
                               "degree": 2, "coef0": 1, "components": 2, "std": 1},
}
IMPOSTORS = ("datasets", "ui", "experiments")


def downloaded_script(downloads, at) -> tuple[str, bytes, dict]:
    """The script the page offers (file name, bytes) and the page's numbers from its CSVs."""
    name, script = downloads.button(at, "Download the script")
    _, eigen = downloads.csv(at, "Eigenvalues (CSV)")
    _, points = downloads.csv(at, "Projections (CSV)")
    page = {
        "eigenvalues": eigen["eigenvalue"].to_numpy(),
        "kpca": numbered_columns(points, "kpca_"),
        "pca": numbered_columns(points, "pca_"),
    }
    return name, script, page


def empty_folder_with(folder: Path, name: str, script: bytes, engine: str | None) -> Path:
    """``folder`` holding only the script and what may sit beside it on a student's disk:
    packages named like KPCA Lab's, and kpca_core installed or not (None: left alone)."""
    folder.mkdir()
    (folder / name).write_bytes(script)
    for impostor in IMPOSTORS:
        (folder / impostor).mkdir()
        (folder / impostor / "__init__.py").write_text(
            f"raise RuntimeError('the take-home script imported a package named {impostor}')\n"
        )
    if engine == "kpca_core":  # installed: found beside the script
        shutil.copytree(ROOT / "kpca_core", folder / "kpca_core",
                        ignore=shutil.ignore_patterns("__pycache__"))
    elif engine == "scikit-learn":  # not installed, even if the test's venv had it
        (folder / "kpca_core").mkdir()
        (folder / "kpca_core" / "__init__.py").write_text(
            "raise ImportError('No module named kpca_core')\n"
        )
    return folder


def assert_prints_the_csvs(out: str, page: dict) -> None:
    eigenvalues, kpca, pca = printed_numbers(out)
    k = kpca.shape[1]
    assert_same_to_printed_precision(eigenvalues, page["eigenvalues"][:k])
    assert_same_to_printed_precision(kpca, page["kpca"][: len(kpca)])
    assert_same_to_printed_precision(pca, page["pca"][: len(pca)])


def run_alone(python: Path | str, folder: Path, name: str) -> str:
    # -E: no PYTHONPATH or other PYTHON* settings; -s: no user site-packages. The
    # script's own folder comes first on sys.path, as for `python file.py`.
    return run([python, "-E", "-s", name], cwd=folder, env=clean_env()).stdout


@pytest.mark.parametrize("engine", ["kpca_core", "scikit-learn"])
@pytest.mark.parametrize("view", VIEWS, ids=list(VIEWS))
def test_the_downloaded_script_prints_the_pages_numbers_alone(downloads, tmp_path, view,
                                                              engine):
    at = with_script_open(open_app("explorer", VIEWS[view]))
    assert_clean(at)
    name, script, page = downloaded_script(downloads, at)
    assert name.startswith("kpca-lab-") and name.endswith(".py")
    folder = empty_folder_with(tmp_path / "Downloads", name, script, engine)

    out = run_alone(sys.executable, folder, name)
    assert_prints_the_csvs(out, page)
    assert len(page["eigenvalues"]) > VIEWS[view]["components"]  # the CSV holds them all


def test_an_uploaded_files_script_carries_the_file(downloads, tmp_path):
    rng = np.random.default_rng(8)
    rows = [f"{a:.5f},{b:.5f},{c:.2f},{'ab'[i % 2]}"
            for i, (a, b, c) in enumerate(rng.normal(size=(60, 3)) + [0, 0, 20])]
    content = ("u,v,w,label\n" + "\n".join(rows)).encode()
    at = open_app("explorer", {"kernel": "rbf", "gamma": 0.5, "components": 2})
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value(("mine.csv", content, "text/csv")).run()
    at = with_script_open(at)
    assert_clean(at)
    name, script, page = downloaded_script(downloads, at)
    assert b"mine.csv" not in script  # it needs no file: the data are inside
    folder = empty_folder_with(tmp_path / "Downloads", name, script, "scikit-learn")

    out = run_alone(sys.executable, folder, name)
    assert_prints_the_csvs(out, page)


@pytest.mark.slow
def test_the_script_runs_in_a_fresh_environment_with_numpy_and_scikit_learn_only(
    downloads, tmp_path
):
    python = make_venv(tmp_path / "venv")
    pip_install(python, "numpy", "scikit-learn", cwd=tmp_path)
    for i, view in enumerate(VIEWS.values()):
        at = with_script_open(open_app("explorer", view))
        name, script, page = downloaded_script(downloads, at)
        folder = empty_folder_with(tmp_path / f"student-{i}", name, script, engine=None)
        assert_prints_the_csvs(run_alone(python, folder, name), page)
