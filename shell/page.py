"""What every lesson page does first: load the sidebar's data, or say clearly why not.

Pages call :func:`page_data` once, for the data and the kernel's inputs, instead of
repeating the error handling; a page that needs points in the plane calls
:func:`require_2d`, which explains why and offers 2-D datasets with one click instead of
failing; the page's kernel computations run inside :func:`kernel_errors`, which turns
kpca_core's refusal into a message.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import NamedTuple

import streamlit as st

import datasets
from datasets import drawn
from kpca_core.centering import NON_FINITE_KERNEL
from shell.caches import Inputs, inputs_of, load_data
from shell.drawn import DRAW_PAGE
from shell.sidebar import apply_settings, current_settings
from shell.state import DRAWN, Settings, default_settings, with_suggested_kernel
from shell.uploads import NoUploadError
from words.i18n import N_, _, format_number, said_text

# Built-in datasets whose points live in the plane, in the order they are offered.
PLANE_DATASETS = ("circles", "moons", "scholkopf_toy", "parabola", "four_classes")


class PageData(NamedTuple):
    """The sidebar's data as a page uses them: ``data`` as loaded (what it draws: the raw
    inputs, labels, names) and ``inputs`` as the kernel sees them, with their key (what its
    cached computations take)."""

    data: datasets.Dataset
    inputs: Inputs


def page_data(settings: Settings, *, few_points_ok: bool = False) -> PageData:
    """The current data, once per run (``data, inputs = page_data(settings)``); on a
    problem, a message saying what to do and ``st.stop()``.

    Drawn points (a link's ``points=``) that kernel PCA cannot run on (too few, or all at
    one place: ``datasets.drawn.analysis_problem``) stop the page with a message and a
    way to the Draw page, unless ``few_points_ok`` (the Draw page: its editor shows them).
    """
    try:
        data = load_data(settings.dataset, settings.dataset_options)
        if settings.dataset == DRAWN and not few_points_ok:
            if problem := drawn.analysis_problem(data.X):
                st.info(_("Too few points for this page: {problem}. Add points on the Draw "
                          "page.").format(problem=said_text((problem,))),
                        icon=":material/draw:")
                st.page_link(f"app_pages/{DRAW_PAGE}.py", label=_("Draw points"),
                             icon=":material/draw:")
                st.stop()
        return PageData(data, inputs_of(settings))
    except datasets.UspsUnavailableError as error:
        st.error(_("{error}\n\nPick another dataset in the sidebar; everything else still "
                   "works.").format(error=refusal_text(error)))
    except NoUploadError as error:
        st.info(str(error), icon=":material/upload_file:")
    except ValueError as error:
        st.error(_("These dataset options do not work: {error}").format(error=error))
    st.stop()
    raise AssertionError("unreachable")  # st.stop() raises; this keeps type checkers calm


def refusal_text(error: Exception) -> str:
    """Why the data or the kernel were refused, in this run's language: the ground layer's
    refusals (the USPS digits missing, an upload refused) say their sentences, and the
    core's refusal that a student's settings reach (an overflowed kernel matrix) is in the
    catalog; any other is shown as the library words it."""
    if isinstance(error, datasets.SaidError):
        return said_text(error.sentences)
    if str(error) == NON_FINITE_KERNEL:
        return _(NON_FINITE_KERNEL)
    return str(error)


@contextmanager
def kernel_errors(
    what: str = N_("The kernel cannot be computed with these settings"), *, stop: bool = True
) -> Iterator[None]:
    """Show kpca_core's refusal of a setting (a ValueError, e.g. an overflowing polynomial
    kernel) as ``what: why``, then stop the page, or with ``stop=False`` go on after the
    ``with`` block (for an optional section). ``what``: an English sentence marked with
    ``N_`` (translated here)."""
    try:
        yield
    except ValueError as error:
        st.error(_("{what}: {error}").format(what=_(what), error=refusal_text(error)))
        if stop:
            st.stop()


def _switch_to(dataset: str) -> None:
    settings = current_settings()
    apply_settings(with_suggested_kernel(replace(default_settings(dataset),
                                                 n_components=settings.n_components)))


def require_2d(data: datasets.Dataset, why: str) -> None:
    """Stop the page unless the inputs have exactly 2 features, offering 2-D datasets."""
    n_features = data.X.shape[1]
    if n_features == 2:
        return
    st.warning(
        _("This part needs points in the plane (2 input features), and the current dataset "
          "has {n}: {why} Pick a 2-D dataset:").format(n=format_number(n_features), why=_(why)),
        icon=":material/grid_on:",
    )
    catalogue = datasets.available()
    choices = [name for name in PLANE_DATASETS if name in catalogue]
    for column, name in zip(st.columns(len(choices)), choices, strict=True):
        column.button(
            _(catalogue[name].title),
            key=f"switch_2d_{name}",
            on_click=_switch_to,
            args=(name,),
            width="stretch",
        )
    st.stop()
