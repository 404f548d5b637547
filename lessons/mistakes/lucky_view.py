"""The "one lucky γ" card of Common mistakes: the gallery's circles, moved a little.

Its own data (the gallery's setting, not the sidebar's), so it is computed once for the
whole server; its numbers are in :mod:`lessons.mistakes.lucky_gamma`.
"""

from __future__ import annotations

import streamlit as st

from experiments.checks import format_value
from lessons.mistakes.lucky_gamma import (
    CANDIDATES,
    GALLERY,
    STEPS,
    LuckyGamma,
    caption,
    lucky_gamma,
    panels,
)
from server import costs
from server.admission import queued
from server.memory import guard_memory
from shell import findings
from shell.caches import bounded_cache
from shell.charts import show_chart
from shell.display import number_caption, touch_screen
from words.i18n import N_, _

# The fits, at most: the gallery's and its small steps, the same for each γ tried (of 400
# points each: K, its centred copy and two components, then a cross-validated score, about
# 0.1 s on a quiet host and 0.3 s at load 14).
FITS = (1 + len(CANDIDATES)) * (1 + sum(len(v) for v in STEPS.values()))


@bounded_cache(max_entries=1)  # its data are fixed: one entry for the server
def cached_lucky() -> LuckyGamma:
    n = GALLERY["n"]
    estimate = FITS * (costs.kernel_pca(n, 2, 2) + costs.Estimate(0.1))
    with queued(n, copies=2, estimate=estimate, what=N_("the lucky-γ card")):
        return lucky_gamma()


def card(number: int) -> None:
    """The card, numbered after the page's other mistakes."""
    guard_memory(GALLERY["n"], copies=2)
    with st.spinner(_("Moving the gallery's setting a little…")):
        result = cached_lucky()
    st.subheader(_("{number} · One lucky γ").format(number=number))
    st.write(_(
        "scikit-learn's kernel PCA example drew two circles (400 points, inner radius 0.3, "
        "noise 0.05, seed 0) that kernel PCA with an RBF kernel, γ = 10, pulls apart on its "
        "first two components. Here is that setting, and the same moved one small step at "
        "a time: γ, the noise, the seed, the inner radius."))
    st.markdown(_(":red[**Wrong**] · take one γ because it worked once, on one draw of the "
                  "data."))
    st.markdown(_(":green[**Right**] · judge γ on its neighbourhood: other seeds, a little more "
                  "or less noise, a step of γ either way; keep a γ that works on all of them."))
    st.caption(_("Reported in: scikit-learn issue #10530 (\"Misleading kernel PCA examples\"), "
                 "on its kernel PCA example (plot_kernel_pca.py, until 2021): \"very fine "
                 "tuned\"."))
    shown = [result.gallery, *(result.worst_of(key) for key in STEPS)]
    fig = panels(shown, columns=3 if touch_screen() else None,  # a phone: two rows
                 title=_("Components 1–2<br><sup>the gallery's setting, then the worst small "
                         "step of each kind</sup>"))
    show_chart(fig, key="mistake_lucky_gamma")
    damage = result.damage
    # Its own data, not the sidebar's: said apart from the other cards' damage lines.
    if damage.harmless:
        st.markdown(_(":green[**No damage to the gallery's picture**] · {label}: "
                      "{value}").format(label=damage.label, value=format_value(damage.value)))
    else:
        st.markdown(_(":red[**Damage to the gallery's picture**] · {label}: **{value}**").format(
            label=damage.label, value=format_value(damage.value)))
    text = caption(result)
    findings.publish("lucky_gamma", text)
    number_caption(text)
