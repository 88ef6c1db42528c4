"""One server for a whole class: runs own their threads, acknowledgements count by seq, one budget
bounds all work, per-client caps, bad messages answered, security headers. Live-layer tests use
Flask-SocketIO's test client; the load test (tests/test_load.py) checks the same over real sockets."""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest

from server import socketio
from server.budget import ServerBusy, TooBig, WorkBudget
from server.config import Config
from server.paid_work import Stopped
from server.puzzles.errors import PuzzleError
from server.puzzles.grid.model import GridMaze
from server.puzzles.registry import get_family
from server.search.control import CancelFlag, time_limit_reason
from server.services import services
from server.solving import budgeted_solve, held_bytes, solve
from tests.helpers import live_app, open_maze, pump, wait_idle


def make_app(**overrides):
    return live_app({"small": open_maze(6, 9), "big": open_maze(300, 300)}, **overrides)


def threads_settle(baseline: int, seconds: float = 2.0) -> int:
    deadline = time.monotonic() + seconds
    while threading.active_count() > baseline and time.monotonic() < deadline:
        time.sleep(0.02)
    return threading.active_count()


def test_finished_and_cancelled_runs_leave_no_thread_behind() -> None:
    app = make_app(engine="compiled", frame_records=10_000)  # the kernels too: they once left a watcher
    client = socketio.test_client(app)
    warm = {"run": "warm", "puzzle": "small", "algorithm": "bfs"}
    assert client.emit("run_start", warm, callback=True)["ok"]
    pump(client, "run_done", "warm")  # the first run loads the kernels and starts the watchdog
    baseline = threading.active_count()
    for n in range(20):
        client.emit("run_start", {"run": f"r{n}", "puzzle": "small", "algorithm": "astar", "slot": "a"})
        pump(client, "run_done", f"r{n}")
    for n in range(10):  # started, then replaced or cancelled at once
        client.emit("run_start", {"run": f"c{n}", "puzzle": "big", "algorithm": "dfs", "slot": "b"})
        client.emit("run_cancel", {"run": f"c{n}"})
    assert wait_idle(app, 2.0)
    assert threads_settle(baseline) <= baseline
    client.disconnect()


def test_acknowledgements_of_frames_not_sent_count_for_nothing() -> None:
    app = make_app()
    client = socketio.test_client(app)
    assert client.emit("run_start", {"run": "r", "puzzle": "big", "algorithm": "bfs"}, callback=True)["ok"]
    for seq in range(500):  # a client faking acks ahead of any frame
        client.emit("run_ack", {"run": "r", "seq": seq})
    time.sleep(2.5)  # the search (generic, 90,000 cells) finishes and the window fills
    frames = [m for m in client.get_received() if m["name"] == "run_frame"]
    assert len(frames) == 2  # the window, however many acks came before
    client.emit("run_ack", {"run": "r", "seq": 0})
    time.sleep(0.5)
    assert len([m for m in client.get_received() if m["name"] == "run_frame"]) == 1
    client.disconnect()
    assert wait_idle(app, 2.0)


def test_a_stream_has_a_deadline_however_steadily_it_is_acknowledged() -> None:
    app = make_app(stream_timeout=1.0, frame_window=1)
    client = socketio.test_client(app)
    client.emit("run_start", {"run": "slow", "puzzle": "big", "algorithm": "bfs"})
    end, frames = time.monotonic() + 4.0, 0
    while time.monotonic() < end and services(app).runs.active():
        for message in client.get_received():
            if message["name"] == "run_frame":
                frames += 1
                time.sleep(0.3)  # a client that acks, slowly
                client.emit("run_ack", {"run": "slow", "seq": message["args"][0]["seq"]})
        time.sleep(0.01)
    assert services(app).runs.active() == 0  # dropped after about a second of streaming
    assert 1 <= frames < 20
    client.disconnect()


def sealed_goal(side: int) -> GridMaze:
    """An open square whose goal (bottom right) is walled in: a search must visit every cell."""
    cells = np.ones((side, side), np.uint8)
    cells[-2, -2:] = cells[-2:, -2] = 0
    return GridMaze(cells, [0], [side * side - 1])


