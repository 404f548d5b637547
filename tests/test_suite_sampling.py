"""The quick run's sample of the property sweeps (tests/conftest.py): every case not in a
sweep is kept, each sweep keeps its share (at least one case), and a seed repeats it."""

from __future__ import annotations

import math

import pytest

from tests.conftest import sample_sweeps


class Case:
    """Enough of a pytest item for the sampler: a node id and its marks."""

    def __init__(self, nodeid: str, sweep: bool) -> None:
        self.nodeid, self._sweep = nodeid, sweep

    def get_closest_marker(self, name: str):
        return object() if name == "sweep" and self._sweep else None


def items() -> list[Case]:
    sweep_a = [Case(f"t.py::test_a[{i}]", True) for i in range(40)]
    sweep_b = [Case(f"t.py::test_b[{i}]", True) for i in range(3)]
    plain = [Case(f"t.py::test_c[{i}]", False) for i in range(5)] + [Case("t.py::test_d", True)]
    return sweep_a + plain + sweep_b


@pytest.mark.parametrize("share", [0.1, 0.25, 1.0])
def test_each_sweep_keeps_its_share_and_every_other_case(share):
    given = items()
    kept, dropped = sample_sweeps(given, seed=7, share=share)
    assert sorted(map(id, kept + dropped)) == sorted(map(id, given))
    ids = [c.nodeid for c in kept]
    assert sum(i.startswith("t.py::test_a[") for i in ids) == math.ceil(share * 40)
    assert sum(i.startswith("t.py::test_b[") for i in ids) == max(1, math.ceil(share * 3))
    assert all(f"t.py::test_c[{i}]" in ids for i in range(5)) and "t.py::test_d" in ids
    assert ids == [c.nodeid for c in given if c in kept]  # the order of collection kept


def test_a_seed_repeats_the_sample_and_another_draws_another():
    def sample(seed):
        return [c.nodeid for c in sample_sweeps(items(), seed=seed, share=0.25)[0]]

    assert sample(3) == sample(3)
    assert any(sample(3) != sample(seed) for seed in range(4, 10))
