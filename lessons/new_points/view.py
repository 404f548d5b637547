"""The new-points page's sections: the split, the held-out projection, a placed point's terms."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from experiments.checks import Check
from experiments.kernel_diagnostics import signed
from kpca_core import KERNELS
from lessons.new_points.experiment import (
    Contributions,
    NewPointsFit,
    contributions,
    fit_new_points,
    nearest_rows,
    split_indices,
    summarise_terms,
)
from lessons.new_points.figures import projection_with_heldout, terms_in_input_space
from server.admission import queued
from server.memory import guard_memory
from shell import exports
from shell.caches import Inputs, bounded_cache, load_data
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption
from shell.figures import digit_mosaic, plot_text, shown_class_label
from shell.page import refusal_text
from shell.registry import NEW_POINTS_HELD_OUT, new_points_training
from shell.state import KernelKey, Settings, params_text
from words.i18n import N_, _, format_number
from words.text import inert

TOP_TERMS = 10
NEAREST_DIGITS = 8
MAX_TYPED_FEATURES = 6  # up to this many features the point is typed in; beyond, picked
CHECK_TOLERANCE = 1e-9  # relative to the largest |coordinate|
USPS_TEST = (("n", 2007), ("seed", 0), ("split", "test"))


@dataclass(frozen=True)
class HeldOutFit:
    """The rows of the current data used for fitting and held out, and the fit."""

    train: np.ndarray
    held: np.ndarray
    fit: NewPointsFit
    Z_held: np.ndarray  # KernelPCA.transform of the held-out rows
    Z_held_own: np.ndarray  # the same, centred with the held-out rows' own means (wrong)
    P_train: np.ndarray  # linear PCA of the training rows
    P_held: np.ndarray


def split_and_fit(inputs: Inputs, kernel: KernelKey, n_components: int) -> HeldOutFit:
    n_train = new_points_training(len(inputs.X))
    guard_memory(n_train, copies=2)  # K for KernelPCA.fit, then K again for the statistics
    return _split_and_fit(inputs, kernel, n_components, _n_train=n_train)


# An entry holds the training inputs, n × k projections and a fitted KernelPCA: ≤ 2 MB for
# USPS-2000 (the model keeps X_fit_, 1,500 × 256).
@bounded_cache(max_entries=8)
def _split_and_fit(inputs: Inputs, kernel: KernelKey, n_components: int,
                   _n_train: int) -> HeldOutFit:
    X = inputs.X
    train, held = split_indices(len(X), inputs.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    with queued(_n_train, copies=2, what=N_("this kernel PCA")):
        fit = fit_new_points(X[train], kernel=kernel.kernel,
                             kernel_params=kernel.kernel_params(),
                             n_components=n_components)
    return HeldOutFit(
        train=train, held=held, fit=fit,
        Z_held=fit.model.transform(X[held]),
        Z_held_own=fit.project_with_own_centering(X[held]),
        P_train=fit.pca.transform(X[train]), P_held=fit.pca.transform(X[held]),
    )


def _labels(data, rows):
    return None if data.y is None else data.y[rows]


def _pad(Z: np.ndarray) -> np.ndarray:
    """Two columns for a scatter (a 1-D linear PCA gets a zero second axis)."""
    return Z[:, :2] if Z.shape[1] >= 2 else np.column_stack([Z[:, 0], np.zeros(len(Z))])


def _kernel_text(settings: Settings) -> str:
    params = params_text(settings)
    title = _(KERNELS[settings.kernel].title)
    return _("{kernel}, {params}").format(kernel=title, params=params) if params else title


@dataclass(frozen=True)
class NewPoint:
    """The point placed on the page: where it lands and what it is."""

    kpca: np.ndarray  # KernelPCA.transform(x), (k,)
    pca: np.ndarray  # linear PCA coordinates, (min(k, d),)
    label: str = N_("your point")  # its 'set' in the CSV (English) and, translated, its legend
    shown: str | None = None  # its legend entry when it is not _(label) ("test digit 12")
    row: int | str = ""  # its row in the data ('' when it is not one of them)
    target: int | None = None  # its class, when known


def file_stem(settings: Settings) -> str:
    return exports.view_name(settings, "new-points")


def heldout_projections(split: HeldOutFit, data, settings: Settings, *,
                        point: NewPoint | None = None, key_suffix: str = "") -> None:
    """KPCA and linear PCA side by side: training, held-out, and optionally one new point."""
    y_train, y_held = _labels(data, split.train), _labels(data, split.held)
    stem = file_stem(settings)
    label = "" if point is None else point.shown or _(point.label)
    left, right = st.columns(2)
    with left:
        fig = projection_with_heldout(
            split.fit.train_projection, y_train, split.Z_held, y_held, data.target_names,
            train_rows=split.train, held_rows=split.held,
            new_point=None if point is None else point.kpca,
            title=_("Kernel PCA<br><sup>{kernel}</sup>").format(kernel=_kernel_text(settings)),
            axis_titles=(_("KPCA component 1"), _("KPCA component 2")), new_point_label=label,
        )
        show_chart(fig, key=f"chart_np_kpca{key_suffix}", name=f"{stem}-kpca", columns=2)
    with right:
        fig = projection_with_heldout(
            _pad(split.P_train), y_train, _pad(split.P_held), y_held, data.target_names,
            train_rows=split.train, held_rows=split.held,
            new_point=None if point is None else _pad(point.pca[None, :])[0],
            title=_("Linear PCA<br><sup>same training points</sup>"),
            axis_titles=(_("PCA component 1"), _("PCA component 2")), new_point_label=label,
        )
        show_chart(fig, key=f"chart_np_pca{key_suffix}", name=f"{stem}-pca", columns=2)
    exports.csv_download(_("Projections (CSV)"), projections_csv(split, data, point),
                         f"{stem}-projections")


def projections_csv(split: HeldOutFit, data, point: NewPoint | None = None) -> str:
    """The points of the two charts: training, held out, then the placed point."""
    rows = [*split.train, *split.held]
    roles = ["training"] * len(split.train) + ["held out"] * len(split.held)
    Z = np.vstack([split.fit.train_projection, split.Z_held])
    P = np.vstack([split.P_train, split.P_held])
    y = None if data.y is None else list(data.y[rows])
    if point is not None:
        rows, roles = [*rows, point.row], [*roles, point.label]
        Z, P = np.vstack([Z, point.kpca]), np.vstack([P, point.pca])
        y = None if y is None else [*y, point.target]
    return exports.projections_csv(Z, P, y, data.target_names, points=rows, roles=roles)


def heldout_lesson(split: HeldOutFit) -> None:
    n_train, n_held = len(split.train), len(split.held)
    shift = float(np.max(np.linalg.norm(split.Z_held_own[:, :2] - split.Z_held[:, :2], axis=1)))
    spread = float(np.max(np.abs(split.fit.train_projection[:, :2]))) or 1.0
    st.caption(_(
        "Fitted on {n_train} points (filled); the {n_held} held-out points (open diamonds) "
        "were projected afterwards with KernelPCA.transform: the kernel between each new point "
        "and the training points, centred with the training means, times α. Each lands among "
        "training points of its own kind when the components generalise."
    ).format(n_train=format_number(n_train, ","), n_held=format_number(n_held, ",")))
    if split.fit.warning:
        st.warning(indefinite_warning(split.fit.model), icon=":material/warning:")
    st.markdown(_(
        "**A common mistake:** centring the held-out kernel with the held-out points' own "
        "means instead would move them by up to **{shift}** in the first two components "
        "({share} % of the training points' largest coordinate), and a "
        "single new point would always land exactly at the origin."
    ).format(shift=format_number(shift, ".3g"),
             share=format_number(100 * shift / spread, ".0f")))


def indefinite_warning(model) -> str:
    """kpca_core's IndefiniteKernelWarning, said in the run's language from the fit's numbers
    (its significantly negative eigenvalues are the negative ones it keeps): the English is
    kpca_core's message, word for word."""
    eigenvalues = np.asarray(model.eigenvalues_)
    negative = eigenvalues[eigenvalues < 0]
    # Translators: {code_name} is the kernel's name in code, quoted as kpca_core writes it
    # ('sigmoid'), not its title.
    return _("The centred kernel matrix has {count} significantly negative eigenvalue(s) among "
             "the {k} computed (smallest {smallest}): the {code_name} kernel is not positive "
             "semi-definite for these data, so those components have no real feature-space "
             "axis and project to 0.").format(
        count=format_number(len(negative)), k=format_number(len(eigenvalues)),
        smallest=format_number(float(negative.min()), ".3g"),
        code_name=repr(model.kernel))


