"""Fast kernels: the search algorithms over flat arrays, compiled with numba.

``solve_grid`` (in ``grid_search``) runs bfs, dfs, dijkstra, greedy, astar and bidirectional on a
GridMaze with the same semantics, events and counts as the generic algorithms of
``server.search``. numba itself is imported on the first solve, so importing this package (and
the web layer that uses it) stays fast.
"""

from server.kernels.grid_search import compile_all, solve_grid, warm_up

__all__ = ["compile_all", "solve_grid", "warm_up"]
