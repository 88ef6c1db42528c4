"""Run options are checked by each family's schema, whatever the entry point: bad values are
answered with a 4xx (socket: ``{ok: false, error}``) whose message names the field, never a 500
or silence; the CLI builds its flags from the same schemas."""

from __future__ import annotations

from pathlib import Path

import pytest

from server import socketio
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.options import Option, parse_text, validate_json
from tests.helpers import make_app
from tests.helpers import run_cli as cli
from tests.helpers import upload as upload_file
from tests.toy_family import EXAMPLE, TOY

GRID_TEXT = "#######\n#S....#\n#.###.#\n#....G#\n#######\n"
LABYRINTH_CSV = "2;5;6\n3;8;3\n4;6;2\n2;;\n"  # 3 x 3 board, the free tile last

# (the body of POST .../solve as raw JSON text, the field its message must name)
BAD_BODIES = [
    ('{"algorithm": "bfs", "bogus": 1}', "bogus"),
    ('{"algorithm": "astar", "weight": "2"}', "weight"),
    ('{"algorithm": "astar", "weight": NaN}', "weight"),
    ('{"algorithm": "astar", "weight": Infinity}', "weight"),
    ('{"algorithm": "astar", "weight": 1e309}', "weight"),
    ('{"algorithm": "astar", "weight": -1}', "weight"),
    ('{"algorithm": "astar", "heuristic": ["manhattan"]}', "heuristic"),
    ('{"algorithm": ["bfs"]}', "algorithm"),
    ('["bfs"]', "body"),
]
# Each family's own options, wrongly typed.
OWN_BAD = {
    "grid": [('{"algorithm": "bfs", "diagonal": "false"}', "diagonal"),
             ('{"algorithm": "bfs", "start": [1e309, 0]}', "start"),
             ('{"algorithm": "bfs", "goal": {"row": 1}}', "goal")],
    "labyrinth": [('{"algorithm": "bfs", "start_col": "1"}', "start_col"),
                  ('{"algorithm": "iddfs", "max_depth": 1e309}', "max_depth"),
                  ('{"algorithm": "bfs", "moves": "diagonal"}', "moves"),
                  ('{"algorithm": "bfs", "diagonal": true}', "diagonal")],
    "toy-graph": [('{"algorithm": "bfs", "undirected": 0}', "undirected"),
                  ('{"algorithm": "bfs", "max_cost": 3}', "max_cost")],  # a load option, not a run one
}
FILES = {
    "grid": ("m.txt", GRID_TEXT), "labyrinth": ("b.csv", LABYRINTH_CSV), "toy-graph": ("g.graph", EXAMPLE),
}


@pytest.fixture
def app():
    registry.register(TOY)
    yield make_app()
    registry.unregister(TOY.name)


def upload(app, family: str) -> str:
    name, text = FILES[family]
    info = upload_file(app, text.encode(), name)
    assert info["family"] == family
    return info["id"]


@pytest.mark.parametrize("family", list(FILES))
def test_bad_options_over_the_api_name_the_field(app, family: str) -> None:
    pid = upload(app, family)
    client = app.test_client()
    assert client.post(f"/api/puzzles/{pid}/solve", json={"algorithm": "bfs"}).status_code == 200
    for body, field in BAD_BODIES + OWN_BAD[family]:
        answer = client.post(f"/api/puzzles/{pid}/solve", data=body, content_type="application/json")
        assert 400 <= answer.status_code < 500, (body, answer.status_code)
        assert field in answer.get_json()["error"], (body, answer.get_json())


@pytest.mark.parametrize("family", list(FILES))
def test_bad_options_over_the_socket_name_the_field(app, family: str) -> None:
    import json

    pid = upload(app, family)
    client = socketio.test_client(app)
    for body, field in BAD_BODIES + OWN_BAD[family]:
        raw = json.loads(body)
        if not isinstance(raw, dict):  # a list where the options object belongs
            message = {"run": "r", "puzzle": pid, "algorithm": "bfs", "options": raw}
            field = "options"
        else:
            algorithm = raw.pop("algorithm")
            message = {"run": "r", "puzzle": pid, "algorithm": algorithm, "options": raw}
        ack = client.emit("run_start", message, callback=True)
        assert ack["ok"] is False and field in ack["error"], (body, ack)


@pytest.mark.parametrize("family", ["grid", "labyrinth"])
def test_cells_answer_every_family(app, family: str) -> None:
    pid = upload(app, family)
    answer = app.test_client().get(f"/api/puzzles/{pid}/cells")
    if family == "grid":
        assert answer.status_code == 200 and len(answer.data) == 7 * 5
    else:
        assert answer.status_code == 404 and "no cell grid" in answer.get_json()["error"]


def test_the_schema_checks_types_and_ranges() -> None:
    schema = [Option("n", "int", "N", "", default=1, min=0, max=9),
              Option("x", "float", "X", "", default=1.0, min=1.0, max=100.0),
              Option("flag", "bool", "Flag", "", default=False),
              Option("rows", "int_list", "Rows", "", optional=True, min=0, max=5, stage="load")]
    assert validate_json(schema, {}) == {"n": 1, "x": 1.0, "flag": False}
    assert validate_json(schema, {"n": 3.0, "x": 2}) == {"n": 3, "x": 2.0, "flag": False}
    for bad in ({"n": 3.5}, {"n": True}, {"n": 10}, {"x": float("nan")}, {"flag": "true"}, {"rows": [1]}):
        with pytest.raises(PuzzleError):
            validate_json(schema, bad)
    assert parse_text(schema, {"rows": "1, 2"}, "load") == {"rows": [1, 2]}
    assert parse_text(schema, {"flag": "off", "x": "2.5"}, "run") == {"n": 1, "x": 2.5, "flag": False}
    with pytest.raises(PuzzleError, match="option 'rows'"):
        parse_text(schema, {"rows": "1,9"}, "load")


def test_cli_help_has_a_group_per_family_and_refuses_foreign_options(tmp_path: Path) -> None:
    help_text = cli("solve", "--help").stdout
    assert "grid maze options (grid):" in help_text and "--diagonal" in help_text
    assert "search options" in help_text and "relaxed" in help_text
    assert "shifting-tile labyrinth options (labyrinth):" in help_text and "--start-col N" in help_text
    board = tmp_path / "board.csv"
    board.write_text(LABYRINTH_CSV)
    done = cli("solve", str(board), "--diagonal")
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--diagonal is an option of the grid family" in lines[0], done.stderr
    wrong = cli("solve", str(board), "--start-col", "x")
    assert wrong.returncode == 1 and "option 'start_col'" in wrong.stderr


def test_sniffing_a_long_line_of_separators_finishes() -> None:
    """A regular expression with nested repeats once took exponential time on such a first line
    (found by the fuzzer): the sniff must look at it field by field."""
    line = ("1" + "; " * 1500 + "x").encode()  # within the 4 KB a sniff reads
    for family in registry.FAMILIES.values():
        assert 0.0 <= family.sniff("board.csv", line) <= 1.0
    assert registry.FAMILIES["labyrinth"].sniff("board.csv", line) == 0.5  # by its name only
