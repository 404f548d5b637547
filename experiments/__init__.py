"""Experiments that a page shows and a script in ``benchmarks/`` prints.

Each module is pure functions of arrays (NumPy, SciPy, scikit-learn, ``kpca_core``;
never Streamlit), so the number on screen and the number in the script come from the
same code. Pages cache these functions; scripts call them directly.
"""
