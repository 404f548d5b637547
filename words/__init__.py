"""The bottom floor: the app's words. Translation (:mod:`words.i18n`), text from outside
made safe to show (:mod:`words.text`) and the kernel parameters' declarations
(:mod:`words.kernel_params`). Pure Python: it imports nothing of the app, so every floor
above, the pure numbers of ``experiments/`` included, can say things without looking up.
"""
