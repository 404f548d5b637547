"""The shared sidebar: the one place that owns the settings, their widgets and the URL.

``app.py`` calls :func:`settings_sidebar` on every run, before the page runs, so every
page (opened from the menu or cold, by its URL) gets the same widgets with the same
state. Pages only call :func:`current_settings`.

State flow:
1. First run of a browser session: parse the query string (``shell.state``), warn about
   anything bad, and seed the widget keys in ``st.session_state``.
2. Every run: the widgets (keyed, no ``value=``) are the source of truth → a
   :class:`Settings` → written back to the URL, so the address bar is always a link to
   the exact view.
3. Presets (``apply_settings`` as a button callback) just overwrite the widget keys.

A wing plugged in at the router (the classroom) joins in through a :class:`Wing`: its
link parameters, checked with the settings'; what it keeps in the address bar; its box at
the sidebar's foot; its notice above the page. The shell never imports it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import streamlit as st

import datasets
from experiments.kernel_diagnostics import (
    GAMMA_KERNELS,
    REFERENCE_SHORT,
    feature_scale_ratio,
    round_gamma,
    scales_differ_message,
)
from kpca_core import KERNELS
from shell import caches as compute
from shell import drawn, language, locks, state, uploads
from shell.csv_controls import csv_controls
from shell.display import PROJECTOR_KEY, close_drawer_after_change
from shell.state import LinkCheck, Settings
from words.i18n import N_, _, format_number
from words.kernel_params import GAMMA, KERNEL_PARAMS, KernelParam

K_DATASET, K_KERNEL = "w_dataset", "w_kernel"
K_PARAM = {name: f"w_{name}" for name in KERNEL_PARAMS}
K_COMPONENTS, K_STANDARDIZE = "w_components", "w_standardize"
K_KEEP_GAMMA = "w_keep_gamma"
# Which data γ was last fitted to, and the note saying what changed when it followed.
_DATA_IDENTITY, _GAMMA_NOTE = "_kpca_data_identity", "_kpca_gamma_note"
_STARTED, _LINK_WARNINGS, _CURRENT = "_kpca_started", "_kpca_link_warnings", "_kpca_settings"
_PAGE_PATH = "_kpca_page_path"  # the URL path of the page this run drew
SETTINGS_WAIT_KEY = "settings_wait"  # where the sidebar says its settings wait (a view's)

OPTION_LABELS = {
    "n": N_("Number of points n"),
    "noise": N_("Noise"),
    "seed": N_("Random seed"),
    "factor": N_("Inner / outer radius"),
    "split": N_("USPS split"),
}
USPS_OPTION_LABELS = {"n": N_("Digits used (subset size)")}
KEEP_GAMMA_LABEL = N_("Keep γ when the data change")


@dataclass(frozen=True)
class Wing:
    """What a feature plugged in at the router adds to the sidebar, without the shell
    importing it.

    Attributes
    ----------
    link_checks : mapping
        The link parameters it owns, each with a check of its value (a warning or None):
        warned about with the settings' own, and never called unknown.
    link_params : callable
        What it keeps in the address bar now (e.g. the class joined).
    box : callable
        Draws its box at the sidebar's foot: ``box(page_path, query)``, after the address
        bar holds this run's settings.
    notice : callable
        Draws what it has to say above the page, after the link's warnings.
    view_waits : callable
        Whether the page at ``page_path`` will not draw its view in this run (a phone's
        view held until its class is shown the step): the settings' controls wait with
        it, and the settings are the ones the session holds.
    """

    link_checks: Mapping[str, LinkCheck] = field(default_factory=dict)
    link_params: Callable[[], dict[str, str]] = dict
    box: Callable[[str, dict[str, str]], None] = lambda page_path, query: None
    notice: Callable[[], None] = lambda: None
    view_waits: Callable[[str], bool] = lambda page_path: False


NO_WING = Wing()


def _option_key(dataset: str, name: str) -> str:
    return f"w_opt_{dataset}_{name}"


def apply_settings(settings: Settings) -> None:
    """Seed/overwrite the widget keys (call before the widgets exist: first run or callback)."""
    ss = st.session_state
    ss[K_DATASET] = settings.dataset
    for name, value in settings.dataset_options:
        ss[_option_key(settings.dataset, name)] = value
    ss[K_KERNEL] = settings.kernel
    for name, param in KERNEL_PARAMS.items():
        ss[K_PARAM[name]] = _typed(param, getattr(settings, name))
    ss[K_COMPONENTS] = int(settings.n_components)
    ss[K_STANDARDIZE] = bool(settings.standardize)
    # These settings chose γ for their data: nothing to follow.
    ss[_DATA_IDENTITY] = _data_identity(settings.dataset, settings.options, settings.standardize)
    ss.pop(_GAMMA_NOTE, None)


def apply_kernel_params(gamma: float, degree: int | None = None) -> None:
    """Set γ, and the degree when given (a button's ``on_click``: a hint's "Use γ = …")."""
    st.session_state[K_PARAM["gamma"]] = float(gamma)
    if degree is not None:
        st.session_state[K_PARAM["degree"]] = int(degree)
    st.session_state.pop(_GAMMA_NOTE, None)


def _use_suggested_kernel() -> None:
    apply_settings(state.with_suggested_kernel(current_settings()))


def _data_key(dataset: str, options: dict, standardize: bool) -> state.DataKey:
    """The data key of the controls' values, before the settings are built from them."""
    return state.DataKey(dataset, tuple(sorted(options.items())), bool(standardize))


