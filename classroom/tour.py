"""The guided tour: a 45-minute lecture on kernel PCA, as an ordered table of views.

Each step is data — which page, which dataset and kernel, a question for the room,
what to point at once the view is on the screen, its minutes, and how the offline lecture
draws it — so a lecturer can read the lecture in one place and reorder or edit it without
touching a page. :data:`STEPS` is the one table a step is declared in: the Tour page
(``app_pages/tour.py``) walks through it, the banner and the seal read it on the step's
page, and the offline lecture's build (``lecture_pack/build.py``) and its preparation on
the server (``lecture_pack/ahead.py``) read it too. A step names its page by its address
in the page table (``shell.registry``), which states what belongs to the page rather than
to one step (its link parameters, its own question, whether it keeps its own settings).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from shell.registry import Lesson, page_named
from shell.state import Settings, default_settings, format_gamma, parse_page_number
from words.i18n import N_, _, format_number
from words.kernel_params import KERNEL_PARAMS


class Offline(Enum):
    """How the offline lecture (``lecture_pack``) draws a step: as its page, the one way
    since the Explorer has its ``pack`` too (a step not in the file: ``None``).

    The classroom imports no lesson, so a step cannot name the lesson's code; the lecture
    finds it by the step's page (``lecture_pack/pages.py``: the page's ``pack`` and
    ``prepare``)."""

    PAGE = "page"  # the page's own first screen: its lesson's ``pack`` module


@dataclass(frozen=True)
class TourStep:
    """One step of the lecture.

    Attributes
    ----------
    title : str
        A short heading.
    lesson : Lesson
        The page the step opens (its entry in ``shell.registry.LESSONS``).
    dataset, kernel : str
        The view's dataset and kernel.
    params : dict
        Kernel parameters, dataset options and ``n_components`` that differ from the
        dataset's defaults.
    question : str
        What to ask the room before showing the view.
    look_for : str
        What to point at once it is shown: the answer.
    minutes : int
        Time to plan for the step.
    page_query : tuple of (name, value)
        The page's own link parameters (``Lesson.link_params``), e.g. the Explorer's
        open step-by-step section.
    shows : tuple of str
        The page's findings (``shell.findings`` names) the answer quotes; empty: all of
        them. Step 1 quotes only the separability, short enough for a projector.
    check : str
        The multiple-choice question (an id of ``classroom.questions``) each student answers
        before the view is drawn; checked against the view's live numbers.
    part : str
        "" for the lecture itself; the title of an optional part that follows it
        (:data:`BEYOND`).
    offline : Offline or None
        How the offline lecture draws the step; None: it does not (the file holds the
        lecture, not its optional part).
    """

    title: str
    lesson: Lesson
    dataset: str
    kernel: str
    params: tuple[tuple[str, Any], ...]
    question: str
    look_for: str
    minutes: int
    page_query: tuple[tuple[str, str], ...] = ()
    check: str = ""
    shows: tuple[str, ...] = ()
    part: str = ""
    offline: Offline | None = None

    @property
    def page(self) -> str:
        """The step's page file, as ``st.switch_page`` opens it ("app_pages/explorer.py")."""
        return self.lesson.path

    @property
    def url_path(self) -> str:
        """The address of the step's page ("explorer")."""
        return self.lesson.url_path

    def settings(self) -> Settings:
        """The sidebar settings of this step's view."""
        base = default_settings(self.dataset)
        options = dict(base.dataset_options)
        fields: dict[str, Any] = {}
        for name, value in self.params:
            if name in options:
                options[name] = value
            else:
                fields[name] = value
        return replace(base, kernel=self.kernel,
                       dataset_options=tuple(sorted(options.items())), **fields)


def _step(title, page, dataset, kernel, question, look_for, minutes, page_query=(),
          check="", shows=(), part="", offline=None, **params) -> TourStep:
    lesson = page_named(page)
    if foreign := [name for name, _value in page_query if name not in lesson.link_params]:
        raise ValueError(f"step {title!r}: {page} owns no link parameter {foreign}")
    return TourStep(title, lesson, dataset, kernel,
                    tuple(sorted(params.items())), question, look_for, minutes,
                    tuple(page_query), check, tuple(shows), part, offline)


BEYOND = N_("Beyond kernel PCA")  # the optional second part, after the lecture


