"""The kernel parameters a student can set, each declared once.

γ, the degree d and the offset c₀: their names (the link parameter, the field of the
settings and kpca_core's keyword are one name), the symbol a figure or a sentence uses, the
label of the sidebar's control, the range the sidebar offers and a link may ask for, the
scale the control moves on, and what a focused link's lock calls it. The link parser and
the settings (``shell.state``), the sidebar's controls (``shell.sidebar``), the locks
(``shell.locks``), the figures and sentences of the lessons and the γ guidance
(``experiments.gamma_guidance``) all read them from here.

Which kernel uses which parameter is kpca_core's to say (``kpca_core.KERNELS[k].params``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from words.i18n import N_


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter as the app offers it.

    Attributes
    ----------
    name : str
        The link parameter, the settings' field and kpca_core's keyword (``gamma``).
    symbol : str
        How figures and sentences write it (``γ``).
    label : str
        The sidebar control's label.
    low, high : float
        The range the sidebar offers and a link may ask for (inclusive).
    log_scale : bool
        Moved on a log scale (1-2-3-5 steps per decade: :data:`GAMMA_GRID`).
    integer : bool
        Whole numbers only.
    step : float
        The control's step on a linear scale.
    in_text : str
        How running text names it ("values of degree d"): the symbol unless the symbol
        alone would be unclear.
    lock_name : str
        What a focused link's lock calls it ("Locked for this exercise: γ").
    help : str
        The control's help text.
    """

    name: str
    symbol: str
    label: str
    low: float
    high: float
    log_scale: bool = False
    integer: bool = False
    step: float = 1.0
    in_text: str = ""
    lock_name: str = ""
    help: str = ""


GAMMA = KernelParam(
    "gamma", "γ", N_("γ (log scale)"),
    # Down to 1e-6: an upload with features in the thousands (e.g. wine's proline) has a
    # median heuristic near 1e-5, and every suggestion must be reachable by the slider.
    1e-6, 1e4, log_scale=True, in_text="γ", lock_name=N_("γ"),
    help=N_("γ sets the kernel's scale. For RBF, exp(−γ‖x−y‖²): a large γ makes the kernel "
            "very local (each point similar only to its neighbours)."),
)
DEGREE = KernelParam(
    "degree", "d", N_("Degree d"), 1, 10, integer=True, in_text="degree d",
    lock_name=N_("the degree d"),
    help=N_("d is the polynomial degree in (γ xᵀy + c₀)ᵈ: the feature space holds the "
            "monomials of the inputs of every degree up to d when c₀ > 0, and of degree exactly d "
            "when c₀ = 0 (then γ only rescales K)."),
)
COEF0 = KernelParam(
    "coef0", "c₀", N_("c₀"), -5.0, 5.0, step=0.1, in_text="c₀", lock_name=N_("c₀"),
    help=N_("c₀ is the offset in (γ xᵀy + c₀)ᵈ and tanh(γ xᵀy + c₀); for the polynomial "
            "kernel it weights the lower-degree terms (c₀ = 0: none, only degree d)."),
)

KERNEL_PARAMS: dict[str, KernelParam] = {p.name: p for p in (GAMMA, DEGREE, COEF0)}
SYMBOLS: dict[str, str] = {p.name: p.symbol for p in KERNEL_PARAMS.values()}

# γ's steps: 1-2-3-5 per decade from its low end to its high end.
GAMMA_GRID: tuple[float, ...] = tuple(
    float(f"{mantissa}e{exponent}")
    for exponent in range(round(math.log10(GAMMA.low)), round(math.log10(GAMMA.high)))
    for mantissa in (1, 2, 3, 5)
) + (GAMMA.high,)
