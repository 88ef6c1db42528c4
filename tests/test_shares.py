"""Shares of the shared pools (issue 28, point 3): one client flooding a pool leaves room for others.

``WorkBudget`` gives no owner more than half of a pool's slots or 3/4 of its memory; the tile store
keeps a client's runs within a quarter of its bytes, never drops a run in use, and does not tell runs
apart by options their algorithm ignores."""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from server.budget import MAX_WAITING, ServerBusy, TooBig, WorkBudget, slot_share
from server.puzzles.registry import get_family
from server.tile_runs import IN_USE_SECONDS, TileRuns, run_key


def test_one_owner_leaves_a_slot_of_each_pool_to_the_others() -> None:
    budget = WorkBudget(max_computing=4, trace_bytes=1000, max_loading=2, max_drawing=2)
    assert [slot_share(n) for n in (1, 2, 3, 4, 8)] == [1, 1, 2, 3, 7]
    with ExitStack() as hostile:
        for _ in range(3):
            assert hostile.enter_context(budget.computing(owner="ip:1.2.3.4"))
        fourth = budget.computing(wait=0.05, owner="ip:1.2.3.4")  # its fourth waits its turn
        with pytest.raises(ServerBusy, match="one client may have 3 at once"), fourth:
            pass
        with budget.computing(wait=0.05, owner="c:victim") as got:  # a victim is served at once
            assert got
        hostile.enter_context(budget.loading(owner="ip:1.2.3.4"))
        second = budget.loading(wait=0.05, owner="ip:1.2.3.4")
        with pytest.raises(ServerBusy, match="uploads are being read"), second:
            pass
        with budget.loading(wait=0.05, owner="c:victim"):
            pass
        hostile.enter_context(budget.drawing(owner="ip:1.2.3.4"))
        with budget.drawing(wait=0.05, owner="c:victim"):
            pass


def test_an_owner_waits_for_a_pool_with_a_few_requests_at_most() -> None:
    budget = WorkBudget(max_computing=2, trace_bytes=1000, max_drawing=2)
    errors: list[str] = []
    with budget.drawing(owner="ip:6.6.6.6"):
        waiters = [threading.Thread(target=lambda: _draw(budget, errors)) for _ in range(MAX_WAITING)]
        for thread in waiters:
            thread.start()
        deadline = time.monotonic() + 10
        while budget._waiting["drawing"]["ip:6.6.6.6"] < MAX_WAITING:  # all of them waiting now
            assert time.monotonic() < deadline
            time.sleep(0.01)
        t0 = time.monotonic()
        with pytest.raises(ServerBusy, match=f"{MAX_WAITING} requests waiting already"), \
                budget.drawing(wait=30, owner="ip:6.6.6.6"):
            pass
        assert time.monotonic() - t0 < 10  # refused at once, not after its 30 s
        with budget.drawing(wait=0.05, owner="c:victim"):  # another client draws meanwhile
            pass
    for thread in waiters:
        thread.join(30)
    assert errors == [] and budget._waiting["drawing"] == {}


def _draw(budget: WorkBudget, errors: list[str]) -> None:
    try:
        with budget.drawing(wait=30, owner="ip:6.6.6.6"):
            pass
    except ServerBusy as err:
        errors.append(str(err))


def test_a_waiting_owner_gets_its_slot_when_its_own_work_ends() -> None:
    budget = WorkBudget(max_computing=2, trace_bytes=1000)
    got: list[bool] = []
    first = budget.computing(owner="a")
    first.__enter__()
    waiter = threading.Thread(target=lambda: got.append(_enter_and_leave(budget, "a")))
    waiter.start()
    deadline = time.monotonic() + 10
    while budget.snapshot()["computing"] != 1 or not waiter.is_alive():  # it waits behind its own
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not got
    first.__exit__(None, None, None)
    waiter.join(10)
    assert got == [True]


def _enter_and_leave(budget: WorkBudget, owner: str) -> bool:
    with budget.computing(owner=owner) as got:
        return got