def test_generic_engine_and_kernels_stop_at_the_same_time_limit() -> None:
    maze = sealed_goal(3000)  # the kernel's BFS needs several tenths of a second for it
    for engine in ("auto", "generic"):
        t0 = time.perf_counter()
        result = solve(maze, "bfs", {}, engine=engine, max_seconds=0.05).json
        elapsed = time.perf_counter() - t0
        assert not result["found"] and result["stopped"] == time_limit_reason(0.05), engine
        assert elapsed < 1.0, engine  # stopped well within ~0.1 s of the limit (plus set-up)


def test_a_cancel_flag_stops_a_kernel_and_says_why() -> None:
    maze = sealed_goal(3000)
    flag = CancelFlag()
    threading.Timer(0.02, flag.set, ("stopped by the teacher",)).start()
    result = solve(maze, "astar", {}, cancel=flag).json
    assert result["stopped"] == "stopped by the teacher"


def test_stored_states_bound_a_generic_search() -> None:
    maze = GridMaze(np.ones((300, 300), np.uint8), [0], [300 * 300 - 1])
    result = solve(maze, "dijkstra", {}, engine="generic", max_stored=1_000).json
    assert result["stopped"] == "limit: more than 1,000 states stored"


def test_http_solves_share_the_compute_budget() -> None:
    app = make_app(max_concurrent_runs=1, max_concurrent_loads=2, solve_wait=0.3)
    client = app.test_client()
    budget = services(app).budget
    with budget.computing():  # a socket run holds the only worker
        answer = client.post("/api/puzzles/small/solve", json={"algorithm": "bfs"})
        assert answer.status_code == 503 and "busy" in answer.get_json()["error"]
        image = client.get("/api/puzzles/small/solution.png")
        assert image.status_code == 503
    assert client.post("/api/puzzles/small/solve", json={"algorithm": "bfs"}).status_code == 200
    with budget.loading(), budget.loading():  # both upload readers busy: the next upload waits, then 503
        upload = client.post("/api/puzzles", data={"file": (io.BytesIO(b"#S.G#\n"), "m.txt")})
        assert upload.status_code == 503 and "uploads are being read" in upload.get_json()["error"]


def test_trace_memory_budget_makes_a_run_wait_its_turn() -> None:
    budget = WorkBudget(max_computing=4, trace_bytes=1000)
    assert budget.reserve(800) == 800
    waited: list[str] = []
    got: list[int] = []
    second = threading.Thread(target=lambda: got.append(budget.reserve(500, None, waited.append)))
    second.start()
    time.sleep(0.3)
    assert not got and waited and "waiting for server memory" in waited[0]
    budget.release(800)
    second.join(2)
    assert got == [500]
    budget.release(500)
    assert budget.reserve(5000, fit=True) == 1000  # a guess past the whole budget: fitted, it runs alone
    with pytest.raises(TooBig, match="needs about"):  # a need past it can never run: refused in words
        budget.reserve(5000, need="searching this puzzle")
    flag = CancelFlag()
    flag.set()
    assert budget.reserve(500, flag) == 0  # a cancelled run stops waiting
    budget.release(1000)
    with pytest.raises(ServerBusy):
        full = WorkBudget(max_computing=1, trace_bytes=1)
        with full.computing(), full.computing(wait=0.1):
            pass


def test_per_client_caps() -> None:
    app = make_app(max_runs_per_client=2, uploads_per_minute=3, max_puzzles_per_client=2)
    client = socketio.test_client(app)
    for slot in ("a", "b"):
        assert client.emit("run_start", {"run": slot, "slot": slot, "puzzle": "big", "algorithm": "dfs"},
                           callback=True)["ok"]
    third = client.emit("run_start", {"run": "c", "slot": "c", "puzzle": "big", "algorithm": "dfs"},
                        callback=True)
    assert third["ok"] is False and "at most 2 runs at once" in third["error"]
    again = client.emit("run_start", {"run": "a2", "slot": "a", "puzzle": "small", "algorithm": "bfs"},
                        callback=True)
    assert again["ok"]  # a new run in a slot it holds replaces the old one
    client.disconnect()

    http = app.test_client()
    http.get("/")  # the page gives the browser its client id: a request without one is its address's
    ids = []
    for n in range(3):
        text = f"#####\n#S.G#\n#{'.' * 3}#\n#####\n{'#' * (n + 1)}\n"
        answer = http.post("/api/puzzles", data={"file": (io.BytesIO(text.encode()), f"m{n}.txt")})
        assert answer.status_code == 201, answer.get_json()
        ids.append(answer.get_json()["id"])
    refused = http.post("/api/puzzles", data={"file": (io.BytesIO(b"#S.G#\n"), "m.txt")})
    assert refused.status_code == 429 and "at most 3 a minute" in refused.get_json()["error"]
    assert http.get(f"/api/puzzles/{ids[0]}").status_code == 404  # past 2 puzzles the oldest went
    assert http.get(f"/api/puzzles/{ids[2]}").status_code == 200


