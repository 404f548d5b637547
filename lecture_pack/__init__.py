"""The guided tour as one offline file: a lecture that needs no server.

:mod:`lecture_pack.build` computes every step's frames (one per value of the step's γ or
degree slider) with the app's own code; :mod:`lecture_pack.html` writes them, with Plotly's
JavaScript, into one self-contained HTML file. ``python -m lecture_pack --out lecture.html``
builds it from the command line; the tour page offers it as "Download this lecture".
Only the page scripts import this package.
"""
