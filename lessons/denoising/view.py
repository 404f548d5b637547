"""The de-noising page's controls and sections: the widgets, the digit grid, the curves.

The settings and the cached computations they select are :mod:`lessons.denoising.caches`;
each section here draws their results and says in words what the numbers show.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from experiments.checks import Check
from lessons.denoising import experiment as dn
from lessons.denoising import figures
from lessons.denoising.caches import (
    DEFAULT_M,
    DEFAULT_N_TRAIN,
    DEFAULT_TEST_PER_CLASS,
    DenoisingSettings,
    clean_reconstruction,
    noisy_test,
    test_digits,
    train_digits,
)
from lessons.denoising.sections import (  # noqa: F401  (the page's words, read from here)
    best_m_text,
    comparison_text,
    digit_grid_figure,
    fixed_point_text,
    shown_rows,
)
from shell.charts import show_chart
from shell.checks import show_check
from words.i18n import N_, _, format_number, join_sentences

# Up to the paper's 3,000 digits: every m up to n − 1 needs all n − 1 eigenvectors, kept
# with the fit with α and the training coordinates, three n × n matrices (3,000: 216 MB,
# and 40 s of eigensolver on 2 busy cores; 7,291 would be 1.3 GB and about 10 minutes).
N_TRAIN_CHOICES = (300, 500, 1000, 2000, 3000)
GAMMA_CHOICES = (1 / 1024, 1 / 512, 1 / 256, 1 / 128, 1 / 64, 1 / 32, 1 / 16, 1 / 8)
ALPHA_CHOICES = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)
MAX_ITER_CHOICES = (10, 20, 50, 100, 200, 500)
# Pixels live in [-1, 1]; a pre-image far outside that range is not a digit any more.
KWOK_TSANG_LIMIT = 2.0

# Widget keys (tests drive the page through them).
K_N, K_TEST, K_SEED, K_NOISE = "dn_n_train", "dn_test_per_class", "dn_seed", "dn_noise"
K_SIGMA, K_P, K_NOISY_FIT, K_GAMMA = "dn_sigma", "dn_p", "dn_fit_noisy", "dn_gamma"
K_M, K_METHOD, K_ALPHA, K_K, K_ITER = "dn_m", "dn_method", "dn_alpha", "dn_k", "dn_max_iter"
K_WIDTH = "dn_width"
# The kernel width: the paper's c = 0.5 · 256, "twice the average variance" as the paper
# also calls it (measured on the training digits), or any γ of GAMMA_CHOICES.
WIDTHS = ("paper", "variance", "other")


def format_gamma_fraction(gamma: float) -> str:
    """γ as the paper writes it, "1/128", marking the paper's own value."""
    text = f"1/{round(1 / gamma)}"
    return _("{gamma} (the paper's)").format(gamma=text) if math.isclose(
        gamma, dn.PAPER_GAMMA) else text


def width_label(width: str, variance_gamma: float) -> str:
    """The radio's label for a width: c and γ = 1/c, both as k(x, y) = exp(−‖x − y‖² / c)."""
    if width == "paper":
        return _("c = 0.5 · 256 (the paper's value): γ = 1/128")
    if width == "variance":
        per_pixel = 1 / (256 * variance_gamma)  # twice the mean pixel variance, measured
        return _("c = twice the average variance = {per_pixel} · 256: γ = 1/{inverse} "
                 "here").format(per_pixel=format_number(per_pixel, ".3f"),
                                inverse=format_number(1 / variance_gamma, ".0f"))
    return _("another γ")


# The pre-image methods as the radio shows them (their titles without "KPCA · ").
METHOD_OPTIONS = {"learned": N_("learned (kernel ridge)"), "fixed_point": N_("fixed point (Mika)"),
                  "kwok_tsang": N_("Kwok–Tsang (regularised)")}


# ------------------------------------------------------------------------ controls


