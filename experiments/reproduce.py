"""'Reproduce in Python': a standalone script that recomputes the current view's numbers.

A student takes the view home as one file that runs anywhere with NumPy and
scikit-learn: no clone of KPCA Lab, no ``datasets`` package (a name an unrelated,
popular package also uses). The script

* carries the page's data points exactly: the float64 values, written as the shortest
  decimals that read back to the same bits (``repr``), as a CSV table compressed with
  zlib and encoded in base64 (:func:`pack`), so that it stays small;
* standardises them as the page does, when asked;
* runs kernel PCA with ``kpca_core.KernelPCA`` if that is installed, else with
  scikit-learn's ``KernelPCA`` (the same numbers), and linear PCA for comparison;
  an indefinite kernel (sigmoid, polynomial with c0 < 0), which scikit-learn's
  ``KernelPCA`` refuses, is done step by step with NumPy instead;
* fixes each component's sign as the page does, and prints what the page's
  "Eigenvalues (CSV)" and "Projections (CSV)" downloads hold, to 6 significant digits.

Data too large to carry (more than :data:`MAX_PACKED_CHARS` packed) are not embedded:
the USPS digits are then read from their published files (downloaded by the script)
and the page's rows taken from them; any other data get a short script that says why
there is none and what to use instead (:func:`too_large_script`). The script is sent
to the browser only when its expander is opened (``ui.exports``), and never exceeds
the limit by more than its code.
"""

from __future__ import annotations

import base64
import numbers
import textwrap
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sklearn

import datasets
from datasets import usps

# The packed data a script may carry (base64 characters). The script is shown on the
# page (st.code) and so sent to the browser: 64 KB is about one chart's worth. It holds
# ~2,400 random points in the plane or ~220 USPS digits.
MAX_PACKED_CHARS = 64 * 1024
# Tables with more values than this are not packed at all: packing costs time on every
# rerun while the expander is open, and data that large would rarely fit the limit.
MAX_PACKED_VALUES = 100_000
# How many points' coordinates the script prints (the first rows of the page's CSV).
PRINTED_POINTS = 5
# Width of the base64 lines in the script.
PACKED_LINE = 76
# Class names and feature names are listed in the script only while this short.
MAX_NAMES_CHARS = 400

# Kernels whose K~ can have genuinely negative eigenvalues, which scikit-learn's
# KernelPCA refuses (a ValueError) when they are among the components.
INDEFINITE_KERNELS = ("sigmoid",)
# The kernel functions, in plain text for the script's comments.
KERNEL_FORMULAS = {
    "linear": "k(x, y) = x·y",
    "poly": "k(x, y) = (gamma x·y + coef0) ** degree",
    "rbf": "k(x, y) = exp(-gamma |x - y|²)",
    "sigmoid": "k(x, y) = tanh(gamma x·y + coef0)",
    "laplacian": "k(x, y) = exp(-gamma |x - y|₁)  (city-block distance)",
    "cosine": "k(x, y) = x·y / (|x| |y|)",
}
# What every script says about itself, after its title.
ABOUT = [
    "A standalone script: save it anywhere and run it with `python <this file>`. It needs",
    "NumPy and scikit-learn. If KPCA Lab's own library `kpca_core` is installed (`pip",
    "install .` in a clone of KPCA Lab) the script uses it, else scikit-learn's KernelPCA:",
    "both give the page's numbers. It prints what the page's CSV downloads hold:",
    "- the eigenvalues μ of the centred kernel matrix K~ (μ itself, not the paper's",
    "  λ = μ / n; values below 1e-12 μ₁ are rounding noise and may print as 0 or as another",
    "  tiny number);",
    "- the first points' coordinates on the kernel and the linear principal components,",
    "  each component's sign chosen as on the page (its largest score is positive).",
]
USPS_FILES = {"train": ("zip.train.gz",), "test": ("zip.test.gz",),
              "all": ("zip.train.gz", "zip.test.gz")}


