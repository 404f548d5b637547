"""'Reproduce in Python': the generated script stands alone and prints the page's numbers.

Each script is executed here (in-process; tests/lessons/explorer/test_take_home_script.py
runs downloaded files in an empty folder) with kpca_core and, with kpca_core made
unimportable, with scikit-learn alone. Its data must be the page's bit for bit, and
what it prints must be the page's eigenvalues and projections
(``experiments.analysis.analyse``, what the Explorer draws and its CSV downloads hold) to
the printed precision, with the page's signs: no alignment is allowed.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import gzip
import io
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import datasets
from experiments import analysis
from experiments.reproduce import MAX_PACKED_CHARS, explorer_script
from shell import state
from tests.support.apptest import usps_available

VIEWS = [
    ("circles", {"n": 150}, "rbf", {"gamma": 5.0}, 3, False),
    ("iris", {}, "poly", {"gamma": 0.1, "degree": 2, "coef0": 1.0}, 2, True),
    ("moons", {"n": 120}, "sigmoid", {"gamma": 2.0, "coef0": -1.0}, 3, False),
    ("four_classes", {"n": 160}, "laplacian", {"gamma": 1.0}, 2, False),
    ("parabola", {"n": 80}, "cosine", {}, 2, True),
    ("usps", {"n": 200}, "poly", {"gamma": 1 / 256, "degree": 3, "coef0": 1.0}, 4, False),
]
ENGINES = ["kpca_core", "scikit-learn"]
# What a script may import: NumPy, scikit-learn, kpca_core (optional) and the standard
# library; never the app's packages (nor anything else called `datasets`).
ALLOWED_IMPORTS = {"numpy", "sklearn", "kpca_core", "base64", "io", "zlib", "gzip",
                   "urllib", "pathlib"}
PRINTED_DIGITS = 6


def skip_without_usps(dataset: str) -> None:
    if dataset == "usps" and not usps_available():
        pytest.skip("USPS digits not available")


def view_script(view) -> tuple[str, datasets.Dataset, np.ndarray]:
    """The script of a view, its data, and X as the page's kernel sees it."""
    dataset, given, kernel, params, k, standardize = view
    options = {**dict(state.default_options(dataset)), **given}
    data = datasets.load(dataset, **options)
    script = explorer_script(dataset=dataset, options=options, kernel=kernel,
                             kernel_params=params, n_components=k, standardize=standardize)
    return script, data, analysis.standardized(data.X) if standardize else data.X


def run(script: str, engine: str = "kpca_core") -> tuple[dict, str]:
    """Execute a script; returns its variables and what it printed.

    With engine "scikit-learn", ``import kpca_core`` raises ImportError, as on a machine
    without it.
    """
    namespace: dict = {"__name__": "__main__"}
    out = io.StringIO()
    blocked = {"kpca_core": None} if engine == "scikit-learn" else {}
    with (pytest.MonkeyPatch.context() as patch, warnings.catch_warnings(),
          contextlib.redirect_stdout(out)):
        for name, module in blocked.items():
            patch.setitem(sys.modules, name, module)
        warnings.simplefilter("ignore")  # kpca_core's IndefiniteKernelWarning
        exec(compile(script, "<script>", "exec"), namespace)  # noqa: S102 - our own script
    return namespace, out.getvalue()