def _data_identity(dataset: str, options: dict, standardize: bool) -> tuple:
    """What γ's scale depends on: the dataset (an upload: its bytes) and standardisation.

    Other options (n, noise, seed) hardly change the scale, so they leave γ alone.
    """
    return (dataset, options.get("file") if dataset == state.CSV else None, bool(standardize))


def _follow_data(previous: tuple, current: tuple, dataset: str, options: dict,
                 kernel: str) -> None:
    """γ follows the data when they change (unless "Keep γ" is ticked), with a note.

    A new dataset gets its own suggestion for this kernel (``datasets`` metadata) or,
    failing that, the data-scale reference (``experiments.kernel_diagnostics``); toggling
    standardisation keeps γ's multiple of the reference, so the picture keeps its meaning.
    """
    ss = st.session_state
    old = float(ss[K_PARAM["gamma"]])
    standardize = current[2]
    new_reference = compute.reference_gamma_for(_data_key(dataset, options, standardize),
                                                kernel)
    if new_reference is None:
        return
    same_data = previous[:2] == current[:2]
    if same_data:
        old_reference = compute.reference_gamma_for(
            _data_key(dataset, options, previous[2]), kernel)
        if old_reference is None:
            return
        new = round_gamma(old * new_reference / old_reference)
        why = "standardised" if standardize else "unstandardised"
    else:
        suggested = None if standardize else state.dataset_gamma(dataset, kernel, options)
        new = suggested if suggested is not None else round_gamma(new_reference)
        why = ("suggested" if suggested is not None
               else "new_data" if dataset != state.CSV else "uploaded")
    new = min(max(new, state.GAMMA_MIN), state.GAMMA_MAX)
    if math.isclose(new, old, rel_tol=1e-9):
        return
    ss[K_PARAM["gamma"]] = new
    # Kept as numbers and written where shown: the student may change the language.
    ss[_GAMMA_NOTE] = (why, old, new, new / new_reference, kernel)


# Why γ followed the data, a whole sentence each (the note's reason → its words).
_GAMMA_NOTES = {
    "standardised": N_(
        "γ changed from {old} to {new} for standardising the inputs ({multiple} × "
        "{reference}: a start on the data's scale, not a tuned value; the γ check on the "
        "Explorer and Choosing γ says whether another γ separates the classes better). "
        "Tick '{keep}' to keep γ as it is."),
    "unstandardised": N_(
        "γ changed from {old} to {new} for undoing the standardisation ({multiple} × "
        "{reference}: a start on the data's scale, not a tuned value; the γ check on the "
        "Explorer and Choosing γ says whether another γ separates the classes better). "
        "Tick '{keep}' to keep γ as it is."),
    "new_data": N_(
        "γ changed from {old} to {new} for the new data ({multiple} × {reference}: a start "
        "on the data's scale, not a tuned value; the γ check on the Explorer and Choosing γ "
        "says whether another γ separates the classes better). Tick '{keep}' to keep γ as "
        "it is."),
    "uploaded": N_(
        "γ changed from {old} to {new} for the uploaded file ({multiple} × {reference}: a "
        "start on the data's scale, not a tuned value; the γ check on the Explorer and "
        "Choosing γ says whether another γ separates the classes better). Tick '{keep}' to "
        "keep γ as it is."),
    "suggested": N_(
        "γ changed from {old} to {new} for the new data, the data set's own suggestion "
        "({multiple} × {reference}). Tick '{keep}' to keep γ as it is."),
}