def pack(table: np.ndarray) -> str:
    """A 2-D table as base64(zlib(CSV text)), every value written exactly.

    ``repr`` gives the shortest decimal that reads back to the same float64, so
    ``np.loadtxt`` on the unpacked text returns the very same bits; short decimals
    (measurements, the digits' grey values) stay short.
    """
    text = "\n".join(",".join(repr(float(v)) for v in row) for row in table)
    return base64.b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii")


def _packed_lines(name: str, packed: str) -> list[str]:
    lines = textwrap.wrap(packed, PACKED_LINE)
    return [f"{name} = (", *(f'    "{line}"' for line in lines), ")"]


def _literal(value: Any) -> str:
    """Python source for a value: a float exactly as the page used it (rounded for
    display it would change the numbers' last digits), a plain string in double quotes."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, numbers.Integral):  # NumPy integers too, written as plain ints
        return repr(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    text = repr(value)
    if isinstance(value, str) and text == f"'{value}'" and '"' not in value:
        return f'"{value}"'
    return text


def _comment(text: str) -> list[str]:
    return [f"# {line}" for line in textwrap.wrap(text, 86)]


def _call(start: str, args: Mapping[str, Any], first: str | None = None) -> list[str]:
    """Lines of ``start(first, key=value, …)``, each value written exactly, wrapped at 88
    columns with the arguments aligned under the first (``start`` may be indented)."""
    parts = ([first] if first else []) + [f"{k}={_literal(v)}" for k, v in args.items()]
    if not parts:
        return [f"{start}()"]
    lines, line = [], f"{start}("
    indent = " " * len(line)
    for i, part in enumerate(parts):
        part += ")" if i == len(parts) - 1 else ","
        if len(line) + 1 + len(part) > 88 and not line.endswith("("):
            lines.append(line)
            line = indent + part
        else:
            line += ("" if line.endswith("(") else " ") + part
    return [*lines, line]


def _names(values: Sequence[str]) -> str | None:
    """A tuple literal of names (repr: safe whatever the text), or None if too long."""
    text = repr(tuple(str(v) for v in values))
    return text if len(text) <= MAX_NAMES_CHARS else None


def _title(dataset: str, options: Mapping[str, Any], data: datasets.Dataset) -> str:
    n, d = data.X.shape
    if dataset == "csv":
        return f"your uploaded CSV file ({n:,} rows, {d} numeric columns)"
    if dataset not in datasets.available():  # points drawn on the Draw page
        return f"points drawn by hand ({n:,} points in the plane)"
    shown = ", ".join(f"{k} = {_literal(v)}" for k, v in sorted(options.items()))
    title = datasets.available()[dataset].title
    return f"{title} ({shown})" if shown else title


def _kernel_text(kernel: str, params: Mapping[str, Any]) -> str:
    shown = ", ".join(f"{k} = {_literal(v)}" for k, v in params.items())
    return f"{kernel} kernel" + (f" ({shown})" if shown else "")


def explorer_script(
    *,
    dataset: str,
    options: Mapping[str, Any],
    kernel: str,
    kernel_params: Mapping[str, Any],
    n_components: int,
    standardize: bool = False,
    data: datasets.Dataset | None = None,
) -> str:
    """A standalone Python script that recomputes the Explorer's projections and eigenvalues.

    Parameters
    ----------
    dataset : str
        A name of ``datasets.available()``, or ``"csv"`` for an upload.
    options : mapping
        The dataset's options, as the sidebar holds them (ignored for an upload).
    kernel, kernel_params : the kernel and the parameters it uses.
    n_components : int
        Number of kernel principal components (already valid for the data).
    standardize : bool
        Whether the inputs are scaled to mean 0 and variance 1 first.
    data : datasets.Dataset, optional
        The data the page shows (required for an upload); loaded with
        ``datasets.load(dataset, **options)`` if not given.

    Returns
    -------
    str
        A complete script, run with ``python <file>`` from any folder. It defines ``X``,
        ``y`` (None without classes), ``Z`` (kernel PCA scores), ``Z_pca`` (linear PCA
        scores) and ``eigenvalues`` (of K~), and prints the page's numbers. When the
        data are too large to carry, a short script that says so
        (:func:`too_large_script`).
    """
    if data is None:
        if dataset == "csv":
            raise ValueError("An upload's script needs its data: pass data=.")
        data = datasets.load(dataset, **options)
    n, d = data.X.shape
    title = _title_lines(_title(dataset, options, data), kernel, kernel_params, n_components)

    packed = None
    if n * (d + (data.y is not None)) <= MAX_PACKED_VALUES:
        packed = pack(data.X if data.y is None else np.column_stack([data.X, data.y]))
    if packed is not None and len(packed) <= MAX_PACKED_CHARS:
        imports, load = _embedded_data(packed, data)
        source = "The page's data are inside this file, exactly (DATA below)."
    elif dataset == "usps":  # published data: the script reads the files
        imports, load = _usps_files(dict(options))
        source = "The page's digits come from the published USPS files, downloaded once."
    else:
        return too_large_script(title, n, d, packed_chars=len(packed) if packed else None,
                                dataset=dataset)

    shown = min(PRINTED_POINTS, n)
    lines = [
        *title,
        "",
        *ABOUT,
        source,
        f"The page computed its numbers with NumPy {np.__version__} and scikit-learn "
        f"{sklearn.__version__}.",
        '"""',
        *sorted({"import base64", "import io", "import zlib", *imports},
                key=lambda line: (line.startswith("from"), line)),
        "",
        "import numpy as np",
        "from sklearn.decomposition import PCA",
        *(["from sklearn.metrics.pairwise import laplacian_kernel"]
          if kernel == "laplacian" else []),
        "",
        "",
        "def unpack(packed):",
        '    """A table packed below: base64 -> zlib -> CSV text -> the exact float64 '
        'values."""',
        "    text = zlib.decompress(base64.b64decode(packed)).decode()",
        '    return np.loadtxt(io.StringIO(text), delimiter=",", ndmin=2)',
        "",
        "",
        *load,
    ]
    if standardize:
        lines += [
            "",
            "# Standardise each feature, as the page does: mean 0, variance 1",
            "# (a constant column is only centred).",
            "std = X.std(axis=0)",
            "X = (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)",
        ]
    lines += [
        "",
        *_kernel_pca(kernel, dict(kernel_params), n_components),
        f'pca = PCA(n_components={min(n_components, n, d)}, svd_solver="full").fit(X)',
        "Z_pca = pca.transform(X)  # the page's 'Linear PCA' chart",
        "",
        "# Each component is defined up to its sign. As on the page, the largest kernel PCA",
        "# score and the largest linear PCA weight of each component are made positive.",
        "Z *= np.sign(Z[np.abs(Z).argmax(axis=0), np.arange(Z.shape[1])])",
        "weights = pca.components_",
        "Z_pca *= np.sign(weights[np.arange(len(weights)), np.abs(weights).argmax(axis=1)])",
        "",
        f'print("The {n_components} leading eigenvalues of K~ (the first {n_components} rows '
        'of the page\'s "',
        '      "Eigenvalues CSV, which holds more):")',
        "for rank, value in enumerate(eigenvalues, start=1):",
        '    print(f"{rank:>4}: {value:.6g}")',
        f'print("The first {shown} points (the page\'s Projections CSV): '
        'kernel PCA | linear PCA")',
        f"for i in range({shown}):",
        '    kpca_i, pca_i = (" ".join(f"{v:12.6g}" for v in row) for row in (Z[i], Z_pca[i]))',
        '    print(f"{i:>4}: {kpca_i}  | {pca_i}")',
    ]
    return "\n".join(lines) + "\n"


