"""Figure builders: pure functions from arrays to ``go.Figure`` (no Streamlit here).

One module per lesson (``explorer``, and one per lesson page), plus ``common`` for
what every page shares: one palette for classes, so class 2 is the same colour in
input space, in the KPCA projection and in the linear PCA projection; sequential
colours for K and a diverging scale centred on 0 for K̃ (its entries are signed).

What every page shares lives in ``shell.figures`` and ``shell.kernel_figures``; lesson
pages import their own module (``from ui.figures import denoising``).
"""
