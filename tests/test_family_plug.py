"""Proof that a family plugs in through the registry alone: the toy graph family of
tests/toy_family.py (the core only: sniff, load, info, problem) is registered here and then detected,
loaded, validated, listed by the API and solved by the CLI's code path, by ``POST .../solve`` and over
the socket, with no change to any file outside tests/; each optional part it has not
(``server/puzzles/capabilities.py``) is refused in words by the API and the CLI alike."""

from __future__ import annotations

import ast
import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import run
from server import socketio
from server.config import ROOT
from server.i18n import t
from server.puzzles import registry
from server.puzzles.capabilities import CAPABILITIES, GENERIC_STATE_FORM
from server.puzzles.errors import PuzzleError
from tests.helpers import browser, make_app
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


def test_its_optional_parts_are_absent_and_refused_in_words(toy) -> None:
    for part in CAPABILITIES:
        assert getattr(toy, part) is None, part
        with pytest.raises(PuzzleError, match="toy") as err:  # the family's name or title, in words
            toy.need(part)
        assert err.value.where is None and len(str(err.value)) > 20, part
    assert toy.student is None
    listed = toy.describe_json()
    assert (listed["checks_solutions"], listed["editable"], listed["animation"]) == (False, False, False)
    assert listed["generators"] == listed["formats"] == listed["features"] == []
    assert listed["solution_notation"] == "" and listed["state_form"] == t(GENERIC_STATE_FORM)
    assert "formula" not in {o["name"] for o in listed["options"]}  # no lab: no heuristic "yours"


def test_the_api_refuses_each_absent_part_in_words(app, toy) -> None:
    client = browser(app)
    answer = client.post("/api/puzzles", data={"file": (io.BytesIO(EXAMPLE.encode()), "roads.graph")})
    info = answer.get_json()
    assert info["solution_notation"] == "" and info["deep_zoom"] is None
    pid = f"/api/puzzles/{info['id']}"
    refusals = {
        "generates no puzzles": client.post("/api/generate", json={"family": "toy-graph", "kind": "any"}),
        "cannot be edited": client.post(f"{pid}/edit", json={"edits": []}),
        "is not saved by this server": client.get(f"{pid}/file"),
        "solution images are not drawn": client.get(f"{pid}/solution.png?algorithm=dijkstra"),
        "GIF export is not drawn for a toy graph": client.post(f"{pid}/animation", json={"algorithm": "bfs"}),
        "drawn whole in the page, not as tiles": client.get(f"{pid}/tiles/0/0/0.png"),
        "no features for toy graph puzzles": client.post(f"{pid}/heuristic", json={"formula": "0"}),
        "checking solutions of toy graph puzzles is not supported": client.post(f"{pid}/check",
                                                                                json={"solution": "A C D"}),
    }
    for words, refused in refusals.items():
        assert refused.status_code == 400 and words in refused.get_json()["error"], words
    # Student mode needs only the core: the space of its states, each in the generic form.
    space = client.post(f"{pid}/code/space", json={"options": {}})
    assert space.status_code == 200, space.get_json()
    assert space.get_json()["state_form"] == t(GENERIC_STATE_FORM)
    # Its problem has no student_rules: the page gets the explicit graph in place of the rules.
    rules = client.post(f"{pid}/code/rules", json={"options": {}})
    assert rules.status_code == 200 and rules.get_json()["kind"] == "graph", rules.get_json()
    assert rules.get_json()["state_form"] == t(GENERIC_STATE_FORM)
    assert rules.get_json()["steps"]["default"] > 0


def test_the_cli_refuses_each_absent_part_in_words(toy, tmp_path: Path) -> None:
    path = tmp_path / "roads.graph"
    path.write_text(EXAMPLE)
    answer = tmp_path / "answer.txt"
    answer.write_text("A C D")

    def cli(*args: str) -> tuple[int, str]:
        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            return run.main(list(args)), err.getvalue()

    status, said = cli("check", str(path), "--solution", str(answer))
    assert status == 2 and "checking solutions of toy graph puzzles is not supported" in said
    status, said = cli("heuristic", str(path), "--formula", "0")  # a lab's flag: not one of this family's
    assert status == 1 and "--formula is an option of the grid" in said and "this is a toy graph" in said
    status, said = cli("solve", str(path), "-a", "dijkstra", "--out", str(tmp_path / "roads.png"))
    assert status == 1 and "the toy-graph family draws none" in said


def test_no_module_of_a_family_imports_its_own_family() -> None:
    """A family's checker, maker, lab… are given their family (``capabilities.Part``): none imports its
    package's ``family.py`` or ``FAMILY``, at the top or inside a function (an import cycle otherwise)."""
    packages = [path.parent for path in (ROOT / "server" / "puzzles").glob("*/family.py")]
    assert len(packages) >= 5
    for package in packages:
        own = f"server.puzzles.{package.name}"
        submodules = {path.stem for path in package.glob("*.py")} - {"family", "__init__"}
        for path in package.glob("*.py"):
            if path.name in ("family.py", "__init__.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                    assert f"{own}.family" not in names, path
                elif isinstance(node, ast.ImportFrom):
                    module = node.module or ""
                    if node.level:  # relative (the package's own imports are): read from this package
                        base = own.split(".")[: len(own.split(".")) - (node.level - 1)]
                        module = ".".join([*base, *([module] if module else [])])
                    assert module != f"{own}.family", path
                    if module == own:  # only its sibling modules, never what __init__ holds
                        assert {alias.name for alias in node.names} <= submodules, path
