"""The labyrinth through the app's own doors: upload, API solve, live frames with snapshots, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from server import socketio
from tests.helpers import make_app, post_file, pump
from tests.helpers import run_cli as cli


@pytest.fixture
def app():
    return make_app(frame_records=16, frame_window=4)


def upload(client, path: Path, **fields):
    return post_file(client, path.read_bytes(), path.name, **fields)


def test_upload_and_solve_puzzle_6(app, shared_cases: Path) -> None:
    client = app.test_client()
    response = upload(client, shared_cases / "labyrinth/Puzzle_6.csv", start_col=1, goal_col=2)
    assert response.status_code == 201, response.json
    info = response.json
    assert info["family"] == "labyrinth" and (info["rows"], info["cols"]) == (5, 4)
    assert (info["start_col"], info["goal_col"], info["moves"]) == (1, 2, "combined")
    assert "seed-greedy" in info["algorithms"] and "bidirectional" not in info["algorithms"]
    for algorithm in ("bfs", "astar", "idastar", "iddfs", "dijkstra"):
        result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": algorithm}).json
        assert result["found"] and result["cost"] == 3 and len(result["moves"]) == 3, algorithm
    separate = client.post(f"/api/puzzles/{info['id']}/solve",
                           json={"algorithm": "astar", "moves": "separate"})
    assert separate.json["cost"] == 5
    wrong = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bidirectional"})
    assert wrong.status_code == 400 and "not offered" in wrong.json["error"]
    off_board = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs", "goal_col": 9})
    assert off_board.status_code == 400 and "goal" in off_board.json["error"]


def test_bad_csv_upload_names_the_line(app, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("0;1;2\n3;4\n2;;\n")
    response = upload(app.test_client(), bad)
    assert response.status_code == 400 and "line 2" in response.json["error"]


def test_live_run_streams_snapshots_of_expanded_states(app, shared_cases: Path) -> None:
    info = upload(app.test_client(), shared_cases / "labyrinth/Puzzle_6_padded.json").json
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "L", "puzzle": info["id"], "algorithm": "astar", "options": {}},
                      callback=True)
    assert ack == {"ok": True}
    seen = pump(client, "run_done", "L")
    frames = [s for s in seen if s["name"] == "run_frame"]
    kinds = np.concatenate([np.frombuffer(f["kinds"], np.uint8) for f in frames])
    snapshots = [snap for f in frames for snap in f["snapshots"]]
    closes = np.flatnonzero(kinds == 1)
    assert [s["i"] for s in snapshots] == closes.tolist()  # one per expanded state, at its record
    first = snapshots[0]
    assert len(first["board"]) == info["rows"] * info["cols"] and first["on"] == "below"
    assert seen[-1]["result"]["cost"] == 3
    sets = {"run": "S", "puzzle": info["id"], "algorithm": "astar", "options": {"view": "sets"}}
    client.emit("run_start", sets)
    frames = [s for s in pump(client, "run_done", "S") if s["name"] == "run_frame"]
    merged = [snap for frame in frames for snap in frame["snapshots"]]
    assert merged[0]["on"] == "set" and merged[0]["player"] is None
    assert merged[0]["places"] == [[info["rows"], 1]]  # before the first move: below the start column
    refused = client.emit("run_start", {"run": "M", "puzzle": info["id"], "algorithm": "bidirectional"},
                          callback=True)
    assert refused["ok"] is False
    client.disconnect()


def test_cli_solves_and_lists_moves(shared_cases: Path) -> None:
    done = cli("solve", str(shared_cases / "labyrinth/Puzzle_6.csv"),
               "--algorithm", "astar", "--moves", "combined", "--start-col", "1", "--goal-col", "2", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["family"] == "labyrinth" and result["cost"] == 3
    assert result["insertions"] == sum(1 for m in result["moves"] if m["push"])
    assert result["moves"][-1]["text"].endswith("leave the board above column 2")


def test_the_search_limit_applies_and_is_shown(shared_cases: Path) -> None:
    app = make_app(max_expanded_generic=50)
    client = app.test_client()
    info = upload(client, shared_cases / "labyrinth/Puzzle_middle_large_3.csv").json
    result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"}).json
    assert result["found"] is False
    assert "search limit" in result["message"] and "50" in result["stopped"]


def test_gallery_labyrinths_open_and_reach_their_stated_optimum(app) -> None:
    client = app.test_client()
    boards = [e for e in client.get("/api/gallery").json if e["family"] == "labyrinth"]
    assert len(boards) >= 2
    for entry in boards:
        info = client.post("/api/puzzles", json={"gallery": entry["name"]}).json
        assert info["family"] == "labyrinth"
        assert (info["cols"], info["rows"]) == (entry["width"], entry["height"])
        result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "astar"}).json
        assert f"Optimum: {result['cost']} moves." in entry["description"]
