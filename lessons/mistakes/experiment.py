r"""Each deliberately wrong formula of :mod:`lessons.mistakes.formulas` next to the right one.

One class per mistake: it says what the mistake is (title, the wrong and the right
formula), measures it on the data (:meth:`Mistake.measure`, the wrong computation next
to the right one of :class:`Reference`) and explains what it measured: the damage
numbers, the live checks of the facts below, and a caption whose every claim is computed
from those numbers. :func:`compare_mistakes` runs them all, so the page, the benchmark
and the tests show the same numbers; the page only draws what they return.

Facts the measurements rely on (derived here, checked by the tests):

* Wrong last sign, K − 1K − K1 − 1K1: every row then sums to −2n·mean(K) instead of 0.
  Because K̃1 = 0, the wrong matrix is K̃ − 2·mean(K)·11ᵀ: the constant vector becomes an
  eigenvector with eigenvalue −2n·mean(K), the other eigenpairs are untouched. So the
  projections survive when mean(K) > 0 and the error hides in the spectrum, but when
  mean(K) < 0 the constant vector can become component 1.
* Projecting with the uncentred K (or K_t): 1ᵀα = 0, so Kα = K̃α + (mean of the columns
  of K)·α: every point moves by the same vector. Shifted, not distorted.
* A test kernel centred with its own column means differs from the right one by
  (colmean_train − colmean_test), so every test point moves by (colmean_train −
  colmean_test)ᵀα; on the training points themselves the two means coincide and the
  mistake is invisible; a single point, centred alone, always lands on the origin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import linalg

from experiments.checks import Check, format_value
from experiments.kpca_steps import KpcaFit, mean_off_diagonal
from kpca_core import (
    KERNELS,
    KernelCentering,
    center_kernel,
    compute_kernel,
    eigendecompose,
    flip_signs,
    kernel_spectrum,
    scale_eigenvectors,
)
from lessons.mistakes.formulas import (
    wrong_center_kernel_last_sign,
    wrong_center_kernel_none,
    wrong_center_test_kernel_own_means,
    wrong_eigendecompose_unsorted,
    wrong_kernel_of_centred_inputs,
    wrong_project_uncentred,
    wrong_scale_one_over_mu_n,
    wrong_scale_unnormalised,
)
from words.i18n import N_, _, format_number, join_sentences

# np.linalg.eig (a general non-symmetric solver) is several times slower than eigh.
EIG_MAX_N = 200

# kpca_core's own choice (ARPACK for a few components of a large K̃, else LAPACK): the
# right results are computed exactly as KernelPCA would, and quickly.
SOLVER = "auto"
# A new point centred alone is shown for this many held-out points (one call each).
SINGLE_POINTS = 20

__all__ = [
    "CentredInputs",
    "Damage",
    "LastSign",
    "MISTAKES",
    "Mistake",
    "NewPointsOwnMeans",
    "NoCentring",
    "Picture",
    "Reference",
    "Scaling",
    "UncentredProjection",
    "UnsortedEig",
    "compare_mistakes",
    "largest_principal_angle",
    "relative_difference",
]


# --------------------------------------------------------------------------- measuring


def relative_difference(wrong: np.ndarray, right: np.ndarray) -> float:
    """max over components of min over signs of max|wrong − s·right| / max|right|.

    0 means the same picture (up to each component's sign); 1 means off by as much as
    the right coordinates themselves.
    """
    wrong = np.asarray(wrong, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    scale = np.abs(right).max(axis=0)
    scale[scale == 0] = 1.0
    plus = np.abs(wrong - right).max(axis=0) / scale
    minus = np.abs(wrong + right).max(axis=0) / scale
    return float(np.minimum(plus, minus).max())


def largest_principal_angle(A: np.ndarray, B: np.ndarray) -> float:
    """Largest principal angle (degrees) between the column spaces of A and B.

    0° means the two sets of components span the same subspace of ℝⁿ (whatever their
    order, sign or length); 90° means some direction of one is orthogonal to the other.
    """
    return float(np.degrees(linalg.subspace_angles(A, B).max()))


def _scores(eig) -> np.ndarray:
    """Training projections √μ v (0 for μ ≤ 0) of a wrong decomposition, as copied code
    computes them (no cleaning of rounding noise)."""
    return eig.eigenvectors * np.sqrt(np.clip(eig.eigenvalues, 0.0, None))


def _abs_correlation(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return abs(float(a @ b)) / norm if norm > 0 else 0.0


def _split(n: int, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows): a seeded random share of X held out."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_test = max(2, int(round(test_fraction * n)))
    return np.sort(order[n_test:]), np.sort(order[:n_test])


@dataclass(frozen=True, eq=False)
class Reference:
    """The right computation on X, which every mistake is measured against.

    Attributes
    ----------
    X : (n, d) inputs as the kernel sees them.
    kernel, kernel_params : as for :func:`kpca_core.compute_kernel`.
    K, Kc : the kernel matrix and K̃, its centred form.
    fit : the right kernel PCA of X with k components (kpca_core's steps).
    test_fraction, seed : the held-out share of X (and its seed) for new points.
    eig_max_n : points the unsorted-eigensolver comparison uses (``np.linalg.eig`` is a
        general, slow solver).
    """

    X: np.ndarray
    kernel: str
    kernel_params: dict
    K: np.ndarray
    Kc: np.ndarray
    fit: KpcaFit
    test_fraction: float
    seed: int
    eig_max_n: int

    @classmethod
    def compute(cls, X: np.ndarray, *, kernel: str, kernel_params: dict, n_components: int,
                test_fraction: float, seed: int, eig_max_n: int) -> Reference:
        X = np.asarray(X, dtype=np.float64)
        K = compute_kernel(X, kernel=kernel, **kernel_params)
        Kc, fit = _right_fit(X, K, kernel, kernel_params, n_components)
        return cls(X=X, kernel=kernel, kernel_params=dict(kernel_params), K=K, Kc=Kc, fit=fit,
                   test_fraction=test_fraction, seed=seed, eig_max_n=eig_max_n)

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def k(self) -> int:
        return self.fit.eigenvalues.shape[0]

    @property
    def scale(self) -> float:
        """max |K̃| (tolerances on K̃ are relative to it)."""
        return max(float(np.abs(self.Kc).max()), 1e-300)


def _right_fit(X, K, kernel, kernel_params, n_components) -> tuple[np.ndarray, KpcaFit]:
    """K̃ and the right fit of its leading components (K itself is left as it is)."""
    centering = KernelCentering.fit(K)
    Kc = center_kernel(K, centering=centering)
    eig = eigendecompose(Kc, min(n_components, K.shape[0] - 1), solver=SOLVER, random_state=0)
    fit = KpcaFit.from_eigenpairs(X, eig, kernel=kernel, kernel_params=kernel_params,
                                  centering=centering, trace=np.trace(Kc),
                                  mean_similarity=mean_off_diagonal(K))
    return Kc, fit


# --------------------------------------------------------------------------- explaining


@dataclass(frozen=True)
class Damage:
    """A number for the harm a mistake did on these data (≤ the tolerance: none)."""

    label: str
    value: float
    harmless_tolerance: float

    @property
    def harmless(self) -> bool:
        return bool(np.isfinite(self.value) and self.value <= self.harmless_tolerance)


@dataclass(frozen=True, eq=False)
class Picture:
    """The right result (left panel) next to the wrong one (right panel).

    ``right`` and ``wrong`` are (m, k) projections, or with ``spectrum`` the two spectra
    ((p,) eigenvalues each); ``rows`` are the rows of X the projections are of (None:
    all of them, in order). ``title`` and ``wrong_title`` are English messages (``N_``),
    the title's ``{placeholders}`` filled from ``counts``: :meth:`shown_title` says them in
    the language of the run that draws the picture (a cached Mistake holds no sentence).
    """

    title: str
    right: np.ndarray
    wrong: np.ndarray
    wrong_title: str = N_("wrong")
    rows: np.ndarray | None = None
    spectrum: bool = False
    counts: tuple[tuple[str, int], ...] = ()

    def shown_title(self) -> str:
        return _(self.title).format(**{name: format_number(value) for name, value in self.counts})

    def __post_init__(self) -> None:
        for array in (self.right, self.wrong):
            array.setflags(write=False)


@dataclass(frozen=True, eq=False)
class Mistake:
    """One mistake, measured on the data: what the page says, draws and checks about it.

    A subclass per mistake sets the text (class attributes), measures it
    (:meth:`measure`, which fills the subclass's own numbers) and explains the numbers
    (:meth:`checks`, :meth:`caption`).
    """

    # title, description and source: English messages (N_), said with _() where shown.
    # The formulas are LaTeX (the catalog reads a formula's braces as placeholders): only
    # the words of their \text{…} are messages (N_ inside), said by formula_in_language.
    key: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    wrong_latex: ClassVar[str]
    right_latex: ClassVar[str]
    correct_function: ClassVar[str]
    # Where it was found (one of the documents below); the one mistake found in none of
    # them says so.
    source: ClassVar[str]

    picture: Picture
    damages: tuple[Damage, ...]

    @classmethod
    def measure(cls, ref: Reference) -> Mistake:
        raise NotImplementedError

    @property
    def damage(self) -> Damage:
        """The headline damage (the first)."""
        return self.damages[0]

    @property
    def harmless(self) -> bool:
        return self.damage.harmless

    def checks(self) -> tuple[Check, ...]:
        """The facts about this mistake that hold on any data, verified on these."""
        return ()

    def caption(self) -> str:
        raise NotImplementedError

    def source_text(self) -> str:
        """Where it was found, in the language of this run."""
        return _(self.source).format(**{name: _(text) for name, text in DOCUMENTS.items()})


# A formula's words: the contents of each \text{…} (not \texttt{…}, which is code).
_FORMULA_WORDS = re.compile(r"\\text\{([^{}]*)\}")
# "wrong" as the formulas' subscript (\tilde K_{\text{wrong}}).
WRONG = N_("wrong")


def formula_in_language(latex: str) -> str:
    r"""A mistake's formula with the words of its ``\text{…}`` in this run's language (KaTeX
    sets CJK only inside ``\text``); the spaces around the words are the formula's own."""
    def said(match: re.Match) -> str:
        words = match.group(1)
        core = words.strip()
        if not core:
            return match.group(0)
        start = words.index(core)
        return r"\text{" + words[:start] + _(core) + words[start + len(core):] + "}"

    return _FORMULA_WORDS.sub(said, latex)


def _sentences(*parts: str) -> str:
    """Sentences one after the other, as the language writes them (a space in English)."""
    return join_sentences(parts)


# --------------------------------------------------------------------------- the mistakes

# The public documents the mistakes were found in (the project's reference documents).
MATLAB_NOTE = N_("the lecture note “Kernel PCA” with a MATLAB function KPCA (its eqs. "
                 "108–113 and code)")
DISIDORO = N_("L. D'Isidoro, “PCA Kernel Notes” (its Ka = λa, our K v = μ v, with K not "
              "centred)")
DE_SOUZA = N_("C. de Souza, “Kernel Principal Component Analysis in C#” (2010)")
CHINESE_NOTE = N_("the Chinese-language derivation “核PCA原理解析”, step 3 of its algorithm")
# The names a mistake's ``source`` fills in ({matlab_note}…).
DOCUMENTS = {"matlab_note": MATLAB_NOTE, "disidoro": DISIDORO, "de_souza": DE_SOUZA,
             "chinese_note": CHINESE_NOTE}



@dataclass(frozen=True, eq=False)
class NoCentring(Mistake):
    key = "no_centering"
    title = N_("No centring at all")
    description = N_("Eigenvectors of K itself: the first axis points at the data's mean in "
                     "feature space instead of along its spread.")
    wrong_latex = r"K\,v = \mu\, v \quad\text{" + N_("(K not centred)") + "}"
    right_latex = r"\tilde K\, v = \mu\, v,\qquad \tilde K = K - 1_n K - K 1_n + 1_n K 1_n"
    correct_function = "kpca_core.center_kernel"
    source = N_("{disidoro}; centring is an option one can switch off in {de_souza}")

    angle: float  # largest principal angle (degrees) between the right and wrong subspaces
    max_row_sum: float  # largest |row sum| of K (0 for K̃)
    # |correlation| of the wrong component 1 with each point's mean kernel value, i.e.
    # its inner product with the feature-space mean.
    mean_alignment: float

    @classmethod
    def measure(cls, ref: Reference) -> NoCentring:
        none = eigendecompose(wrong_center_kernel_none(ref.K), ref.k, solver=SOLVER,
                              random_state=0)
        right, wrong = ref.fit.projection, _scores(none)
        return cls(
            Picture(N_("Projections: centred K̃ (left) vs uncentred K (right)"), right, wrong,
                    wrong_title=N_("wrong: eigenvectors of K")),
            (Damage(N_("largest difference of the components (up to sign), relative to their "
                       "size"), relative_difference(wrong, right), 1e-6),),
            angle=largest_principal_angle(none.eigenvectors, ref.fit.eigenvectors),
            max_row_sum=float(np.abs(ref.K.sum(axis=1)).max()),
            mean_alignment=_abs_correlation(none.eigenvectors[:, 0], ref.K.mean(axis=1)),
        )

    def caption(self) -> str:
        text = _("The largest principal angle between the right and the wrong 2-D subspaces "
                 "is {angle}°. Rows of K sum to up to {row_sum}, not 0.").format(
            angle=format_number(self.angle, ".1f"), row_sum=format_number(self.max_row_sum, ".4g"))
        if self.angle < 5:
            return _sentences(text, _(
                "Here the components barely turn: the mean of the points in feature space is "
                "small next to their spread, but the coordinates still differ (see the damage "
                "number)."))
        correlation = format_number(self.mean_alignment, ".2f")
        if self.mean_alignment >= 0.9:
            return _sentences(text, _(
                "The wrong component 1 correlates at {correlation} with each point's average "
                "kernel value (its inner product with the mean φ̄): it measures where the mean "
                "is, not how the points spread.").format(correlation=correlation))
        return _sentences(text, _(
            "The wrong component 1 correlates at {correlation} with each point's average "
            "kernel value (its inner product with the mean φ̄).").format(
            correlation=correlation))


@dataclass(frozen=True, eq=False)
class LastSign(Mistake):
    key = "last_sign"
    title = N_("Wrong sign on the last centring term")
    description = N_("−1ₙK1ₙ instead of +1ₙK1ₙ: the rows no longer sum to 0 and a spurious "
                     "eigenvalue −2n·mean(K) appears.")
    wrong_latex = r"\tilde K_{\text{" + WRONG + r"}} = K - 1_n K - K 1_n - 1_n K 1_n"
    right_latex = r"\tilde K = K - 1_n K - K 1_n + 1_n K 1_n"
    correct_function = "kpca_core.center_kernel"
    source = CHINESE_NOTE

    n: int
    predicted_eigenvalue: float  # −2n·mean(K), the constant vector's eigenvalue
    row_sum_right: float  # largest |row sum| of the right K̃
    projection_difference: float  # of the leading components (relative, up to sign)
    # Where −2n·mean(K) ranks among all n eigenvalues of the wrong matrix (1 = largest):
    # among the k compared components only when rank ≤ k.
    rank: int
    k: int
    # max |wrong spectrum − the right one with its 0 (the constant vector's) replaced by
    # −2n·mean(K)|, both sorted
    spectrum_difference: float

    @classmethod
    def measure(cls, ref: Reference) -> LastSign:
        n = ref.n
        Kw = wrong_center_kernel_last_sign(ref.K)
        spectrum_right, spectrum_wrong = kernel_spectrum(ref.Kc), kernel_spectrum(Kw)
        wrong_sign = eigendecompose(Kw, ref.k, solver=SOLVER, random_state=0)
        predicted = -2.0 * n * float(ref.K.mean())
        expected = spectrum_right.copy()
        expected[np.argmin(np.abs(expected))] = predicted
        return cls(
            Picture(N_("Spectra: leading and trailing eigenvalues"), spectrum_right,
                    spectrum_wrong, spectrum=True),
            (Damage(N_("largest |row sum| of the wrong K̃ (should be 0)"),
                    float(np.abs(Kw.sum(axis=1)).max()), 1e-9 * n * ref.scale),),
            n=n,
            predicted_eigenvalue=predicted,
            row_sum_right=float(np.abs(ref.Kc.sum(axis=1)).max()),
            projection_difference=relative_difference(_scores(wrong_sign), ref.fit.projection),
            rank=1 + int(np.sum(np.delete(expected, np.argmin(np.abs(spectrum_right)))
                                > predicted)),
            k=ref.k,
            spectrum_difference=float(np.abs(np.sort(expected) - np.sort(spectrum_wrong)).max()),
        )

    def checks(self) -> tuple[Check, ...]:
        predicted = self.predicted_eigenvalue
        return (
            Check(_("right K̃: largest |row sum|"), self.row_sum_right,
                  1e-9 * self.n * max(1.0, abs(predicted) / self.n)),
            Check(_("largest |wrong spectrum − (right spectrum with its 0 for the constant "
                    "vector replaced by −2n·mean(K))|"), self.spectrum_difference,
                  1e-8 * max(1.0, abs(predicted))),
        )

    def caption(self) -> str:
        moved = self.projection_difference
        text = _("The wrong matrix is K̃ − 2·mean(K)·11ᵀ: the constant vector gets the "
                 "eigenvalue −2n·mean(K) = {eigenvalue}, every other eigenpair is "
                 "unchanged.").format(eigenvalue=format_value(self.predicted_eigenvalue))
        place = ("smallest" if self.rank == self.n else "largest" if self.rank == 1 else "rank")
        among = "outside" if self.rank > self.k else "among"
        return _sentences(text, _(_LAST_SIGN_PLACE[place, among]).format(
            rank=format_number(self.rank), n=format_number(self.n), k=format_number(self.k),
            moved=format_value(moved), percent=format_value(100 * moved)))


# Where the spurious eigenvalue ranks (the smallest, the largest, or its rank), and whether
# that is among the k leading ones the pictures compare: one whole sentence each.
_LAST_SIGN_PLACE = {
    ("smallest", "outside"): N_(
        "Here it is the smallest of the {n} eigenvalues, not among the {k} leading ones, so "
        "the first {k} components are unchanged (measured difference {moved} of their size, "
        "rounding); the error hides in the spectrum as a spurious eigenvalue."),
    ("largest", "outside"): N_(
        "Here it is the largest of the {n} eigenvalues, not among the {k} leading ones, so "
        "the first {k} components are unchanged (measured difference {moved} of their size, "
        "rounding); the error hides in the spectrum as a spurious eigenvalue."),
    ("rank", "outside"): N_(
        "Here it is number {rank} of {n} of the {n} eigenvalues, not among the {k} leading "
        "ones, so the first {k} components are unchanged (measured difference {moved} of "
        "their size, rounding); the error hides in the spectrum as a spurious eigenvalue."),
    ("smallest", "among"): N_(
        "Here it is the smallest of the {n} eigenvalues, among the {k} leading ones, so the "
        "components change (largest difference {percent} % of their size)."),
    ("largest", "among"): N_(
        "Here it is the largest of the {n} eigenvalues, among the {k} leading ones, so the "
        "components change (largest difference {percent} % of their size)."),
    ("rank", "among"): N_(
        "Here it is number {rank} of {n} of the {n} eigenvalues, among the {k} leading ones, "
        "so the components change (largest difference {percent} % of their size)."),
}


@dataclass(frozen=True, eq=False)
class CentredInputs(Mistake):
    key = "centred_inputs"
    title = N_("Centring the inputs instead of the feature space")
    description = N_("Subtracting the input mean before the kernel: harmless for kernels of "
                     "x − y only (RBF, Laplacian) and for the linear kernel (its feature space "
                     "is the input space), wrong for polynomial, sigmoid and cosine kernels.")
    wrong_latex = (r"K_{\text{" + WRONG + r"}} = k(x_i - \bar x,\; x_j - \bar x),\ \text{"
                   + N_("centred afterwards") + "}")
    right_latex = (r"K = k(x_i, x_j),\ \text{" + N_("centred in feature space:")
                   + r" } \tilde K")
    correct_function = "kpca_core.compute_kernel + kpca_core.center_kernel"
    source = N_("{de_souza}, its Compute method (the kernel of the centred inputs)")

    kernel: str
    degree: int | None
    projection_difference: float  # of the leading components (relative, up to sign)
    input_mean: tuple[float, ...]  # what centring the inputs subtracted
    input_scale: float  # max |x|: what "the mean is 0" is measured against

    @classmethod
    def measure(cls, ref: Reference) -> CentredInputs:
        Kc_inputs = wrong_kernel_of_centred_inputs(ref.X, kernel=ref.kernel,
                                                   kernel_params=ref.kernel_params)
        wrong = _scores(eigendecompose(Kc_inputs, ref.k, solver=SOLVER, random_state=0))
        return cls(
            Picture(N_("Projections: raw inputs (left) vs inputs centred first (right)"),
                    ref.fit.projection, wrong, wrong_title=N_("wrong: k(x − x̄, y − x̄)")),
            (Damage(N_("largest |K̃_wrong − K̃| relative to max |K̃|"),
                    float(np.abs(Kc_inputs - ref.Kc).max()) / ref.scale, 1e-9),),
            kernel=ref.kernel,
            degree=ref.kernel_params.get("degree"),
            projection_difference=relative_difference(wrong, ref.fit.projection),
            input_mean=tuple(float(v) for v in ref.X.mean(axis=0)),
            input_scale=float(np.abs(ref.X).max()),
        )

    def caption(self) -> str:
        title = _(KERNELS[self.kernel].title)
        if self.harmless:
            reason = {"rbf": "shift", "laplacian": "shift", "linear": "linear"}.get(self.kernel)
            if self.kernel == "poly" and self.degree == 1:
                reason = "degree 1"
            mean = self.input_mean
            shown = ", ".join(format_number(v, ".2g") for v in mean[:3]) + (
                ", …" if len(mean) > 3 else "")
            if reason is None:  # measured, not assumed: how far centring moved the inputs
                zero = max(abs(v) for v in mean) <= 1e-9 * max(1.0, self.input_scale)
                reason = "mean 0" if zero else "moved"
            return _(_HARMLESS_BECAUSE[reason]).format(
                title=title, mean=shown, damage=format_value(self.damage.value))
        return _("The {title} kernel is not translation-invariant: K of the shifted inputs is "
                 "a different matrix, and centring it cannot undo that (projections differ by "
                 "{percent}% of their size).").format(
            title=title, percent=format_number(100 * self.projection_difference, ".1f"))


# Why centring the inputs did no visible harm with this kernel on these data: one whole
# sentence per reason ({title}: the kernel's; {mean}: the inputs' mean; {damage}).
_HARMLESS_BECAUSE = {
    "shift": N_("The {title} kernel depends on x − y only, so centring the inputs changes "
                "nothing visible (damage {damage}): the mistake is invisible with this kernel "
                "on these data."),
    "linear": N_("The {title} kernel has input space as its feature space, so centring the "
                 "inputs changes nothing visible (damage {damage}): the mistake is invisible "
                 "with this kernel on these data."),
    "degree 1": N_("The {title} kernel with d = 1 is γ xᵀy + c₀, the linear kernel up to a "
                   "constant that centring removes: its feature space is the input space, so "
                   "centring the inputs changes nothing visible (damage {damage}): the mistake "
                   "is invisible with this kernel on these data."),
    "mean 0": N_("The {title} kernel sees inputs whose mean is already 0 here (mean ({mean})), "
                 "so centring the inputs changes nothing visible (damage {damage}): the "
                 "mistake is invisible with this kernel on these data."),
    "moved": N_("The {title} kernel is moved by centring (the inputs' mean is ({mean})), yet "
                "too little to show on these data, so centring the inputs changes nothing "
                "visible (damage {damage}): the mistake is invisible with this kernel on these "
                "data."),
}


@dataclass(frozen=True, eq=False)
class NewPointsOwnMeans(Mistake):
    key = "test_own_means"
    title = N_("Test kernel centred with its own means")
    description = N_("New points must be centred with the training statistics (1ₜ: m × n, "
                     "entries 1/n), not their own (1ₘ: m × m, entries 1/m): the origin of "
                     "feature space was fixed by the training set.")
    wrong_latex = r"\tilde K_t^{\text{" + WRONG + r"}} = K_t - 1_m K_t - K_t 1_n + 1_m K_t 1_n"
    right_latex = r"\tilde K_t = K_t - 1_t K - K_t 1_n + 1_t K 1_n"
    correct_function = "kpca_core.center_test_kernel"
    source = N_("{de_souza}, its Transform method")

    n_train: int
    n_test: int
    # |wrong − right| on the training points themselves (their own means are the
    # training means), relative to the training projections' size: 0.
    on_training_points: float
    single_point_max: float  # largest |coordinate| of a new point centred alone: 0
    shift_spread: float  # largest deviation of the held-out points' shifts from their mean

    @classmethod
    def measure(cls, ref: Reference) -> NewPointsOwnMeans:
        """Fit on a training part of X, project the held-out points right and wrong."""
        train, test = _split(ref.n, ref.test_fraction, ref.seed)
        K_train = ref.K[np.ix_(train, train)]
        _, fit = _right_fit(ref.X[train], K_train, ref.kernel, ref.kernel_params, ref.k)
        K_test = ref.K[np.ix_(test, train)]
        right = fit.project_kernel_rows(K_test)
        wrong = wrong_center_test_kernel_own_means(K_test) @ fit.alphas
        train_right = fit.project_kernel_rows(K_train)
        train_wrong = wrong_center_test_kernel_own_means(K_train) @ fit.alphas
        single_wrong = np.vstack(
            [wrong_center_test_kernel_own_means(K_test[i: i + 1]) @ fit.alphas
             for i in range(min(len(test), SINGLE_POINTS))]
        )
        train_scale = max(float(np.abs(train_right).max()), 1e-300)
        shift = wrong - right
        return cls(
            Picture(N_("{n_test} held-out points projected (model fitted on the other "
                       "{n_train})"), right, wrong, wrong_title=N_("wrong: own means"),
                    rows=test, counts=(("n_test", len(test)), ("n_train", len(train)))),
            (Damage(N_("largest difference on held-out points, relative to the training "
                       "projections' size"), float(np.abs(shift).max()) / train_scale, 1e-9),),
            n_train=len(train),
            n_test=len(test),
            on_training_points=float(np.abs(train_wrong - train_right).max()) / train_scale,
            single_point_max=float(np.abs(single_wrong).max()),
            shift_spread=float(np.abs(shift - shift.mean(axis=0)).max()),
        )

    def checks(self) -> tuple[Check, ...]:
        return (Check(_("on the training points themselves, |wrong − right| (their own "
                        "means are the training means)"), self.on_training_points, 1e-9),)

    def caption(self) -> str:
        return _("Every held-out point moves by the same vector (spread of the shifts "
                 "{spread}), so the picture looks plausible and is still wrong. Projected one "
                 "at a time, a new point centred with its own means always lands on the "
                 "origin: largest |coordinate| = {largest}.").format(
            spread=format_value(self.shift_spread), largest=format_value(self.single_point_max))


@dataclass(frozen=True, eq=False)
class Scaling(Mistake):
    key = "scaling"
    title = N_("Eigenvectors not normalised in feature space")
    description = N_("The unit eigenvector v (or v/(μn)) used as α: the axes V = Σαᵢφ̃(xᵢ) are "
                     "not unit length, so every component is stretched by its own factor.")
    # The two wrong choices as one phrase (KaTeX reads $…$ inside \text{…}).
    wrong_latex = r"\text{" + N_(r"$\alpha = v$ or $\alpha = v/(\mu n)$") + "}"
    right_latex = r"\alpha = \frac{v}{\sqrt{\mu}} \iff \alpha^\top \tilde K \alpha = 1"
    correct_function = "kpca_core.scale_eigenvectors"
    source = N_("α = v/(μn): {matlab_note} (U(:,n)/d(n)/N); α = v is what leaving the step "
                "out gives")

    length_right: float  # largest |αᵀK̃α − 1| with the right α = v/√μ: 0
    stretch_1: float  # √μ₁: how much α = v stretches component 1
    stretch_2: float
    mu_n_projection_max: float  # largest |coordinate| with α = v/(μn)

    @classmethod
    def measure(cls, ref: Reference) -> Scaling:
        """Damages: α = v (the picture), then α = v/(μn)."""
        positive = ref.fit.eigenvalues > 0
        vectors, values = ref.fit.eigenvectors[:, positive], ref.fit.eigenvalues[positive]
        good_alpha = scale_eigenvectors(vectors, values)
        alpha_v = wrong_scale_unnormalised(vectors, values)
        alpha_mu_n = wrong_scale_one_over_mu_n(vectors, values)

        def length_error(alpha) -> float:
            """largest |αᵀK̃α − 1|: 0 for unit-length axes"""
            return float(np.abs(np.einsum("ik,ik->k", alpha, ref.Kc @ alpha) - 1.0).max())

        return cls(
            Picture(N_("Projections: α = v/√μ (left) vs α = v (right)"), ref.Kc @ good_alpha,
                    ref.Kc @ alpha_v, wrong_title=N_("wrong: α = v")),
            (Damage(N_("largest |αᵀK̃α − 1| with α = v (should be 0: unit-length axes)"),
                    length_error(alpha_v), 1e-9),
             Damage(N_("largest |αᵀK̃α − 1| with α = v/(μn)"), length_error(alpha_mu_n),
                    1e-9)),
            length_right=length_error(good_alpha),
            stretch_1=float(np.sqrt(values[0])) if len(values) else 0.0,
            stretch_2=float(np.sqrt(values[1])) if len(values) > 1 else 0.0,
            mu_n_projection_max=float(np.abs(ref.Kc @ alpha_mu_n).max()),
        )

    def checks(self) -> tuple[Check, ...]:
        return (Check(_("with α = v/√μ: largest |αᵀK̃α − 1|"), self.length_right, 1e-8),)

    def caption(self) -> str:
        ratio = self.stretch_1 / self.stretch_2 if self.stretch_2 > 0 else float("inf")
        stretches = [s for s in (self.stretch_1, self.stretch_2) if s > 0]
        size = ("grows" if all(s > 1 for s in stretches) else
                "shrinks" if all(s < 1 for s in stretches) else "both")
        return _(_STRETCHED[size]).format(
            first=format_value(self.stretch_1), second=format_value(self.stretch_2),
            ratio=format_number(ratio, ".3g"), largest=format_value(self.mu_n_projection_max))


# What α = v does to the picture: it grows, shrinks, or both (one whole sentence each).
_STRETCHED = {
    "grows": N_("With α = v every coordinate is multiplied by √μ: component 1 by {first}, "
                "component 2 by {second}, so the picture grows and its aspect ratio changes "
                "by a factor {ratio}. With α = v/(μn) all coordinates shrink to at most "
                "{largest}."),
    "shrinks": N_("With α = v every coordinate is multiplied by √μ: component 1 by {first}, "
                  "component 2 by {second}, so the picture shrinks and its aspect ratio "
                  "changes by a factor {ratio}. With α = v/(μn) all coordinates shrink to at "
                  "most {largest}."),
    "both": N_("With α = v every coordinate is multiplied by √μ: component 1 by {first}, "
               "component 2 by {second}, so the picture grows along one axis and shrinks "
               "along the other and its aspect ratio changes by a factor {ratio}. With "
               "α = v/(μn) all coordinates shrink to at most {largest}."),
}


@dataclass(frozen=True, eq=False)
class UncentredProjection(Mistake):
    key = "uncentred_projection"
    title = N_("Projecting with the uncentred K")
    description = N_("Eigenvectors from K̃ but coordinates from K: every point moves by the "
                     "same vector.")
    wrong_latex = r"y_{\text{" + WRONG + r"}} = K\,\alpha"
    right_latex = r"y = \tilde K\,\alpha"
    correct_function = "kpca_core.project_new_points (with a centred kernel)"
    source = N_("{matlab_note} (Y = (K*U)')")

    shift_1: float  # the common shift of component 1
    shift_2: float
    shift_spread: float  # largest deviation of (Kα − K̃α) from one common shift: 0
    mean_right: float  # largest |mean| of the right coordinates: 0

    @classmethod
    def measure(cls, ref: Reference) -> UncentredProjection:
        alphas = ref.fit.alphas
        right = ref.Kc @ alphas
        wrong = wrong_project_uncentred(ref.K, alphas)
        shift = wrong - right
        return cls(
            Picture(N_("Projections: K̃α (left) vs Kα (right)"), right, wrong,
                    wrong_title=N_("wrong: Kα")),
            (Damage(N_("largest difference of the coordinates, relative to their size"),
                    float(np.abs(shift).max()) / max(float(np.abs(right).max()), 1e-300),
                    1e-9),),
            shift_1=float(shift[:, 0].mean()),
            shift_2=float(shift[:, 1].mean()) if shift.shape[1] > 1 else 0.0,
            shift_spread=float(np.abs(shift - shift.mean(axis=0)).max()),
            mean_right=float(np.abs(right.mean(axis=0)).max()),
        )

    def checks(self) -> tuple[Check, ...]:
        return (Check(_("largest deviation of (Kα − K̃α) from one common shift"),
                      self.shift_spread, 1e-9 * max(1.0, abs(self.shift_1))),)

    def caption(self) -> str:
        return _("Since 1ᵀα = 0, Kα = K̃α + (column means of K)·α: every point moves by "
                 "({first}, {second}). Same shape, but the coordinates no longer have mean 0 "
                 "(the right ones do, to {mean}).").format(
            first=format_value(self.shift_1), second=format_value(self.shift_2),
            mean=format_value(self.mean_right))


@dataclass(frozen=True, eq=False)
class UnsortedEig(Mistake):
    key = "unsorted_eig"
    title = N_("A non-symmetric eigensolver, eigenvalues unsorted")
    description = N_("np.linalg.eig returns eigenvalues in no particular order; taking its "
                     "first k columns picks arbitrary components.")
    wrong_latex = (r"\texttt{np.linalg.eig}(\tilde K)[\,:k\,]\ \text{" + N_("(as returned)")
                   + "}")
    right_latex = r"\texttt{eigh}(\tilde K),\ \mu_1 \ge \mu_2 \ge \dots"
    correct_function = "kpca_core.eigendecompose"
    source = N_("none of the documents: the MATLAB function sorts its eigenvalues explicitly "
                "and the C# article by absolute value. It is here because np.linalg.eig "
                "promises no order.")

    ranks: tuple[int, ...]  # ranks (1 = largest) of eig's first eigenvalues, in its order
    rank_1: int  # rank of the eigenvalue eig gives first
    rank_2: int
    projection_difference: float  # of the leading components (relative, up to sign)
    max_imaginary: float  # largest imaginary part eig returned
    # μ₂ − μ₃ relative to μ₁: when 0, the leading 2-D subspace is not unique and any
    # solver's choice is as good as another.
    leading_gap: float

    @classmethod
    def measure(cls, ref: Reference) -> UnsortedEig:
        """On the first ``ref.eig_max_n`` points (``np.linalg.eig`` is slow)."""
        m, k = min(ref.n, ref.eig_max_n), ref.k
        X_small = ref.X[:m]
        Kc_small, small = _right_fit(X_small, ref.K[:m, :m], ref.kernel, ref.kernel_params, k)
        values_eig, vectors_eig, all_values = wrong_eigendecompose_unsorted(Kc_small, k)
        spectrum = np.linalg.eigvalsh(Kc_small)[::-1]

        def rank(value) -> int:
            return int(np.argmin(np.abs(spectrum - value))) + 1

        ranks = [rank(value) for value in values_eig]
        # Signs fixed by the rule every other picture here uses (kpca_core.flip_signs,
        # inside eigendecompose): a component eig returns with the other sign is the same
        # component, and two mirror images would look like damage where there is none.
        wrong = flip_signs(vectors_eig / np.linalg.norm(vectors_eig, axis=0)) * np.sqrt(
            np.clip(values_eig, 0.0, None)
        )
        return cls(
            Picture(N_("Projections on the first {m} points: eigh, sorted (left) vs eig as "
                       "returned (right)"), small.projection, wrong,
                    wrong_title=N_("wrong: eig[:, :2]"), rows=np.arange(m), counts=(("m", m),)),
            (Damage(N_("largest angle between the subspaces of the wrong and the right "
                       "components (degrees)"),
                    largest_principal_angle(vectors_eig, small.eigenvectors), 1e-4),),
            ranks=tuple(rank(value) for value in all_values.real[:10]),
            rank_1=ranks[0],
            rank_2=ranks[1] if len(ranks) > 1 else 0,
            projection_difference=relative_difference(wrong, small.projection),
            max_imaginary=float(np.abs(all_values.imag).max()),
            leading_gap=float((spectrum[k - 1] - spectrum[k])
                              / max(abs(float(spectrum[0])), 1e-300)) if m > k else 1.0,
        )

    def caption(self) -> str:
        ranks = ", ".join(format_number(k) for k in self.ranks)
        text = _("eig returned its first {count} eigenvalues in the order of ranks {ranks} "
                 "(largest imaginary part {imaginary}).").format(
            count=format_number(len(self.ranks)), ranks=ranks,
            imaginary=format_value(self.max_imaginary))
        if self.leading_gap < 1e-8:
            return _sentences(text, _(
                "The second and third eigenvalues are equal here, so the leading subspace is "
                "not unique and no choice is more right than another: the angle means nothing "
                "on these data."))
        if self.harmless:
            return _sentences(text, _(
                "Its first two happen to be the two largest here, so no damage on these data, "
                "but nothing guarantees it: other data or another LAPACK build give another "
                "order."))
        return _sentences(text, _("Its first two are the eigenvalues of rank {first} and "
                                  "{second}: the wrong components.").format(
            first=format_number(self.rank_1), second=format_number(self.rank_2)))


MISTAKES: tuple[type[Mistake], ...] = (
    NoCentring, LastSign, CentredInputs, NewPointsOwnMeans, Scaling, UncentredProjection,
    UnsortedEig,
)


def damage_summary(mistakes: tuple[Mistake, ...]) -> str:
    """Which mistakes did damage on these data and which did none, by their numbers (a
    mistake with several damage numbers did damage when any of them does)."""
    harmful, harmless = [], []
    for number, mistake in enumerate(mistakes, start=1):
        damaged = any(not damage.harmless for damage in mistake.damages)
        (harmful if damaged else harmless).append(_("{number} ({title})").format(
            number=format_number(number), title=_(mistake.title)))
    counts = dict(harmful=format_number(len(harmful)), total=format_number(len(mistakes)),
                  which=", ".join(harmful), spared=", ".join(harmless))
    if harmful and harmless:
        return _("On these data {harmful} of the {total} mistakes do damage: {which}; no damage "
                 "here from {spared}.").format(**counts)
    if harmful:
        return _("On these data {harmful} of the {total} mistakes do damage: {which}.").format(
            **counts)
    return _("On these data {harmful} of the {total} mistakes do damage; no damage here from "
             "{spared}.").format(**counts)


def compare_mistakes(
    X: np.ndarray,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int = 2,
    test_fraction: float = 0.25,
    eig_max_n: int = 200,
    seed: int = 0,
) -> tuple[Mistake, ...]:
    """Every mistake of :data:`MISTAKES`, in the page's order, measured on X.

    Parameters
    ----------
    X : (n, d) inputs as the kernel sees them; n ≥ 8.
    kernel, kernel_params : as for :func:`kpca_core.compute_kernel`.
    n_components : components compared (2: the pictures' axes).
    test_fraction : share of X held out as "new points" for the test-kernel mistake.
    eig_max_n : ``np.linalg.eig`` is slow (a general solver); the unsorted-eigensolver
        comparison uses the first ``eig_max_n`` points.
    seed : the held-out split.
    """
    ref = Reference.compute(X, kernel=kernel, kernel_params=kernel_params,
                            n_components=n_components, test_fraction=test_fraction,
                            seed=seed, eig_max_n=eig_max_n)
    return tuple(mistake.measure(ref) for mistake in MISTAKES)
