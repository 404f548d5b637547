"""``KernelPCA``: the steps of this package behind scikit-learn's estimator API."""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from scipy import linalg, sparse
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils.validation import FLOAT_DTYPES, check_is_fitted, validate_data

from ._validation import (
    SYMMETRY_RTOL,
    asymmetry,
    check_choice,
    check_data,
    check_degree,
    check_finite_real,
    check_n_components,
    check_positive_real,
    check_square,
    symmetrize_in_place,
)
from .centering import KernelCentering, center_kernel, center_test_kernel
from .eigen import (
    EIGEN_SOLVERS,
    DegenerateSpectrumError,
    IndefiniteKernelWarning,
    clean_eigenvalues,
    eigendecompose,
    explained_variance_ratio,
    project_new_points,
    project_training_points,
    scale_eigenvectors,
)
from .kernels import KERNELS, compute_kernel
from .preimage import (
    feature_space_coefficients,
    feature_space_sq_distances,
    fixed_point_preimage,
    kwok_tsang_preimage,
)

__all__ = ["KernelPCA"]

PREIMAGE_METHODS = ("learned", "fixed_point", "kwok_tsang")
# Every key preimage_params accepts (whatever the method, so that switching
# ``preimage`` with set_params keeps a valid model), with its default.
PREIMAGE_DEFAULTS = {"n_neighbors": 10, "max_iter": 100, "tol": 1e-8}


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Kernel principal component analysis (Schölkopf, Smola & Müller, 1998).

    A drop-in replacement for :class:`sklearn.decomposition.KernelPCA`: the same
    constructor parameters with the same meanings, the same fitted attributes and
    the same outputs (to rounding error, up to the sign of each component). It adds
    what teaching needs: the ``"laplacian"`` and ``"cosine"`` kernels by name,
    ``explained_variance_ratio_``, a faster ``eigen_solver="auto"`` rule, an opt-in
    warning instead of scikit-learn's error for indefinite kernels
    (``negative_eigenvalues="warn"``), and three pre-image methods.

    Deliberate differences, all errors or warnings where scikit-learn would go on
    silently: ``n_components > n_samples``, a used gamma <= 0 and a fractional
    degree raise; a precomputed kernel is symmetrised ((K + K^T) / 2, with a
    warning beyond rounding) so that every solver decomposes the same matrix; the
    randomized solver raises instead of returning negative eigenvalues as leading
    ones; no array of the caller's is ever written into (scikit-learn centres a
    precomputed kernel in place when ``copy_X=False``). Input is validated by
    scikit-learn's own ``validate_data`` (same messages); CSR/CSC input is accepted
    wherever scikit-learn accepts it; float32 input gives float32 output.

    Parameters
    ----------
    n_components : int, optional
        Number of components, 1 <= n_components <= n_samples. ``None`` keeps every
        component with a positive eigenvalue. (scikit-learn silently clips values
        above n_samples; here that is an error, because it is always a mistake.)
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", \
"precomputed"} or callable, default "linear"
    gamma : float > 0, optional
        Kernel width for poly, rbf, sigmoid and laplacian; ``None`` means 1 / n_features.
    degree : int >= 1, default 3
    coef0 : float, default 1
    kernel_params : dict, optional
        Keyword arguments of a callable kernel.
    alpha : float >= 0, default 1.0
        Ridge penalty of the learned pre-image map (``fit_inverse_transform=True``).
    fit_inverse_transform : bool, default False
        Learn the kernel ridge pre-image map (needed by ``preimage="learned"``).
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default "auto"
        See :func:`~kpca_core.eigendecompose`; "auto" follows
        :func:`~kpca_core.choose_eigen_solver`.
    tol, max_iter : ARPACK's tolerance and iteration limit. Reaching ``max_iter``
        raises ``scipy.sparse.linalg.ArpackNoConvergence``, as in scikit-learn. With
        ``eigen_solver="auto"`` and ``max_iter=None``, ARPACK that does not converge
        within about two dense solves' work hands over to LAPACK instead (a
        ``SolverFallbackWarning``; see :func:`~kpca_core.eigendecompose`).
    iterated_power : int >= 0 or "auto"
        Power iterations of the randomized solver.
    remove_zero_eig : bool, default False
        Drop components whose eigenvalue is zero (or negative).
    random_state : int, RandomState or None
        ``None`` draws from NumPy's global generator; an integer gives ARPACK the
        same start vector as scikit-learn.
    copy_X : bool, default True
        Keep a copy of X in ``X_fit_`` rather than a reference (see :meth:`fit` for
        a precomputed kernel).
    n_jobs : None
        Accepted for compatibility; BLAS already uses every core for the kernel.
    preimage : {"learned", "fixed_point", "kwok_tsang"}, default "learned"
        How ``inverse_transform`` finds pre-images. "learned" is scikit-learn's kernel
        ridge map; the other two work for the RBF kernel only. Checked at fit and
        again at ``inverse_transform`` (``set_params`` may change it in between).
    preimage_params : dict, optional
        ``n_neighbors`` (Kwok-Tsang, default 10, at most the number of training
        points), ``max_iter`` (fixed point, default 100) and ``tol`` (fixed point,
        default 1e-8). Any other key is an error.
    negative_eigenvalues : {"raise", "warn"}, default "raise"
        What to do when significantly negative eigenvalues are among the requested
        components (an indefinite kernel such as the sigmoid). "raise" is
        scikit-learn's behaviour (a ``ValueError``). "warn" is for teaching: keep
        the values in ``eigenvalues_``, issue an :class:`IndefiniteKernelWarning`,
        and project onto those components as 0 (they have no real feature-space axis).

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components,)
        Eigenvalues of the centred kernel matrix, descending. A genuinely negative
        value (indefinite kernel) is kept and reported by a warning.
    eigenvectors_ : ndarray of shape (n_samples, n_components)
        Unit-norm eigenvectors of the centred kernel matrix.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        eigenvalues_ / trace(K~).
    eigen_solver_ : str
        The solver actually used.
    X_fit_ : ndarray of shape (n_samples, n_features)
    gamma_ : float
    n_features_in_ : int
    dual_coef_, X_transformed_fit_ : the learned pre-image map, when fitted.
    """

    def __init__(
        self,
        n_components=None,
        *,
        kernel="linear",
        gamma=None,
        degree=3,
        coef0=1,
        kernel_params=None,
        alpha=1.0,
        fit_inverse_transform=False,
        eigen_solver="auto",
        tol=0,
        max_iter=None,
        iterated_power="auto",
        remove_zero_eig=False,
        random_state=None,
        copy_X=True,
        n_jobs=None,
        preimage="learned",
        preimage_params=None,
        negative_eigenvalues="raise",
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.remove_zero_eig = remove_zero_eig
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_jobs = n_jobs
        self.preimage = preimage
        self.preimage_params = preimage_params
        self.negative_eigenvalues = negative_eigenvalues

    # -- validation -----------------------------------------------------------------

    def _check_params(self) -> None:
        """Check every constructor parameter, naming it and its allowed range.

        Parameters a kernel does not use are still checked as scikit-learn checks
        them (gamma >= 0, degree >= 0, coef0 real); the ones it uses must also make
        sense for it (gamma > 0, degree a whole number >= 1).
        """
        if self.n_components is not None and (
            isinstance(self.n_components, bool) or not isinstance(self.n_components, Integral)
            or self.n_components < 1
        ):
            raise ValueError(
                f"n_components must be None or a whole number >= 1; got {self.n_components!r}."
            )
        if not callable(self.kernel):
            check_choice(self.kernel, "kernel", (*KERNELS, "precomputed"))
        uses = KERNELS[self.kernel].params if self.kernel in KERNELS else ()
        if self.gamma is not None:
            if "gamma" in uses:
                check_positive_real(self.gamma, "gamma")
            elif check_finite_real(self.gamma, "gamma") < 0:
                raise ValueError(f"gamma must be >= 0 or None; got {self.gamma!r}.")
        if "degree" in uses:
            check_degree(self.degree)
        elif check_finite_real(self.degree, "degree") < 0:
            raise ValueError(f"degree must be >= 0; got {self.degree!r}.")
        check_finite_real(self.coef0, "coef0")
        if self.kernel_params is not None and not isinstance(self.kernel_params, dict):
            raise ValueError(f"kernel_params must be a dict or None; got {self.kernel_params!r}.")
        if check_finite_real(self.alpha, "alpha") < 0:
            raise ValueError(f"alpha must be >= 0; got {self.alpha!r}.")
        check_choice(self.eigen_solver, "eigen_solver", EIGEN_SOLVERS)
        if check_finite_real(self.tol, "tol") < 0:
            raise ValueError(f"tol must be >= 0; got {self.tol!r}.")
        if self.max_iter is not None and (
            isinstance(self.max_iter, bool) or not isinstance(self.max_iter, Integral)
            or self.max_iter < 1
        ):
            raise ValueError(f"max_iter must be None or an integer >= 1; got {self.max_iter!r}.")
        if self.iterated_power != "auto" and (
            isinstance(self.iterated_power, bool)
            or not isinstance(self.iterated_power, Integral) or self.iterated_power < 0
        ):
            raise ValueError(
                f"iterated_power must be 'auto' or an integer >= 0; got {self.iterated_power!r}."
            )
        check_choice(self.negative_eigenvalues, "negative_eigenvalues", ("raise", "warn"))
        if self.fit_inverse_transform and self.kernel == "precomputed":
            raise ValueError("Cannot fit_inverse_transform with a precomputed kernel.")
        self._check_preimage_params()

    def _check_preimage_params(self, n_train: int | None = None) -> dict:
        """``preimage`` and ``preimage_params``, checked at fit and again at inverse time
        (``set_params`` may change them in between); returns the params with defaults."""
        check_choice(self.preimage, "preimage", PREIMAGE_METHODS)
        if self.preimage != "learned" and self.kernel != "rbf":
            raise ValueError(
                f"preimage={self.preimage!r} is derived for the RBF kernel only; use "
                "kernel='rbf' or preimage='learned'."
            )
        given = self.preimage_params or {}
        if not isinstance(given, dict):
            raise ValueError(f"preimage_params must be a dict or None; got {given!r}.")
        unknown = sorted(set(given) - set(PREIMAGE_DEFAULTS))
        if unknown:
            allowed = ", ".join(repr(key) for key in PREIMAGE_DEFAULTS)
            raise ValueError(
                f"Unknown preimage_params key(s) {', '.join(map(repr, unknown))}; "
                f"allowed: {allowed}."
            )
        params = {**PREIMAGE_DEFAULTS, **given}
        whole = {"n_neighbors": 2, "max_iter": 1}
        for key, lowest in whole.items():
            value = params[key]
            if isinstance(value, bool) or not isinstance(value, Integral) or value < lowest:
                raise ValueError(
                    f"preimage_params[{key!r}] must be a whole number >= {lowest}; "
                    f"got {value!r}."
                )
        if check_finite_real(params["tol"], "preimage_params['tol']") < 0:
            raise ValueError(f"preimage_params['tol'] must be >= 0; got {params['tol']!r}.")
        if self.preimage == "kwok_tsang" and n_train is not None and (
            params["n_neighbors"] > n_train
        ):
            raise ValueError(
                f"preimage_params['n_neighbors'] = {params['n_neighbors']} is larger than "
                f"the number of training points ({n_train}); Kwok-Tsang needs at most "
                "that many neighbours."
            )
        return params

    # -- the steps ------------------------------------------------------------------

    def _get_kernel(self, X, Y=None) -> np.ndarray:
        return compute_kernel(
            X, Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree,
            coef0=self.coef0, kernel_params=self.kernel_params,
        )

    def _fit_transform_in_place(self, K: np.ndarray, *, overwrite: bool = True) -> None:
        """Centre K in place and keep its leading eigenpairs.

        With ``overwrite`` the dense eigensolver may also use K as its workspace,
        so that a fit never holds more than this one n x n matrix.
        """
        n_samples = K.shape[0]
        if self.n_components is None:
            n_components = n_samples
        else:
            n_components = check_n_components(self.n_components, n_samples)
        self._centering = KernelCentering.fit(K)
        K = center_kernel(K, copy=False, centering=self._centering)  # checks finiteness
        total_variance = float(np.trace(K))
        eig = eigendecompose(
            K, n_components, solver=self.eigen_solver, tol=self.tol, max_iter=self.max_iter,
            iterated_power=self.iterated_power, random_state=self.random_state,
            overwrite=overwrite, check_finite=False, check_symmetry=False,
        )
        eigenvalues, negative = clean_eigenvalues(eig.eigenvalues)
        eigenvectors = eig.eigenvectors
        if negative.any() and self.negative_eigenvalues == "raise":
            raise ValueError(
                "There are significant negative eigenvalues "
                f"({-eigenvalues[negative].min() / max(eigenvalues.max(), 1e-300):.3g} of the "
                "maximum positive). Either the matrix is not PSD, or there was an issue "
                "while computing the eigendecomposition of the matrix. (kpca_core: pass "
                "negative_eigenvalues='warn' to keep them, with a warning, and project "
                "onto those components as 0.)"
            )
        if negative.any():
            warnings.warn(
                f"The centred kernel matrix has {negative.sum()} significantly negative "
                f"eigenvalue(s) among the {n_components} computed (smallest "
                f"{eigenvalues[negative].min():.3g}): the {self.kernel!r} kernel is not "
                "positive semi-definite for these data, so those components have no "
                "real feature-space axis and project to 0.",
                IndefiniteKernelWarning,
                stacklevel=3,
            )
        if self.remove_zero_eig or self.n_components is None:
            keep = eigenvalues > 0
            eigenvalues, eigenvectors = eigenvalues[keep], eigenvectors[:, keep]
        self.eigenvalues_ = eigenvalues
        self.eigenvectors_ = eigenvectors
        self.eigen_solver_ = eig.solver
        self.explained_variance_ratio_ = explained_variance_ratio(eigenvalues, total_variance)

    def _precomputed_training_kernel(self, K) -> np.ndarray:
        """A private float64 copy of a precomputed kernel, made exactly symmetric.

        Every solver then decomposes the same matrix, (K + K^T) / 2 (the nearest
        symmetric one); LAPACK reads one triangle and ARPACK all of K, so without this
        a slightly asymmetric K would give answers that depend on the solver. An
        asymmetry beyond rounding is not a kernel matrix: it is used, with a warning.
        """
        K = check_square(np.array(K, dtype=np.float64, order="C"), name="X")
        worst, largest = asymmetry(K)
        if worst > SYMMETRY_RTOL * largest:
            warnings.warn(
                f"The precomputed kernel is not symmetric: max |K - K^T| = {worst:.3g} "
                f"(largest entry {largest:.3g}). Using its symmetric part (K + K^T) / 2.",
                UserWarning,
                stacklevel=3,
            )
        symmetrize_in_place(K)
        return K

    def _training_projections(self) -> np.ndarray:
        return project_training_points(self.eigenvectors_, self.eigenvalues_)

    def _fit_inverse_transform(self, X_transformed: np.ndarray, X) -> None:
        """Kernel ridge regression from projections back to inputs (Bakır et al. 2004)."""
        if sparse.issparse(X):
            raise NotImplementedError("Inverse transform not implemented for sparse matrices!")
        K = self._get_kernel(X_transformed)
        K.flat[:: K.shape[0] + 1] += self.alpha
        self.dual_coef_ = linalg.solve(K, X, assume_a="pos", overwrite_a=True)
        self.X_transformed_fit_ = X_transformed

    def _as_fit_dtype(self, Z: np.ndarray) -> np.ndarray:
        # Computed in float64 throughout; returned in float32 when fitted on float32,
        # as scikit-learn's KernelPCA (which computes in float32) does.
        return Z.astype(self._fit_dtype, copy=False)

    # -- public API -----------------------------------------------------------------

    def fit(self, X, y=None):
        """Fit the model from data in X (or from a precomputed kernel matrix).

        The caller's array is never written into. With ``kernel="precomputed"``,
        ``X_fit_`` holds the centred (symmetrised) kernel as in scikit-learn when
        ``copy_X=True``; with ``copy_X=False`` it is a reference to the caller's
        matrix, left as it was (scikit-learn centres that matrix in place).

        Parameters
        ----------
        X : {array-like, sparse matrix (CSR/CSC)} of shape (n_samples, n_features), or
            an array of shape (n_samples, n_samples) when ``kernel="precomputed"``.
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        if self.kernel == "precomputed":
            X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=True)
            self._fit_dtype = X.dtype
            self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else float(self.gamma)
            K = self._precomputed_training_kernel(X)
            # With copy_X the centred K is kept, so LAPACK must not use it as scratch.
            try:
                self._fit_transform_in_place(K, overwrite=not self.copy_X)
            except DegenerateSpectrumError:  # see below; only possible with overwrite
                K = self._precomputed_training_kernel(X)
                self._fit_transform_in_place(K, overwrite=False)
            self.X_fit_ = K if self.copy_X else X
            return self

        X = validate_data(self, X, accept_sparse="csr", dtype=FLOAT_DTYPES, copy=self.copy_X,
                          reset=True)
        self._fit_dtype = X.dtype
        self._check_preimage_params(n_train=X.shape[0])
        self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else float(self.gamma)
        try:
            self._fit_transform_in_place(self._get_kernel(X))
        except DegenerateSpectrumError:
            # Rare (exactly repeated leading eigenvalues): rebuild K, let the
            # solver keep it and fall back to the full decomposition.
            self._fit_transform_in_place(self._get_kernel(X), overwrite=False)
        if self.fit_inverse_transform:
            self._fit_inverse_transform(self._training_projections(), X)
        self.X_fit_ = X
        return self

    def fit_transform(self, X, y=None, **params):
        """Fit, then return the training points' projections sqrt(mu) v (no kernel needed)."""
        self.fit(X, **params)
        return self._as_fit_dtype(self._training_projections())

    def transform(self, X):
        """Project new points: K~_t alpha, with K_t centred by the training statistics.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_points, n_features), or an array
            of shape (n_points, n_samples_fit) when ``kernel="precomputed"`` (it is
            not modified).

        Returns
        -------
        X_new : ndarray of shape (n_points, n_components)
        """
        check_is_fitted(self)
        if self.kernel == "precomputed":
            X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
            # Centred below in place: on a copy, never on the caller's matrix.
            K_test = np.array(X, dtype=np.float64, order="C", copy=True)
        else:
            X = validate_data(self, X, accept_sparse="csr", dtype=FLOAT_DTYPES, reset=False)
            K_test = self._get_kernel(X, self.X_fit_)
        K_test = center_test_kernel(K_test, self._centering, copy=False)
        return self._as_fit_dtype(project_new_points(K_test, self.eigenvectors_,
                                                     self.eigenvalues_))

    def inverse_transform(self, X, *, init=None, return_converged=False):
        """Map projections back to input space with the chosen pre-image method.

        Parameters
        ----------
        X : array-like of shape (n_points, n_components)
            Projections, e.g. from :meth:`transform`.
        init : array-like of shape (n_points, n_features), optional
            Starting points of the fixed-point iteration (for de-noising, the noisy
            inputs). Default: the training point nearest in feature space.
        return_converged : bool, default False
            Also return which points' pre-image converged. Only the fixed-point
            method can fail (it then warns with a ``ConvergenceWarning`` giving the
            fraction of points); the other two are closed-form and report all True.

        Returns
        -------
        X_original : ndarray of shape (n_points, n_features)
        converged : ndarray of bool, shape (n_points,)
            Only with ``return_converged=True``.

        Raises
        ------
        NotImplementedError
            When fitted on a sparse matrix, as scikit-learn raises (at fit time there
            for the learned map).
        """
        check_is_fitted(self)
        params = self._check_preimage_params(n_train=self.X_fit_.shape[0])
        if self.preimage == "learned" and not self.fit_inverse_transform:
            raise NotFittedError(
                "The fit_inverse_transform parameter was not set to True when "
                "instantiating and hence the inverse transform is not available."
            )
        if sparse.issparse(self.X_fit_):
            raise NotImplementedError("Inverse transform not implemented for sparse matrices!")
        projections = check_data(X.toarray() if sparse.issparse(X) else X, name="X")
        n_components = self.eigenvalues_.shape[0]
        if projections.shape[1] != n_components:
            raise ValueError(
                f"X has {projections.shape[1]} columns but the model has {n_components} "
                "components; pass projections from transform()."
            )
        converged = np.ones(projections.shape[0], dtype=bool)
        if self.preimage == "learned":
            Z = self._get_kernel(projections, self.X_transformed_fit_) @ self.dual_coef_
        else:
            Z, converged = self._rbf_preimage(projections, init, params)
        Z = self._as_fit_dtype(Z)
        return (Z, converged) if return_converged else Z

    def _rbf_preimage(self, projections, init, params) -> tuple[np.ndarray, np.ndarray]:
        """The fixed-point or Kwok-Tsang pre-image, and which points converged."""
        train_projections = self._training_projections()
        # ||phi~(x_i)||^2 = K~_ii = k(x_i, x_i) - 2 colmean_i + grand mean; k(x, x) = 1 (RBF).
        train_sq_norms = 1.0 - 2.0 * self._centering.column_means + self._centering.grand_mean
        sq_distances = feature_space_sq_distances(
            projections, train_projections, train_sq_norms
        )
        if self.preimage == "kwok_tsang":
            Z = kwok_tsang_preimage(sq_distances, self.X_fit_, self.gamma_,
                                    n_neighbors=params["n_neighbors"])
            return Z, np.ones(Z.shape[0], dtype=bool)
        if init is None:
            init = self.X_fit_[np.argmin(sq_distances, axis=1)]
        else:
            init = check_data(init, name="init")
            if init.shape != (projections.shape[0], self.X_fit_.shape[1]):
                raise ValueError(
                    f"init must have shape {(projections.shape[0], self.X_fit_.shape[1])}; "
                    f"got {init.shape}."
                )
        coefs = feature_space_coefficients(
            projections, scale_eigenvectors(self.eigenvectors_, self.eigenvalues_)
        )
        Z, converged = fixed_point_preimage(
            coefs, self.X_fit_, self.gamma_, init, max_iter=params["max_iter"],
            tol=params["tol"],
        )
        if not converged.all():
            n_failed = int((~converged).sum())
            warnings.warn(
                f"The fixed-point pre-image did not converge for {n_failed} of "
                f"{converged.size} points ({n_failed / converged.size:.1%}) within "
                f"max_iter={params['max_iter']} (or its denominator vanished far from "
                "every training point); they keep their last position. Raise "
                "preimage_params['max_iter'], start from better init points, or use "
                "inverse_transform(..., return_converged=True) to see which.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return Z, converged

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Sparse X is accepted, except for a precomputed kernel (refused with
        # TypeError, as scikit-learn's centerer refuses it). The learned pre-image map
        # raises NotImplementedError on sparse X, exactly as scikit-learn's does.
        tags.input_tags.sparse = self.kernel != "precomputed"
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    @property
    def _n_features_out(self) -> int:
        return self.eigenvalues_.shape[0]