def test_malformed_socket_messages_are_answered() -> None:
    app = make_app()
    client = socketio.test_client(app)
    assert client.emit("run_start", callback=True)["ok"] is False  # no data at all
    long_id = client.emit("run_start", {"run": "x" * 100_000, "puzzle": "small", "algorithm": "bfs"},
                          callback=True)
    assert long_id["ok"] is False and "field 'run'" in long_id["error"]
    ack = client.emit("run_ack", {"run": "r", "seq": "7"}, callback=True)
    assert ack["ok"] is False and "field 'seq'" in ack["error"]
    for payload in (None, [], "run", 3, {"run": 5}):
        assert client.emit("run_cancel", payload, callback=True)["ok"] is False
    unknown = client.emit("teleport", {"x": 1}, callback=True)
    assert unknown["ok"] is False and "unknown event" in unknown["error"]
    client.disconnect()


def test_a_text_file_of_a_huge_grid_is_refused_before_it_is_built() -> None:
    app = make_app()
    text = "#" * 20_000 + "\n" + "S\n" * 19_998 + "G\n"  # 60 KB describing 20,000 x 20,000 cells
    answer = app.test_client().post("/api/puzzles", data={"file": (io.BytesIO(text.encode()), "huge.txt")})
    assert answer.status_code == 400 and "20000 x 20000 cells is more than" in answer.get_json()["error"]


def test_security_headers() -> None:
    app = make_app()
    page = app.test_client().get("/")
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert app.test_client().get("/api/algorithms").headers["X-Content-Type-Options"] == "nosniff"
    assert app.config["SECRET_KEY"] != "dev" and len(app.config["SECRET_KEY"]) >= 32


def test_health_reports_the_work_in_progress() -> None:
    app = make_app()
    health = app.test_client().get("/api/health").get_json()
    assert health["runs"] == 0 and health["computing"] == 0 and health["trace_bytes"] == 0
    assert health["threads"] >= 1 and health["puzzles"] == 2


def test_a_run_whose_channel_fails_still_ends_cleanly(monkeypatch) -> None:
    from server.live.runs import RunManager

    escaped: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda info: escaped.append(info.exc_value))
    app = make_app()
    manager = RunManager(services(app).config, services(app).budget)
    calls: list[str] = []

    def broken_emit(event: str, payload) -> None:
        calls.append(event)
        raise ConnectionError("the channel is gone")

    run = manager.start("sid", "main", "r", open_maze(6, 9), "bfs", {"diagonal": False}, broken_emit)
    run.thread.join(5)
    assert not run.thread.is_alive() and manager.active() == 0
    assert calls[-1] == "run_error"  # it tried to say so,
    assert escaped == []  # and the failure to say so did not escape the run's thread


# ---- budgeted_solve: reserve memory, take a slot, solve, resize; released on every path ------------
BUDGET_CONFIG = Config(testing=True, engine="generic")


def test_budgeted_solve_resizes_the_reservation_to_what_the_result_holds() -> None:
    budget = WorkBudget(max_computing=2, trace_bytes=10**9)
    maze, extra = open_maze(20, 30), 1234
    searched: list[int] = []
    with budgeted_solve(budget, BUDGET_CONFIG, maze, "bfs", {}, CancelFlag(), extra_bytes=extra,
                        on_search=searched.append) as solved:
        assert solved is not None and solved.json["cost"] == 19 + 29
        held = budget.snapshot()
        assert held["trace_bytes"] == held_bytes(solved) + extra  # resized to what was used
        assert held["computing"] == 0  # the slot is let go once the search ends
    assert searched[0] == 0  # told when the search started
    assert budget.snapshot() == {"computing": 0, "trace_bytes": 0, "trace_budget": 10**9}
    with budgeted_solve(budget, BUDGET_CONFIG, maze, "bfs", {}, CancelFlag(), extra_bytes=10**8,
                        keep_slot=True) as solved:
        held = budget.snapshot()
        assert held["computing"] == 1  # kept for the block
        estimate = get_family("grid").trace_estimate(maze) + 10**8
        assert held["trace_bytes"] == min(estimate, held_bytes(solved) + 10**8)  # never grows holding it
    assert budget.snapshot()["computing"] == 0 and budget.snapshot()["trace_bytes"] == 0


