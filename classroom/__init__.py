"""The classroom: the guided tour, predict-then-reveal questions, the class tally and
focused links. A wing plugged in at the router (``app.py``): it imports the shell and
never a lesson; only ``app.py`` and ``app_pages/`` import it."""
