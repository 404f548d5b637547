"""What the server process does for every session: the admission queue (:mod:`server.admission`)
and its cost model (:mod:`server.costs`), the memory budget and guard (:mod:`server.budget`,
:mod:`server.memory`), the worker process (:mod:`server.worker`), the machine's shared disk
cache (:mod:`server.shared_cache`), work done ahead (:mod:`server.ahead`) and the serial
warm-up of imports (:mod:`server.warmup`). It imports the words and the pure floors below,
never a page (``shell/``, a lesson or the classroom).
"""
