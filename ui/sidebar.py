"""The shared sidebar: the one place that owns the settings, their widgets and the URL.

``app.py`` calls :func:`settings_sidebar` on every run, before the page runs, so every
page (opened from the menu or cold, by its URL) gets the same widgets with the same
state. Pages only call :func:`current_settings`.

State flow:
1. First run of a browser session: parse the query string (``ui.state``), warn about
   anything bad, and seed the widget keys in ``st.session_state``.
2. Every run: the widgets (keyed, no ``value=``) are the source of truth → a
   :class:`Settings` → written back to the URL, so the address bar is always a link to
   the exact view.
3. Presets (``apply_settings`` as a button callback) just overwrite the widget keys.
"""

from __future__ import annotations

import csv
from dataclasses import replace

import streamlit as st

import datasets
from kpca_core import KERNELS
from ui import compute, state
from ui.state import Settings

K_DATASET, K_KERNEL = "w_dataset", "w_kernel"
K_PARAM = {"gamma": "w_gamma", "degree": "w_degree", "coef0": "w_coef0"}
K_COMPONENTS, K_STANDARDIZE = "w_components", "w_standardize"
# No "w_" prefix: an uploader's value cannot be re-committed through session state.
K_CSV_FILE, K_CSV_LABEL, _CSV_LAST_GOOD = "upload_csv", "w_csv_label", "_kpca_csv_last_good"
NO_LABEL = "(no labels)"
_STARTED, _LINK_WARNINGS, _CURRENT = "_kpca_started", "_kpca_link_warnings", "_kpca_settings"

OPTION_LABELS = {
    "n": "Number of points n",
    "noise": "Noise",
    "seed": "Random seed",
    "factor": "Inner / outer radius",
    "split": "USPS split",
}
USPS_OPTION_LABELS = {"n": "Digits used (subset size)"}

PARAM_HELP = {
    "gamma": "γ sets the kernel's scale. For RBF, exp(−γ‖x−y‖²): a large γ makes the "
    "kernel very local (each point similar only to its neighbours).",
    "degree": "d is the polynomial degree in (γ xᵀy + c₀)ᵈ: the feature space holds all "
    "monomials of the inputs up to degree d.",
    "coef0": "c₀ is the offset in (γ xᵀy + c₀)ᵈ and tanh(γ xᵀy + c₀); for the polynomial "
    "kernel it weights lower-degree terms.",
}


def _option_key(dataset: str, name: str) -> str:
    return f"w_opt_{dataset}_{name}"


def apply_settings(settings: Settings) -> None:
    """Seed/overwrite the widget keys (call before the widgets exist: first run or callback)."""
    ss = st.session_state
    ss[K_DATASET] = settings.dataset
    for name, value in settings.dataset_options:
        ss[_option_key(settings.dataset, name)] = value
    ss[K_KERNEL] = settings.kernel
    ss[K_PARAM["gamma"]] = float(settings.gamma)
    ss[K_PARAM["degree"]] = int(settings.degree)
    ss[K_PARAM["coef0"]] = float(settings.coef0)
    ss[K_COMPONENTS] = int(settings.n_components)
    ss[K_STANDARDIZE] = bool(settings.standardize)


def _use_suggested_kernel() -> None:
    apply_settings(state.with_suggested_kernel(current_settings()))