def _title_lines(title: str, kernel: str, params: Mapping[str, Any], k: int) -> list[str]:
    text = f"KPCA Lab, reproduced: {title}, {_kernel_text(kernel, params)}, {k} components."
    lines = textwrap.wrap(text, 88)
    return [f'"""{lines[0]}', *lines[1:]]


def _embedded_data(packed: str, data: datasets.Dataset) -> tuple[list[str], list[str]]:
    """The page's points, packed into the script; returns (imports, lines)."""
    n, d = data.X.shape
    names = _names(data.feature_names) if data.feature_names else None
    columns = f"the features {names}" if names else f"its {d} features"
    about = (
        f"The page's {n:,} points, exactly: one row per point, {columns}"
        + (" and then the class" if data.y is not None else "")
        + ", as CSV text, compressed and encoded to keep this file short. "
        "To see the table: print(unpack(DATA))."
    )
    load = [*_comment(about), *_packed_lines("DATA", packed), "table = unpack(DATA)"]
    if data.y is None:
        load.append("X, y = table, None  # no classes")
    else:
        load.append("X, y = table[:, :-1], table[:, -1].astype(int)")
        classes = _names(data.target_names) if data.target_names else None
        if classes:
            load.append(f"classes = {classes}  # classes[y[i]]: point i's class")
    return [], load


