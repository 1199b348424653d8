"""Clipping cells and testing boxes against roads, cities and each other."""

from __future__ import annotations

import math

from tajmahal.render._svg import Box, Cell, Point

# ----------------------------------------------------------------- geometry


def _clip(cell: Cell, a: float, b: float, c: float, label: str) -> Cell:
    """Clip a convex cell to the half-plane ``a*x + b*y <= c``; new edges get ``label``."""
    out: Cell = []
    n = len(cell)
    for k in range(n):
        (p, lab), (q, _) = cell[k], cell[(k + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append((p, lab))
        if (fp <= 0) != (fq <= 0):
            t = fp / (fp - fq)
            cut = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            out.append((cut, label if fp <= 0 else lab))
    return out


def _segment_hits_box(p: Point, q: Point, box: Box) -> bool:
    """Whether segment pq meets the box (Liang–Barsky clipping)."""
    x0, y0, x1, y1 = box
    if max(p[0], q[0]) < x0 or min(p[0], q[0]) > x1:
        return False
    if max(p[1], q[1]) < y0 or min(p[1], q[1]) > y1:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    for den, num in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if den == 0:
            if num < 0:
                return False
            continue
        t = num / den
        if den < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _boxes_overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_hits_box(center: Point, radius: float, box: Box) -> bool:
    nx = min(max(center[0], box[0]), box[2])
    ny = min(max(center[1], box[1]), box[3])
    return math.hypot(nx - center[0], ny - center[1]) < radius
