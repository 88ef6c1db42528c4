"""The notebook's API (server/notebook/, ``import mazeviz``) without a browser or a kernel.

Every kind of puzzle a student passes loads; ``solve`` answers with the CLI's figures; a student's own
``search(problem)`` is judged as the page's "Your code" judges it; and the widget's comm is simulated
as its front end drives it (static/js/notebook/): ``api`` messages answered by the kernel's app, a run
started, its frames acknowledged and its bytes sent as buffers until ``run_done``.

Widgets are made outside a kernel: ipywidgets then gives them a ``comm.DummyComm`` (nothing is sent
anywhere), and each test replaces the instance's ``send`` with a recorder; messages from the "front
end" go in through ``_handle_custom_msg``, as the comm hands them on in a kernel.
"""

from __future__ import annotations

import json
import queue
import runpy
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import server
from server.notebook import api, inputs, kernel, student
from server.notebook.bridge import bridge, with_buffers
from server.notebook.widget import MazeWidget
from server.puzzles.errors import PuzzleError
from tests.conftest import SHARED_CASES, missing

ROOT = Path(__file__).resolve().parents[1]
MAZE3 = SHARED_CASES / "images" / "lee" / "maze3.png"

# Seed 003 as its notebook types it (In [1]:)
SEED_003 = [
    ["S", " ", " ", " ", " ", " "],
    ["X", "X", "X", "X", "X", "X"],
    ["X", " ", "X", " ", " ", "X"],
    ["X", " ", "X", "X", "X", "X"],
    ["X", " ", "X", " ", " ", "X"],
    ["X", " ", " ", " ", " ", "Z"],
    ["X", " ", " ", " ", " ", "X"],
    ["X", "X", "X", "X", "X", "X"],
]


@pytest.fixture
def maze3() -> Path:
    """The course's maze3.png (BFS: cost 52), from the shared cases."""
    if not MAZE3.is_file():
        missing(f"maze3 is not at {MAZE3}")
    return MAZE3


def _program(name: str):
    """A student's ``search`` from tests/code_programs/ (the programs student mode's tests run too)."""
    return runpy.run_path(str(Path(__file__).parent / "code_programs" / name))["search"]


bfs_search = _program("bfs.py")  # a student's BFS: a FIFO queue, the goal test when a state is generated
dfs_ish_search = _program("bfs_stack.py")  # a stack where BFS takes a queue: not BFS's order


def broken_search(problem):
    problem.successors(problem.start)
    return {}["missing"]  # a KeyError on this line, after one expansion


def failing_at_once(problem):
    raise RuntimeError("not written yet")


# -- inputs ------------------------------------------------------------------------------------------
def test_seed_003s_list_of_lists_is_a_step_maze_and_bfs_costs_15() -> None:
    puzzle = server.load(SEED_003)
    assert puzzle.family == "step" and puzzle.size == (6, 8)
    result = server.solve(SEED_003, "bfs")
    assert result.cost == 15 and result.optimal is True
    assert server.solve([tuple(row) for row in SEED_003], "bfs").cost == 15  # tuples stand for lists
    assert server.solve(["S.....", "XXXXXX", "X.X..X", "X.XXXX", "X.X..X", "X....Z", "X....X", "XXXXXX"],
                        "bfs").cost == 15  # rows as strings


def test_a_path_text_bytes_and_a_loaded_puzzle(maze3) -> None:
    assert server.solve(str(maze3), "bfs").cost == 52
    assert server.solve(maze3, "bfs").cost == 52  # a Path
    assert server.solve(maze3.read_bytes(), "bfs").cost == 52  # bytes: the family sniffed from them
    text = (ROOT / "mazes" / "step-seed-003.txt").read_text()
    assert server.solve(text, "bfs").cost == 15
    loaded = server.load(maze3)
    assert loaded.family == "grid" and "grid" in repr(loaded)
    assert server.solve(loaded, "bfs").cost == 52
    assert server.solve("1 2 3 4 0 5 7 8 6", "astar").cost == 2  # one line: Korf's form


