"""What each kind of work costs on this server: the estimates behind the queue's waits.

A page that asks the server's queue for a turn (:func:`server.admission.queued`) says how
long its work should take, so that the queue can put it in the right lane and tell the
students behind it how long they will wait. Each kind of work is a sum of a few
operations, each with its own law in n:

=====================  ==================================  =====================
operation              what runs                           model
=====================  ==================================  =====================
kernel matrix          ``compute_kernel`` (rows × cols)    rows·cols·(a d + b)
pass over n × n        centring, norms, block averages     c n² per pass
all eigenvalues        LAPACK ``syevd`` (``eigvalsh``)     e n³
leading eigenpairs     LAPACK ``syevr`` (a subset)         f n³
solve                  Cholesky (``solve``, pos. def.)      s n³ + products
ARPACK                 Lanczos: products with K̃            ≥ g n² × ncv products
thin SVD               LAPACK ``gesdd`` of rows × cols     t min² max
monomials              φ(X) of a polynomial kernel         p rows·cols·d
parse a CSV            ``datasets.load_csv``               h × bytes
=====================  ==================================  =====================

The coefficients are medians measured on the development machine, a 2-core host shared
with other work (load average about 10; ``python benchmarks/calibrate_costs.py`` measures
them again and checks every model against the real computation). ARPACK's number of
products depends on the spectrum: its estimate is a lower bound (the ``ncv`` products of
its first restart), and says so (:attr:`Estimate.at_least`); so is any estimate whose
caller cannot bound its work (a fixed-point iteration that may converge early or late).

Estimates decide lanes and what a waiting student reads, never whether work may run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kpca_core import choose_eigen_solver
from words.i18n import _, format_number


@dataclass(frozen=True)
class Estimate:
    """Seconds a piece of work should take; a lower bound when ``at_least``."""

    seconds: float
    at_least: bool = False

    def __add__(self, other: Estimate) -> Estimate:
        return Estimate(self.seconds + other.seconds, self.at_least or other.at_least)

    def __mul__(self, times: float) -> Estimate:
        return Estimate(self.seconds * times, self.at_least)

    __rmul__ = __mul__

    def lower_bound(self) -> Estimate:
        """The same seconds, as a lower bound (for work whose length is not known)."""
        return Estimate(self.seconds, True)


NOTHING = Estimate(0.0)

# Seconds per unit of work, measured by benchmarks/calibrate_costs.py on the development
# machine (2 cores shared with other work, load average 5-10, BLAS with its own threads;
# medians, rounded). Under such load LAPACK's times vary threefold from run to run: the
# eigensolver coefficients are taken from the upper half of what was seen, so that waits
# are not promised too short; ARPACK's is a lower bound, as its estimate says.
KERNEL_PER_FLOP = 3.3e-11  # per rows·cols·d: the distance products
KERNEL_PER_ENTRY = 2.2e-8  # per rows·cols: exp and the writes
PASS_PER_ENTRY = 1.8e-9  # per n² entry of one pass (centring, a norm, a block average)
EIGVALS_PER_N3 = 5e-11  # all eigenvalues (syevd): 0.23 s at n = 2,000
LEADING_PER_N3 = 2.5e-10  # the leading k eigenpairs (syevr with a subset): 1-4.5 s at 2,000
SOLVE_PER_N3 = 1e-10  # a positive definite solve (Cholesky): not measured, 1/3 of syevr's flops
MATVEC_PER_ENTRY = 4e-10  # one product K̃ v inside ARPACK, per n² entry (a lower bound)
PARSE_PER_BYTE = 4.8e-8  # datasets.load_csv, per byte of the file
# Measured by hand (the kernel trick's explicit map; medians of 5, load average about 1):
# PCA's full SVD and transform of 150 × 33,153 and 300 × 1,891 (φ of 256-D and 60-D
# inputs): 4.3e-9 and 5.5e-9 per min²·max; the monomials of 150 × 256 inputs (33,153
# columns, one product in floats and one in integers): 7.6e-10 per rows·columns·d.
SVD_PER_OP = 5.5e-9
MONOMIAL_PER_OP = 1e-9
# γ in motion (experiments.morph.gamma_motion), per frame: a fit of its tracked components
# (K, centred, ARPACK), a 5-fold cross-validated logistic regression on the frame's two
# columns (scikit-learn's fixed costs, ~0.13 s whatever n up to a few thousand, and more
# for each class beyond two) and, up to 400 points, K̃ as a heatmap. Measured as a whole
# (calibrate_costs.py: the motion of two circles at n = 200 and 600, BLAS on one thread as
# the motion runs; load average 10) and fitted as a + b n² a frame, plus the classes'
# share measured on the logistic regression alone (2 against 10 classes). Issue 34 found
# the motion queued as 0.1 s of work for its 4-16 s.
MOTION_FRAME_SECONDS = 0.13
MOTION_FRAME_PER_ENTRY = 1.7e-7
MOTION_PER_CLASS = 0.013  # per frame, each class beyond two


def kernel_matrix(rows: int, cols: int, d: int) -> Estimate:
    """Build a rows × cols kernel matrix of d-dimensional points."""
    return Estimate(rows * cols * (KERNEL_PER_FLOP * d + KERNEL_PER_ENTRY))


def matrix_product(rows: int, inner: int, cols: int) -> Estimate:
    """A (rows × inner) @ (inner × cols) product (BLAS 3, like the kernel's distances)."""
    return Estimate(KERNEL_PER_FLOP * rows * inner * cols)


def passes(n: int, count: float = 1.0) -> Estimate:
    """``count`` passes over an n × n matrix (centring, norms, heatmap averages)."""
    return Estimate(PASS_PER_ENTRY * count * n * n)


def all_eigenvalues(n: int) -> Estimate:
    return Estimate(EIGVALS_PER_N3 * n**3)


def leading_dense(n: int) -> Estimate:
    """The leading eigenpairs of an n × n matrix by LAPACK (any small k costs about this)."""
    return Estimate(LEADING_PER_N3 * n**3)


def solve_dense(n: int, rhs: int) -> Estimate:
    """Solve an n × n symmetric positive definite system for ``rhs`` right-hand sides."""
    return Estimate(SOLVE_PER_N3 * n**3) + matrix_product(n, n, rhs)


def arpack_ncv(n: int, k: int) -> int:
    """Lanczos vectors ARPACK keeps (``scipy.sparse.linalg.eigsh``'s default)."""
    return min(n, max(2 * k + 1, 20))


def leading_arpack(n: int, k: int) -> Estimate:
    """ARPACK's leading k: at least its first ``ncv`` products with K̃ (how many restarts
    follow depends on the spectrum)."""
    return Estimate(MATVEC_PER_ENTRY * arpack_ncv(n, k) * n * n, at_least=True)


def leading(n: int, k: int, solver: str = "auto") -> Estimate:
    """The leading k eigenpairs of an n × n matrix with kpca_core's ``solver`` ("auto":
    what :func:`kpca_core.choose_eigen_solver` picks). The randomized solver multiplies
    by k + 10 columns about 16 times (7 power iterations of two products, the sketch,
    the projection)."""
    if solver == "auto":
        solver = choose_eigen_solver(n, k)
    if solver == "dense":
        return leading_dense(n)
    if solver == "randomized":
        return matrix_product(n, n, 16 * (k + 10))
    return leading_arpack(n, k)


def kernel_pca(n: int, d: int, k: int, *, solver: str = "auto",
               spectrum: bool = False) -> Estimate:
    """Build K, centre it and find its leading k eigenpairs with ``solver``.

    ``spectrum``: all eigenvalues as well (the Explorer's bar chart at n ≤ its dense limit).
    """
    work = kernel_matrix(n, n, d) + passes(n, 2) + leading(n, k, solver)
    return work + all_eigenvalues(n) if spectrum else work


def thin_svd(rows: int, cols: int) -> Estimate:
    """The singular values and vectors of a rows × cols matrix (scikit-learn's "full" PCA)."""
    return Estimate(SVD_PER_OP * min(rows, cols) ** 2 * max(rows, cols))


def monomials(rows: int, cols: int, d: int) -> Estimate:
    """An explicit polynomial feature map: ``cols`` monomials of ``rows`` d-dimensional
    points (their logarithms and signs, two products of rows × d by d × cols)."""
    return Estimate(MONOMIAL_PER_OP * rows * cols * d)


def gamma_motion(n: int, d: int, frames: int, classes: int = 2) -> Estimate:
    """γ in motion: ``frames`` fits of n points of d dimensions in ``classes`` classes, each
    scored and aligned (the model above, measured on 2-D points of two classes; the extra
    dimensions' distance products and classes on top)."""
    frame = Estimate(MOTION_FRAME_SECONDS + MOTION_FRAME_PER_ENTRY * n * n
                     + MOTION_PER_CLASS * max(classes - 2, 0))
    return (frame + Estimate(KERNEL_PER_FLOP * n * n * max(d - 2, 0))) * frames


def csv_parse(n_bytes: int) -> Estimate:
    """Parse an uploaded CSV of ``n_bytes`` (a refusal can come earlier)."""
    return Estimate(PARSE_PER_BYTE * n_bytes)


def format_seconds(seconds: float) -> str:
    """How a wait is written: whole seconds from 1 s, minutes past two."""
    if seconds >= 120:
        return _("{n} min").format(n=format_number(math.ceil(seconds / 60)))
    return _("{n} s").format(n=format_number(max(1, round(seconds))))