STEPS: tuple[TourStep, ...] = (
    _step(
        N_("Straight lines are not enough"), "explorer", "circles", "linear",
        N_("Two rings, one inside the other. Can any straight direction tell them apart? "
           "What will PCA show?"),
        N_("Linear kernel: kernel PCA is PCA, a rotation of the plane. The rings stay nested."),
        4, check="separation", shows=("separability",), n_components=2,
        offline=Offline.PAGE,
    ),
    _step(
        N_("A kernel changes the geometry"), "explorer", "circles", "rbf",
        N_("Now every pair of points is compared with exp(−γ‖x − y‖²). What happens to the rings?"),
        N_("In K only the inner ring's block is bright: its points lie close together, while "
           "on the wide outer ring only near neighbours resemble each other. K̃, measured from "
           "the centre of the data, shows a block per ring. The kernel projection pulls the "
           "rings apart while linear PCA cannot."),
        6, gamma=5.0, n_components=2, page_query=(("section", "2"),),  # K and K̃ open
        check="separation", offline=Offline.PAGE,
    ),
    _step(
        N_("The algorithm, step by step"), "how_it_works", "circles", "rbf",
        N_("We never see the feature space. How can we centre data we cannot see?"),
        N_("Centring works on K alone (K̃ = K − 1K − K1 + 1K1): every row of K̃ sums to 0, "
           "checked live; then an eigenproblem of size n, normalised so each axis has length 1."),
        7, gamma=5.0, n=100, n_components=2, check="zero_eigenvalues",
        offline=Offline.PAGE,
    ),
    _step(
        N_("The kernel trick, made explicit"), "kernel_trick", "circles", "poly",
        N_("Is there a space where a flat plane separates the rings?"),
        N_("The degree-2 polynomial kernel is an inner product of explicit monomials: in "
           "(x₁², √2x₁x₂, x₂²) the rings sit at different heights, a plane splits them, and "
           "kernel PCA equals PCA on those features."),
        6, gamma=1.0, degree=2, coef0=0.0, check="lift_plane",
        offline=Offline.PAGE,
    ),
    _step(
        N_("What γ does"), "choosing_gamma", "circles", "rbf",
        N_("What happens when γ is tiny? When it is huge?"),
        N_("Tiny γ: the kernel is nearly linear and kernel PCA looks like PCA. Huge γ: every "
           "point resembles only itself, K̃ tends to a scaled identity and the spectrum is "
           "flat. The separability curve peaks in between."),
        6, gamma=5.0, check="best_gamma",
        offline=Offline.PAGE,
    ),
    _step(
        N_("What the components look like"), "component_maps", "scholkopf_toy", "rbf",
        N_("Schölkopf, Smola and Müller's three clusters: what does each component measure?"),
        N_("Each map shows one component's value over the plane: the leading ones separate "
           "the clusters, later ones split clusters (compare with Fig. 4 of the 1998 paper)."),
        5, gamma=10.0, n_components=8, check="components_needed",
        offline=Offline.PAGE,
    ),
    _step(
        N_("Mistakes that look plausible"), "mistakes", "moons", "poly",
        N_("Published notes forget to centre, or centre with the wrong sign. Does it matter?"),
        N_("Each mistake beside the correct result, with a number for the damage: some change "
           "the picture completely, some only the test points, some nothing at all."),
        4, gamma=1.0, degree=3, coef0=1.0, check="forget_centring",
        offline=Offline.PAGE,
    ),
    _step(
        N_("Back to pixels: denoising"), "denoising", "usps", "rbf",
        N_("Kernel PCA finds structure in feature space. Can we come back to an image?"),
        N_("A projection in feature space has no exact pre-image; the methods approximate one. "
           "Compare each method at its own best m: the page says, from the errors it measures, "
           "whether kernel PCA or linear PCA de-noises better here, and by how much."),
        4, gamma=1 / 128, check="preimage",
        offline=Offline.PAGE,
    ),
    _step(
        N_("Features for a classifier"), "classification", "usps", "poly",
        N_("Does a linear classifier on nonlinear components beat the same classifier on pixels?"),
        N_("Test error against the number of components, kernel against linear PCA, and the "
           "1998 paper's USPS table reproduced next to the original."),
        2, gamma=1.0, degree=3, coef0=0.0, check="classifier_boundary",
        offline=Offline.PAGE,
    ),
    _step(
        N_("The price: n × n"), "scale", "circles", "rbf",
        N_("Why not use kernel PCA for everything?"),
        N_("Memory grows like n² and time up to n³, measured live; Nyström and random Fourier "
           "features trade a little accuracy for a lot of speed."),
        1, gamma=5.0, check="memory_doubling",
        offline=Offline.PAGE,
    ),
    # The optional second part: steps after the lecture, for a second session.
    _step(
        N_("One eigenproblem: MDS and Isomap"), "one_eigenproblem", "swiss_roll", "rbf",
        N_("A sheet rolled up in 3-D. Classical MDS keeps the straight-line distances; Isomap "
           "measures them along a graph of neighbours. Which of the two unrolls it?"),
        N_("Both are kernel PCA of a matrix they build: −½ D² for classical MDS, −½ D_G² with "
           "D_G the shortest paths through the 6-nearest-neighbour graph for Isomap; only that "
           "line changes, and each agrees with scikit-learn's own to the checked |correlation|. "
           "The page says, from Spearman's ρ, whose component 1 follows the distance along the "
           "sheet. Then raise k until red edges jump between layers of the roll."),
        5, gamma=0.005, page_query=(("method", "isomap"), ("neighbours", "6")),
        check="unroll", shows=("eigen_agreement", "eigen_sheet", "eigen_graph"), part=BEYOND,
    ),
    _step(
        N_("A graph in pieces"), "one_eigenproblem", "circles", "rbf",
        N_("Join every point of the two rings to its 6 nearest neighbours. What does the graph "
           "look like, and what does that do to spectral clustering?"),
        N_("The page counts the graph's pieces. For Isomap a graph in pieces has infinite "
           "distances (scikit-learn joins the pieces by their closest points); for spectral "
           "clustering, kernel PCA of D^(−½) A D^(−½) followed by k-means, each piece is a block "
           "of K, and the clusters follow the pieces. Compare its adjusted Rand index with "
           "k-means on the plane."),
        5, gamma=5.0, page_query=(("method", "spectral"), ("neighbours", "6")),
        check="graph_pieces", shows=("eigen_graph",), part=BEYOND,
    ),
    _step(
        N_("Novelty detection"), "novelty", "circles", "rbf",
        N_("Fit kernel PCA on normal points only. Can the distance to its subspace in feature "
           "space tell new normal points from outliers, as well as a one-class SVM?"),
        N_("The reconstruction error is computed from the kernel alone (checked against explicit "
           "feature vectors); the ROC curves put it beside scikit-learn's one-class SVM and "
           "isolation forest on the same split, and the page names the better one from the "
           "AUCs. Then raise the number of components and watch kernel PCA's AUC move."),
        5, gamma=5.0, n_components=3, check="novelty_vs_svm", shows=("novelty_auc",),
        part=BEYOND,
    ),
    _step(
        N_("Choosing the kernel by alignment"), "choosing_gamma", "moons", "rbf",
        N_("Kernel–target alignment scores a kernel by how much K̃ looks like the labels, with "
           "no classifier. Does the best-aligned γ also separate the classes best?"),
        N_("The alignment curve sits beside the separability curve for every γ of the sweep; "
           "the page says where the two agree and where they do not, from the numbers. On the "
           "moons they part: alignment rewards what the whole of K̃ shares with the labels, "
           "separability what two components let a straight line do."),
        4, gamma=15.0, check="alignment_linear", shows=("alignment",), part=BEYOND,
    ),
)