def test_numpy_arrays() -> None:
    maze = np.array([
        [0, 1, 0, 0, 0],
        [0, 1, 1, 1, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 1, 0],
    ])  # 0 a wall, 1 free; the single openings of the top and bottom rows are start and goal
    assert server.load(maze).family == "grid"
    assert server.solve(maze, "bfs").cost == 5
    assert server.solve(maze.astype(bool), "bfs").cost == 5
    sliding = np.array([[1, 2, 3], [4, 0, 5], [7, 8, 6]])
    assert server.load(sliding).family == "sliding"
    assert server.solve(sliding, "astar").cost == 2
    assert server.load(np.array(SEED_003)).family == "step"  # an array of the seed's characters
    open_maze = np.ones((3, 3), dtype=int)  # several openings: the start and goal given as options
    assert server.solve(open_maze, "bfs", start=(0, 0), goal=(2, 2)).cost == 4


@pytest.mark.parametrize(("source", "words"), [
    (3.5, "cannot read a puzzle from float"),
    ("no/such/maze.png", "no file"),
    ([], "the list is empty"),
    ([["S", 1]], "one-character strings"),
    (np.zeros((2, 2, 2)), "no puzzle mazeviz reads"),
    (np.array([[0.5, 1.0]]), "whole numbers"),
])
def test_what_no_family_reads_is_refused_in_words(source: Any, words: str) -> None:
    with pytest.raises(PuzzleError, match=words):
        server.load(source)


def test_refusals_in_german() -> None:
    with pytest.raises(PuzzleError, match="keine Datei"):
        server.load("no/such/maze.png", lang="de")
    with pytest.raises(ValueError, match="mazeviz speaks en, de"):
        server.load(SEED_003, lang="fr")


def test_load_options_go_to_the_load() -> None:
    puzzle = server.load(SEED_003, cycle=[1, 2])
    assert puzzle.options["cycle"] == [1, 2]
    assert server.solve(SEED_003, "bfs", cycle=[1, 2]).cost != 15
    with pytest.raises(PuzzleError, match="nope"):
        server.solve(SEED_003, "bfs", nope=1)


# -- solve -------------------------------------------------------------------------------------------
def test_solve_gives_the_figures_and_judges_optimality(maze3) -> None:
    bfs = server.solve(maze3, "bfs")
    assert (bfs.found, bfs.cost, bfs.optimal) == (True, 52, True)
    assert bfs.path[0] != bfs.path[-1] and len(bfs.path) == 53
    assert bfs.expanded > 52 and bfs.generated >= bfs.expanded
    assert "52" in repr(bfs) and repr(bfs).startswith("<mazeviz.Result")
    dfs = server.solve(maze3, "dfs")  # no guarantee: judged against the optimum
    assert dfs.json["optimal_guaranteed"] is False
    assert dfs.optimal is (dfs.cost == 52)
    with pytest.raises(TypeError, match="search=your_search"):
        server.solve(maze3, bfs_search)
    with pytest.raises(PuzzleError, match="unknown algorithm"):
        server.solve(maze3, "nope")


