"""One package per lesson: its view sections, caches, figures and experiment.

A lesson imports the shell, experiments/, kpca_core and datasets, never another lesson
(tests/test_layering.py).
"""