def controls() -> DenoisingSettings:
    """The page's widgets (keyed, defaults seeded once) → the settings."""
    ss = st.session_state
    for key, value in ((K_N, DEFAULT_N_TRAIN), (K_TEST, DEFAULT_TEST_PER_CLASS), (K_SEED, 0),
                       (K_NOISE, "gaussian"), (K_SIGMA, dn.PAPER_SIGMA),
                       (K_P, dn.PAPER_SPECKLE_P), (K_NOISY_FIT, False),
                       (K_GAMMA, dn.PAPER_GAMMA), (K_WIDTH, "paper"), (K_M, DEFAULT_M),
                       (K_METHOD, "fixed_point"),
                       (K_ALPHA, dn.DEFAULT_ALPHA), (K_K, dn.DEFAULT_NEIGHBORS),
                       (K_ITER, dn.DEFAULT_MAX_ITER)):
        ss.setdefault(key, value)
    data_col, noise_col, model_col = st.columns(3)
    with data_col:
        if ss[K_N] not in N_TRAIN_CHOICES:
            ss[K_N] = max(v for v in N_TRAIN_CHOICES if v <= max(ss[K_N], N_TRAIN_CHOICES[0]))
        n_train = st.select_slider(
            _("Training digits"), N_TRAIN_CHOICES, key=K_N,
            help=_("A seeded subset of the 7,291 USPS training digits, each digit in "
                   "proportion, up to the paper's 3,000. Every m up to n − 1 needs all n "
                   "eigenvectors of K̃, kept with α and the digits' coordinates: three n × n "
                   "matrices (3,000 digits: 216 MB, under a minute)."),
        )
        test_per_class = st.slider(
            _("Test digits per class"), 1, dn.PAPER_TEST_PER_CLASS, key=K_TEST,
            help=_("From the USPS test set, the same number of each digit (the paper: 50)."),
        )
        seed_option = next(o for o in datasets.available()["usps"].options
                           if o.name == "seed")
        seed = int(st.number_input(_("Random seed"), int(seed_option.low),
                                   int(seed_option.high), step=1, key=K_SEED))
    with noise_col:
        noise_titles = {"gaussian": _("Gaussian"), "speckle": _("Speckle")}
        noise = st.radio(
            _("Noise"), dn.NOISE_KINDS, key=K_NOISE, horizontal=True,
            format_func=noise_titles.__getitem__,
        )
        if noise == "gaussian":
            level = st.slider(_("σ (pixels live on −1 … 1)"), 0.0, 1.5, step=0.05,
                              key=K_SIGMA,
                              help=_("Added to every pixel: x + N(0, σ²). The paper: 0.5."))
        else:
            level = st.slider(_("p (probability a pixel turns black or white)"), 0.0, 1.0,
                              step=0.05, key=K_P,
                              help=_("Each pixel, with probability p, is set to −1 or +1 at "
                                     "random. The paper: 0.4."))
        fit_on_noisy = st.toggle(
            _("Fit on noisy training digits"), key=K_NOISY_FIT,
            help=_("Off (the paper): PCA and kernel PCA learn from clean digits. On: they "
                   "learn from training digits with the same kind of noise."),
        )
    with model_col:
        variance_gamma = dn.twice_variance_gamma(train_digits(n_train, seed))
        width_labels = {w: width_label(w, variance_gamma) for w in WIDTHS}
        width = st.radio(
            _("RBF width, k(x, y) = exp(−‖x − y‖² / c)"), WIDTHS, key=K_WIDTH,
            format_func=width_labels.__getitem__,
            help=_("Mika et al. use c = 0.5 · 256 and describe it as twice the data's average "
                   "variance per pixel. On these digits (pixels on −1 … 1) twice the average "
                   "variance is {variance} per pixel, not 0.5: the two readings differ by "
                   "almost 2×. Try both.").format(
                variance=format_number(1 / (256 * variance_gamma), ".2f")),
        )
        if width == "paper":
            gamma = dn.PAPER_GAMMA
        elif width == "variance":
            gamma = variance_gamma
        else:
            gamma_labels = {g: format_gamma_fraction(g) for g in GAMMA_CHOICES}
            gamma = st.select_slider(_("RBF γ = 1/c"), GAMMA_CHOICES, key=K_GAMMA,
                                     format_func=gamma_labels.__getitem__)
        method_labels = {m: _(title) for m, title in METHOD_OPTIONS.items()}
        method = st.radio(_("Pre-image method for the digit grid"), dn.PREIMAGE_METHODS,
                          key=K_METHOD, format_func=method_labels.__getitem__)
        m_values = dn.m_grid(dn.largest_m(n_train))
        if ss[K_M] not in m_values:
            ss[K_M] = min(m_values, key=lambda v: abs(v - ss[K_M]))
        m = st.select_slider(_("m, components kept (in the grid)"), m_values, key=K_M)
    with st.expander(_("Pre-image settings"), icon=":material/tune:"):
        alpha_col, k_col, iter_col = st.columns(3)
        alpha = alpha_col.select_slider(_("Learned: ridge α"), ALPHA_CHOICES, key=K_ALPHA,
                                        format_func=lambda a: f"{a:g}")
        k_max = min(50, n_train)
        if ss[K_K] > k_max:
            ss[K_K] = k_max
        k = k_col.slider(_("Kwok–Tsang: neighbours k"), 2, k_max, key=K_K)
        max_iter = iter_col.select_slider(_("Fixed point: steps per start"), MAX_ITER_CHOICES,
                                          key=K_ITER)
    return DenoisingSettings(
        width=width,
        n_train=int(n_train), test_per_class=int(test_per_class), seed=seed, noise=noise,
        level=float(level), fit_on_noisy=bool(fit_on_noisy), gamma=float(gamma), m=int(m),
        method=method,
        params=dn.PreimageParams(alpha=float(alpha), n_neighbors=int(k),
                                 max_iter=int(max_iter)),
    )


