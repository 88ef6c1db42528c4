"""Proof that a family plugs in through the registry alone: the toy graph family of
tests/toy_family.py is registered here and then detected, loaded, validated, listed by the API and
solved by the CLI's code path, by ``POST .../solve`` and over the socket, with no change to any
file outside tests/."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import run
from server import socketio
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from tests.helpers import make_app
from tests.toy_family import EXAMPLE, TOY


@pytest.fixture
def toy():
    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.name)


@pytest.fixture
def app(toy):
    return make_app(frame_records=4, frame_window=2)


def test_detected_loaded_and_validated(toy) -> None:
    data = EXAMPLE.encode()
    assert registry.detect_family("roads.txt", data) is toy  # a .txt no grid maze claims
    graph = registry.load_puzzle(data, "roads.txt")
    assert registry.family_of(graph) is toy and graph.states == ["A", "B", "C", "D"]
    with pytest.raises(PuzzleError, match="line 4") as err:
        registry.load_puzzle(b"graph\nstart A\ngoal B\nA B x\n", "bad.graph")
    assert "not a number" in str(err.value)
    with pytest.raises(PuzzleError, match="max_cost"):
        registry.load_puzzle(data, "roads.graph", options={"max_cost": float("nan")})
    with pytest.raises(PuzzleError, match="undirected"):
        toy.run_options({"undirected": "yes"})


def test_listed_and_solved_by_the_api(app, toy) -> None:
    client = app.test_client()
    families = client.get("/api/families").get_json()
    listed = next(f for f in families if f["name"] == "toy-graph")
    assert {o["name"] for o in listed["options"]} == {"heuristic", "weight", "code", "undirected", "max_cost"}
    algorithms = client.get("/api/algorithms").get_json()
    assert "toy-graph" in next(a for a in algorithms if a["name"] == "dijkstra")["families"]

    answer = client.post("/api/puzzles", data={"file": (io.BytesIO(EXAMPLE.encode()), "roads.graph")})
    assert answer.status_code == 201, answer.get_json()
    info = answer.get_json()
    assert info["family"] == "toy-graph" and info["algorithms"] == ["bfs", "dfs", "dijkstra", "astar"]
    solved = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "dijkstra"}).get_json()
    assert solved["family"] == "toy-graph" and solved["cost"] == 5 and solved["path"] == ["A", "C", "D"]
    solve_url = f"/api/puzzles/{info['id']}/solve"
    both_ways = client.post(solve_url, json={"algorithm": "astar", "undirected": True})
    assert both_ways.get_json()["cost"] == 1
    refused = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bidirectional"})
    assert refused.status_code == 400
    assert "not offered for the toy-graph family" in refused.get_json()["error"]
    no_grid = client.get(f"/api/puzzles/{info['id']}/cells")
    assert no_grid.status_code == 404 and "no cell grid" in no_grid.get_json()["error"]
    # A load option as a form field, checked by the family's schema.
    small = client.post("/api/puzzles", data={"file": (io.BytesIO(EXAMPLE.encode()), "roads.graph"),
                                              "max_cost": "2"})
    assert small.status_code == 400 and "line 5: the cost 4" in small.get_json()["error"]


def test_solved_over_the_socket(app, toy) -> None:
    info = app.test_client().post(
        "/api/puzzles", data={"file": (io.BytesIO(EXAMPLE.encode()), "roads.graph")}
    ).get_json()
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "t1", "puzzle": info["id"], "algorithm": "dijkstra",
                                    "options": {"undirected": False}}, callback=True)
    assert ack == {"ok": True}
    result, frames = None, 0
    deadline = time.monotonic() + 20
    while result is None and time.monotonic() < deadline:
        for message in client.get_received():
            payload = message["args"][0]
            if message["name"] == "run_frame":
                frames += 1
                client.emit("run_ack", {"run": "t1", "seq": payload["seq"]})
            elif message["name"] == "run_done":
                result = payload["result"]
        time.sleep(0.01)
    assert result is not None and result["cost"] == 5 and frames >= 2
    bad = client.emit("run_start", {"run": "t2", "puzzle": info["id"], "algorithm": "dijkstra",
                                    "options": {"undirected": 1}}, callback=True)
    assert bad["ok"] is False and "undirected" in bad["error"]


def test_solved_by_the_cli(toy, tmp_path: Path) -> None:
    path = tmp_path / "roads.graph"
    path.write_text(EXAMPLE)
    out = io.StringIO()
    with redirect_stdout(out):
        status = run.main(["solve", str(path), "-a", "dijkstra", "--undirected", "--json"])
    assert status == 0
    result = json.loads(out.getvalue())
    assert result["family"] == "toy-graph" and result["cost"] == 1 and result["options"]["undirected"] is True
    help_text = run.build_parser()._subparsers._group_actions[0].choices["solve"].format_help()
    assert "toy graph options (toy-graph)" in help_text and "--max-cost" in help_text