def printed_numbers(out: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The eigenvalues and the first points' kernel and linear PCA scores a script printed."""
    eigen_part, points_part = out.split("Projections CSV")
    eigenvalues = [float(v) for v in re.findall(r"^ +\d+: (\S+)$", eigen_part, re.M)]
    kpca, pca = [], []
    for left, right in re.findall(r"^ +\d+:(.*)\|(.*)$", points_part, re.M):
        kpca.append([float(v) for v in left.split()])
        pca.append([float(v) for v in right.split()])
    return np.array(eigenvalues), np.array(kpca), np.array(pca)


def assert_same_to_printed_precision(printed: np.ndarray, page: np.ndarray) -> None:
    """Each printed value is the page's rounded to 6 significant digits: off by at most
    half a unit in the 6th digit (plus round-off of the solvers, ~1e-12 of the largest)."""
    assert printed.shape == page.shape
    magnitude = np.floor(np.log10(np.maximum(np.abs(page), 1e-300)))
    half_unit = 0.5 * 10.0 ** (magnitude - (PRINTED_DIGITS - 1))
    slack = 1e-12 * np.abs(page).max()
    assert np.all(np.abs(printed - page) <= half_unit * (1 + 1e-9) + slack), (printed, page)


def assert_prints_the_page(out: str, page: analysis.Analysis, k: int) -> None:
    eigenvalues, kpca, pca = printed_numbers(out)
    shown = len(kpca)
    assert shown == min(5, page.n)
    assert_same_to_printed_precision(eigenvalues, page.eigenvalues[:k])
    assert_same_to_printed_precision(kpca, page.projection[:shown])
    assert_same_to_printed_precision(pca, page.pca_projection[:shown])


def imported_modules(script: str) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(script)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module.split(".")[0])
    return modules


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("view", VIEWS, ids=[f"{v[0]}-{v[2]}" for v in VIEWS])
def test_the_script_prints_the_pages_numbers(view, engine):
    dataset, _, kernel, params, k, _ = view
    skip_without_usps(dataset)
    script, data, X = view_script(view)
    result, out = run(script, engine)

    np.testing.assert_array_equal(result["X"], X)  # the page's points, bit for bit
    if data.y is None:
        assert result["y"] is None
    else:
        np.testing.assert_array_equal(result["y"], data.y)
    page = analysis.analyse(X, data.y, kernel=kernel, kernel_params=params, n_components=k)
    assert_prints_the_page(out, page, k)
    # Issue 33: the heading said "the page's Eigenvalues CSV" over k of its n values.
    assert f"The {k} leading eigenvalues of K~ (the first {k} rows" in out
    assert len(page.eigenvalues) > k
    # And the arrays it leaves for a student to use are the page's, signs included.
    scale = np.abs(page.projection).max()
    np.testing.assert_allclose(result["Z"], page.projection, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(result["Z_pca"], page.pca_projection, rtol=0,
                               atol=1e-12 * np.abs(page.pca_projection).max())
    np.testing.assert_allclose(result["eigenvalues"], page.eigenvalues[:k], rtol=1e-9,
                               atol=1e-12 * page.eigenvalues[0])


@pytest.mark.parametrize("engine", ENGINES)
def test_negative_eigenvalues_among_the_components_are_printed_as_the_page_shows(engine):
    # A sigmoid kernel with nearly as many components as points: some λ < 0, which
    # scikit-learn's KernelPCA refuses; their scores are 0 on the page and in the script.
    view = ("moons", {"n": 30}, "sigmoid", {"gamma": 2.0, "coef0": -1.0}, 25, False)
    script, data, X = view_script(view)
    page = analysis.analyse(X, data.y, kernel="sigmoid", kernel_params=view[3],
                            n_components=25)
    assert page.eigenvalues[24] < -1e-3 * page.eigenvalues[0]  # the case under test
    result, out = run(script, engine)
    assert_prints_the_page(out, page, 25)
    assert not result["Z"][:, page.eigenvalues[:25] < 0].any()


def test_the_script_imports_nothing_of_the_app(tmp_path, monkeypatch):
    usps = datasets.load("usps", n=300, split="test") if usps_available() else None
    scripts = [view_script(view)[0] for view in VIEWS if view[0] != "usps"]
    scripts.append(upload_script(b"a,b,kind\n0,1,x\n1,0,y\n1,1,x\n0,0,y\n2,2,x\n")[0])
    if usps is not None:
        scripts.append(explorer_script(dataset="usps", options={"n": 300, "split": "test",
                                                               "seed": 0},
                                       kernel="rbf", kernel_params={"gamma": 0.01},
                                       n_components=2))
        assert "zip.test.gz" in scripts[-1]  # the published-files route is covered too
    for script in scripts:
        modules = imported_modules(script)
        assert modules <= ALLOWED_IMPORTS, modules - ALLOWED_IMPORTS
        assert not re.search(r"\b(datasets|ui|experiments|shell|lessons)\.", script)


def upload_script(content: bytes, label: str | None = "kind", **view):
    data = datasets.load_csv(content, label_column=label)
    args = {"kernel": "rbf", "kernel_params": {"gamma": 0.5}, "n_components": 2,
            "standardize": False, **view}
    return explorer_script(dataset="csv", options={}, data=data, **args), data


@pytest.mark.parametrize("engine", ENGINES)
def test_an_uploaded_csv_is_carried_in_the_script(engine):
    # Names a student typed go into the script as literals, safe whatever they hold:
    # quotes, a comma, a line break followed by code.
    names = ['it\'s "odd"', "a, b", 'x\nraise SystemExit("injected")']
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["u", 'v\nraise SystemExit("injected")', "w", "kind"])
    rng = np.random.default_rng(5)
    for i, (a, b, c) in enumerate(rng.normal(size=(40, 3))):
        writer.writerow([f"{a:.6f}", f"{b:.3e}", repr(float(c)), names[i % 3]])
    script, data = upload_script(buffer.getvalue().encode(), standardize=True,
                                 n_components=3)
    assert set(data.target_names) == set(names)
    result, out = run(script, engine)
    X = analysis.standardized(data.X)
    np.testing.assert_array_equal(result["X"], X)
    np.testing.assert_array_equal(result["y"], data.y)
    assert result["classes"] == data.target_names
    page = analysis.analyse(X, data.y, kernel="rbf", kernel_params={"gamma": 0.5},
                            n_components=3)
    assert_prints_the_page(out, page, 3)


def test_an_upload_without_classes_has_none():
    script, data = upload_script(b"p,q\n0.5,1\n1,0.25\n1,1\n0,0\n2,2\n3,1.5\n", label=None)
    assert data.y is None
    result, out = run(script)
    assert result["y"] is None and "classes" not in result
    page = analysis.analyse(data.X, None, kernel="rbf", kernel_params={"gamma": 0.5},
                            n_components=2)
    assert_prints_the_page(out, page, 2)