# ------------------------------------------------------------------------ sections


def digit_grid(settings: DenoisingSettings, curves: dict[str, dn.MethodCurve]) -> None:
    X_clean, y = test_digits(*settings.test_key)
    X_noisy = noisy_test(settings.test_key, settings.noise_key)
    fig, caption = digit_grid_figure(X_clean, X_noisy, y, curves, settings.m, settings.method)
    show_chart(fig, key="denoising_grid", name="denoising-digits")
    if caption is not None:
        st.caption(caption)
    kwok_tsang_warning(curves["kwok_tsang"], settings.params.n_neighbors)


def kwok_tsang_warning(curve: dn.MethodCurve, k: int) -> None:
    """Say so when Kwok–Tsang's pre-images leave the digits' range (many neighbours)."""
    worst_m, worst = max(((m, float(np.abs(Z).max())) for m, Z in curve.reconstructions.items()),
                         key=lambda item: item[1])
    if worst > KWOK_TSANG_LIMIT:
        st.warning(
            _("Kwok–Tsang with k = {k} neighbours produces pixels up to {worst} at m = {m} "
              "(digits live in −1 … 1). The projected point is closer to every training digit "
              "than any real digit's image can be, so the distances it implies do not fit "
              "together; with many neighbours the multidimensional scaling amplifies that "
              "mismatch. Lower k under Pre-image settings.").format(
                k=format_number(k), worst=format_number(worst, ".3g"),
                m=format_number(worst_m)),
            icon=":material/warning:",
        )


def curves_chart(settings: DenoisingSettings, curves: dict[str, dn.MethodCurve],
                 noisy_error: float, columns: int = 1) -> None:
    data = {method: (c.m_values, c.errors, c.seconds) for method, c in curves.items()}
    level = ("σ" if settings.noise == "gaussian" else "p") + (
        f" = {format_number(settings.level, 'g')}")
    fig = figures.mse_curves(
        data, noisy_mse=noisy_error, current_m=settings.m,
        # The settings as a subtitle: smaller, and never wrapped in projector mode (the
        # stored run's wrapped to three lines there and lowered its plot below this one).
        title=_("This run<br><sup>{n} digits, {noise} {level}</sup>").format(
            n=format_number(settings.n_train, ","), noise=_(dn.NOISE_TITLES[settings.noise]),
            level=level),
    )
    show_chart(fig, key="denoising_mse", name="denoising-mse-vs-m", columns=columns)


def stored_run(stored: dict, width: str) -> str:
    """The stored run to draw: the page's own width when it is one of the two stored."""
    return width if width in stored["runs"] else "paper"


def stored_chart(stored: dict, noise: str, width: str) -> None:
    run = stored["runs"][stored_run(stored, width)]
    r = run["results"][noise]
    s = stored["settings"]
    data = {method: (r["m_values"], r["mse"][method], r["seconds"][method])
            for method in dn.METHODS}
    level = ("σ" if noise == "gaussian" else "p") + f" = {format_number(r['level'], 'g')}"
    fig = figures.mse_curves(
        data, noisy_mse=r["noisy_mse"],
        title=_("The paper's setting (stored)<br><sup>{n} digits, γ = 1/{inverse}, {noise} "
                "{level}</sup>").format(
            n=format_number(s["n_train"], ","), inverse=format_number(1 / run["gamma"], ".0f"),
            noise=_(dn.NOISE_TITLES[noise]), level=level),
    )
    show_chart(fig, key="denoising_stored", name="denoising-mika1999-stored", columns=2)


