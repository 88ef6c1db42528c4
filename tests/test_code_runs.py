"""Students' recorded runs (server/code_runs.py): parts in order, the owner and puzzle checked, the judged
run kept for the replay; in one process, or in a Redis that several processes share."""

from __future__ import annotations

import pytest

from server.clients import shared_redis
from server.code_runs import RecordedRuns
from server.puzzles.errors import PuzzleError
from server.search.algorithms.replay import RecordedRun, pack_ids, unpack_ids
from tests.helpers import ROOT

pytest_plugins = ["tests.redis_server"]


def _harness_pack():
    import importlib.util

    path = ROOT / "static" / "js" / "code" / "harness.py"
    spec = importlib.util.spec_from_file_location("harness_pack", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.pack_ids


def test_the_server_packs_ids_as_the_page_does() -> None:
    page_pack = _harness_pack()
    for ids in ([], [0, 1, 2], [9, 3, 10**9, 0, 31, 32], list(range(0, 50_000, 13))):
        assert pack_ids(ids) == page_pack(ids) and unpack_ids(pack_ids(ids), len(ids)) == ids


def _exercise(a: RecordedRuns, b: RecordedRuns, fresh: RecordedRuns) -> None:
    """Parts given to ``a`` and ``b`` in turn (two processes), judged on ``a``, read back by ``fresh``."""
    ids = list(range(1000))
    text = pack_ids(ids)
    run = a.add_part(None, "alice", "p1", 0, 3, text[:300])
    assert b.add_part(run, "alice", "p1", 1, 3, text[300:600]) == run
    with pytest.raises(PuzzleError, match="expected part 2 of 3, got part 1 of 3"):
        a.add_part(run, "alice", "p1", 1, 3, text[300:600])
    with pytest.raises(PuzzleError, match="not kept on this server"):
        b.add_part(run, "mallory", "p1", 2, 3, text[600:])  # another client's run
    with pytest.raises(PuzzleError, match="2 of its 3 parts"):
        a.text(run, "alice", "p1")
    a.add_part(run, "alice", "p1", 2, 3, text[600:])
    assert unpack_ids(b.text(run, "alice", "p1"), 1000) == ids
    with pytest.raises(PuzzleError, match="not kept on this server"):
        b.text(run, "alice", "other puzzle")
    kept = a.keep(run, "alice", "p1", RecordedRun(ids, [0, 1, 1], 500))
    assert kept == run
    found = fresh.judged(run)
    assert found == RecordedRun(ids, [0, 1, 1], 500)
    assert fresh.judged("0" * 20) is None


def test_runs_kept_in_this_process() -> None:
    runs = RecordedRuns()
    _exercise(runs, runs, runs)
    assert RecordedRuns().judged("0" * 20) is None  # another process's memory holds nothing of it


def test_runs_kept_in_a_shared_redis_are_found_by_every_process(redis_url: str) -> None:
    processes = [RecordedRuns() for _ in range(3)]
    for runs in processes:
        runs.share(shared_redis(redis_url))
    _exercise(*processes)


def test_old_runs_go_first_past_the_cap() -> None:
    runs = RecordedRuns(max_bytes=5_000)
    first = runs.keep(None, "alice", "p1", RecordedRun(list(range(400)), None))
    second = runs.keep(None, "alice", "p1", RecordedRun(list(range(400)), None))
    assert runs.judged(first) is None and runs.judged(second) is not None