def gamma_note_text(note: tuple) -> str:
    """The sentence saying why γ followed the data, in this run's language."""
    why, old, new, multiple, kernel = note
    return _(_GAMMA_NOTES[why]).format(
        old=state.format_gamma(old), new=state.format_gamma(new),
        multiple=state.format_multiple(multiple), reference=_(REFERENCE_SHORT[kernel]),
        keep=_(KEEP_GAMMA_LABEL))


def settings_sidebar(page_path: str = "", wing: Wing = NO_WING) -> Settings:
    """Draw the shared sidebar and return the current settings (also kept for pages).

    ``page_path`` is the URL path of the page about to run: the parameters it owns
    (its registry entry's ``link_params``, e.g. the tour's step) stay in the address bar.
    ``wing`` is what the router plugs in (the classroom).
    """
    ss = st.session_state
    _read_link_once(wing)
    _keep_locked_values()
    if page_path == drawn.DRAW_PAGE:  # the Draw page shows what is drawn, always
        ss[K_DATASET] = state.DRAWN
    # Streamlit forgets the state of a widget that was not drawn in a run (e.g. γ
    # while the linear kernel is chosen). Re-committing keeps every value for later.
    for key in [k for k in ss if isinstance(k, str) and k.startswith("w_")]:
        ss[key] = ss[key]

    catalogue = datasets.available()
    # A view that waits (a phone's question before its class sees the view) has nothing to
    # set yet: its controls wait too, and the run costs the server less (a room of phones
    # moves at once). An upload's or a drawing's controls read their data: always drawn.
    waits = ss.get(K_DATASET) in catalogue and wing.view_waits(page_path)
    with st.sidebar:
        if waits:
            dataset, options, standardize, kernel, params, n_components = (
                _values_without_controls(catalogue))
            with st.container(key=SETTINGS_WAIT_KEY):
                st.caption(_("The settings appear here with the view."))
        else:
            dataset, options, standardize = _data_controls(catalogue, page_path)
            kernel, params = _kernel_controls(dataset, options, standardize)
            n_components = _components_control()
            if dataset in catalogue:
                st.button(
                    _("Use this dataset's suggested kernel"),
                    on_click=_use_suggested_kernel,
                    disabled=any(map(locks.locked, ("kernel", *KERNEL_PARAMS))),
                    help=_suggestion_text(catalogue[dataset].suggested_kernel),
                )
            if dataset in catalogue and catalogue[dataset].options:
                st.subheader(_("Sample"))
                for opt in catalogue[dataset].options:
                    options[opt.name] = _option_widget(dataset, opt)
            st.caption(_("The address bar holds these settings: copy it to share this exact "
                         "view."))
        st.toggle(
            _("Projector mode"),
            key=PROJECTOR_KEY,
            help=_("Larger text, thicker markers and fewer captions, for a lecture hall."),
        )
        language.language_selector()

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
    changed = _CURRENT in ss and ss[_CURRENT] != settings
    ss[_CURRENT] = settings
    ss[_PAGE_PATH] = page_path
    sync_url(wing)
    with st.sidebar:
        # After sync_url, so that a link it makes holds this run's settings.
        wing.box(page_path, st.query_params.to_dict())
        if changed:  # (an empty element at the sidebar's foot, out of the way)
            close_drawer_after_change()  # a phone sees the result, not the drawer
    _warn_about_the_link(settings)
    locks.notice()
    wing.notice()
    return settings


