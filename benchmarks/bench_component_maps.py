"""Time a component-map redraw: the fit, the grid's projection and the figure, for n ≤ 1000.

    python benchmarks/bench_component_maps.py [--repeats 3]

Target (issue "Three lesson pages on geometry"): a redraw < 1 s for n ≤ 1000, the grid
projected with one test-kernel product, never more than 200 × 200 grid points. Each run
is what the page does on a γ change: ``lessons.component_maps.experiment.component_maps``
(kernel PCA with 8 components + the grid, at the page's grid size) and
``lessons.component_maps.figures.map_grid`` serialised to JSON. Wall time and this process's
CPU time are both printed: on a shared machine the wall time mostly measures the load.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datasets  # noqa: E402
from lessons.component_maps.experiment import (  # noqa: E402
    MAPPED,
    MAX_CELLS,
    component_maps,
    grid_side,
)
from lessons.component_maps.figures import MapPanel, map_grid, panel_title  # noqa: E402

TARGET_S = 1.0


def redraw(X, y, gamma: float) -> tuple[int, int]:
    side = min(grid_side(len(X)), math.isqrt(MAX_CELLS // MAPPED))
    maps = component_maps(X, kernel="rbf", kernel_params={"gamma": gamma},
                          n_components=MAPPED, side=side)
    fit = maps.fit
    panels = [MapPanel(maps.xs, maps.ys, maps.values[c],
                       panel_title(c + 1, fit.eigenvalues[c], fit.explained_ratio[c]))
              for c in range(MAPPED)]
    figure = map_grid(panels, X, y, ("outer", "inner"), columns=4, title="bench")
    return side, len(figure.to_json())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"component-map redraw (circles, RBF, 8 components); target < {TARGET_S:g} s")
    for n in (250, 500, 1000):
        data = datasets.load("circles", n=n, seed=0)
        walls, cpus = [], []
        for i in range(args.repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            side, size = redraw(data.X, data.y, gamma=[3.0, 10.0, 30.0][i % 3])
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        verdict = "OK" if wall < TARGET_S else ("OK on CPU time" if cpu < TARGET_S else "MISSED")
        print(f"  n = {n:5d}: grid {side} × {side}, {size / 1e6:.2f} MB JSON, "
              f"wall {wall:5.2f} s, CPU {cpu:5.2f} s  {verdict}")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
