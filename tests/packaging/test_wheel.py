"""`pip install .` gives the library and only the library.

The wheel is built from a clean copy of the checkout, installed into a fresh virtual
environment outside the repository, and used there as a reader of the README would: the
examples of the README and docs/core.md run (fit, transform, agreement with
scikit-learn), the version is the one the metadata reports, and none of the app's
packages or of Streamlit came along.
"""

from __future__ import annotations

import email
import json
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

import kpca_core
from tests.packaging.test_readme_example import EXAMPLES, example_code, expected_output
from tests.packaging.tools import ROOT, copy_checkout, make_venv, pip_install, run

pytestmark = pytest.mark.slow

LIBRARY_DEPENDENCIES = {"numpy", "scipy", "scikit-learn"}
APP_MODULES = ("streamlit", "plotly", "pandas", "app_pages", "words", "server", "shell",
               "lessons", "classroom",
               "datasets", "experiments", "benchmarks", "loadtest", "tests", "app")

# Run inside the fresh venv, from a directory outside the repository.
CHECK_INSTALLED = """
import importlib.metadata, importlib.util, json, kpca_core
print(json.dumps({
    "file": kpca_core.__file__,
    "version": kpca_core.__version__,
    "metadata_version": importlib.metadata.version("kpca-core"),
    "found": [m for m in %r if importlib.util.find_spec(m) is not None],
}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    checkout = copy_checkout(tmp_path_factory.mktemp("build") / "kpca-lab")
    dist = checkout.parent / "dist"
    # The same PEP 517 build as `pip install .`, from a copy, so that no build/ or
    # *.egg-info is left in the repository and none of its leftovers reach the wheel.
    run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-w", dist, "-q"], cwd=checkout)
    (built,) = dist.glob("kpca_core-*.whl")
    return built


def test_the_wheel_holds_kpca_core_and_its_licence_only(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = email.message_from_bytes(
            archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        )
    top_level = {name.split("/")[0] for name in names}
    assert top_level == {"kpca_core", f"kpca_core-{kpca_core.__version__}.dist-info"}
    shipped = {Path(n).name for n in names if n.startswith("kpca_core/")}
    assert shipped == {p.name for p in (ROOT / "kpca_core").glob("*.py")}
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)

    assert metadata["Name"] == "kpca-core"
    assert metadata["Version"] == kpca_core.__version__
    assert metadata["License-Expression"] == "BSD-3-Clause"
    requires = {r.split("<")[0].split(">")[0].split("=")[0].strip()
                for r in metadata.get_all("Requires-Dist")}
    assert requires == LIBRARY_DEPENDENCIES
    # The library's version ranges are the app's: the two cannot drift apart.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    app_lines = {line.split("#")[0].strip()
                 for line in (ROOT / "requirements.txt").read_text().splitlines()}
    assert set(pyproject["project"]["dependencies"]) <= app_lines


def test_the_wheel_works_in_a_fresh_venv_outside_the_repository(wheel, tmp_path):
    start = time.perf_counter()
    python = make_venv(tmp_path / "venv")
    pip_install(python, wheel, cwd=tmp_path)  # its dependencies come from the index
    installed = time.perf_counter() - start
    outside = tmp_path / "elsewhere"
    outside.mkdir()

    done = run([python, "-c", CHECK_INSTALLED % (APP_MODULES,)], cwd=outside)
    report = json.loads(done.stdout)
    assert Path(report["file"]).is_relative_to(tmp_path / "venv"), report["file"]
    assert report["version"] == report["metadata_version"] == kpca_core.__version__
    assert report["found"] == [], f"installed beside the library: {report['found']}"

    for name in EXAMPLES:
        example = run([python, "-c", example_code(name)], cwd=outside)
        assert expected_output(name) in example.stdout, name
    print(f"fresh venv + wheel + dependencies installed in {installed:.1f} s")