# How running text names a kernel parameter, where it is a word (KERNEL_PARAMS' in_text).
_IN_TEXT = {"degree": N_("degree d")}


def differences(step: Settings, now: Settings) -> list[str]:
    """How the view on screen differs from a step's own setting, in words ("γ = 300 (the
    step's: 5)"), in the language of this run; empty when it is the step's view. The
    step's fixed words (its ``look_for``) describe its own setting only: where they differ
    the tour says so."""
    out = []
    if now.dataset != step.dataset:
        out.append(_("dataset {now} (the step's: {step})").format(now=now.dataset,
                                                                 step=step.dataset))
    else:
        before = dict(step.dataset_options)
        out += [_("{name} = {now} (the step's: {step})").format(
                    name=name, now=value, step=before.get(name))
                for name, value in now.dataset_options if before.get(name) != value]
    if now.kernel != step.kernel:
        out.append(_("kernel {now} (the step's: {step})").format(now=now.kernel,
                                                                step=step.kernel))
    else:
        before = step.kernel_params()
        out += [_("{name} = {now} (the step's: {step})").format(
                    name=_(_IN_TEXT.get(name, KERNEL_PARAMS[name].in_text)),
                    now=_shown(name, value), step=_shown(name, before[name]))
                for name, value in now.kernel_params().items() if before[name] != value]
    if now.n_components != step.n_components:
        out.append(_("{now} components (the step's: {step})").format(
            now=now.n_components, step=step.n_components))
    if now.standardize != step.standardize:
        out.append(_("inputs standardised") if now.standardize else
                   _("inputs not standardised"))
    return out


def _shown(name: str, value: Any) -> str:
    return format_gamma(value) if name == "gamma" else format_number(value, "g")


def tally_id(number: int) -> str:
    """Step ``number``'s question in the class tally."""
    return f"tour{number}"


def main_steps() -> tuple[TourStep, ...]:
    """The lecture itself: every step that belongs to no optional part."""
    return tuple(step for step in STEPS if not step.part)


def offline_steps() -> tuple[TourStep, ...]:
    """The steps the offline lecture draws (``lecture_pack``), in the tour's order."""
    return tuple(step for step in STEPS if step.offline is not None)


def place_in_part(number: int) -> tuple[int, int]:
    """Where step ``number`` is among the steps of its part, (position, count): step 3 is
    3 of the lecture's 10, step 11 is 1 of its optional part's 4. A count never mixes the
    two: the lecture is its own steps, the optional part follows it."""
    step = STEPS[number - 1]
    same_part = [other for other in STEPS if other.part == step.part]
    return same_part.index(step) + 1, len(same_part)


def total_minutes(part: str = "") -> int:
    """Minutes of the lecture (or of the optional ``part``)."""
    return sum(step.minutes for step in STEPS if step.part == part)


def parse_step(raw: Any) -> tuple[int, str | None]:
    """A 1-based step number from the URL; (1, problem) when it is not a valid step (the
    problem in the language of this run)."""
    return parse_page_number(
        raw, count=len(STEPS),
        not_a_number=N_("`step=`{value} is not a step number; starting at step 1."),
        out_of_range=N_("The tour has steps 1 to {count}, not {value}; starting at step 1."))
