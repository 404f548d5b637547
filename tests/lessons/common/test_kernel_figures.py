"""The selection's bands on K and K̃ (lessons.common.kernel_figures.highlight_bands): one SVG
path filled by the nonzero rule, so every cell in a selected row or a selected column is
inside it, the selected points' own block (rows ∩ columns) included (issue 48: the rows
and the columns were drawn with opposite windings, and their overlap cancelled out)."""

from __future__ import annotations

import itertools
import re

import pytest

from lessons.common.kernel_figures import highlight_bands

M = 12


def polygons(path: str) -> list[list[tuple[float, float]]]:
    """The closed polygons of an SVG path made of M, H, V and Z commands."""
    shapes, x, y = [], 0.0, 0.0
    for command, value in re.findall(r"([MHVZ])([^MHVZ]*)", path):
        if command == "M":
            x, y = map(float, value.split(","))
            shapes.append([(x, y)])
        elif command == "H":
            x = float(value)
            shapes[-1].append((x, y))
        elif command == "V":
            y = float(value)
            shapes[-1].append((x, y))
    return shapes


def winding(path: str, x: float, y: float) -> int:
    """How many times the path winds around (x, y), counter-clockwise positive: a ray to
    the right crosses each upward edge +1, each downward edge −1."""
    total = 0
    for corners in polygons(path):
        for (x0, y0), (x1, y1) in itertools.pairwise([*corners, corners[0]]):
            if (y0 <= y < y1 or y1 <= y < y0) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                total += 1 if y1 > y0 else -1
    return total


def filled(path: str, row: int, column: int) -> bool:
    """Whether the centre of cell (row, column) is inside the path, by the nonzero rule."""
    return winding(path, column, row) != 0


@pytest.mark.parametrize("selected", [[4], [3, 4, 5], [1, 2, 7, 8, 9], [0, 11], [2, 5, 9]])
def test_a_cell_is_marked_exactly_when_its_row_or_its_column_is_selected(selected):
    shape = highlight_bands(selected, M)
    assert shape["fillrule"] == "nonzero"
    for row, column in itertools.product(range(M), repeat=2):
        wanted = row in selected or column in selected
        assert filled(shape["path"], row, column) == wanted, (row, column)


def test_the_selected_points_own_block_is_inside_the_bands():
    path = highlight_bands([3, 4, 5], M)["path"]
    assert all(filled(path, row, column) for row in (3, 4, 5) for column in (3, 4, 5))
    assert not filled(path, 8, 8)
