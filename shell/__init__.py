"""What every page shares: settings and URL state, the sidebar, uploads, caches, admission,
the memory guard, charts, exports, projector mode, live checks and the lesson registry.

The shell knows no lesson by name and imports none (tests/test_layering.py).
"""