def _usps_files(options: dict) -> tuple[list[str], list[str]]:
    """Read the published USPS files and take the page's rows (as ``datasets.load_usps``);
    returns (modules to import, lines)."""
    split, n, seed = options["split"], options["n"], options["seed"]
    arrays = usps.read_usps(usps.ensure_usps())
    parts = ("train", "test") if split == "all" else (split,)
    y_all = np.concatenate([arrays[f"y_{part}"] for part in parts])
    rows = usps.stratified_indices(y_all, min(n, len(y_all)), seed)
    files = ", ".join(f'"{name}"' for name in USPS_FILES[split])
    load = [
        *_comment(
            f"The page's {len(rows):,} USPS digits are too many to carry in this file. They "
            "are rows of the published files on the site of Hastie, Tibshirani & Friedman's "
            'book "The Elements of Statistical Learning", downloaded once into the folder '
            "the script runs from. Each row: the digit, then 16 × 16 grey values in [-1, 1]."
        ),
        f"URL = {_literal(usps.DEFAULT_BASE_URL)}",
        "rows = []",
        f"for name in [{files}]:",
        "    if not Path(name).exists():",
        '        print(f"Downloading {URL}{name} ...")',
        "        try:",
        '            urllib.request.urlretrieve(URL + name, name + ".part")',
        "        except OSError as error:  # no network, or the site is down",
        "            raise SystemExit(",
        '                f"This script needs the USPS file {name} and could not download it "',
        '                f"from {URL}{name} ({error}). Download it with a browser, put it in "',
        '                f"{Path.cwd()} (the folder this script runs from) and run the script "',
        '                "again.") from None',
        '        Path(name + ".part").replace(name)  # a download cut short is not kept',
        '    with gzip.open(name, "rt") as file:  # [:257]: one copy has a stray extra number',
        "        rows += [[float(v) for v in line.split()[:257]] for line in file if line.strip()]",
        "table = np.array(rows)",
        *_comment(
            f"The page's rows of that table: {len(rows):,} digits, each digit as often as in "
            f"the files (seed {seed}), as a packed table of one column."
        ),
        *_packed_lines("ROWS", pack(rows[:, None])),
        "page_rows = unpack(ROWS)[:, 0].astype(int)",
        "X, y = table[page_rows, 1:], table[page_rows, 0].astype(int)",
    ]
    return ["import gzip", "import urllib.request", "from pathlib import Path"], load