def settings_sidebar() -> Settings:
    """Draw the shared sidebar and return the current settings (also kept for pages)."""
    ss = st.session_state
    if _STARTED not in ss:
        from_link, warnings = state.settings_from_query(st.query_params.to_dict())
        apply_settings(from_link)
        ss[_STARTED] = True
        ss[_LINK_WARNINGS] = (from_link, warnings)
    # Streamlit forgets the state of a widget that was not drawn in a run (e.g. γ
    # while the linear kernel is chosen). Re-committing keeps every value for later.
    for key in [k for k in ss if isinstance(k, str) and k.startswith("w_")]:
        ss[key] = ss[key]

    catalogue = datasets.available()
    defaults = state.default_settings()
    with st.sidebar:
        st.header("Data")
        dataset = st.selectbox(
            "Dataset",
            [*catalogue, state.CSV],
            format_func=lambda name: (
                catalogue[name].title if name in catalogue else state.CSV_TITLE
            ),
            key=K_DATASET,
        )
        options = {}
        if dataset == state.CSV:
            options = dict(_csv_controls())
        else:
            info = catalogue[dataset]
            st.caption(info.summary)
            for opt in info.options:
                options[opt.name] = _option_widget(dataset, opt)
        standardize = st.checkbox(
            "Standardise inputs",
            key=K_STANDARDIZE,
            help="Scale every input feature to mean 0 and variance 1 before the kernel.",
        )

        st.header("Kernel")
        kernel = st.selectbox(
            "Kernel", list(KERNELS), format_func=lambda k: KERNELS[k].title, key=K_KERNEL
        )
        kernel_info = KERNELS[kernel]
        st.latex(kernel_info.formula)
        if not kernel_info.positive_definite:
            st.caption("Not positive semi-definite: expect negative eigenvalues.")
        params = {"gamma": defaults.gamma, "degree": defaults.degree, "coef0": defaults.coef0}
        if "gamma" in kernel_info.params:
            ss.setdefault(K_PARAM["gamma"], defaults.gamma)
            params["gamma"] = st.select_slider(
                "γ (log scale)",
                options=state.gamma_choices(ss[K_PARAM["gamma"]]),
                format_func=state.format_gamma,
                key=K_PARAM["gamma"],
                help=PARAM_HELP["gamma"],
            )
        if "degree" in kernel_info.params:
            ss.setdefault(K_PARAM["degree"], defaults.degree)
            params["degree"] = st.slider(
                "Degree d",
                state.DEGREE_MIN,
                state.DEGREE_MAX,
                key=K_PARAM["degree"],
                help=PARAM_HELP["degree"],
            )
        if "coef0" in kernel_info.params:
            ss.setdefault(K_PARAM["coef0"], defaults.coef0)
            params["coef0"] = st.slider(
                "c₀",
                state.COEF0_MIN,
                state.COEF0_MAX,
                step=0.1,
                key=K_PARAM["coef0"],
                help=PARAM_HELP["coef0"],
            )
        if dataset in catalogue:
            st.button(
                "Use this dataset's suggested kernel",
                on_click=_use_suggested_kernel,
                help=_suggestion_text(catalogue[dataset].suggested_kernel),
            )

        st.header("Components")
        ss.setdefault(K_COMPONENTS, defaults.n_components)
        n_components = st.slider(
            "Number of components",
            state.COMPONENTS_MIN,
            state.COMPONENTS_MAX,
            key=K_COMPONENTS,
            help="How many kernel principal components to keep.",
        )
        st.caption("The address bar holds these settings: copy it to share this exact view.")

    # A parameter the kernel does not use stays at its default in the settings, so it
    # never splits the cache; its widget state still remembers the user's value.
    settings = Settings(
        dataset=dataset,
        dataset_options=tuple(sorted(options.items())),
        kernel=kernel,
        gamma=float(params["gamma"]),
        degree=int(params["degree"]),
        coef0=float(params["coef0"]),
        n_components=int(n_components),
        standardize=bool(standardize),
    )
    ss[_CURRENT] = settings

    query = state.settings_to_query(settings)
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)

    link_settings, warnings = ss[_LINK_WARNINGS]
    if warnings and link_settings == settings:
        st.warning(
            "Some settings in this link could not be used:\n\n"
            + "\n".join(f"- {w}" for w in warnings),
            icon=":material/link_off:",
        )
    return settings


def current_settings() -> Settings:
    """The settings drawn by this run's sidebar (built here if a page runs on its own)."""
    if _CURRENT not in st.session_state:
        return settings_sidebar()
    return st.session_state[_CURRENT]