# --------------------------------------------------------------------------- placing a point


def _input_key(settings: Settings, j: int) -> str:
    """One widget key per data set: new data start from their own held-out point."""
    data_id = repr(settings.data_key)
    return f"np_x{j}_{hashlib.sha1(data_id.encode()).hexdigest()[:10]}"


def typed_point(split: HeldOutFit, data, X: np.ndarray, settings: Settings) -> np.ndarray:
    """Number inputs, one per feature of ``X`` (the inputs as the kernel sees them),
    starting at the first held-out point."""
    names = list(data.feature_names) or [f"x{j + 1}" for j in range(X.shape[1])]
    start = X[split.held[0]]
    low, high = X.min(axis=0), X.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    columns = st.columns(min(len(names), 6))
    values = []
    for j, name in enumerate(names):
        key = _input_key(settings, j)
        st.session_state.setdefault(key, round(float(start[j]), 3))
        values.append(columns[j % len(columns)].number_input(
            # A widget label is Markdown: a column name from an upload is shown as text.
            _("{name} (standardised)").format(name=inert(name)) if settings.standardize
            else inert(name),
            step=float(f"{span[j] / 50:.1g}"), format="%.3f", key=key,
        ))
    st.caption(_(
        "Type the coordinates of a new point. (Streamlit charts report clicks on drawn "
        "points only, not on empty space, so a point cannot be placed by clicking the plot.) "
        "It starts at the first held-out point: point {row} of the data (points "
        "are numbered from 0, as in the CSV downloads and the charts' hover labels)."
    ).format(row=split.held[0]))
    return np.array(values, dtype=float)


