"""What one app's requests and sockets share, in one typed object: ``create_app`` builds it once and
stores it on the app; ``services()`` fetches it (for the current app, or the app given)."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from flask import Flask, current_app

from .assignments.grader import Graders
from .assignments.queue import GradingQueue, open_queue
from .assignments.store import AssignmentStore, open_assignment_store
from .budget import WorkBudget
from .config import Config
from .exporting import AnimationExports
from .live.runs import RunManager
from .rate_limits import RateLimits, rate_limits_for
from .store import PuzzleStore, open_store
from .tile_runs import TileRuns, tile_dir

EXTENSION = "maze_services"  # the key in ``app.extensions``; read it through ``services()`` only


@dataclass(frozen=True)
class Services:
    """The settings, puzzle store, work budget, rate limits, live runs, GIF exports, the runs kept
    for tiles (huge boards), and the assignments with their grading queue and graders of one app."""

    config: Config
    store: PuzzleStore
    budget: WorkBudget
    rate_limits: RateLimits
    runs: RunManager
    animations: AnimationExports
    tiles: TileRuns
    assignments: AssignmentStore
    grading: GradingQueue
    graders: Graders

    @classmethod
    def build(cls, config: Config) -> Services:
        """Every service for ``config``; the runs and the exports share the one work budget."""
        budget = WorkBudget(
            config.max_concurrent_runs, config.trace_budget_bytes, config.max_concurrent_loads,
            config.tile_renders_at_once,
        )
        tiles = TileRuns(tile_dir(config), config.tile_store_bytes)
        store = open_store(config, budget)
        assignments = open_assignment_store(config)
        grading = open_queue(config)
        return cls(
            config=config,
            store=store,
            budget=budget,
            rate_limits=rate_limits_for(config),
            runs=RunManager(config, budget, tiles),
            animations=AnimationExports(config, budget),
            tiles=tiles,
            assignments=assignments,
            grading=grading,
            graders=Graders(config, assignments, grading, store, config.graders,
                            name=f"grader-{socket.gethostname()}-{os.getpid()}", budget=budget),
        )

    def install(self, app: Flask) -> None:
        """Store these services on ``app`` (once)."""
        if EXTENSION in app.extensions:
            raise RuntimeError("this app has its services already")
        app.extensions[EXTENSION] = self


def services(app: Flask | None = None) -> Services:
    """The services of ``app`` (by default the app handling the current request or event)."""
    found = (app if app is not None else current_app).extensions[EXTENSION]
    assert isinstance(found, Services)
    return found