def _read_link_once(wing: Wing) -> None:
    """First run of a browser session: the settings from the link seed the widgets.

    What the link got wrong is kept, to be shown while the settings are still the link's.
    """
    ss = st.session_state
    if _STARTED in ss:
        return
    link = st.query_params.to_dict()
    from_link, warnings = state.settings_from_query(link, wing.link_checks)
    if state.Q_PROJECTOR in link:
        projector = state.parse_flag(link[state.Q_PROJECTOR])
        if projector is None:
            warnings.append(_("Link parameter `{name}` should be 1 or 0.").format(
                name=state.Q_PROJECTOR))
        ss[PROJECTOR_KEY] = bool(projector)
    warnings += locks.read_link(link, from_link)
    apply_settings(from_link)
    ss[_STARTED] = True
    ss[_LINK_WARNINGS] = (from_link, warnings)


def _keep_locked_values() -> None:
    """A lesson link's locked controls keep the link's values, whatever changed them since
    (a preset, a hint's button, a tour step): written back before the widgets exist."""
    if (lock := locks.fixed()) is None:
        return
    names, fixed = lock
    ss = st.session_state
    if "dataset" in names:
        ss[K_DATASET], ss[K_STANDARDIZE] = fixed.dataset, fixed.standardize
        for name, value in fixed.dataset_options:
            ss[_option_key(fixed.dataset, name)] = value
    if "kernel" in names:
        ss[K_KERNEL] = fixed.kernel
    for name in KERNEL_PARAMS:
        if name in names:
            ss[K_PARAM[name]] = getattr(fixed, name)
    if "gamma" in names:
        ss[K_KEEP_GAMMA] = True  # a new dataset must not move a locked γ
    if "components" in names:
        ss[K_COMPONENTS] = fixed.n_components


def _data_controls(catalogue: dict, page_path: str = "") -> tuple[str, dict, bool]:
    """The dataset, its options (an upload's, or the sample's values) and standardising."""
    st.subheader(_("Data"))
    # The titles in this run's language, made here: a format_func may be called later,
    # outside this run's context (AppTest does), where the language is not this session's.
    names = [*catalogue, state.CSV, state.DRAWN]
    titles = {name: state.dataset_title(name) for name in names}
    dataset = st.selectbox(
        _("Dataset"),
        names,
        format_func=titles.__getitem__,
        key=K_DATASET,
        disabled=locks.locked("dataset"),
        filter_mode=None,  # no typing: a tap on a phone opens the list, not the keyboard
    )
    # A file sent to a session whose page shows no uploader is refused (shell/uploads.py).
    uploads.note_uploader(dataset == state.CSV)
    if dataset == state.CSV:
        options = dict(csv_controls())
    elif dataset == state.DRAWN:
        options = dict(drawn.drawn_controls(page_path))
    else:
        info = catalogue[dataset]
        st.caption(_(info.summary))
        # The sample's options are drawn at the bottom (set once; γ and the components
        # are changed often and stay on the first screen); their values are known now.
        options = {opt.name: _option_value(dataset, opt) for opt in info.options}
    standardize = st.checkbox(
        _("Standardise inputs"),
        key=K_STANDARDIZE,
        disabled=locks.locked("dataset"),
        help=_("Scale every input feature to mean 0 and variance 1 before the kernel."),
    )
    return dataset, options, standardize


def _kernel_controls(dataset: str, options: dict, standardize: bool) -> tuple[str, dict]:
    """The kernel and the values of its parameters (the others stay at their defaults)."""
    defaults = state.default_settings()
    st.subheader(_("Kernel"))
    titles = {name: _(info.title) for name, info in KERNELS.items()}  # (see the dataset's)
    kernel = st.selectbox(
        _("Kernel"), list(KERNELS), format_func=titles.__getitem__, key=K_KERNEL,
        disabled=locks.locked("kernel"),
        filter_mode=None,  # no typing, no soft keyboard on a phone
    )
    kernel_info = KERNELS[kernel]
    if not kernel_info.positive_definite:
        st.caption(_("Not positive semi-definite: expect negative eigenvalues."))
    params = {name: getattr(defaults, name) for name in KERNEL_PARAMS}
    _gamma_follows_data(dataset, options, standardize, kernel)
    for name, param in KERNEL_PARAMS.items():  # in their declared order
        if name not in kernel_info.params:
            continue
        if param.log_scale:  # γ: its multiple of the data's scale, and why it moved
            params[name] = _gamma_control(dataset, options, standardize, kernel)
        else:
            params[name] = _param_control(param, getattr(defaults, name))
    return kernel, params


