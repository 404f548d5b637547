"""Sentences a page computes from the numbers it shows, kept for the guided tour.

A lesson that interprets its picture (the K blocks, the best γ, what the components do)
publishes that sentence here under a name; when the page was opened from the tour, the
tour's banner (``classroom/banner.py``) shows the published sentences as the step's
answer, so the answer on the projector is the page's own live reading, never a stored
claim. The router clears them before each run of a page (:func:`start_run`).

The names are the contract between the lessons and the tour's step table; they live here
because the shell is what both may import.
"""

from __future__ import annotations

import streamlit as st

SEPARABILITY = "separability"  # the Explorer: cross-validated accuracy of what is drawn
KERNEL_BLOCKS = "kernel_blocks"  # the Explorer: which class blocks of K and K̃ stand out
CENTRING_CHECK = "centring_check"  # How it works: K̃'s row sums, checked
LIFT = "lift"  # the kernel trick: the lifted circles and the separating plane
GAMMA_SWEEP = "gamma_sweep"  # Choosing γ: best γ, and what tiny and huge γ do
COMPONENT_ROLES = "component_roles"  # Component maps: what each component does
MISTAKE_DAMAGE = "mistake_damage"  # Common mistakes: which mistakes did damage here
DENOISING = "denoising"  # De-noising: kernel PCA against linear PCA at their best m
CLASSIFICATION = "classification"  # Classification: which features won, by how much
SCALE = "scale"  # Scale: how time and memory grew with n

_KEY = "_kpca_findings"


def start_run() -> None:
    """Forget the previous run's sentences (the router, before the page runs)."""
    st.session_state[_KEY] = {}


def publish(name: str, text: str) -> None:
    """Keep ``text``, a sentence the page computed from its numbers, under ``name``."""
    st.session_state.setdefault(_KEY, {})[name] = text


def published() -> dict[str, str]:
    """The sentences this run's page published, by name."""
    return dict(st.session_state.get(_KEY, {}))