def write_esl_file(path, X: np.ndarray, y: np.ndarray) -> None:
    """An ESL 'zip' file as published: per row the digit, then 256 grey values."""
    with gzip.open(path, "wt", compresslevel=1) as file:
        for digit, row in zip(y, X, strict=True):
            file.write(f"{digit:.4f} " + " ".join(f"{v:.4f}" for v in row) + "\n")


def test_usps_digits_too_many_to_carry_are_read_from_the_published_files(
    tmp_path, monkeypatch
):
    if not usps_available():
        pytest.skip("USPS digits not available")
    from datasets import usps

    options = {"split": "test", "n": 300, "seed": 4}
    script = explorer_script(dataset="usps", options=options, kernel="rbf",
                             kernel_params={"gamma": 0.01}, n_components=3)
    assert len(script) < 16_000  # the page's row numbers, not its 77,100 values
    arrays = usps.read_usps(usps.ensure_usps())
    published = tmp_path / "published.gz"
    write_esl_file(published, arrays["X_test"], arrays["y_test"])
    downloads = []

    def fake_download(url, name):  # no network in tests: "download" the local copy
        downloads.append(url)
        (tmp_path / name).write_bytes(published.read_bytes())

    monkeypatch.setattr("urllib.request.urlretrieve", fake_download)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second run finds the file where the first put it
        result, out = run(script)
    assert downloads == [usps.DEFAULT_BASE_URL + "zip.test.gz"]

    data = datasets.load("usps", **options)
    np.testing.assert_array_equal(result["X"], data.X)
    np.testing.assert_array_equal(result["y"], data.y)
    page = analysis.analyse(data.X, data.y, kernel="rbf", kernel_params={"gamma": 0.01},
                            n_components=3)
    assert_prints_the_page(out, page, 3)


@pytest.mark.parametrize("view", VIEWS[:5], ids=[v[0] for v in VIEWS[:5]])
def test_the_script_is_bounded_by_its_packed_data(view):
    script, _, _ = view_script(view)
    packed = sum(len(line) - 6 for line in script.splitlines() if line.startswith('    "'))
    assert packed <= MAX_PACKED_CHARS
    assert len(script) - packed < 6_000  # the code a student reads stays short


def test_data_too_large_to_carry_get_a_script_that_says_what_to_do():
    script = explorer_script(dataset="circles", options={"n": 5000}, kernel="rbf",
                             kernel_params={"gamma": 5.0}, n_components=3)
    assert len(script) < 2_000
    with pytest.raises(SystemExit) as stopped:
        run(script)
    message = " ".join(str(stopped.value.code).split())
    assert "5,000 points × 2 features" in message
    assert "Lower n in the sidebar for a script (about 2," in message
    assert '"Projections (CSV)" and "Eigenvalues (CSV)" downloads' in message

    rows = "\n".join(",".join(f"{v:.17g}" for v in row)
                     for row in np.random.default_rng(0).normal(size=(400, 30)))
    script, _ = upload_script(("\n".join(f"c{j}" for j in range(30)).replace("\n", ",")
                               + "\n" + rows).encode(), label=None)
    with pytest.raises(SystemExit) as stopped:
        run(script)
    message = " ".join(str(stopped.value.code).split())
    assert "400 points × 30 features" in message and "Upload a smaller file" in message


def test_the_scripts_are_tidy_python(tmp_path):
    # What a student reads passes the project's own linter: no unused or missing names,
    # imports in order, lines of at most 100 characters.
    for i, view in enumerate(VIEWS[:5]):
        (tmp_path / f"view_{i}.py").write_text(view_script(view)[0], encoding="utf-8")
    (tmp_path / "upload.py").write_text(upload_script(b"a,b\n1,2\n2,1\n3,3\n0,1\n",
                                                      label=None)[0])
    if usps_available():
        (tmp_path / "usps_files.py").write_text(explorer_script(
            dataset="usps", options={"n": 2000, "split": "all", "seed": 0}, kernel="sigmoid",
            kernel_params={"gamma": 0.01, "coef0": 0.0}, n_components=2))
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100",
         "--select", "E,F,W,I,B,UP,NPY", "--target-version", "py311", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_without_a_network_the_usps_script_says_what_it_needs_and_where_to_put_it(tmp_path):
    # Issue 34: the downloaded script ended in a raw URLError traceback without a network.
    if not usps_available():
        pytest.skip("USPS digits not available")
    from datasets import usps

    script = explorer_script(dataset="usps", options={"split": "test", "n": 300, "seed": 4},
                             kernel="rbf", kernel_params={"gamma": 0.01}, n_components=3)
    # Nothing listens on port 9 here: the download fails at once, as without a network.
    path = tmp_path / "kpca_view.py"
    path.write_text(script.replace(usps.DEFAULT_BASE_URL, "http://127.0.0.1:9/"))
    done = subprocess.run([sys.executable, str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "This script needs the USPS file zip.test.gz and could not download it from " \
           "http://127.0.0.1:9/zip.test.gz" in done.stderr
    assert f"put it in {tmp_path} (the folder this script runs from)" in done.stderr
    assert list(tmp_path.iterdir()) == [path]  # no half-downloaded file left behind
