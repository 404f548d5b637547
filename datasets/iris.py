"""Fisher's iris flowers, from the copy bundled with scikit-learn (no download)."""

from __future__ import annotations

from sklearn.datasets import load_iris as _sklearn_load_iris

from ._types import Dataset, DatasetInfo, described, said

IRIS_INFO = DatasetInfo(
    name="iris",
    title="Iris flowers",
    summary="150 flowers, 4 measurements, 3 species: real data where linear PCA already works.",
    options=(),
    suggested_kernel={"kernel": "rbf", "gamma": 0.2},
)


def load_iris() -> Dataset:
    """Fisher's (1936) iris data: 150 × 4 measurements in cm, three species of 50."""
    bunch = _sklearn_load_iris()
    return Dataset(
        name="iris",
        X=bunch.data,
        y=bunch.target,
        target_names=tuple(str(s) for s in bunch.target_names),
        feature_names=tuple(str(f) for f in bunch.feature_names),
        **described(said(
            "Sepal and petal length and width (in cm) of 150 iris flowers, 50 from each of "
            "three species. Setosa is far from the other two, so even linear PCA separates "
            "it; versicolor and virginica overlap a little. Compare linear PCA with an RBF "
            "kernel: a moderate γ (around 0.2) gives a picture much like linear PCA, while a "
            "large γ splits the data into many small groups that no longer follow the species.",
        )),
        citation=(
            "Fisher, R. A. (1936). The use of multiple measurements in taxonomic problems. "
            "Annals of Eugenics 7(2), 179-188. Copy bundled with scikit-learn."
        ),
    )
