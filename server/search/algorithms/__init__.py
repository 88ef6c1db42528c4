"""The search algorithms: generators of events over ``server.search.problem.Problem``.

Each yields ``Event``s and returns ``(path, cost)`` (``path`` is None when no goal is reached).
None of them knows what a grid, a tile or a pipe is.
"""