def picked_point(split: HeldOutFit, X: np.ndarray) -> tuple[np.ndarray, int]:
    """Too many features to type: pick one of the held-out points (its inputs in ``X``, as
    the kernel sees them, and its row)."""
    row = st.selectbox(_("Held-out point"), list(split.held), key="np_pick_row",
                       help=_("These data have too many features to type a point in."))
    return X[int(row)], int(row)


def locate(split: HeldOutFit, x: np.ndarray) -> tuple[Contributions, np.ndarray]:
    """The point's terms (and KernelPCA.transform) and its linear PCA coordinates."""
    return contributions(split.fit, x), split.fit.pca.transform(x[None, :])[0]


def coordinates_check(parts: Contributions) -> None:
    scale = float(np.max(np.abs(parts.transform))) or 1.0
    show_check(Check(_("largest |Σᵢ αᵢᵏ k̃(xᵢ, x) − KernelPCA.transform(x)| over the "
                       "components"),
                     parts.max_difference, tolerance=CHECK_TOLERANCE * max(scale, 1.0)))


def terms(split: HeldOutFit, parts: Contributions, x: np.ndarray, data,
          settings: Settings) -> int:
    """The top training points' terms for one component, and where the sum comes from."""
    k = len(parts.coordinates)
    component = st.segmented_control(
        _("Component"), list(range(1, k + 1)), default=1, key="np_component", required=True,
        format_func=lambda c: f"y{c}",
    )
    c = int(component) - 1
    top = parts.top(c, TOP_TERMS)
    X_train = split.fit.X_train
    point_column, class_column = _("training point"), _("class")
    table = {
        point_column: split.train[top],
        class_column: [shown_class_label(data.target_names, int(data.y[split.train[i]]), data.y)
                       for i in top] if data.y is not None else ["—"] * len(top),
    }
    if X_train.shape[1] <= 3:
        for j in range(X_train.shape[1]):
            table[f"x{j + 1}"] = X_train[top, j]
    table.update({
        f"α{c + 1}": split.fit.alphas[top, c],
        "k(xᵢ, x)": parts.kernel[top],
        "k̃(xᵢ, x)": parts.centered[top],
        _("term αᵢ·k̃"): parts.terms[top, c],
    })
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch",
                 column_config={name: st.column_config.NumberColumn(format="%.4g")
                                for name in table if name not in (point_column, class_column)})
    total = parts.coordinates[c]
    top_sum = float(parts.terms[top, c].sum())
    magnitude = np.abs(parts.terms[:, c])
    share = float(magnitude[top].sum() / magnitude.sum()) if magnitude.sum() > 0 else 0.0
    st.markdown(_(
        "Sum over all **{n}** training points: y{component}(x) = "
        "**{total}**; the {rows} rows above add up to "
        "{top_sum} and carry {share} % of the total |terms|. "
        "KernelPCA.transform(x) gives **{transform}**."
    ).format(n=format_number(len(split.train), ","), component=c + 1,
             total=signed(total, ".6g"), rows=format_number(len(top)),
             top_sum=signed(top_sum, ".6g"), share=format_number(100 * share, ".0f"),
             transform=signed(parts.transform[c], ".6g")))
    summary = summarise_terms(split.fit, parts, x, c, TOP_TERMS)
    number_caption(summary.sentence(c + 1))
    if split.fit.model.eigenvalues_[c] <= 0:
        st.caption(_("μ{component} ≤ 0 (the eigenvalue of K̃): this component has no real "
                     "axis, so α = 0 and y = 0.").format(component=c + 1))
    return c


