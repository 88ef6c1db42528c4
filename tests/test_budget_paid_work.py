"""The one way server-side work is paid for (server/paid_work.py): memory before the slot, one
``Stopped`` for work stopped by its user or the server, everything given back on every path — and the
tile run (server/tile_runs.py) paid through it like a live run's search and a GIF export."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from server.budget import ServerBusy, WorkBudget
from server.config import Config
from server.paid_work import Stopped, paid_work
from server.puzzles.grid.generate import generate_braid
from server.puzzles.registry import get_family
from server.search.control import CancelFlag
from server.solving import expansion_reason
from server.tile_runs import TileRuns, budgeted_tile_run

EMPTY = {"computing": 0, "trace_bytes": 0, "trace_budget": 10**6}


def test_memory_comes_before_the_slot_and_a_stop_while_waiting_gives_both_back() -> None:
    budget = WorkBudget(max_computing=1, trace_bytes=10**6)
    flag = CancelFlag()
    seen: list[dict[str, int]] = []
    with budget.computing():  # the only slot is busy
        threading.Timer(0.2, flag.set).start()
        with pytest.raises(Stopped), paid_work(budget, flag, 1000, "this work",
                                               on_wait=lambda _m: seen.append(budget.snapshot())):
            raise AssertionError("the block is not entered")
    assert seen[0]["trace_bytes"] == 1000  # it waited for the slot holding its memory
    assert budget.snapshot() == EMPTY


def test_work_holding_its_slot_never_grows_and_every_path_gives_back() -> None:
    budget = WorkBudget(max_computing=2, trace_bytes=10**6)
    with paid_work(budget, CancelFlag(), 1000, "this work") as work:
        work.resize(5000)  # it holds a slot: it keeps at most what it reserved
        assert budget.snapshot()["trace_bytes"] == 1000 and budget.snapshot()["computing"] == 1
        work.free_slot()
        work.resize(5000)
        assert budget.snapshot() == {**EMPTY, "trace_bytes": 5000}
    assert budget.snapshot() == EMPTY
    with pytest.raises(RuntimeError), paid_work(budget, CancelFlag(), 1000, "this work") as work:
        raise RuntimeError("the work failed")
    assert budget.snapshot() == EMPTY
    with budget.computing(), budget.computing(), pytest.raises(ServerBusy, match="free worker"), paid_work(
        budget, CancelFlag(), 1000, "this work", wait=0.1,
    ):
        pass
    assert budget.snapshot() == EMPTY


def test_a_search_s_progress_is_reported_and_a_stop_during_it_is_stopped() -> None:
    budget = WorkBudget(max_computing=1, trace_bytes=10**6)
    flag, counter, told = CancelFlag(), np.zeros(1, np.int64), []

    def search() -> str:
        counter[0] = 7
        flag.expire("limit: time")  # a time limit is a result, not a stop
        return "result"

    with paid_work(budget, flag, 10, "this work") as work:
        assert work.search(search, counter, told.append) == "result"
    assert told[0] == 0 and not flag.is_set()  # the time limit's stop was taken back

    def stopped() -> str:
        flag.set()
        return "never seen"

    with pytest.raises(Stopped), paid_work(budget, flag, 10, "this work") as work:
        work.search(stopped, counter)
    assert budget.snapshot() == EMPTY


# ---- the tile run, paid the same way -----------------------------------------------------------------
def tile_run(tmp_path: Path, config: Config, cancel: CancelFlag, budget: WorkBudget) -> dict:
    maze = generate_braid(20, 30, seed=3, braid=0.3)
    options = get_family("grid").run_options({})
    return budgeted_tile_run(TileRuns(tmp_path, 10**8), budget, config, maze, "p" * 20, "bfs", options,
                             cancel, owner="c:a")


def test_a_tile_run_stopped_while_it_searches_keeps_nothing(tmp_path: Path, monkeypatch) -> None:
    tiles = get_family("grid").need("tiles")
    flag, real = CancelFlag(), tiles.run

    def stopped_meanwhile(*args, **kwargs):
        meta = real(*args, **kwargs)
        flag.set()  # the client left while the search ran
        return meta

    monkeypatch.setattr(type(tiles), "run", lambda self, *a, **k: stopped_meanwhile(*a, **k))
    budget = WorkBudget(max_computing=1, trace_bytes=10**9)
    with pytest.raises(Stopped):
        tile_run(tmp_path, Config(testing=True), flag, budget)
    assert list(tmp_path.iterdir()) == []  # nothing kept, not even a half-made folder
    assert budget.snapshot() == {"computing": 0, "trace_bytes": 0, "trace_budget": 10**9}


def test_a_tile_run_stopped_by_its_limit_is_kept_naming_the_setting(tmp_path: Path) -> None:
    config = Config(testing=True, max_expanded=50, max_pixels=50)
    budget = WorkBudget(max_computing=1, trace_bytes=10**9)
    meta = tile_run(tmp_path, config, CancelFlag(), budget)
    wording = f"{expansion_reason(50)} ({config.expansion_setting(True)})"
    assert meta["result"]["stopped"] == wording  # the same wording as ``solve`` gives
    assert tile_run(tmp_path, config, CancelFlag(), budget)["result"]["stopped"] == wording  # found again
    assert budget.snapshot()["trace_bytes"] == 0
