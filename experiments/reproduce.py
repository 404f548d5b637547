"""'Reproduce in Python': a short script that recomputes the current view's numbers.

A student takes the view home as code: the same data (``datasets.load`` with the same
options, from a clone of KPCA Lab), the same standardisation, ``kpca_core.KernelPCA``
with the same kernel, and linear PCA for comparison; and, where scikit-learn's own
``KernelPCA`` can compute the same thing, that version too. The test suite executes
generated scripts and checks that their numbers equal the page's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Kernels scikit-learn's KernelPCA accepts by name with the same parameter meanings
# (scikit-learn 1.9); the Laplacian kernel goes in precomputed, from sklearn.metrics.
SKLEARN_KERNELS = ("linear", "poly", "rbf", "sigmoid", "cosine")
# Kernels that can have negative eigenvalues: kpca_core keeps them with a warning
# (negative_eigenvalues="warn"); scikit-learn raises when they are among the components.
INDEFINITE_KERNELS = ("sigmoid",)


def _literal(value: Any) -> str:
    if isinstance(value, float):
        return repr(float(f"{value:.12g}"))
    return repr(value)


def _call(name: str, args: Mapping[str, Any], positional: tuple[Any, ...] = ()) -> str:
    parts = [_literal(a) for a in positional] + [f"{k}={_literal(v)}" for k, v in args.items()]
    return f"{name}({', '.join(parts)})"


def explorer_script(
    *,
    dataset: str,
    options: Mapping[str, Any],
    kernel: str,
    kernel_params: Mapping[str, Any],
    n_components: int,
    standardize: bool = False,
    csv_name: str | None = None,
    csv_label: str | None = None,
) -> str:
    """Python source that recomputes the Explorer's projections and eigenvalues.

    Parameters
    ----------
    dataset : str
        A name of ``datasets.available()``, or ``"csv"`` for an upload (then
        ``csv_name``/``csv_label`` say which file and label column to read).
    options : mapping
        The dataset's options, as the sidebar holds them.
    kernel, kernel_params : the kernel and the parameters it uses.
    n_components : int
        Number of kernel principal components.
    standardize : bool
        Whether the inputs are scaled to mean 0 and variance 1 first.

    Returns
    -------
    str
        A complete script; running it from the repository root defines ``X``, ``y``,
        ``Z`` (kernel PCA scores), ``Z_pca`` (linear PCA scores), ``eigenvalues``, and
        ``Z_sklearn`` where scikit-learn applies.
    """
    params = dict(kernel_params)
    indefinite = kernel in INDEFINITE_KERNELS or (
        kernel == "poly" and float(params.get("coef0", 0.0)) < 0
    )
    kpca_args = {"n_components": n_components, "kernel": kernel, **params}
    if indefinite:
        kpca_args["negative_eigenvalues"] = "warn"
    if dataset == "csv":
        path = csv_name or "your_data.csv"
        label = f", label_column={csv_label!r}" if csv_label else ""
        load = (
            f'with open({path!r}, "rb") as file:  # the file you uploaded\n'
            f"    data = datasets.load_csv(file.read(){label})"
        )
        title = f"your CSV file {path}"
    else:
        load = f"data = {_call('datasets.load', dict(sorted(options.items())), (dataset,))}"
        title = dataset
    shown = ", ".join(f"{k} = {_literal(v)}" for k, v in params.items())
    lines = [
        f'"""KPCA Lab, reproduced: {title}, {kernel} kernel'
        + (f" ({shown})" if shown else "")
        + f', {n_components} components.',
        "",
        "Run it from the root of a KPCA Lab clone (it uses the app's `datasets` package).",
        '"""',
        "import numpy as np",
        "from sklearn.decomposition import PCA",
        "",
        "import datasets",
        "from kpca_core import KernelPCA",
        "",
        load,
        "X, y = data.X, data.y",
    ]
    if standardize:
        lines += [
            "# Standardise each input feature: mean 0, variance 1 (constant columns only centred).",
            "std = X.std(axis=0)",
            "X = (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)",
        ]
    lines += [
        "",
        f"kpca = {_call('KernelPCA', kpca_args)}",
        "Z = kpca.fit_transform(X)  # the 'Kernel PCA' chart",
        "eigenvalues = kpca.eigenvalues_  # eigenvalues of the centred kernel matrix K~",
        "Z_pca = PCA(n_components=min(X.shape[1], "
        f"{n_components})).fit_transform(X)  # the 'Linear PCA' chart",
        "",
        'print("eigenvalues of K~:", np.round(eigenvalues, 6))',
        'print("explained variance ratio:", np.round(kpca.explained_variance_ratio_, 4))',
        'print("first points in kernel PCA coordinates:")',
        "print(np.round(Z[:5], 4))",
    ]
    if kernel in SKLEARN_KERNELS and not indefinite:
        sk_args = {"n_components": n_components, "kernel": kernel, **params}
        lines += [
            "",
            "# The same with scikit-learn's KernelPCA: equal up to the sign of each component.",
            "from sklearn.decomposition import KernelPCA as SklearnKernelPCA",
            "",
            f"Z_sklearn = {_call('SklearnKernelPCA', sk_args)}.fit_transform(X)",
            "signs = np.where((Z * Z_sklearn).sum(axis=0) < 0, -1.0, 1.0)  # align each axis",
            "print(\"largest difference to scikit-learn:\", np.abs(Z - Z_sklearn * signs).max())",
        ]
    elif kernel == "laplacian":
        lines += [
            "",
            "# The same with scikit-learn: its KernelPCA takes the Laplacian kernel precomputed.",
            "from sklearn.decomposition import KernelPCA as SklearnKernelPCA",
            "from sklearn.metrics.pairwise import laplacian_kernel",
            "",
            f"K = laplacian_kernel(X, gamma={_literal(params['gamma'])})",
            f"Z_sklearn = SklearnKernelPCA(n_components={n_components}, "
            'kernel="precomputed").fit_transform(K)',
            "signs = np.where((Z * Z_sklearn).sum(axis=0) < 0, -1.0, 1.0)  # align each axis",
            "print(\"largest difference to scikit-learn:\", np.abs(Z - Z_sklearn * signs).max())",
        ]
    elif indefinite:
        lines += [
            "",
            f"# scikit-learn's KernelPCA raises a ValueError for the {kernel} kernel here when",
            "# negative eigenvalues are among the components; kpca_core keeps them with a warning.",
        ]
    return "\n".join(lines) + "\n"