def with_valid_components(settings: Settings, n_points: int) -> Settings:
    """Clamp the number of components to n − 1, warning the user (a widget combination)."""
    limit = n_points - 1
    if settings.n_components <= limit:
        return settings
    st.warning(
        f"{settings.n_components} components asked for, but {n_points} points have at most "
        f"{limit} non-trivial kernel components (K̃ has rank ≤ n − 1). Using {limit}; lower "
        "'Number of components' or use more points."
    )
    return replace(settings, n_components=limit)


def _csv_controls() -> tuple[tuple[str, object], ...]:
    """Upload widgets; returns the options of the upload to show (the last good one).

    A file that fails to parse shows its error here and leaves the previous upload in
    place, so a typo in a CSV never costs the student the data already on screen.
    """
    ss = st.session_state
    last_good = ss.get(_CSV_LAST_GOOD, ())
    upload = st.file_uploader(
        "CSV file",
        type=["csv", "tsv", "txt"],
        key=K_CSV_FILE,
        help="Numeric columns (at most 5,000 rows), optionally one column of class labels. "
        "Uploads stay on this server only while it runs; links cannot carry them.",
    )
    if upload is None:
        return last_good
    content = upload.getvalue()
    choices = [NO_LABEL, *_csv_column_names(content)]
    if ss.get(K_CSV_LABEL) not in choices:
        ss[K_CSV_LABEL] = NO_LABEL
    label = st.selectbox("Label column", choices, key=K_CSV_LABEL)
    try:
        options = compute.load_upload(content, None if label == NO_LABEL else label)
    except datasets.CSVError as error:
        keep = " The previous upload is still shown." if last_good else ""
        st.error(f"**{upload.name}** cannot be used: {error}{keep}")
        return last_good
    ss[_CSV_LAST_GOOD] = options
    return options


def _csv_column_names(content: bytes) -> list[str]:
    """Column names to offer as the label column (best effort: errors come later)."""
    try:
        return list(datasets.load_csv(content).feature_names)
    except datasets.CSVError:  # e.g. a text label column: read the header line instead
        pass
    first_line = content[:65536].decode("utf-8-sig", errors="replace").splitlines()[:1]
    if not first_line:
        return []
    try:
        dialect = csv.Sniffer().sniff(first_line[0], delimiters=",;\t")
    except csv.Error:
        return [first_line[0].strip()] if first_line[0].strip() else []
    return [name.strip() for name in next(csv.reader(first_line, dialect)) if name.strip()]


def _option_widget(dataset: str, opt: datasets.Option):
    key = _option_key(dataset, opt.name)
    st.session_state.setdefault(key, opt.default)
    labels = USPS_OPTION_LABELS if dataset == "usps" else {}
    label = labels.get(opt.name) or OPTION_LABELS.get(opt.name) or opt.name
    if opt.kind == "choice":
        return st.selectbox(label, list(opt.choices), key=key, help=opt.help or None)
    if opt.kind == "int":
        if opt.low is None or opt.high is None:
            return int(st.number_input(label, step=1, key=key, help=opt.help or None))
        if opt.high - opt.low > 100_000:  # e.g. a random seed: a slider would be useless
            return int(
                st.number_input(
                    label, int(opt.low), int(opt.high), step=1, key=key, help=opt.help or None
                )
            )
        return int(st.slider(label, int(opt.low), int(opt.high), key=key, help=opt.help or None))
    if opt.low is None or opt.high is None:
        return float(st.number_input(label, key=key, help=opt.help or None))
    step = (float(opt.high) - float(opt.low)) / 100
    return float(
        st.slider(label, float(opt.low), float(opt.high), step=step, key=key, help=opt.help or None)
    )


def _suggestion_text(suggested: dict) -> str:
    parts = [f"{k} = {v}" for k, v in suggested.items() if k != "kernel"]
    kernel = suggested.get("kernel", "?")
    title = KERNELS[kernel].title if kernel in KERNELS else kernel
    return f"{title}" + (f" with {', '.join(parts)}" if parts else "")
