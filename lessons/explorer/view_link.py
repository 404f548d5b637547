"""The Explorer's view in its link: 2-D or 3-D, and the components on the axes.

Not part of the shared settings: the view changes no computation (so no cache key) and
only the Explorer has it. The Explorer declares ``view`` and ``axes`` as its own link
parameters in the registry, so the sidebar keeps them in the address bar on this page,
and this module reads them on the page's first run and writes them when they change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from shell.state import COMPONENTS_MAX
from words.i18n import _
from words.text import quoted

Q_VIEW, Q_AXES = "view", "axes"
VIEW_2D, VIEW_3D = "2-D", "3-D"
_VIEW_CODES = {"2d": VIEW_2D, "3d": VIEW_3D}
FIRST_AXES = (1, 2)  # the components on the axes when the page opens (2-D)
# The view widgets' keys ("w_" so they survive other pages: the sidebar keeps them).
K_VIEW_DIMS, K_VIEW_AXES = "w_view_dims", "w_view_axes"


def view_from_query(query: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The Explorer's view from a link: ``view=3d`` and ``axes=1,3`` or ``2,3,4`` (1-based).

    Returns ``{"dims": "2-D"|"3-D", "axes": (i, j)}`` with only what the link holds, and
    one warning per bad value (Markdown, with the link's text :func:`words.text.quoted`).
    """
    query = {str(k): (v[-1] if isinstance(v, list | tuple) and v else v) for k, v in query.items()}
    view: dict[str, Any] = {}
    warnings: list[str] = []
    if Q_VIEW in query:
        raw = str(query[Q_VIEW]).strip().lower()
        if raw in _VIEW_CODES:
            view["dims"] = _VIEW_CODES[raw]
        else:
            warnings.append(_("Link parameter `{param}` should be 2d or 3d, not {value}.").format(
                param=Q_VIEW, value=quoted(raw)))
    if Q_AXES in query:
        raw = str(query[Q_AXES]).strip()
        parts = raw.split(",")
        try:
            axes = tuple(int(p) for p in parts)
        except ValueError:
            axes = ()
        if len(axes) in (2, 3) and len(set(axes)) == len(axes) and all(
            1 <= a <= COMPONENTS_MAX for a in axes
        ):
            view["axes"] = axes
        else:
            warnings.append(_(
                "Link parameter `{param}` should be two or three different components such "
                "as 1,2 or 1,2,3, not {value}.").format(param=Q_AXES, value=quoted(raw)))
    return view, warnings


def view_to_query(dims: str, axes: tuple[int, int]) -> dict[str, str]:
    """Query parameters for a non-default Explorer view (empty for 2-D on components 1, 2)."""
    query = {}
    if dims == VIEW_3D:
        query[Q_VIEW] = "3d"
    if tuple(axes) not in (FIRST_AXES, (*FIRST_AXES, 3)):
        query[Q_AXES] = ",".join(str(a) for a in axes)
    return query


def seed_from_link() -> None:
    """On the Explorer's first run in a session, set the view widgets from the link."""
    ss = st.session_state
    if K_VIEW_DIMS in ss:
        return
    view, warnings = view_from_query(st.query_params.to_dict())
    for warning in warnings:
        st.warning(warning, icon=":material/link_off:")
    ss[K_VIEW_DIMS] = view.get("dims", VIEW_2D)
    ss[K_VIEW_AXES] = tuple(view.get("axes", FIRST_AXES))


def write_to_link(dims: str, axes: tuple[int, ...]) -> None:
    """Put the current view in the address bar (and drop what the default view needs not)."""
    wanted = view_to_query(dims, axes)
    for name in (Q_VIEW, Q_AXES):
        if name in wanted:
            if st.query_params.get(name) != wanted[name]:
                st.query_params[name] = wanted[name]
        elif name in st.query_params:
            del st.query_params[name]
