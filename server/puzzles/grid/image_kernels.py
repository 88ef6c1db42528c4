"""The image reader's compiled union-find over marker runs, imported only for images with many runs.

``marker_runs.label_runs`` is the source, plain Python over numpy arrays; here numba compiles it (cached
beside ``marker_runs.py``), for the hostile images whose markers hold up to a million runs.
"""

from __future__ import annotations

from numba import njit

from .marker_runs import label_runs

compiled_label_runs = njit(cache=True, nogil=True)(label_runs)