def _gamma_follows_data(dataset: str, options: dict, standardize: bool, kernel: str) -> None:
    """Before γ's widget: when the data changed since the last run, γ follows them."""
    ss = st.session_state
    ss.setdefault(K_PARAM["gamma"], state.default_settings().gamma)
    identity = _data_identity(dataset, options, standardize)
    previous = ss.get(_DATA_IDENTITY)
    if previous is not None and previous != identity:
        ss.pop(_GAMMA_NOTE, None)
        if not ss.get(K_KEEP_GAMMA) and kernel in GAMMA_KERNELS:
            _follow_data(previous, identity, dataset, options, kernel)
    ss[_DATA_IDENTITY] = identity


def _values_without_controls(catalogue: dict) -> tuple[str, dict, bool, str, dict, int]:
    """What the controls would return for a built-in dataset, read from their keys without
    drawing them: the dataset, its options, standardising, the kernel, its parameters
    (the others at their defaults) and the number of components."""
    ss = st.session_state
    defaults = state.default_settings()
    dataset = ss[K_DATASET]
    uploads.note_uploader(False)
    options = {opt.name: _typed_option(opt, _option_value(dataset, opt))
               for opt in catalogue[dataset].options}
    standardize = bool(ss.setdefault(K_STANDARDIZE, defaults.standardize))
    kernel = ss.setdefault(K_KERNEL, defaults.kernel)
    _gamma_follows_data(dataset, options, standardize, kernel)
    params = {name: getattr(defaults, name) for name in KERNEL_PARAMS}
    for name in KERNEL_PARAMS:
        if name in KERNELS[kernel].params:
            params[name] = _typed(KERNEL_PARAMS[name], ss.setdefault(K_PARAM[name],
                                                                     params[name]))
    n_components = int(ss.setdefault(K_COMPONENTS, defaults.n_components))
    return dataset, options, standardize, kernel, params, n_components


def _typed_option(opt: datasets.Option, value):
    """An option's value as its widget returns it (:func:`_option_widget`)."""
    if opt.kind == "int":
        return int(value)
    if opt.kind == "choice":
        return value
    return float(value)


def _typed(param: KernelParam, value) -> float | int:
    return int(value) if param.integer else float(value)


def _param_control(param: KernelParam, default: float | int) -> float | int:
    """A kernel parameter on a linear scale (the degree, c₀), as declared."""
    st.session_state.setdefault(K_PARAM[param.name], _typed(param, default))
    return st.slider(
        _(param.label),
        _typed(param, param.low),
        _typed(param, param.high),
        step=_typed(param, param.step),
        key=K_PARAM[param.name],
        disabled=locks.locked(param.name),
        help=_(param.help),
    )


def _gamma_control(dataset: str, options: dict, standardize: bool, kernel: str) -> float:
    """γ on a log scale, its multiple of the data's reference, and why it last moved."""
    ss = st.session_state
    gamma = st.select_slider(
        _(GAMMA.label),
        options=state.gamma_choices(ss[K_PARAM["gamma"]]),
        format_func=state.format_gamma,
        key=K_PARAM["gamma"],
        disabled=locks.locked("gamma"),
        help=_(GAMMA.help),
    )
    reference = compute.reference_gamma_for(_data_key(dataset, options, standardize), kernel)
    if reference:
        st.caption(_("= {multiple} × {reference} ({value})").format(
            multiple=state.format_multiple(gamma / reference),
            reference=_(REFERENCE_SHORT[kernel]), value=state.format_gamma(reference)))
    if ss.get(_GAMMA_NOTE):
        st.info(gamma_note_text(ss[_GAMMA_NOTE]), icon=":material/autorenew:")
    st.checkbox(
        _(KEEP_GAMMA_LABEL),
        key=K_KEEP_GAMMA,
        disabled=locks.locked("gamma"),
        help=_("Unticked, γ follows the data: a new dataset, an upload or standardising sets "
               "γ to suit the new scale."),
    )
    return gamma


