"""The class store this server uses: :data:`STORE`, chosen once per process by
``KPCA_CLASS_STORE``.

* unset or ``memory``: :class:`classroom.tally.TallyStore`, the classes in this process's
  memory (one process: ``streamlit run app.py``, Streamlit Community Cloud);
* ``redis://host:port/db``: :class:`classroom.tally_redis.RedisStore`, a Redis server every
  replica shares (``deploy/replicas.py`` starts one for two or more replicas and sets the
  variable); any replica then serves any student of any class.

Anything else stops the app at start-up with a message naming the variable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from classroom.tally import ClassStore, Limits, TallyStore

ENV = "KPCA_CLASS_STORE"


def store_url(environ: Mapping[str, str] = os.environ) -> str | None:
    """The Redis address ``KPCA_CLASS_STORE`` names, or None for this process's memory;
    raises ValueError, naming the variable, on anything else."""
    value = environ.get(ENV, "").strip()
    if value in ("", "memory"):
        return None
    if value.startswith(("redis://", "rediss://", "unix://")):
        return value
    raise ValueError(f"{ENV}={value!r} is not a class store: leave it unset (or 'memory') for "
                     "this process's memory, or give a Redis address, redis://host:port/db")


def store_from_env(environ: Mapping[str, str] = os.environ) -> ClassStore:
    """The store ``KPCA_CLASS_STORE`` chooses, with the operator's limits."""
    url = store_url(environ)
    limits = Limits.from_env(environ)
    if url is None:
        return TallyStore(limits)
    from classroom.tally_redis import RedisStore, connect

    return RedisStore(connect(url), limits)


STORE: ClassStore = store_from_env()  # the classes every session of this process reads


def shares_classes() -> bool:
    """Whether this process's classes live in a store other processes share (Redis), rather
    than in its own memory: what the pages say about where a tally is kept."""
    return not isinstance(STORE, TallyStore)
