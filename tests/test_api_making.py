"""Generating, editing and downloading over HTTP (server/web/making.py, docs/PROTOCOL.md "Generate and
edit"), and the editor's limits: every refusal in words, never a 500."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest

from server import socketio
from tests.helpers import make_app, pump


@pytest.fixture
def app():
    return make_app(max_pixels=1_000_000)


@pytest.fixture
def client(app):
    return app.test_client()


def generate(client, **body):
    return client.post("/api/generate", json=body)


def edit(client, pid: str, edits):
    return client.post(f"/api/puzzles/{pid}/edit", json={"edits": edits})


def cells_of(client, pid: str, shape: tuple[int, int]) -> np.ndarray:
    return np.frombuffer(client.get(f"/api/puzzles/{pid}/cells").data, dtype=np.uint8).reshape(shape)


def test_generate_returns_the_puzzle_and_how_it_was_made(client) -> None:
    made = generate(client, kind="prim", rows=6, cols=7, seed=3, steps=True)
    assert made.status_code == 201, made.get_json()
    info = made.get_json()
    assert (info["family"], info["width"], info["height"]) == ("grid", 15, 13)
    generated = info["generated"]
    assert generated["kind"] == "prim" and generated["options"] == {"rows": 6, "cols": 7, "seed": 3}
    assert "seed 3" in generated["description"]
    steps = np.frombuffer(base64.b64decode(generated["steps"]), dtype="<i4").reshape(-1, 2)
    board = np.full(13 * 15, generated["initial_fill"], dtype=np.uint8)
    for index, value in steps:  # replayed in order: a later step wins
        board[index] = value
    assert (board.reshape(13, 15) == cells_of(client, info["id"], (13, 15))).all()
    # The same request makes the same puzzle (the same content hash).
    again = generate(client, kind="prim", rows=6, cols=7, seed=3).get_json()
    assert again["id"] == info["id"] and "steps" not in again["generated"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"kind": "hexagons", "rows": 5, "cols": 5}, "no generator named 'hexagons'"),
        ({"kind": "prim", "rows": 5000, "cols": 5}, "option 'rows': 5000 is outside 1..1000"),
        ({"kind": "prim", "rows": "5", "cols": 5}, "option 'rows': expected a whole number"),
        ({"kind": "random", "rows": 9, "cols": 9, "density": 0.9}, "option 'density': 0.9 is outside 0..0.6"),
        ({"kind": "prim", "rows": 5, "cols": 5, "density": 0.2}, "unknown option(s) 'density'"),
        ({"kind": "zenji-free", "rows": 1, "cols": 1}, "at least two tiles"),
        ({"kind": "labyrinth-game", "rows": 5, "cols": 5}, "7"),
        ({"kind": "prim", "rows": 5, "cols": 5, "family": "zenji"}, "not a zenji generator"),
    ],
)
def test_a_bad_generate_request_is_refused_in_words(client, body, words) -> None:
    answer = generate(client, **body)
    assert answer.status_code == 400, answer.get_json()
    assert words in answer.get_json()["error"]


def test_an_edit_is_a_new_puzzle_and_its_file_loads_back_as_the_same(client) -> None:
    info = generate(client, kind="random", rows=8, cols=10, seed=2, density=0.0).get_json()
    wall = [3 * 10 + c for c in range(0, 9)]
    edited = edit(client, info["id"], [{"op": "paint", "value": 0, "cells": wall},
                                      {"op": "paint", "value": 7, "cells": [5 * 10 + 5]},
                                      {"op": "goal", "cell": [7, 0]}])
    assert edited.status_code == 201, edited.get_json()
    new = edited.get_json()
    assert new["id"] != info["id"] and new["goals"] == [[7, 0]] and new["weighted"]
    cells = cells_of(client, new["id"], (8, 10))
    assert (cells[3, :9] == 0).all() and cells[5, 5] == 7 and cells[3, 9] == 1
    assert (cells_of(client, info["id"], (8, 10)) != 0).all()  # the original is unchanged
    solved = client.post(f"/api/puzzles/{new['id']}/solve", json={"algorithm": "dijkstra"}).get_json()
    assert solved["found"] and solved["path"][-1] == [7, 0]

    text = client.get(f"/api/puzzles/{new['id']}/file?format=txt&name=my board")
    assert text.status_code == 200 and 'filename="my-board.txt"' in text.headers["Content-Disposition"]
    again = client.post("/api/puzzles", data={"file": (io.BytesIO(text.data), "my-board.txt")})
    assert again.get_json()["id"] == new["id"]  # the same content hash as the edit's
    png = client.get(f"/api/puzzles/{new['id']}/file?format=png")
    assert png.status_code == 400 and "weights" in png.get_json()["error"]
    assert client.get(f"/api/puzzles/{new['id']}/file?format=gif").status_code == 400

    # Undo is an edit back: it lands on the original's id.
    back = edit(client, new["id"], [{"op": "paint", "value": 1, "cells": [*wall, 55]},
                                     {"op": "goal", "cell": info["goals"][0]}])
    assert back.get_json()["id"] == info["id"]


@pytest.mark.parametrize(
    ("edits", "words"),
    [
        ("paint", "expected a list of edit operations"),
        ([{"value": 0}], "edit 1: names no operation"),
        ([{"op": "paint", "value": 0, "cells": [1]}, {"op": "fly"}], "edit 2 (fly): unknown operation"),
        ([{"op": "paint", "value": 10, "cells": [1]}], "10 is outside 0..9"),
        ([{"op": "paint", "value": 0, "cells": [10**6]}], "outside the board"),
        ([{"op": "paint", "value": 0, "cells": [0]}], "is the start"),
        ([{"op": "start", "cell": [99, 0]}], "outside the 8 x 10 board"),
        ([{"op": "resize", "rows": 9000, "cols": 3}], "9000 is outside 1..5000"),
        ([{"op": "cells", "rows": 2, "cols": 2, "values": "!!"}], "not base64"),
        ([{"op": "clear"}] * 200_001, "over the limit of 200,000"),
        ([{"op": "paint", "value": 0, "cells": [5] * 81}], "81 cells is more than the board's 80"),
    ],
)
def test_a_bad_edit_is_refused_naming_the_operation(client, edits, words) -> None:
    info = generate(client, kind="random", rows=8, cols=10, seed=2, density=0.0).get_json()
    answer = edit(client, info["id"], edits)
    assert answer.status_code == 400, answer.get_json()
    assert words in answer.get_json()["error"]


def test_an_unknown_puzzle_is_a_404_in_words(client) -> None:
    for answer in (edit(client, "nope", []), client.get("/api/puzzles/nope/file")):
        assert answer.status_code == 404 and "no puzzle with id 'nope'" in answer.get_json()["error"]


def test_edits_and_re_solves_have_their_own_rate_limits() -> None:
    app = make_app(edits_per_minute=3, resolves_per_minute=2, runs_per_minute=1)
    http = app.test_client()
    info = generate(http, kind="random", rows=6, cols=6, seed=1, density=0.0).get_json()
    codes = [edit(http, info["id"], [{"op": "clear"}]).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    assert "at most 3 a minute" in edit(http, info["id"], []).get_json()["error"]

    sio = socketio.test_client(app, flask_test_client=http)
    start = {"puzzle": info["id"], "algorithm": "bfs", "options": {}}
    assert sio.emit("run_start", {**start, "run": "a"}, callback=True)["ok"]  # the one run a minute
    pump(sio, "run_done", "a")
    refused = sio.emit("run_start", {**start, "run": "b"}, callback=True)
    assert not refused["ok"] and "too many runs" in refused["error"]
    for run in ("c", "d"):  # re-solves are counted apart
        assert sio.emit("run_start", {**start, "run": run, "instant": True}, callback=True)["ok"]
        pump(sio, "run_done", run)
    refused = sio.emit("run_start", {**start, "run": "e", "instant": True}, callback=True)
    assert not refused["ok"] and "too many re-solves" in refused["error"]
    sio.disconnect()


def test_families_describe_their_generators_formats_and_editing(client) -> None:
    families = {f["name"]: f for f in client.get("/api/families").get_json()}
    assert [g["name"] for g in families["grid"]["generators"]] == [
        "perfect", "prim", "kruskal", "division", "braid", "rooms", "random", "terrain"]
    assert families["grid"]["formats"] == ["txt", "png"] and families["grid"]["editable"]
    for name in ("step", "zenji", "labyrinth"):
        assert families[name]["generators"] and families[name]["formats"] and families[name]["editable"]
    density = next(o for g in families["grid"]["generators"] if g["name"] == "random" for o in g["options"]
                   if o["name"] == "density")
    assert (density["min"], density["max"], density["default"]) == (0.0, 0.6, 0.3)