def _components_control() -> int:
    st.session_state.setdefault(K_COMPONENTS, state.default_settings().n_components)
    return st.slider(
        _("Number of components"),
        state.COMPONENTS_MIN,
        state.COMPONENTS_MAX,
        key=K_COMPONENTS,
        disabled=locks.locked("components"),
        help=_("How many kernel principal components to keep."),
    )


def _warn_about_the_link(settings: Settings) -> None:
    """What the link got wrong, for as long as the settings are still the link's."""
    link_settings, warnings = st.session_state[_LINK_WARNINGS]
    if warnings and link_settings == settings:
        st.warning(
            _("Some settings in this link could not be used:") + "\n\n"
            + "\n".join(f"- {w}" for w in warnings),
            icon=":material/link_off:",
        )


def sync_url(wing: Wing = NO_WING) -> None:
    """Write the current settings to the address bar (when they changed), keeping the
    parameters the current page owns (its registry entry's ``link_params``), a lock's,
    and the wing's."""
    ss = st.session_state
    query = state.settings_to_query(ss[_CURRENT])
    if ss.get(PROJECTOR_KEY):
        query[state.Q_PROJECTOR] = "1"
    query |= state.page_query(ss.get(_PAGE_PATH, ""), st.query_params.to_dict())
    query |= wing.link_params() | locks.link_params() | language.link_params()
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


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
    st.warning(_(
        "{asked} components asked for, but {n} points have at most {limit} non-trivial "
        "kernel components (K̃ has rank ≤ n − 1). Using {limit}; lower '{control}' or use "
        "more points.").format(asked=format_number(settings.n_components),
                               n=format_number(n_points), limit=format_number(limit),
                               control=_("Number of components")))
    return replace(settings, n_components=limit)


def _option_value(dataset: str, opt: datasets.Option):
    """An option's current value before its widget is drawn (the widget uses the same key)."""
    key = _option_key(dataset, opt.name)
    st.session_state.setdefault(key, opt.default)
    if dataset == "usps" and opt.name == "n":
        split = st.session_state.get(_option_key("usps", "split"), "train")
        st.session_state[key] = min(st.session_state[key], _usps_split_size(split))
    return st.session_state[key]


def _usps_split_size(split: str) -> int:
    counts = datasets.usps_split_sizes()
    return sum(counts.values()) if split == "all" else counts[split]


def _option_widget(dataset: str, opt: datasets.Option):
    key = _option_key(dataset, opt.name)
    st.session_state.setdefault(key, opt.default)
    if dataset == "usps" and opt.name == "n":
        # The subset cannot be larger than the split it is drawn from.
        split = st.session_state.get(_option_key("usps", "split"), "train")
        high = _usps_split_size(split)
        if st.session_state[key] > high:
            st.session_state[key] = high
        opt = replace(opt, high=high)
    labels = USPS_OPTION_LABELS if dataset == "usps" else {}
    label = _(labels.get(opt.name) or OPTION_LABELS.get(opt.name) or opt.name)
    opt = replace(opt, help=_(opt.help))  # the datasets' words (scripts/i18n.py extracts them)
    if opt.kind == "choice":
        # The choices' words in this run's language, made here (see the dataset's titles).
        titles = {choice: _(choice) for choice in opt.choices}
        return st.selectbox(label, list(opt.choices), key=key, help=opt.help or None,
                            format_func=titles.__getitem__,
                            filter_mode=None)  # no soft keyboard on a phone
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
    title = _(KERNELS[kernel].title) if kernel in KERNELS else kernel
    if not parts:
        return title
    return _("{kernel} with {parameters}").format(kernel=title, parameters=", ".join(parts))


def standardise_hint(X, standardized: bool, *, key: str) -> None:
    """Features on very different scales (an upload such as wine's, with proline in the
    thousands): the kernel, and any classifier after it, sees almost only the widest. Says
    so, with one click that ticks the sidebar's "Standardise inputs"."""
    message = scales_differ_message(feature_scale_ratio(X), standardized)
    if message is None:
        return
    text_col, button_col = st.columns([5, 1], vertical_alignment="center")
    text_col.info(message, icon=":material/straighten:")
    button_col.button(_("Standardise"), key=key, on_click=_standardise, width="stretch")


def _standardise() -> None:
    st.session_state[K_STANDARDIZE] = True
