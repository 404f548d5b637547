import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture
def X(rng):
    return rng.normal(size=(60, 4))


@pytest.fixture
def X_new(rng):
    return rng.normal(size=(15, 4))


def match_signs(A, B):
    """B with each column's sign flipped to agree with A (components are sign-free)."""
    signs = np.sign((A * B).sum(axis=0))
    signs[signs == 0] = 1.0
    return B * signs