def test_memory_share_and_refusal_in_words() -> None:
    budget = WorkBudget(max_computing=4, trace_bytes=1_000_000_000)
    held = budget.reserve(700_000_000, owner="ip:1.2.3.4")
    with pytest.raises(ServerBusy, match="waiting for server memory"):  # past its 750 MB share
        budget.reserve(100_000_000, wait=0.05, owner="ip:1.2.3.4")
    victim = budget.reserve(200_000_000, wait=0.05, owner="c:victim")  # the rest is the others'
    with pytest.raises(TooBig, match=r"Searching this board needs about 2,000 MB .* at most 750 MB"):
        budget.reserve(2_000_000_000, owner="c:victim", need="searching this board")
    budget.release(held, "ip:1.2.3.4")
    budget.release(victim, "c:victim")
    fitted = budget.reserve(2_000_000_000, owner="c:x", fit=True)  # a guess is cut to the share
    assert fitted == 750_000_000
    budget.release(fitted, "c:x")
    assert budget.snapshot()["trace_bytes"] == 0


def test_a_search_too_big_for_its_owner_is_fitted_or_refused() -> None:
    from server.config import Config
    from server.solving import search_plan

    family = get_family("sliding")
    board = family.load(b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n", "b.txt", family.load_options({}),
                        __import__("server.puzzles.family", fromlist=["LoadLimits"]).LoadLimits())
    config = Config(testing=True)
    small = WorkBudget(4, 100_000_000)  # one client may hold 75 MB: 500,000 boards of ~630 bytes do not fit
    limits, need = search_plan(small, config, board, "bfs", family.run_options({}), owner="c:a")
    assert limits["max_stored"] < config.max_stored_generic and need <= small.limit_for("c:a")
    assert "bytes each" in limits["stored_setting"]
    tiny = WorkBudget(4, 100_000)
    with pytest.raises(TooBig, match="Searching this puzzle needs about"):
        search_plan(tiny, config, board, "bfs", family.run_options({}), owner="c:a")


def _fake_run(runs: TileRuns, key: str, size: int, owner: str | None, age: float = 0.0) -> None:
    def make(folder: Path) -> dict:
        (folder / "closed_at.npy").write_bytes(b"\0" * size)
        return {"steps": 1}

    runs.produce(key, make, size=size, owner=owner)
    if age:
        meta = runs.folder(key) / "meta.json"
        then = time.time() - age
        os.utime(meta, (then, then))


def test_a_client_keeps_a_quarter_of_the_tile_store_and_runs_in_use_stay(tmp_path: Path) -> None:
    runs = TileRuns(tmp_path, max_bytes=40_000)
    old = IN_USE_SECONDS + 60
    victim = run_key("p", "bfs", {"who": "victim"})
    _fake_run(runs, victim, 9_000, "c:victim", age=old / 2 if old / 2 < IN_USE_SECONDS else 10)
    hostile = [run_key("p", "bfs", {"weight": 1 + i * 1e-9}) for i in range(6)]
    for i, key in enumerate(hostile):
        _fake_run(runs, key, 4_000, "ip:6.6.6.6", age=old + 100 - i)  # idle, oldest first
    kept = [k for k in hostile if runs.meta(k) is not None]
    assert len(kept) <= 10_000 // 4_000 + 1 and hostile[-1] in kept  # its own oldest went first
    assert runs.meta(victim) is not None  # the victim's run, in use, is never dropped
    assert json.loads((runs.folder(victim) / "meta.json").read_text())["owner"] != "c:victim"  # hashed
    with pytest.raises(TooBig, match="one client may keep at most"):
        _fake_run(runs, run_key("p", "bfs", {"huge": 1}), 20_000, "c:victim")


def test_runs_in_use_are_never_dropped_even_for_room(tmp_path: Path) -> None:
    runs = TileRuns(tmp_path, max_bytes=10_000)
    for i in range(4):
        _fake_run(runs, run_key("p", "bfs", {"i": i}), 2_400, f"c:{i}")  # all shown just now
    with pytest.raises(ServerBusy, match="full of runs being shown"):
        _fake_run(runs, run_key("p", "bfs", {"i": 9}), 2_400, "c:9")
    assert all(runs.meta(run_key("p", "bfs", {"i": i})) is not None for i in range(4))


def test_options_an_algorithm_ignores_do_not_make_a_new_run() -> None:
    family = get_family("grid")
    bfs = [family.run_identity("bfs", family.run_options({"weight": w})) for w in (1.0, 1.000000001, 2)]
    assert bfs[0] == bfs[1] == bfs[2]
    astar = [family.run_identity("astar", family.run_options({"weight": w})) for w in (1.0, 2)]
    assert astar[0] != astar[1]  # A*'s weight changes its run
