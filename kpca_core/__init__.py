"""kpca_core: kernel PCA in small, exact steps (NumPy/SciPy, no UI).

The steps, in the order of the algorithm (Schölkopf, Smola & Müller, 1998):

1. :func:`compute_kernel` builds K[i, j] = k(x_i, x_j).
2. :func:`center_kernel` centres it in feature space: K~ = K - 1K - K1 + 1K1.
3. :func:`eigendecompose` finds the leading eigenpairs (mu, v) of K~ (mu = n lambda,
   lambda the paper's eigenvalue).
4. :func:`scale_eigenvectors` turns them into unit-length feature-space axes,
   alpha = v / sqrt(mu); :func:`project_new_points` gives K~_x alpha and
   :func:`project_training_points` the training coordinates sqrt(mu) v.

:class:`KernelPCA` runs them behind scikit-learn's estimator API.
"""

# The package's version; pyproject.toml reads it from here (the single source).
__version__ = "0.1.0"

from .centering import (
    KernelCentering,
    center_kernel,
    center_kernel_textbook,
    center_test_kernel,
)
from .eigen import (
    EIGEN_SOLVERS,
    DegenerateSpectrumError,
    Eigendecomposition,
    IndefiniteKernelWarning,
    SolverFallbackWarning,
    SpectrumReport,
    choose_eigen_solver,
    clean_eigenvalues,
    describe_spectrum,
    eigendecompose,
    explained_variance_ratio,
    flip_signs,
    kernel_spectrum,
    project_new_points,
    project_training_points,
    scale_eigenvectors,
)
from .estimator import PREIMAGE_METHODS, KernelPCA
from .kernels import (
    KERNELS,
    KernelInfo,
    compute_kernel,
    default_gamma,
    median_heuristic_gamma,
    squared_euclidean_distances,
)
from .preimage import (
    feature_space_coefficients,
    feature_space_sq_distances,
    fixed_point_preimage,
    kwok_tsang_preimage,
)

__all__ = [
    "EIGEN_SOLVERS",
    "KERNELS",
    "PREIMAGE_METHODS",
    "DegenerateSpectrumError",
    "Eigendecomposition",
    "IndefiniteKernelWarning",
    "KernelCentering",
    "KernelInfo",
    "KernelPCA",
    "SolverFallbackWarning",
    "SpectrumReport",
    "center_kernel",
    "center_kernel_textbook",
    "center_test_kernel",
    "choose_eigen_solver",
    "clean_eigenvalues",
    "compute_kernel",
    "default_gamma",
    "describe_spectrum",
    "eigendecompose",
    "explained_variance_ratio",
    "feature_space_coefficients",
    "feature_space_sq_distances",
    "fixed_point_preimage",
    "flip_signs",
    "kernel_spectrum",
    "kwok_tsang_preimage",
    "median_heuristic_gamma",
    "project_new_points",
    "project_training_points",
    "scale_eigenvectors",
    "squared_euclidean_distances",
]