def test_budgeted_solve_releases_everything_when_the_search_raises() -> None:
    budget = WorkBudget(max_computing=1, trace_bytes=10**9)
    with pytest.raises(PuzzleError, match="outside"), budgeted_solve(
        budget, BUDGET_CONFIG, open_maze(6, 9), "bfs", {"start": [0, 0], "goal": [99, 99]}, CancelFlag(),
    ):
        raise AssertionError("the block is not entered")
    assert budget.snapshot()["computing"] == 0 and budget.snapshot()["trace_bytes"] == 0
    with pytest.raises(RuntimeError), budgeted_solve(budget, BUDGET_CONFIG, open_maze(6, 9), "bfs", {},
                                                     CancelFlag()):
        raise RuntimeError("the caller's own work failed")
    assert budget.snapshot()["computing"] == 0 and budget.snapshot()["trace_bytes"] == 0


def test_budgeted_solve_is_stopped_when_cancelled_and_releases_its_memory() -> None:
    budget = WorkBudget(max_computing=1, trace_bytes=10**9)
    waited: list[tuple[str, int]] = []
    flag = CancelFlag()
    with budget.computing():  # the only slot is busy: the solve waits for it, then is cancelled
        threading.Timer(0.3, flag.set).start()
        with pytest.raises(Stopped), budgeted_solve(
            budget, BUDGET_CONFIG, open_maze(6, 9), "bfs", {}, flag,
            on_wait=lambda message: waited.append((message, budget.snapshot()["trace_bytes"])),
        ):
            raise AssertionError("the block is not entered")
        [(message, held)] = waited
        assert "waiting for a free worker" in message and held > 0  # memory reserved while it waits
    assert budget.snapshot()["trace_bytes"] == 0
    flag = CancelFlag()  # cancelled while it searches
    threading.Timer(0.05, flag.set).start()
    with pytest.raises(Stopped), budgeted_solve(budget, BUDGET_CONFIG, sealed_goal(400), "bfs", {}, flag):
        raise AssertionError("the block is not entered")
    assert budget.snapshot()["computing"] == 0 and budget.snapshot()["trace_bytes"] == 0


def test_budgeted_solve_gives_up_waiting_in_words_and_a_time_limit_is_a_result() -> None:
    budget = WorkBudget(max_computing=1, trace_bytes=10**9)
    with budget.computing(), pytest.raises(ServerBusy, match=r"busy .*free worker"), budgeted_solve(
        budget, BUDGET_CONFIG, open_maze(6, 9), "bfs", {}, CancelFlag(), wait=0.2,
    ):
        pass
    assert budget.snapshot()["trace_bytes"] == 0
    config = Config(testing=True, engine="generic", max_seconds=0.05)
    flag = CancelFlag()
    with budgeted_solve(budget, config, sealed_goal(400), "bfs", {}, flag) as solved:
        assert solved is not None and solved.json["stopped"] == time_limit_reason(0.05)
        assert not flag.is_set()  # the limit stopped the search, not the work: the caller goes on
    assert budget.snapshot()["trace_bytes"] == 0


def test_a_run_stopped_by_the_time_limit_streams_what_it_searched() -> None:
    app = make_app(max_seconds=0.05, frame_records=100_000)
    client = socketio.test_client(app)
    client.emit("run_start", {"run": "t", "puzzle": "big", "algorithm": "bfs"})
    seen = pump(client, "run_done", "t")  # it once ended without a word: the limit looked like a cancel
    assert seen[-1]["result"]["stopped"] == time_limit_reason(0.05) and not seen[-1]["result"]["found"]
    client.disconnect()
    assert wait_idle(app, 2.0)


def test_an_app_has_one_typed_services_object() -> None:
    from server.services import Services

    app = make_app(max_concurrent_runs=3)
    shared = services(app)
    assert isinstance(shared, Services) and shared.config.max_concurrent_runs == 3
    assert shared.runs.budget is shared.budget and shared.animations.budget is shared.budget
    with app.test_request_context():
        assert services() is shared  # the current app's
    with pytest.raises(RuntimeError, match="already"):
        shared.install(app)
