"""The repository's open-source files agree with each other: licence, citation, version,
changelog, and the one dependency file Streamlit Community Cloud reads.

CITATION.cff is validated against the Citation File Format 1.2.0 JSON schema,
``cff-1.2.0.schema.json`` beside this file: a verbatim copy of ``schema.json`` from
https://github.com/citation-file-format/citation-file-format (release 1.2.0, CC-BY-4.0).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import kpca_core
from tests.packaging.tools import ROOT

SCHEMA = Path(__file__).with_name("cff-1.2.0.schema.json")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# The papers whose methods and figures the app reproduces.
REPRODUCED = {
    "Nonlinear component analysis as a kernel eigenvalue problem": ("Schölkopf", 1998),
    "Kernel PCA and de-noising in feature spaces": ("Mika", 1999),
    "The pre-image problem in kernel methods": ("Kwok", 2004),
    "Learning to find pre-images": ("Bakır", 2004),
}


@pytest.fixture(scope="module")
def citation() -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML is in requirements-dev.txt")
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator():
    jsonschema = pytest.importorskip("jsonschema", reason="it is in requirements-dev.txt")
    return jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))


def test_citation_file_is_valid_cff_1_2_0(citation, validator):
    errors = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
              for e in validator.iter_errors(citation)]
    assert errors == []
    assert citation["cff-version"] == "1.2.0"


def test_the_schema_rejects_a_broken_citation(citation, validator):
    # The validation above can fail: the same file without its authors is invalid.
    broken = {key: value for key, value in citation.items() if key != "authors"}
    assert any("'authors' is a required property" in e.message
               for e in validator.iter_errors(broken))


def test_citation_lists_the_papers_the_app_reproduces(citation):
    found = {ref["title"]: (ref["authors"][0].get("family-names"), ref["year"])
             for ref in citation["references"]}
    for title, first_author_and_year in REPRODUCED.items():
        assert found.get(title) == first_author_and_year, title
    assert citation["version"] == kpca_core.__version__
    assert citation["license"] == PYPROJECT["project"]["license"]


def test_version_licence_and_changelog_agree():
    version = kpca_core.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "kpca_core.__version__"}
    assert f"## {version}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")

    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("BSD 3-Clause License")
    assert "Neither the name of the copyright holder" in licence  # the third clause
    assert PYPROJECT["project"]["license"] == "BSD-3-Clause"


def test_requirements_txt_is_the_dependency_file_community_cloud_reads():
    # Community Cloud installs the first of uv.lock, Pipfile, environment.yml,
    # requirements.txt, pyproject.toml it finds beside the entrypoint (app.py, at the
    # root): any of the first three would silently replace requirements.txt.
    assert (ROOT / "app.py").is_file() and (ROOT / "requirements.txt").is_file()
    preferred = [name for name in ("uv.lock", "Pipfile", "Pipfile.lock", "environment.yml",
                                   "environment.yaml") if (ROOT / name).exists()]
    assert preferred == []
    # The app's runtime is not in pyproject.toml, which describes the library only.
    runtime = {line.split("#")[0].split(">")[0].split("=")[0].split("<")[0].strip()
               for line in (ROOT / "requirements.txt").read_text().splitlines()} - {""}
    assert {"streamlit", "plotly", "pandas"} <= runtime
    assert not any(dep.startswith(("streamlit", "plotly", "pandas"))
                   for dep in PYPROJECT["project"]["dependencies"])