def terms_picture(split: HeldOutFit, parts: Contributions, x: np.ndarray, c: int, data,
                  settings: Settings) -> None:
    fig = terms_in_input_space(
        split.fit.X_train, parts.terms[:, c], x, component=c + 1,
        title=_("Each training point's term in y{component}(x): size = |αᵢ k̃(xᵢ, x)|").format(
            component=c + 1),
        axis_titles=[plot_text(name) for name in data.feature_names[:2]] or ["x₁", "x₂"],
    )
    show_chart(fig, key="chart_np_terms", name=f"{file_stem(settings)}-terms")
    distance = np.linalg.norm(split.fit.X_train - x[None, :], axis=1)
    top = parts.top(c, TOP_TERMS)
    near, everyone = float(np.median(distance[top])), float(np.median(distance))
    st.caption(_("Red terms push y{component}(x) up, blue ones down. The {count} largest terms "
                 "come from training points at a median distance of {near} from your "
                 "point; the median over all training points is {everyone}. Each term "
                 "αᵢ k̃(xᵢ, x) holds x's kernel value with xᵢ and xᵢ's share of the centring "
                 "(see the split above the picture).").format(
        component=c + 1, count=format_number(len(top)), near=format_number(near, ".3g"),
        everyone=format_number(everyone, ".3g")))


# --------------------------------------------------------------------------- USPS


def usps_test_digit(settings: Settings, data) -> tuple[np.ndarray, np.ndarray, int, int] | None:
    """Pick a digit from the published test split.

    Returns (the digit as the kernel sees it, its raw pixels, its row, its label).
    """
    try:
        pool = load_data("usps", USPS_TEST)
    except datasets.UspsUnavailableError as error:
        st.error(refusal_text(error))
        return None
    left, right = st.columns([1, 3])
    any_digit = _("any")
    digit = left.selectbox(_("Digit"), ["any", *range(10)], key="np_usps_digit",
                           format_func=lambda d: any_digit if d == "any" else str(d))
    rows = np.arange(len(pool.X)) if digit == "any" else np.flatnonzero(pool.y == digit)
    position = right.slider(_("Which test image"), 0, len(rows) - 1, 0, key="np_usps_index",
                            help=_("Images of the published USPS test split ({n} digits).")
                            .format(n=format_number(len(pool.X), ",")))
    row = int(rows[position])
    raw = pool.X[row]
    if settings.standardize:  # the same transform the training digits went through
        X = data.X
        std = X.std(axis=0)
        std[std == 0] = 1.0
        x = (raw - X.mean(axis=0)) / std
    else:
        x = raw
    if dict(settings.dataset_options).get("split") != "train":
        st.info(_("The sidebar's USPS split is not 'train': the test digit may also be among the "
                  "digits kernel PCA was fitted on."), icon=":material/info:")
    return x, raw, row, int(pool.y[row])


def usps_neighbours(split: HeldOutFit, parts: Contributions, data, settings: Settings,
                    x_raw: np.ndarray, label: int, row: int) -> None:
    """The test digit, then its nearest training digits in KPCA coordinates, in one strip."""
    z = parts.transform
    nearest = nearest_rows(split.fit.train_projection, z, NEAREST_DIGITS)
    rows = split.train[nearest]
    same = int(np.sum(data.y[rows] == label))
    fig = digit_mosaic(
        np.vstack([x_raw[None, :], data.X[rows]]), data.image_shape,
        columns=NEAREST_DIGITS + 1,
        hover_labels=[_("test digit {row}: {label}").format(row=row, label=label)]
        + [_("training digit {row}: {label}").format(row=r, label=data.target_names[data.y[r]])
           for r in rows],
        title=_("Test digit {row} (a {label}), then its {count} nearest training digits").format(
            row=row, label=label, count=format_number(NEAREST_DIGITS)),
    )
    _fit_images(fig)
    show_chart(fig, key="chart_np_neighbours", name=f"{file_stem(settings)}-neighbours")
    st.caption(_(
        "First image: the test digit. {same} of its {count} nearest training digits "
        "are {label}s, its true label. Nearest in the first {k} kernel components: "
        "distances between KPCA coordinates, the test digit's from KernelPCA.transform."
    ).format(same=format_number(same), count=format_number(NEAREST_DIGITS), label=label,
             k=format_number(len(z))))


def _fit_images(fig) -> None:
    """Keep the pixels square by shrinking the plot, never by cropping the image."""
    fig.update_layout(height=230)
    fig.update_xaxes(constrain="domain")
    fig.update_yaxes(constrain="domain")
