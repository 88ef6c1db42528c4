"""The live layer through Flask-SocketIO's test client: frames, acknowledgements, cancellation."""

from __future__ import annotations

import pytest

from server import socketio
from server.services import services
from tests.helpers import live_app, make_app, open_maze, pump, pump_acking, pump_quietly, records, wait_idle


@pytest.fixture
def app():
    return live_app({"small": open_maze(6, 9), "medium": open_maze(60, 60), "big": open_maze(300, 300)})


def test_a_run_streams_frames_and_ends_with_the_result(app) -> None:
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "r1", "puzzle": "small", "algorithm": "bfs", "options": {}},
                      callback=True)
    assert ack == {"ok": True}
    seen = pump(client, "run_done", "r1")
    frames = [s for s in seen if s["name"] == "run_frame"]
    done = seen[-1]
    assert done["result"]["found"] and done["result"]["cost"] == 13  # 5 down + 8 across
    assert done["result"]["path"][0] == [0, 0] and done["result"]["path"][-1] == [5, 8]
    kinds, cells, values = records(frames)
    assert len(kinds) == done["records"] > 50  # several frames
    assert [f["start"] for f in frames] == list(range(0, len(kinds), 50))
    path_cells = cells[kinds == 3]
    assert path_cells[0] == 6 * 9 - 1 and path_cells[-1] == 0  # goal first: Lee's backtrace
    assert values[kinds == 3][0] == 13
    client.disconnect()


def test_a_second_run_in_the_same_slot_cancels_the_first(app) -> None:
    client = socketio.test_client(app)
    client.emit("run_start", {"run": "slow", "puzzle": "medium", "algorithm": "dfs", "options": {}})
    pump(client, "run_frame", "slow", ack=False)  # it is streaming, held up by the window
    client.emit("run_start", {"run": "quick", "puzzle": "small", "algorithm": "bfs", "options": {}})
    pump(client, "run_done", "quick")
    later = pump_acking(client, 1.5)
    # At most the frames already in flight arrive; a run that went on would keep streaming.
    assert sum(1 for s in later if s["name"] == "run_frame" and s["run"] == "slow") <= 2
    assert not any(s["name"] == "run_done" and s["run"] == "slow" for s in later)
    assert wait_idle(app, 2.0)  # the first run's thread has ended: cancelled, not left waiting
    client.disconnect()


def test_the_server_stops_sending_when_frames_are_not_acknowledged(app) -> None:
    client = socketio.test_client(app)
    client.emit("run_start", {"run": "r", "puzzle": "big", "algorithm": "bfs", "options": {}})
    seen = pump_quietly(client, 2.0)
    frames = [s for s in seen if s["name"] == "run_frame"]
    assert len(frames) == 2  # the window: nothing more without run_ack
    client.emit("run_ack", {"run": "r", "seq": 0})
    more = [s for s in pump_quietly(client, 1.0) if s["name"] == "run_frame"]
    assert len(more) == 1
    client.disconnect()
    assert wait_idle(app, 2.0)  # the disconnect stopped the run (long before the ack timeout)


@pytest.mark.parametrize(
    "message, error",
    [
        ({"run": "x", "puzzle": "nope", "algorithm": "bfs"}, "unknown puzzle"),
        ({"run": "x", "puzzle": "small", "algorithm": "teleport"}, "unknown algorithm"),
        ({"run": "x", "puzzle": "small", "algorithm": "astar", "options": {"weight": "heavy"}}, "weight"),
        ({"puzzle": "small", "algorithm": "bfs"}, "run id"),
    ],
)
def test_bad_run_requests_are_refused_with_a_reason(app, message, error) -> None:
    client = socketio.test_client(app)
    ack = client.emit("run_start", message, callback=True)
    assert ack["ok"] is False and error in ack["error"]
    client.disconnect()


def test_a_run_error_reaches_the_client(app) -> None:
    client = socketio.test_client(app)
    options = {"start": [0, 0], "goal": [99, 99]}
    client.emit("run_start", {"run": "e", "puzzle": "small", "algorithm": "bfs", "options": options})
    seen = pump(client, "run_error", "e")
    assert "outside" in seen[-1]["error"]
    client.disconnect()


def test_kernel_runs_stream_messages_msgpack_can_carry() -> None:
    import msgpack

    app = make_app(frame_records=1000, engine="compiled")  # the kernels, even on a board this small
    services(app).store.put("small", open_maze(20, 30))
    client = socketio.test_client(app)
    client.emit("run_start", {"run": "k", "puzzle": "small", "algorithm": "astar", "options": {}})
    seen = pump(client, "run_done", "k")
    for message in seen:
        msgpack.packb(message)  # the browser's serializer: numpy scalars would fail here
    assert seen[-1]["result"]["cost"] == 19 + 29
    client.disconnect()