def _kernel_pca(kernel: str, params: dict, k: int) -> list[str]:
    """Kernel PCA: kpca_core if installed, else scikit-learn (or NumPy, if indefinite)."""
    formula = f"# The {kernel} kernel: {KERNEL_FORMULAS[kernel]}"
    if kernel in INDEFINITE_KERNELS or (kernel == "poly" and params.get("coef0", 0.0) < 0):
        core = {"n_components": k, "kernel": kernel, **params, "eigen_solver": "dense",
                "negative_eigenvalues": "warn"}
        return [
            formula,
            "# It is not positive semi-definite: K~ can have negative eigenvalues. kpca_core",
            "# keeps them (with a warning); scikit-learn's KernelPCA refuses them, so without",
            "# kpca_core the steps are done one by one with NumPy.",
            "try:",
            "    from kpca_core import KernelPCA",
            "",
            *_call("    kpca = KernelPCA", core),
            "    Z = kpca.fit_transform(X)  # the page's 'Kernel PCA' chart",
            "    eigenvalues = kpca.eigenvalues_  # eigenvalues of K~, largest first",
            "except ImportError:",
            "    from sklearn.metrics.pairwise import pairwise_kernels",
            "    from sklearn.preprocessing import KernelCenterer",
            "",
            *_call("    K = pairwise_kernels", {"metric": kernel, **params}, "X"),
            "    K_centred = KernelCenterer().fit_transform(K)  # K~ = K - 1K - K1 + 1K1",
            "    values, vectors = np.linalg.eigh(K_centred)  # ascending",
            f"    eigenvalues, vectors = values[::-1][:{k}], vectors[:, ::-1][:, :{k}]",
            "    # Scores: eigenvector × √μ; a component with μ ≤ 0 has no real axis: 0.",
            "    Z = vectors * np.sqrt(np.clip(eigenvalues, 0.0, None))",
        ]
    args: dict[str, Any] = {"n_components": k, "kernel": kernel, **params}
    fit = "Z = kpca.fit_transform(X)"
    if kernel == "laplacian":  # scikit-learn's KernelPCA takes it precomputed
        args = {"n_components": k, "kernel": "precomputed"}
        fit = f"Z = kpca.fit_transform(laplacian_kernel(X, gamma={_literal(params['gamma'])}))"
    args["eigen_solver"] = "dense"  # LAPACK: exact, as the page
    return [
        formula,
        "try:  # KPCA Lab's own kernel PCA, if installed",
        "    from kpca_core import KernelPCA",
        "except ImportError:  # else scikit-learn's, which gives the same numbers",
        "    from sklearn.decomposition import KernelPCA",
        "",
        *_call("kpca = KernelPCA", args),
        f"{fit}  # the page's 'Kernel PCA' chart",
        "eigenvalues = kpca.eigenvalues_  # eigenvalues of K~, largest first",
    ]


def too_large_script(
    title: list[str], n: int, d: int, *, packed_chars: int | None, dataset: str
) -> str:
    """The script for data too large to carry: it says why, and what to use instead."""
    if packed_chars:
        size = f"{packed_chars / 1024:,.0f} KB packed"
        fit = n * MAX_PACKED_CHARS // packed_chars // 100 * 100
        fewer = f" (about {fit:,} points fit)" if fit else ""
    else:
        size, fewer = f"{n * d:,} values", ""
    if dataset == "csv":
        instead = "Upload a smaller file for a script"
    else:
        instead = f"Lower n in the sidebar for a script{fewer}"
    note = textwrap.wrap(
        f"No script for this view: its data ({n:,} points × {d} features, {size}) are too "
        f"many to carry inside one (the limit is {MAX_PACKED_CHARS // 1024} KB packed). "
        f"{instead}, or take the page's numbers home with its \"Projections (CSV)\" and "
        "\"Eigenvalues (CSV)\" downloads.", 88,
    )
    return "\n".join([*title, "", *note, '"""', "raise SystemExit(__doc__)"]) + "\n"