def test_importing_mazeviz_imports_no_web_or_widget_stack() -> None:
    code = ("import sys, server; server.solve([['S', 'X', 'Z']], 'bfs'); "
            "print([m for m in ('flask', 'anywidget', 'IPython', 'ipywidgets') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- a student's search --------------------------------------------------------------------------------
def test_a_students_bfs_matches_bfs(capsys) -> None:
    widget = server.show(SEED_003, search=bfs_search, algorithm="bfs")
    assert widget.view == "single" and widget.puzzle
    [entry] = widget.runs
    assert entry["algorithm"] == "code" and entry["label"] == "search"  # the function's name
    assert entry["options"]["code"].startswith("run:")
    [verdict] = widget.verdicts
    assert verdict["verdict"] == "matches"
    assert verdict["order"]["message"].startswith("matches BFS's order")
    assert verdict["code"] == entry["options"]["code"]


def test_a_dfs_ish_search_differs_at_an_expansion() -> None:
    widget = server.show(SEED_003, search=dfs_ish_search, algorithm="bfs")
    [verdict] = widget.verdicts
    assert verdict["verdict"] == "differs"
    at = verdict["order"]["at"]
    assert isinstance(at, int) and at >= 1
    assert verdict["order"]["message"].startswith(f"differs at expansion {at} from BFS:")
    german = server.show(SEED_003, search=dfs_ish_search, algorithm="bfs", lang="de")
    assert german.verdicts[0]["order"]["message"].startswith(f"weicht bei Expansion {at} von BFS ab")


def test_a_students_exception_is_reported_not_raised(capsys) -> None:
    widget = server.show(SEED_003, search=broken_search, algorithm="bfs")
    printed = capsys.readouterr().out
    assert "Traceback" in printed and "KeyError" in printed and "broken_search" in printed
    assert "harness.py" not in printed  # only the student's own frames, as the page shows them
    assert widget.verdicts[0]["verdict"] == "stopped"
    assert "KeyError" in " ".join(widget.verdicts[0]["messages"])
    nothing = server.show(SEED_003, search=failing_at_once, algorithm="bfs")
    assert "RuntimeError: not written yet" in nothing.error and not nothing.runs
    with pytest.raises(TypeError, match="search= expects your search function"):
        server.show(SEED_003, search="bfs")


def test_compare_panels_and_a_students_entry() -> None:
    widget = server.compare(SEED_003, ["bfs", "astar", bfs_search])
    assert widget.view == "compare"
    assert [entry["algorithm"] for entry in widget.runs] == ["bfs", "astar", "code"]
    assert widget.verdicts[:2] == [None, None] and widget.verdicts[2]["verdict"] == "matches"
    with pytest.raises(ValueError, match="2 to 4"):
        server.compare(SEED_003, ["bfs"])
    with pytest.raises(ValueError, match="at most one search function"):
        server.compare(SEED_003, [bfs_search, dfs_ish_search])
    with pytest.raises(PuzzleError, match="unknown algorithm"):
        server.compare(SEED_003, ["bfs", "nope"])


def test_show_checks_options_and_refuses_a_huge_board(monkeypatch, maze3) -> None:
    widget = server.show(maze3, algorithm="bfs")
    assert widget.runs == [{"algorithm": "bfs", "options": {}, "label": widget.runs[0]["label"]}]
    assert widget.verdicts == [None] and widget.lang in ("en", "de")
    with pytest.raises(PuzzleError, match="heuristic"):
        server.show(maze3, algorithm="astar", heuristic="nope")
    monkeypatch.setattr(bridge().config, "tile_min_cells", 100)  # maze3's 850 cells count as huge
    huge = server.show(maze3, algorithm="bfs")
    assert "more than the 100 the page draws" in huge.error and not huge.puzzle


def test_a_missing_bundle_is_said_in_words(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("server.notebook.widget.build_folder", lambda: tmp_path)
    widget = MazeWidget(lang="en")
    assert "scripts/build_widget.sh" in widget.error and str(tmp_path / "widget.js") in widget.error
    assert "model.get(\"error\")" in widget._esm


def test_the_language_comes_from_lang_or_the_locale(monkeypatch, maze3) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert kernel.default_language() == "de"
    assert server.show(maze3, algorithm="bfs").lang == "de"
    assert server.show(maze3, algorithm="bfs", lang="en").lang == "en"


# -- the widget's comm, simulated ------------------------------------------------------------------
class FrontEnd:
    """What static/js/notebook/ does with the widget's messages: replies collected, buffers put back."""

    def __init__(self, widget: MazeWidget) -> None:
        self.widget = widget
        self.inbox: queue.Queue[tuple[dict[str, Any], list[bytes]]] = queue.Queue()
        widget.send = self.receive  # the kernel -> JS direction

    def receive(self, content: dict[str, Any], buffers: list[bytes] | None = None) -> None:
        json.dumps(content)  # what the comm sends must be JSON (bytes only as buffers)
        self.inbox.put((content, list(buffers or [])))

    def say(self, content: dict[str, Any]) -> None:  # the JS -> kernel direction
        self.widget._handle_custom_msg(content, [])

    def next(self, timeout: float = 10.0) -> tuple[dict[str, Any], list[bytes]]:
        return self.inbox.get(timeout=timeout)

    def api(self, ident: int, path: str, method: str = "GET", body: Any = None):
        self.say({"type": "api", "id": ident, "method": method, "path": path, "body": body})
        return self.next()


def restored(value: Any, buffers: list[bytes]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$buffer"}:
            return buffers[value["$buffer"]]
        return {k: restored(v, buffers) for k, v in value.items()}
    if isinstance(value, list):
        return [restored(v, buffers) for v in value]
    return value


def test_api_messages_are_answered_by_the_kernels_app(maze3) -> None:
    widget = server.show(maze3, algorithm="bfs")
    js = FrontEnd(widget)
    reply, buffers = js.api(1, f"/api/puzzles/{widget.puzzle}")
    assert reply["type"] == "api_reply" and reply["id"] == 1 and reply["status"] == 200
    assert reply["json"]["id"] == widget.puzzle and reply["json"]["family"] == "grid" and not buffers
    reply, buffers = js.api(2, f"/api/puzzles/{widget.puzzle}/cells")  # a binary body: a buffer
    assert reply["binary"] is True and reply["json"] is None
    assert reply["content_type"] == "application/octet-stream" and len(buffers[0]) == 34 * 25
    reply, _ = js.api(3, "/i18n/de.json")
    assert reply["status"] == 200 and "code.harness.step_limit" in reply["json"]
    reply, _ = js.api(4, "/api/puzzles/nope")
    assert reply["status"] == 404 and reply["json"]["error"]
    reply, _ = js.api(5, "/api/puzzles", "POST", {"gallery": "no such"})
    assert reply["status"] == 404 and "no gallery puzzle" in reply["json"]["error"]
    for ident, message in enumerate([
        {"type": "api", "method": "GET", "path": "/etc/passwd"},
        {"type": "api", "method": "PUT", "path": "/api/families"},
        {"type": "api", "method": "GET"},
    ], start=6):
        js.say({**message, "id": ident})
        reply, _ = js.next()
        assert reply["id"] == ident and reply["status"] == 400 and "field" in reply["json"]["error"]
    js.say({"type": "teleport"})
    reply, _ = js.next()
    assert reply["type"] == "error" and "expected api, run_start" in reply["error"]
    widget.close()


def test_a_run_streams_as_the_socket_would_with_bytes_as_buffers(maze3) -> None:
    widget = server.show(maze3, algorithm="bfs")
    js = FrontEnd(widget)
    entry = widget.runs[0]
    js.say({"type": "run_start", "run": "r1", "slot": "main", "puzzle": widget.puzzle,
            "algorithm": entry["algorithm"], "options": entry["options"], "lang": "en"})
    reply, _ = js.next()
    assert reply == {"type": "run_reply", "run": "r1", "ok": True}
    records = 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        content, buffers = js.next()
        assert content["type"] == "event"
        payload = restored(content["payload"], buffers)
        if content["event"] == "run_frame":
            assert buffers and isinstance(payload["kinds"], bytes)
            records += len(payload["kinds"])
            js.say({"type": "run_ack", "run": "r1", "seq": payload["seq"]})
        elif content["event"] == "run_done":
            assert payload["result"]["cost"] == 52 and payload["records"] == records > 0
            break
        else:
            assert content["event"] == "run_status", content
    else:
        pytest.fail("no run_done")
    widget.close()


def test_bad_run_messages_are_answered_in_words(maze3) -> None:
    widget = server.show(maze3, algorithm="bfs")
    js = FrontEnd(widget)
    js.say({"type": "run_start", "run": "r2", "puzzle": "nope", "algorithm": "bfs"})
    reply, _ = js.next()
    assert reply["ok"] is False and "unknown puzzle id" in reply["error"]
    js.say({"type": "run_start", "run": "r3", "puzzle": widget.puzzle, "algorithm": "bfs",
            "options": {"heuristic": 3}, "lang": "de"})
    reply, _ = js.next()
    assert reply["ok"] is False and "heuristic" in reply["error"]
    js.say({"type": "run_start", "puzzle": widget.puzzle, "algorithm": "bfs", "lang": "de"})
    reply, _ = js.next()
    assert reply["ok"] is False and "Feld 'run'" in reply["error"]
    js.say({"type": "run_ack", "run": "r1", "seq": -3})  # answered nothing, as the socket's ack
    js.say({"type": "run_cancel"})
    assert js.inbox.empty()
    widget.close()


def test_a_students_run_replays_through_the_widget() -> None:
    widget = server.show(SEED_003, search=dfs_ish_search, algorithm="bfs")
    js = FrontEnd(widget)
    entry = widget.runs[0]
    js.say({"type": "run_start", "run": "s1", "puzzle": widget.puzzle, "algorithm": entry["algorithm"],
            "options": entry["options"]})
    assert js.next()[0]["ok"] is True
    while True:
        content, _buffers = js.next()
        if content["event"] == "run_frame":
            js.say({"type": "run_ack", "run": "s1", "seq": content["payload"]["seq"]})
        if content["event"] in ("run_done", "run_error"):
            break
    assert content["event"] == "run_done", content
    assert content["payload"]["result"]["expanded"] == widget.verdicts[0]["animated"]
    widget.close()


def test_with_buffers_replaces_bytes_anywhere() -> None:
    value, buffers = with_buffers({"a": b"xy", "b": [1, {"c": bytearray(b"z")}], "d": (memoryview(b"w"),)})
    assert value == {"a": {"$buffer": 0}, "b": [1, {"c": {"$buffer": 1}}], "d": [{"$buffer": 2}]}
    assert buffers == [b"xy", b"z", b"w"]


def test_the_page_harness_is_the_one_loaded() -> None:
    assert Path(student.harness().__file__) == ROOT / "static" / "js" / "code" / "harness.py"
    assert inputs.TEXT_NAME and api.MAX_COMPARED == 4


KERNEL_CELLS = [
    "import sys, time, queue\nsys.path.insert(0, {root!r})\nimport server as mazeviz",
    "w = mazeviz.show({maze3!r}, algorithm='bfs')\nw",
    # the widget's own send, from the run's threads, through the kernel's real comm (with buffers)
    """sent = queue.Queue()
real = type(w).send
def send(content, buffers=None):
    sent.put(content)
    real(w, content, buffers)
w.send = send
start = {{'type': 'run_start', 'run': 'k1', 'puzzle': w.puzzle, 'algorithm': 'bfs', 'options': {{}}}}
w._handle_custom_msg(start, [])
events = []
while not events or events[-1] not in ('run_done', 'run_error'):
    content = sent.get(timeout=30)
    if content['type'] != 'event':
        continue
    events.append(content['event'])
    if content['event'] == 'run_frame':
        w._handle_custom_msg({{'type': 'run_ack', 'run': 'k1', 'seq': content['payload']['seq']}}, [])
print(events[-1], content['payload'].get('result', {{}}).get('cost'))""",
]


def test_in_a_real_kernel(maze3) -> None:
    """In ipykernel: the widget is displayed, and a run's events go out through the real comm from the
    run's threads until run_done."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [nbformat.v4.new_code_cell(text.format(root=str(ROOT), maze3=str(maze3)))
             for text in KERNEL_CELLS]
    notebook = nbformat.v4.new_notebook(cells=cells)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    shown = notebook.cells[1].outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in shown
    assert notebook.cells[2].outputs[0]["text"].strip() == "run_done 52"


def test_example_names_a_gallery_file_and_refuses_others_in_words() -> None:
    from server.notebook.api import example

    path = example("step-seed-003.txt")
    assert path.is_file() and path.parent.name == "mazes"
    with pytest.raises(PuzzleError) as refused:
        example("nope.png")
    assert "nope.png" in str(refused.value) and "perfect-small.png" in str(refused.value)
