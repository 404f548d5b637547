"""The lecture, prepared: the guided tour ready before it is reached, and without a server.

:mod:`lecture_pack.ahead` computes every step's question and view in the background on the
server when the tour is opened or a class starts, so that no step is dead air.

:mod:`lecture_pack.build` computes every step's frames (one per value of the step's γ or
degree slider) with the app's own code; :mod:`lecture_pack.html` writes them, with Plotly's
JavaScript, into one self-contained HTML file. ``python -m lecture_pack --out lecture.html``
builds it from the command line; the tour page offers it as "Download this lecture".
Only the page scripts import this package.
"""