def noise_text(split: dn.NoiseSplit, curve: dn.MethodCurve, stored: dict | None,
               noise: str) -> str:
    """Why kernel PCA's curve is best where it is, from where the projection puts the
    noise in feature space (:class:`dn.NoiseSplit`): outside the span of the training
    digits (removed at every m), or on the components past m (removed by dropping them)."""
    title = _(dn.METHOD_TITLES[curve.method])
    best_m = curve.best[0]
    outside = _("{noisy} % of a noisy test digit's squared length in feature space (centred) "
                "lies outside the span of the training digits, against {clean} % of a clean "
                "one: every projection removes that part, at any m.").format(
        noisy=format_number(100 * split.outside_noisy, ".0f"),
        clean=format_number(100 * split.outside_clean, ".0f"))
    helps = split.drop_helps
    if not len(split.m_values):
        return outside
    if best_m == curve.m_values[-1] and not helps.any():
        i = min(range(len(split.m_values)), key=lambda j: abs(split.m_values[j] - 512))
        text = _("**Why {title} is best with all the components here:** {outside} Inside the "
                 "span, the components past m carry more of the digits than of the noise at "
                 "every m of the grid (past m = {m}: digit {digit}, noise {noise}), so dropping "
                 "them removes more digit than noise: the de-noising is done by the projection "
                 "onto the span itself, not by dropping components.").format(
            title=title, outside=outside, m=format_number(split.m_values[i], ","),
            digit=format_number(split.dropped_digit[i], ".3g"),
            noise=format_number(split.dropped_noise[i], ".3g"))
        if stored is not None and "variance" in stored["runs"]:
            run = stored["runs"]["variance"]
            r = run["results"][noise]["best"]["fixed_point"]
            text = join_sentences([text, _(
                "With a wider kernel the noise spreads into the trailing components: in the "
                "stored run at c = twice the average variance (γ = 1/{inverse}), the fixed "
                "point is best at m = {m}, inside the grid, as in the paper (choose that width "
                "above to see it live).").format(
                inverse=format_number(1 / run["gamma"], ".0f"), m=format_number(r["m"], ","))])
        return text
    if best_m != curve.m_values[-1] and helps.any():
        first = split.m_values[int(np.argmax(helps))]
        j = int(np.argmax(helps))
        return _("**Why an interior m:** {outside} Inside the span, the components past m = "
                 "{first} carry more noise than digit ({noise} against {digit}): dropping them "
                 "de-noises further, so {title}'s error is lowest at m = {best}, before the "
                 "last.").format(
            outside=outside, first=format_number(first, ","),
            noise=format_number(split.dropped_noise[j], ".3g"),
            digit=format_number(split.dropped_digit[j], ".3g"), title=title,
            best=format_number(best_m, ","))
    if helps.any():
        return _("{outside} Inside the span, dropping the components past m removes more noise "
                 "than digit from m = {m} on; the pre-image adds an error of its own, so the "
                 "best m is not set by this alone.").format(
            outside=outside, m=format_number(split.m_values[int(np.argmax(helps))], ","))
    return _("{outside} Inside the span, dropping the components past m removes more noise "
             "than digit from m = nowhere on the grid; the pre-image adds an error of its own, "
             "so the best m is not set by this alone.").format(outside=outside)


def stored_table(stored: dict) -> pd.DataFrame:
    """Both noises × both widths of the stored run: best m and PCA / KPCA, by method."""
    rows = []
    for width, run in stored["runs"].items():
        for noise, r in run["results"].items():
            inverse = format_number(1 / run["gamma"], ".0f")
            row = {"γ": (_("1/{inverse} (paper)") if width == "paper"
                         else _("1/{inverse} (2 × var)")).format(inverse=inverse),
                   _("noise"): _(dn.NOISE_TITLES[noise]),
                   _("PCA best m"): r["best"]["pca"]["m"]}
            for method in dn.PREIMAGE_METHODS:
                short = _(STORED_COLUMNS[method])
                row[_("{method}: best m").format(method=short)] = r["best"][method]["m"]
                row[_("{method}: PCA/KPCA").format(method=short)] = round(
                    r["ratio_pca_over_kpca"][method], 2)
            row[_("paper: PCA/KPCA (best m)")] = f"{r['paper_ratio']} ({r['paper_best_m']})"
            rows.append(row)
    return pd.DataFrame(rows)


# A pre-image method in the stored table's column titles (its title's first word).
STORED_COLUMNS = {"learned": N_("learned"), "fixed_point": N_("fixed"), "kwok_tsang": "Kwok–Tsang"}


def stored_text(stored: dict) -> str:
    s = stored["settings"]
    return _(
        "Stored run of `benchmarks/reproduce_mika1999.py` ({train} training and {test} test "
        "digits per class, m up to {m}, seeds {subset}/{noise}, {created}). PCA / KPCA is each "
        "method's best MSE over every m of the grid, divided into linear PCA's best; the paper "
        "reports only the fixed point's. Twice the average variance of these digits is "
        "{variance} per pixel (the paper's c = 0.5 · 256 assumes 0.5).").format(
        train=s["train_per_class"], test=s["test_per_class"],
        m=format_number(s["m_values"][-1], ","), subset=s["subset_seed"], noise=s["noise_seed"],
        created=stored["created"], variance=format_number(2 * s["mean_pixel_variance"], ".2f"))


def noise_check(settings: DenoisingSettings) -> None:
    """The noise model, verified: the noisy digits' MSE against its expected value."""
    X_clean = test_digits(*settings.test_key)[0]
    X_noisy = noisy_test(settings.test_key, settings.noise_key)
    measured = dn.mse(X_noisy, X_clean)
    n = X_clean.size
    if settings.noise == "gaussian":
        expected = settings.level**2
        spread = settings.level**2 * math.sqrt(2 / n)  # std of a mean of n σ²χ²₁ values
        label = _("MSE of the noisy digits, expected σ²")
    else:
        # A hit pixel (probability p) becomes -1 or +1 at random: its squared error is
        # (1 + x)^2 or (1 - x)^2, mean 1 + x^2, mean square ((1 + x)^4 + (1 - x)^4) / 2.
        p = settings.level
        second = p * (1 + X_clean**2)
        fourth = p * ((1 + X_clean) ** 4 + (1 - X_clean) ** 4) / 2
        expected = float(second.mean())
        spread = math.sqrt(float((fourth - second**2).sum())) / n
        label = _("MSE of the noisy digits, expected p · mean(1 + x²)")
    # Five standard deviations of the sampling error: a wrong noise model fails it.
    show_check(Check(label, measured, tolerance=max(5 * spread, 1e-12), target=expected))


def clean_section(settings: DenoisingSettings, curves: dict[str, dn.MethodCurve]) -> None:
    """Clean versus noisy reconstruction errors at m, and why they can disagree."""
    clean_pca, clean_kpca = clean_reconstruction(settings)
    m, method = settings.m, settings.method
    i = curves["pca"].m_values.index(m)
    noisy_pca, noisy_kpca = float(curves["pca"].errors[i]), float(curves[method].errors[i])
    title = _(dn.METHOD_TITLES[method])
    st.markdown(clean_text(m, title, clean_pca, clean_kpca, noisy_pca, noisy_kpca))
    st.markdown(_(
        "Why the two can disagree: PCA's first m axes are, by construction, the m "
        "directions that keep the most *pixel* variance of the training digits, so no "
        "other m-dimensional linear reconstruction of digits like them is better on "
        "average. Kernel PCA keeps the most variance in *feature space*, and its pre-image "
        "adds an error of its own: the result is pulled towards the training digits it is "
        "built from (the fixed point is literally a weighted mean of training digits). On a "
        "clean digit that pull is a cost. On a noisy digit it is the point: noise pushes "
        "a digit off the thin, curved set where real digits live; a flat subspace big "
        "enough to hold the digits' variety also lets much of the noise through, while a "
        "pre-image made of real digits can only look like a digit."
    ))


def clean_text(m: int, title: str, clean_pca: float, clean_kpca: float,
               noisy_pca: float, noisy_kpca: float) -> str:
    """The measured comparison, in words that follow the numbers."""
    def compare(pca: float, kpca: float) -> str:
        if kpca > pca * 1.005:
            return "worse"
        if kpca < pca / 1.005:
            return "better"
        return "equal"

    clean_verdict, noisy_verdict = compare(clean_pca, clean_kpca), compare(noisy_pca, noisy_kpca)
    text = _("At m = {m}, reconstructing the **clean** test digits: PCA {clean_pca}, {title} "
             "{clean_kpca} — {clean_verdict}. De-noising the **noisy** ones: PCA {noisy_pca}, "
             "{title} {noisy_kpca} — {noisy_verdict}.").format(
        m=format_number(m), title=title, clean_pca=format_number(clean_pca, ".4f"),
        clean_kpca=format_number(clean_kpca, ".4f"), noisy_pca=format_number(noisy_pca, ".4f"),
        noisy_kpca=format_number(noisy_kpca, ".4f"), clean_verdict=_(_VERDICTS[clean_verdict]),
        noisy_verdict=_(_VERDICTS[noisy_verdict]))
    if clean_verdict == "worse" and noisy_verdict == "better":
        return join_sentences([text, _(
            "Worse on clean digits, better on noisy ones: exactly the effect below.")])
    if clean_verdict == "worse":
        return join_sentences([text, _(
            "Here kernel PCA loses on both; try a larger m, the fixed point, or more training "
            "digits, and see the curves above.")])
    return text


# Kernel PCA against PCA at m, a clause of clean_text's comparison.
_VERDICTS = {"worse": N_("kernel PCA is worse"), "better": N_("kernel PCA is better"),
             "equal": N_("they are equal")}
